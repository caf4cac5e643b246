// The peephole pass (ir/peephole.h) on code written by hand: what it fuses and threads, what it
// leaves alone, and that it never moves or removes an instruction. (What the rewritten code
// does is tested by the language tests and every game of the suite, which run it.)
#include <gtest/gtest.h>

#include <vector>

#include "ir/peephole.h"
#include "ir/program.h"

using namespace polemos::ir;

namespace {

Function fn(std::vector<Instr> code) {
  Function f;
  f.code = std::move(code);
  return f;
}

bool same(const Instr& x, const Instr& y) {
  return x.op == y.op && x.a == y.a && x.b == y.b;
}

void expectCode(const Function& f, const std::vector<Instr>& want) {
  ASSERT_EQ(f.code.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_TRUE(same(f.code[i], want[i])) << "at " << i << ": op " << static_cast<int>(f.code[i].op)
                                          << " a " << f.code[i].a << " b " << f.code[i].b;
}

TEST(Peephole, LoadThenMemberBecomesLoadMemberAndKeepsTheMember) {
  Function f = fn({{Op::Load, 2, 0}, {Op::Member, 17, 0}, {Op::Return, 0, 0}});
  peephole(f);
  expectCode(f, {{Op::LoadMember, 2, 17}, {Op::Member, 17, 0}, {Op::Return, 0, 0}});
}

TEST(Peephole, TwoLoadsBecomeLoadLoadAndKeepTheSecond) {
  Function f = fn({{Op::Load, 0, 0}, {Op::Load, 3, 0}, {Op::Add, 0, 0}, {Op::Return, 0, 0}});
  peephole(f);
  expectCode(f, {{Op::LoadLoad, 0, 3}, {Op::Load, 3, 0}, {Op::Add, 0, 0}, {Op::Return, 0, 0}});
}

TEST(Peephole, ALoadBeforeAFieldReadIsLeftForTheFieldRead) {
  // Load a; Load b; Member n: b's field read is fused; a stays a plain load (the instruction
  // after it is no longer a plain Load).
  Function f = fn({{Op::Load, 0, 0}, {Op::Load, 1, 0}, {Op::Member, 5, 0}, {Op::Return, 0, 0}});
  peephole(f);
  expectCode(f, {{Op::Load, 0, 0}, {Op::LoadMember, 1, 5}, {Op::Member, 5, 0}, {Op::Return, 0, 0}});
}

TEST(Peephole, ThreeLoadsFuseEachWithTheNext) {
  // A jump to the second load runs the second and third as a pair.
  Function f = fn({{Op::Load, 0, 0}, {Op::Load, 1, 0}, {Op::Load, 2, 0}, {Op::Return, 0, 0}});
  peephole(f);
  expectCode(f, {{Op::LoadLoad, 0, 1}, {Op::LoadLoad, 1, 2}, {Op::Load, 2, 0}, {Op::Return, 0, 0}});
}

TEST(Peephole, AnAndLandingOnAnAndJumpsWhereThatOneWould) {
  // a and (b and c) compiled as a chain: 0 AndJump->2, 2 AndJump->4.
  Function f = fn({{Op::AndJump, 2, 0},
                   {Op::Load, 1, 0},
                   {Op::AndJump, 4, 0},
                   {Op::Load, 2, 0},
                   {Op::Return, 0, 0}});
  peephole(f);
  EXPECT_TRUE(same(f.code[0], {Op::AndJump, 4, 0}));
  EXPECT_TRUE(same(f.code[2], {Op::AndJump, 4, 0}));
}

TEST(Peephole, AnOrLandingOnAnOrJumpsWhereThatOneWould) {
  Function f = fn({{Op::OrJump, 2, 0}, {Op::Const, 0, 0}, {Op::OrJump, 3, 0}, {Op::Return, 0, 0}});
  peephole(f);
  EXPECT_TRUE(same(f.code[0], {Op::OrJump, 3, 0}));
}

TEST(Peephole, AnAndAndAnOrAreNotThreadedIntoEachOther) {
  // An `and` that is false does not make the `or` it lands on jump.
  Function f = fn({{Op::AndJump, 2, 0}, {Op::Const, 0, 0}, {Op::OrJump, 3, 0}, {Op::Return, 0, 0}});
  peephole(f);
  EXPECT_TRUE(same(f.code[0], {Op::AndJump, 2, 0}));
}

TEST(Peephole, AnAndTestedByAnIfBecomesOneTestThatNamesTheAnd) {
  // if a and b { ... }: 0 Load a, 1 AndJump->3, 2 Load b, 3 JumpIfFalse->6, ...
  Function f = fn({{Op::Load, 0, 0},
                   {Op::AndJump, 3, 0},
                   {Op::Load, 1, 0},
                   {Op::JumpIfFalse, 6, 0},
                   {Op::Const, 0, 0},
                   {Op::Pop, 0, 0},
                   {Op::Return, 0, 0}});
  peephole(f);
  EXPECT_TRUE(same(f.code[1], {Op::JumpIfFalse, 6, kAndOperand}));
  EXPECT_TRUE(same(f.code[3], {Op::JumpIfFalse, 6, 0}));  // the `if`'s own test is unchanged
}

TEST(Peephole, AChainOfAndsTestedByAnIfJumpsStraightOut) {
  Function f = fn({{Op::AndJump, 2, 0},
                   {Op::Load, 1, 0},
                   {Op::AndJump, 4, 0},
                   {Op::Load, 2, 0},
                   {Op::JumpIfFalse, 7, 0},
                   {Op::Const, 0, 0},
                   {Op::Pop, 0, 0},
                   {Op::Return, 0, 0}});
  peephole(f);
  EXPECT_TRUE(same(f.code[0], {Op::JumpIfFalse, 7, kAndOperand}));
  EXPECT_TRUE(same(f.code[2], {Op::JumpIfFalse, 7, kAndOperand}));
}

TEST(Peephole, AnOrTestedByAnIfIsLeftAsItIs) {
  // A true `or` lands on the test, which pops it and goes on: there is no jump to take.
  Function f = fn({{Op::OrJump, 2, 0},
                   {Op::Load, 1, 0},
                   {Op::JumpIfFalse, 4, 0},
                   {Op::Const, 0, 0},
                   {Op::Return, 0, 0}});
  peephole(f);
  EXPECT_TRUE(same(f.code[0], {Op::OrJump, 2, 0}));
}

TEST(Peephole, ACycleOfJumpsOrAJumpOutOfTheCodeIsLeftAlone) {
  // Compiled code has neither; a pass over such code still ends, and changes no target it
  // cannot follow.
  Function cyc = fn({{Op::AndJump, 1, 0}, {Op::AndJump, 0, 0}, {Op::Return, 0, 0}});
  peephole(cyc);
  EXPECT_EQ(cyc.code.size(), 3u);
  Function out = fn({{Op::AndJump, 9, 0}, {Op::Return, 0, 0}});
  peephole(out);
  EXPECT_TRUE(same(out.code[0], {Op::AndJump, 9, 0}));
}

TEST(Peephole, OtherCodeIsUnchangedAndASecondPassChangesNothing) {
  std::vector<Instr> code = {{Op::Const, 0, 0}, {Op::Store, 1, 0}, {Op::Load, 1, 0},
                             {Op::Neg, 0, 0},   {Op::Load, 1, 0},  {Op::Member, 4, 0},
                             {Op::Load, 2, 0},  {Op::Load, 3, 0},  {Op::Call, 7, 2},
                             {Op::Return, 0, 0}};
  Function f = fn(code);
  peephole(f);
  for (size_t i : {0u, 1u, 2u, 3u, 5u, 7u, 8u, 9u}) EXPECT_TRUE(same(f.code[i], code[i])) << i;
  Function again = f;
  peephole(again);
  for (size_t i = 0; i < f.code.size(); ++i) EXPECT_TRUE(same(again.code[i], f.code[i])) << i;
}

}  // namespace
