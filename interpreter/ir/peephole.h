// A peephole pass over compiled code: fewer instructions run for the same effect. It never moves
// an instruction and never changes what any instruction does; it only lets one instruction do the
// work of the one after it too (and skip it), or sends a jump straight to where the jump it lands
// on would send it. Code it has not seen runs as well as code it has: every instruction it leaves
// in place still does what it did, so a jump into the middle of a pair is still right.
//
// What it does (the evaluator, eval/interpreter.cpp, runs the fused forms):
// - `Load a; Member n`  -> `LoadMember a n` at the first, which runs both and skips the second;
// - `Load a; Load b`    -> `LoadLoad a b`, the same;
// - an `and` (AndJump) whose jump lands on another `and` jumps where that one would (the value
//   stays false all the way), and the same for `or`;
// - an `and` whose jump lands on a `JumpIfFalse` (an `if` or `while` testing it) becomes a
//   `JumpIfFalse` to that one's target, marked so that a non-boolean value is still reported as
//   an operand of `and` (kAndOperand).
// A fused instruction charges the run's step budget for each instruction it stands for; a jump
// sent past others saves their steps (the budget bounds work, and less work is done).
//
// It knows nothing of rules, types or the game.
#pragma once

#include "ir/program.h"

namespace polemos::ir {

// Rewrites one function's code in place (same length, same places).
void peephole(Function& f);
// Every function of the program.
void peephole(Program& p);

}  // namespace polemos::ir
