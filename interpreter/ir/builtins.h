// The builtin functions' signatures: name, arity, whether they change the game, result type and
// a line of documentation. The one table the checker (names, arity, purity, types) and the
// evaluator (which looks up each one's implementation by the same index, eval/builtins.cpp)
// share, so that neither has to include the other. It says nothing of what a builtin does.
#pragma once

#include <string_view>

#include "ir/program.h"

namespace polemos::ir {

struct BuiltinSig {
  const char* name;
  int minArgs;
  int maxArgs;
  bool effect;      // changes the game state (refused in pure functions, guards, quantities)
  TypeKind result;  // Any when it depends on the arguments
  TypeKind elem;    // List results: the element type
  const char* doc;
};

// -1 when there is no builtin of that name.
int findBuiltin(std::string_view name);
const BuiltinSig& builtin(int index);
int builtinCount();

}  // namespace polemos::ir
