// Builtin functions: what the language offers beyond its syntax (list helpers, arithmetic helpers,
// table introspection, game-state queries and effects, hex geometry).
//
// Each builtin declares its arity, whether it has an effect on the game (effects are refused in
// pure functions, guards and quantities), and its result type for the checker. Builtins never do
// I/O: a ruleset cannot read a file, the clock or the network.
#pragma once

#include <span>
#include <string_view>

#include "ir/program.h"

namespace polemos::eval {

class Context;
using BuiltinFn = ir::Value (*)(Context& ctx, std::span<const ir::Value> args);

struct BuiltinInfo {
  const char* name;
  int minArgs;
  int maxArgs;
  bool effect;           // changes the game state
  ir::TypeKind result;   // Any when it depends on the arguments
  ir::TypeKind elem;     // List results: the element type
  const char* doc;
  BuiltinFn fn;
};

// -1 when there is no builtin of that name.
int findBuiltin(std::string_view name);
const BuiltinInfo& builtin(int index);
int builtinCount();

}  // namespace polemos::eval
