// The peephole pass (ir/peephole.h says what it does and why it is safe).
#include "ir/peephole.h"

namespace polemos::ir {

void peephole(Function& f) {
  std::vector<Instr>& code = f.code;
  const int32_t n = static_cast<int32_t>(code.size());
  auto valid = [&](int32_t t) { return t >= 0 && t < n; };
  // Jumps first (they look at the instructions they land on as they were compiled or as this
  // loop left them, which are equivalent).
  for (int32_t i = 0; i < n; ++i) {
    Instr& in = code[i];
    if (in.op != Op::AndJump && in.op != Op::OrJump) continue;
    int32_t t = in.a;
    // A chain of the same operator: the value (false for `and`, true for `or`) is kept all the
    // way to the last one's target. Bounded: compiled code has no cycle of these, but a chain is
    // never followed further than the code is long.
    for (int32_t hops = 0; valid(t) && code[t].op == in.op && hops < n; ++hops) t = code[t].a;
    if (!valid(t)) continue;
    if (in.op == Op::AndJump && code[t].op == Op::JumpIfFalse) {
      // It lands on a test that pops the false and jumps on: do both at once.
      in = Instr{Op::JumpIfFalse, code[t].a, kAndOperand};
    } else {
      in.a = t;
    }
  }
  // Then pairs of instructions: the first does both and skips the second, which stays in place.
  for (int32_t i = 0; i + 1 < n; ++i)
    if (code[i].op == Op::Load && code[i + 1].op == Op::Member)
      code[i] = Instr{Op::LoadMember, code[i].a, code[i + 1].a};
  for (int32_t i = 0; i + 1 < n; ++i)
    if (code[i].op == Op::Load && code[i + 1].op == Op::Load)
      code[i] = Instr{Op::LoadLoad, code[i].a, code[i + 1].a};
}

void peephole(Program& p) {
  for (Function& f : p.functions) peephole(f);
}

}  // namespace polemos::ir
