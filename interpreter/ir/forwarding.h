// Forwarding: which functions do nothing but give back another function's answer for arguments
// made of their own parameters (ir::Forward, in ir/program.h), so that a caller may call that
// other function directly. Standard's movement hooks are the case in point:
//
//   function stops_movement(u: unit, h: hex): bool = in_enemy_zoc(u.side, h)
//   function move_cost(u: unit, from: hex, to: hex): int? =
//     if from == u.hex and ... then none else side_move_cost(u.side, from, to)
//
// the first always, the second whenever `from` is not the mover's own hex; a movement search
// calls them hundreds of times, and the targets' answers are shared by every unit of a side
// (eval/builtins_hex.cpp calls the target, through the memo, where the hook's own code would
// have called it). The answer is the same either way: the target is called with the same
// arguments the hook's code would have passed it.
//
// It is found by following the compiled code from its first instruction with what is known of
// each value on the stack: a parameter, a unit parameter's side or hex (a unit's own properties,
// which no class field may shadow), a truth value known under the assumption that one hex
// parameter is not one unit parameter's hex (`from == u.hex` is then false, `from != u.hex`
// true), or the answer of a nested call. A jump on a known truth value is followed; a call of a
// pure function with every argument known, its answer returned at once, is the forward; a call
// of a pure function whose arguments are known without a call, its answer not returned at once,
// is a nested call (Forward::calls), whose answer may only be an argument of the forward
// (Deluxe: `move_cost(u, from, to, facing) = side_move_cost(u.side, from, to, facing,
// in_ezoc(u.side, u.hex))`). Anything else (another instruction, a local, a truth value not
// known, a nested answer tested or worked on, a second assumption) and the function is not a
// forward: it runs as it is. The step budget's count of the hook's own instructions is what
// a forwarded call saves (docs/language.md, what counts as a step).
//
// The same file finds the lambdas that only read a member of their parameter (`x -> not
// x.moved`: ir::FieldRead), which filter, map, any and the like may read without a call, and
// the lambdas of one parameter that forward (`u -> may_end_in(u, u.hex)`: no nested call, no
// condition; Function::lambdaForward), whose target those builtins may call in their place.
// A lambda's parameter has no declared type: the forward reads it as a unit, and the caller
// calls the lambda itself when the value is not one.
//
// It knows nothing of movement or of which functions are hooks.
#pragma once

#include <optional>

#include "ir/program.h"

namespace polemos::ir {

// Whether function `fn` of `p` forwards, and how.
std::optional<Forward> findForward(const Program& p, int32_t fn);
// Whether lambda `fn` of `p` forwards (see above): one parameter, no nested call, no condition.
std::optional<Forward> findLambdaForward(const Program& p, int32_t fn);
// Whether function `fn` of `p` (a function or lambda of one parameter, whatever it captures)
// only reads a member of its parameter, perhaps negated: its code is `Load 0; Member n;
// [Not;] Return` (or the fused `LoadMember`), nothing else.
std::optional<FieldRead> findFieldRead(const Program& p, int32_t fn);
// Whether function `fn` of `p` asks whether a parameter is in the list another function gives
// for arguments made of its parameters (ir::Membership): its code is the element and the list's
// arguments loaded (parameters, or a unit parameter's side or hex), the call, `in`, the return.
std::optional<Membership> findMembership(const Program& p, int32_t fn);
// Sets Function::forward, Function::forwardTarget, Function::fieldRead, Function::membership and
// Function::lambdaForward for every function of the program.
void findForwards(Program& p);

}  // namespace polemos::ir
