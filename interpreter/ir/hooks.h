// The hook functions a ruleset may declare for the hex builtins (movement, line of sight, zones
// of control, facing): their names, the parameter lists each may have, and what they give. The
// evaluator finds a hook by its exact name (eval/builtins_hex); the checker holds a declared hook
// to this contract and reports a function whose name is one letter or two from a hook's and that
// nothing calls (a misspelt hook would otherwise be silently ignored). It says nothing of what a
// hook means to a rule (docs/language.md).
#pragma once

#include <string_view>
#include <vector>

#include "ir/program.h"

namespace polemos::ir {

struct HookSig {
  const char* name;
  // Each form's parameter kinds (a hook may have more than one form: move_cost with or without
  // the mover's facing).
  std::vector<std::vector<TypeKind>> forms;
  TypeKind result;  // Int, Bool or List (move_directions: a list of directions)
  bool optional;    // the result may be none (move_cost: none is prohibited)
  const char* doc;
};

const std::vector<HookSig>& hooks();
// Null when no hook has that name.
const HookSig* findHook(std::string_view name);

}  // namespace polemos::ir
