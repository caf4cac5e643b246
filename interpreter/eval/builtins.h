// Builtin functions: what the language offers beyond its syntax (list helpers, arithmetic helpers,
// table introspection, game-state queries and effects, hex geometry): their implementations. Their
// signatures are in ir/builtins.h.
//
// Each builtin declares its arity, whether it has an effect on the game (effects are refused in
// pure functions, guards and quantities), and its result type for the checker. Builtins never do
// I/O: a ruleset cannot read a file, the clock or the network.
#pragma once

#include <span>
#include <string_view>

#include "ir/builtins.h"
#include "ir/program.h"

namespace polemos::eval {

class Context;
using BuiltinFn = ir::Value (*)(Context& ctx, std::span<const ir::Value> args);

// The implementation of builtin `index` (ir::builtin(index) is its signature).
BuiltinFn builtinFn(int index);
// Whether every signature of ir/builtins has exactly one implementation here.
bool builtinsComplete();

}  // namespace polemos::eval
