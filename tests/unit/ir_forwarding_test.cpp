// Forwarding (ir/forwarding.h): which functions only give back another function's answer, which
// only read a member of their parameter (FieldRead), and which ask whether a parameter is in a
// list (Membership), on code written by hand (what is found, under which condition, and
// everything that makes a function neither), and on the shipped Standard rules, whose movement
// hooks are the case the analysis is for. (That the answers are the same is tested by the
// language tests hex/hex_forward_*, hex/hex_search_membership,
// overlay/overlay_replaces_forwarding_hook and expressions/lambda_field_*, and by every game of
// the suite.)
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "check/loader.h"
#include "diag/diagnostics.h"
#include "ir/forwarding.h"
#include "ir/peephole.h"
#include "ir/program.h"

using namespace polemos;
using namespace polemos::ir;

namespace {

// Names: 0 `side`, 1 `hex`, 2 `ma` (a class field), 3 `facing`.
constexpr int32_t kSide = 0, kHex = 1, kMa = 2, kFacing = 3;

Type of(TypeKind k) {
  Type t;
  t.kind = k;
  return t;
}

// Function 0 is the target g(side, hex, hex); function 1 the function under test, with the given
// parameters and code.
Program program(std::vector<TypeKind> params, std::vector<Instr> code) {
  Program p;
  p.names = {"side", "hex", "ma", "facing"};
  p.nameKinds = {BuiltinName::Side, BuiltinName::Hex, BuiltinName::Other, BuiltinName::Facing};
  Schema cls;
  cls.fields.push_back(FieldInfo{});
  cls.fields.back().nameId = kMa;
  cls.add(kMa, 0);
  p.classes.push_back(cls);
  Function g;
  g.name = "g";
  g.arity = 3;
  g.locals = 3;
  g.paramTypes = {of(TypeKind::Side), of(TypeKind::Hex), of(TypeKind::Hex)};
  g.code = {{Op::Const, 0, 0}, {Op::Return, 0, 0}};
  p.functions.push_back(g);
  Function f;
  f.name = "f";
  f.arity = static_cast<int32_t>(params.size());
  f.locals = f.arity;
  for (TypeKind k : params) f.paramTypes.push_back(of(k));
  f.code = std::move(code);
  p.functions.push_back(f);
  return p;
}

const std::vector<TypeKind> kUnitHexHex = {TypeKind::Unit, TypeKind::Hex, TypeKind::Hex};

// f(u, from, to) = g(u.side, from, to)
std::vector<Instr> plainForward() {
  return {{Op::Load, 0, 0}, {Op::Member, kSide, 0}, {Op::Load, 1, 0},
          {Op::Load, 2, 0}, {Op::Call, 0, 3},       {Op::Return, 0, 0}};
}

std::vector<Instr> join(std::vector<Instr> a, const std::vector<Instr>& b,
                        const std::vector<Instr>& c) {
  a.insert(a.end(), b.begin(), b.end());
  a.insert(a.end(), c.begin(), c.end());
  return a;
}

// f(u, from, to) = if from == u.hex and <unknown> then none else g(u.side, from, to), as the
// compiler lays it out (the `and` jumping to the `if`'s test).
std::vector<Instr> standardShape() {
  return {
      {Op::Load, 1, 0},          // 0 from
      {Op::Load, 0, 0},          // 1 u
      {Op::Member, kHex, 0},     // 2 .hex
      {Op::Eq, 0, 0},            // 3 ==
      {Op::AndJump, 8, 0},       // 4 and
      {Op::Load, 0, 0},          // 5 u
      {Op::Member, kMa, 0},      // 6 .ma (a class field: not known)
      {Op::Not, 0, 0},           // 7
      {Op::JumpIfFalse, 11, 0},  // 8 if
      {Op::Const, 0, 0},         // 9 none
      {Op::Jump, 17, 0},         // 10
      {Op::Load, 0, 0},          // 11 u
      {Op::Member, kSide, 0},    // 12 .side
      {Op::Load, 1, 0},          // 13 from
      {Op::Load, 2, 0},          // 14 to
      {Op::Call, 0, 3},          // 15 g(u.side, from, to)
      {Op::Jump, 17, 0},         // 16
      {Op::Return, 0, 0},        // 17
  };
}

void expectArgs(const Forward& fw, std::vector<std::pair<int32_t, bool>> want) {
  ASSERT_EQ(fw.args.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(fw.args[i].param, want[i].first) << i;
    EXPECT_EQ(fw.args[i].side, want[i].second) << i;
  }
}

TEST(Forwarding, ACallOfItsParametersReturnedAtOnceIsAForward) {
  Program p = program(kUnitHexHex, plainForward());
  auto fw = findForward(p, 1);
  ASSERT_TRUE(fw);
  EXPECT_EQ(fw->target, 0);
  EXPECT_EQ(fw->hexParam, -1);  // always
  expectArgs(*fw, {{0, true}, {1, false}, {2, false}});
}

TEST(Forwarding, FusedInstructionsAreFollowedLikeThePairsTheyStandFor) {
  Program p = program(kUnitHexHex, plainForward());
  peephole(p.functions[1]);
  ASSERT_EQ(p.functions[1].code[0].op, Op::LoadMember);
  auto fw = findForward(p, 1);
  ASSERT_TRUE(fw);
  expectArgs(*fw, {{0, true}, {1, false}, {2, false}});
}

TEST(Forwarding, OffTheUnitsOwnHexTheElseBranchIsTheForward) {
  for (bool fused : {false, true}) {
    Program p = program(kUnitHexHex, standardShape());
    if (fused) peephole(p.functions[1]);
    auto fw = findForward(p, 1);
    ASSERT_TRUE(fw) << fused;
    EXPECT_EQ(fw->target, 0);
    EXPECT_EQ(fw->hexParam, 1);
    EXPECT_EQ(fw->unitParam, 0);
    expectArgs(*fw, {{0, true}, {1, false}, {2, false}});
  }
}

TEST(Forwarding, TheHexSideOfTheComparisonMayComeFirst) {
  std::vector<Instr> code = standardShape();
  // u.hex == from
  code[0] = {Op::Load, 0, 0};
  code[1] = {Op::Member, kHex, 0};
  code[2] = {Op::Load, 1, 0};
  Program p = program(kUnitHexHex, code);
  auto fw = findForward(p, 1);
  ASSERT_TRUE(fw);
  EXPECT_EQ(fw->hexParam, 1);
}

TEST(Forwarding, NotEqualIsKnownTrue) {
  // if from != u.hex then g(u.side, from, to) else none
  Program p = program(kUnitHexHex, join({{Op::Load, 1, 0},
                                         {Op::Load, 0, 0},
                                         {Op::Member, kHex, 0},
                                         {Op::Ne, 0, 0},
                                         {Op::JumpIfFalse, 12, 0}},
                                        plainForward(),  // 5-10
                                        {{Op::Nop, 0, 0}, {Op::Const, 0, 0}, {Op::Return, 0, 0}}));
  auto fw = findForward(p, 1);
  ASSERT_TRUE(fw);
  EXPECT_EQ(fw->hexParam, 1);
  // The same test the other way round (`if from == u.hex then g(...)`) forwards never.
  p.functions[1].code[3].op = Op::Eq;
  EXPECT_FALSE(findForward(p, 1));
}

TEST(Forwarding, AnOrWithAKnownTrueOperandJumpsOverTheRest) {
  // if from != u.hex or <unknown> then g(...) else none
  Program p = program(kUnitHexHex, join({{Op::Load, 1, 0},
                                         {Op::Load, 0, 0},
                                         {Op::Member, kHex, 0},
                                         {Op::Ne, 0, 0},
                                         {Op::OrJump, 7, 0},
                                         {Op::Load, 0, 0},
                                         {Op::Member, kMa, 0},
                                         {Op::JumpIfFalse, 14, 0}},
                                        plainForward(),  // 8-13
                                        {{Op::Const, 0, 0}, {Op::Return, 0, 0}}));
  EXPECT_TRUE(findForward(p, 1));
  // `and` in its place needs the unknown operand: no forward.
  p.functions[1].code[4].op = Op::AndJump;
  EXPECT_FALSE(findForward(p, 1));
}

TEST(Forwarding, AnythingNotKnownMakesItNoForward) {
  auto refused = [](std::vector<TypeKind> params, std::vector<Instr> code, const char* why) {
    Program p = program(std::move(params), std::move(code));
    EXPECT_FALSE(findForward(p, 1)) << why;
  };
  // The answer used before it is returned: g(...) + 1.
  std::vector<Instr> c = plainForward();
  c.insert(c.begin() + 5, {{Op::Const, 1, 0}, {Op::Add, 0, 0}});
  refused(kUnitHexHex, c, "an answer worked on");
  // A value left under the arguments (nothing of the stack but them may be there).
  c = plainForward();
  c.insert(c.begin(), Instr{Op::Load, 2, 0});
  refused(kUnitHexHex, c, "a value under the arguments");
  // An argument that is not a parameter: a constant, a local, a class field, the unit's facing.
  c = plainForward();
  c[2] = {Op::Const, 0, 0};
  refused(kUnitHexHex, c, "a constant argument");
  c = plainForward();
  c[2] = {Op::Load, 3, 0};
  refused(kUnitHexHex, c, "a local");
  c = plainForward();
  c[1] = {Op::Member, kMa, 0};
  refused(kUnitHexHex, c, "a class field");
  c = plainForward();
  c[1] = {Op::Member, kFacing, 0};
  refused(kUnitHexHex, c, "the facing (a read the forward would not log)");
  // A member of a parameter that is not a unit.
  refused({TypeKind::Side, TypeKind::Hex, TypeKind::Hex}, plainForward(), "side of a side");
  // A comparison of two parameters: not known.
  std::vector<Instr> s = standardShape();
  s[1] = {Op::Load, 2, 0};
  s[2] = {Op::Nop, 0, 0};
  refused(kUnitHexHex, s, "from == to");
  // Two assumptions: `to != u.hex` then `from == u.hex`; the same assumption twice is one.
  {
    std::vector<Instr> two = join({{Op::Load, 2, 0},
                                   {Op::Load, 0, 0},
                                   {Op::Member, kHex, 0},
                                   {Op::Ne, 0, 0},
                                   {Op::JumpIfFalse, 16, 0},
                                   {Op::Load, 1, 0},
                                   {Op::Load, 0, 0},
                                   {Op::Member, kHex, 0},
                                   {Op::Eq, 0, 0},
                                   {Op::JumpIfTrue, 16, 0}},
                                  plainForward(),  // 10-15
                                  {{Op::Const, 0, 0}, {Op::Return, 0, 0}});
    refused(kUnitHexHex, two, "a second assumption");
    two[0] = {Op::Load, 1, 0};  // `from != u.hex` then `from == u.hex`
    Program p = program(kUnitHexHex, two);
    auto fw = findForward(p, 1);
    ASSERT_TRUE(fw) << "one assumption made twice";
    EXPECT_EQ(fw->hexParam, 1);
  }
  // The wrong number of arguments for the target, a procedure, a lambda forwarding.
  c = plainForward();
  c[4] = {Op::Call, 0, 2};
  c.erase(c.begin() + 3);
  refused(kUnitHexHex, c, "two arguments for three");
  {
    Program p = program(kUnitHexHex, plainForward());
    p.functions[0].kind = FuncKind::Procedure;
    EXPECT_FALSE(findForward(p, 1)) << "a procedure";
    p.functions[0].kind = FuncKind::Function;
    p.functions[1].kind = FuncKind::Lambda;
    EXPECT_FALSE(findForward(p, 1)) << "a lambda (captures)";
  }
  // A class that declares a field named `side` (read before the unit's own side).
  {
    Program p = program(kUnitHexHex, plainForward());
    p.classes[0].fields.push_back(FieldInfo{});
    p.classes[0].fields.back().nameId = kSide;
    p.classes[0].add(kSide, 1);
    EXPECT_FALSE(findForward(p, 1)) << "a class field shadows the side";
  }
  // Jumps that never reach a call, or out of the code.
  refused(kUnitHexHex, {{Op::Jump, 0, 0}}, "a jump to itself");
  refused(kUnitHexHex, {{Op::Jump, 7, 0}}, "a jump out of the code");
  refused(kUnitHexHex, {}, "no code");
  c = plainForward();
  c.pop_back();
  refused(kUnitHexHex, c, "a call not returned");
}

TEST(Forwarding, TheUnitsHexMayBeAnArgument) {
  std::vector<Instr> c = plainForward();
  c[1] = {Op::Member, kHex, 0};  // g(u.hex, from, to)
  Program p = program(kUnitHexHex, c);
  auto fw = findForward(p, 1);
  ASSERT_TRUE(fw);
  ASSERT_EQ(fw->args.size(), 3u);
  EXPECT_TRUE(fw->args[0].hex);
  EXPECT_FALSE(fw->args[0].side);
  EXPECT_EQ(fw->args[0].param, 0);
  EXPECT_TRUE(fw->calls.empty());
}

// A pure function of two parameters that gives a constant.
Function twoParameters(const char* name, TypeKind a, TypeKind b) {
  Function f;
  f.name = name;
  f.arity = 2;
  f.locals = 2;
  f.paramTypes = {of(a), of(b)};
  f.code = {{Op::Const, 0, 0}, {Op::Return, 0, 0}};
  return f;
}

// Function 2: h(side, hex), a pure function whose answer f may pass on.
Program withNested(std::vector<Instr> code) {
  Program p = program(kUnitHexHex, std::move(code));
  p.functions.push_back(twoParameters("h", TypeKind::Side, TypeKind::Hex));
  return p;
}

// f(u, from, to) = g(u.side, from, h(u.side, u.hex)): Deluxe's move_cost passes on whether the
// unit began in an enemy ZOC.
std::vector<Instr> nestedShape() {
  return {{Op::Load, 0, 0},       {Op::Member, kSide, 0}, {Op::Load, 1, 0},      {Op::Load, 0, 0},
          {Op::Member, kSide, 0}, {Op::Load, 0, 0},       {Op::Member, kHex, 0}, {Op::Call, 2, 2},
          {Op::Call, 0, 3},       {Op::Return, 0, 0}};
}

TEST(Forwarding, ANestedCallsAnswerMayBeAnArgument) {
  for (bool fused : {false, true}) {
    Program p = withNested(nestedShape());
    if (fused) peephole(p.functions[1]);
    auto fw = findForward(p, 1);
    ASSERT_TRUE(fw) << fused;
    EXPECT_EQ(fw->target, 0);
    ASSERT_EQ(fw->calls.size(), 1u);
    EXPECT_EQ(fw->calls[0].target, 2);
    ASSERT_EQ(fw->calls[0].args.size(), 2u);
    EXPECT_TRUE(fw->calls[0].args[0].side);
    EXPECT_TRUE(fw->calls[0].args[1].hex);
    ASSERT_EQ(fw->args.size(), 3u);
    EXPECT_TRUE(fw->args[0].side);
    EXPECT_EQ(fw->args[1].param, 1);
    EXPECT_EQ(fw->args[2].call, 0);
    findForwards(p);
    EXPECT_TRUE(p.functions[2].forwardTarget) << "asked again through the memo when mended";
  }
}

// f(u, from, to) = g(u.side, from, h(from, to)), h's code given: Deluxe's rotation_cost passes on
// the 8.4 price of a turn, turn_cost(from, to), which reads nothing of the game.
Program withPlainNested(std::vector<Instr> hCode) {
  Program p = withNested({{Op::Load, 0, 0},
                          {Op::Member, kSide, 0},
                          {Op::Load, 1, 0},
                          {Op::Load, 1, 0},
                          {Op::Load, 2, 0},
                          {Op::Call, 2, 2},
                          {Op::Call, 0, 3},
                          {Op::Return, 0, 0}});
  p.functions[2].paramTypes = {of(TypeKind::Hex), of(TypeKind::Hex)};
  p.functions[2].code = std::move(hCode);
  p.constants.push_back(Value::integer(6));
  return p;
}

TEST(Forwarding, ANestedCallOfParametersIsConstantWhenItsTargetReadsNothing) {
  auto constant = [](std::vector<Instr> hCode) {
    Program p = withPlainNested(std::move(hCode));
    auto fw = findForward(p, 1);
    EXPECT_TRUE(fw);
    if (!fw || fw->calls.size() != 1) return false;
    EXPECT_FALSE(fw->calls[0].ofUnit);
    EXPECT_EQ(fw->calls[0].args.size(), 2u);
    EXPECT_EQ(fw->args[2].call, 0);
    return fw->calls[0].constant;
  };
  // (to - from + 6) % 6 <= 1, through a local: arithmetic, comparisons, locals and jumps only.
  EXPECT_TRUE(constant({{Op::Load, 1, 0},
                        {Op::Load, 0, 0},
                        {Op::Sub, 0, 0},
                        {Op::Const, 0, 0},
                        {Op::Add, 0, 0},
                        {Op::Const, 0, 0},
                        {Op::Mod, 0, 0},
                        {Op::Store, 2, 0},
                        {Op::Load, 2, 0},
                        {Op::Const, 0, 0},
                        {Op::Le, 0, 0},
                        {Op::JumpIfFalse, 13, 0},
                        {Op::Const, 0, 0},
                        {Op::Return, 0, 0}}));
  // A member of an argument (a hex's terrain, a unit's field) is a read of the game.
  EXPECT_FALSE(constant({{Op::Load, 0, 0}, {Op::Member, kHex, 0}, {Op::Return, 0, 0}}));
  EXPECT_FALSE(constant({{Op::LoadMember, 0, kHex}, {Op::Member, kHex, 0}, {Op::Return, 0, 0}}));
  // So is any builtin (units_at, distance, ...), an option, an index into a list.
  EXPECT_FALSE(constant({{Op::Load, 0, 0}, {Op::CallBuiltin, 0, 1}, {Op::Return, 0, 0}}));
  EXPECT_FALSE(constant({{Op::LoadOption, 0, 0}, {Op::Return, 0, 0}}));
  EXPECT_FALSE(constant({{Op::Load, 0, 0}, {Op::Const, 0, 0}, {Op::Index, 1, 0}, {Op::Return}}));
  // A call of itself is not followed.
  EXPECT_FALSE(constant({{Op::Load, 0, 0}, {Op::Load, 1, 0}, {Op::Call, 2, 2}, {Op::Return}}));
  // A call of another function that reads nothing reads nothing; of one that reads, reads.
  {
    Program p = withPlainNested({{Op::Load, 0, 0}, {Op::Call, 3, 1}, {Op::Return, 0, 0}});
    Function k;
    k.name = "k";
    k.arity = 1;
    k.locals = 1;
    k.paramTypes = {of(TypeKind::Hex)};
    k.code = {{Op::Load, 0, 0}, {Op::Neg, 0, 0}, {Op::Return, 0, 0}};
    p.functions.push_back(k);
    auto fw = findForward(p, 1);
    ASSERT_TRUE(fw);
    EXPECT_TRUE(fw->calls[0].constant);
    p.functions[3].code = {{Op::Load, 0, 0}, {Op::Member, kHex, 0}, {Op::Return, 0, 0}};
    fw = findForward(p, 1);
    ASSERT_TRUE(fw);
    EXPECT_FALSE(fw->calls[0].constant);
  }
  // A unit's side or hex among the arguments: one answer a search (ofUnit) or neither, never
  // constant (the answer would be the unit's).
  {
    Program p = withNested(nestedShape());
    p.functions[2].code = {{Op::Const, 0, 0}, {Op::Return, 0, 0}};
    auto fw = findForward(p, 1);
    ASSERT_TRUE(fw);
    EXPECT_TRUE(fw->calls[0].ofUnit);
    EXPECT_FALSE(fw->calls[0].constant);
  }
}

TEST(Forwarding, ANestedAnswerUsedOtherwiseIsNoForward) {
  auto refused = [](std::vector<Instr> code, const char* why) {
    Program p = withNested(std::move(code));
    EXPECT_FALSE(findForward(p, 1)) << why;
  };
  // if h(u.side, from) then none else g(u.side, from, to): the answer decides, unknown.
  refused({{Op::Load, 0, 0},
           {Op::Member, kSide, 0},
           {Op::Load, 1, 0},
           {Op::Call, 2, 2},
           {Op::JumpIfFalse, 7, 0},
           {Op::Const, 0, 0},
           {Op::Return, 0, 0},
           {Op::Load, 0, 0},
           {Op::Member, kSide, 0},
           {Op::Load, 1, 0},
           {Op::Load, 2, 0},
           {Op::Call, 0, 3},
           {Op::Return, 0, 0}},
          "a nested answer tested");
  // g(u.side, from, h(u.side, h(u.side, from))): an answer as an argument of a nested call.
  refused({{Op::Load, 0, 0},
           {Op::Member, kSide, 0},
           {Op::Load, 1, 0},
           {Op::Load, 0, 0},
           {Op::Member, kSide, 0},
           {Op::Load, 0, 0},
           {Op::Member, kSide, 0},
           {Op::Load, 1, 0},
           {Op::Call, 2, 2},
           {Op::Call, 2, 2},
           {Op::Call, 0, 3},
           {Op::Return, 0, 0}},
          "a call of a call");
  std::vector<Instr> c;
  // h's answer dropped.
  c = nestedShape();
  c.insert(c.begin() + 8, Instr{Op::Pop, 0, 0});
  refused(c, "a nested answer dropped");
  // A nested call of a procedure.
  {
    Program p = withNested(nestedShape());
    p.functions[2].kind = FuncKind::Procedure;
    EXPECT_FALSE(findForward(p, 1)) << "a procedure nested";
  }
}

// Membership (ir::Membership): `h in g(...)` of a parameter and a call of parameters (or a unit
// parameter's side or hex), returned at once. Function 0 stands for the list's function here.
TEST(Membership, AParameterInTheListOfACallOfParametersIsOne) {
  // f(u, h) = h in g(u.side, u.hex, h)
  const std::vector<Instr> code = {{Op::Load, 1, 0}, {Op::Load, 0, 0},      {Op::Member, kSide, 0},
                                   {Op::Load, 0, 0}, {Op::Member, kHex, 0}, {Op::Load, 1, 0},
                                   {Op::Call, 0, 3}, {Op::In, 0, 0},        {Op::Return, 0, 0}};
  Program p = program({TypeKind::Unit, TypeKind::Hex}, code);
  auto m = findMembership(p, 1);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->element, 1);
  EXPECT_EQ(m->list.target, 0);
  ASSERT_EQ(m->list.args.size(), 3u);
  EXPECT_TRUE(m->list.args[0].side);
  EXPECT_TRUE(m->list.args[1].hex);
  EXPECT_EQ(m->list.args[2].param, 1);
  EXPECT_FALSE(m->list.args[2].side || m->list.args[2].hex);
  // The fused pairs, as the peephole pass leaves them (the second of each stays, skipped).
  const std::vector<Instr> fused = {{Op::Load, 1, 0},       {Op::LoadMember, 0, kSide},
                                    {Op::Member, kSide, 0}, {Op::LoadMember, 0, kHex},
                                    {Op::Member, kHex, 0},  {Op::Load, 1, 0},
                                    {Op::Call, 0, 3},       {Op::In, 0, 0},
                                    {Op::Return, 0, 0}};
  auto f = findMembership(program({TypeKind::Unit, TypeKind::Hex}, fused), 1);
  ASSERT_TRUE(f);
  ASSERT_EQ(f->list.args.size(), 3u);
  EXPECT_TRUE(f->list.args[0].side);
  EXPECT_TRUE(f->list.args[1].hex);
  findForwards(p);
  EXPECT_TRUE(p.functions[1].membership);
  EXPECT_TRUE(p.functions[0].forwardTarget);
}

TEST(Membership, AnythingElseIsNone) {
  auto none = [&](std::vector<Instr> code, const char* what) {
    Program p = program({TypeKind::Unit, TypeKind::Hex}, std::move(code));
    EXPECT_FALSE(findMembership(p, 1)) << what;
  };
  const Instr load0 = {Op::Load, 0, 0}, load1 = {Op::Load, 1, 0};
  const Instr side = {Op::Member, kSide, 0}, hexOf = {Op::Member, kHex, 0};
  const Instr call = {Op::Call, 0, 3}, in = {Op::In, 0, 0}, ret = {Op::Return, 0, 0};
  // g's arguments u.side, h, h; then the call.
  const std::vector<Instr> args = {load0, side, load1, load1, call};
  none(join({load1}, args, {{Op::NotIn, 0, 0}, ret}), "not in");
  none(join({load0, hexOf}, args, {in, ret}), "the element a unit's hex, not a parameter");
  none(join({load1}, args, {in, {Op::Not, 0, 0}, ret}), "the answer worked on");
  none(join({load1, load0, side}, {load1, call}, {in, ret}), "too few arguments for the call");
  none(join({load1, load1}, args, {in, ret}), "a value left under the element");
  none(join({load1, {Op::Const, 0, 0}}, {load1, load1, call}, {in, ret}), "a constant argument");
  none(join({load1, load1, side}, {load1, load1, call}, {in, ret}), "the side of a hex parameter");
  none(join({load1}, args, {in}), "no return");
}

TEST(Forwarding, TargetsAreMarked) {
  Program p = program(kUnitHexHex, plainForward());
  findForwards(p);
  EXPECT_TRUE(p.functions[1].forward);
  EXPECT_FALSE(p.functions[0].forward);
  EXPECT_TRUE(p.functions[0].forwardTarget);
  EXPECT_FALSE(p.functions[1].forwardTarget);
}

// A lambda of one parameter (no declared type) whose code is f(...) here, with function 2 the
// target m(unit, hex).
Program lambda(std::vector<Instr> code) {
  Program p = program({TypeKind::Any}, std::move(code));
  p.functions[1].kind = FuncKind::Lambda;
  p.functions.push_back(twoParameters("m", TypeKind::Unit, TypeKind::Hex));
  return p;
}

// `u -> m(u, u.hex)`, fused or not: the target, its arguments (the parameter, its hex) and the
// steps the lambda's own code counts (five either way).
TEST(LambdaForward, ACallOfItsParameterAndItsHexReturnedAtOnceIsOne) {
  for (bool fused : {false, true}) {
    Program p = lambda({{Op::Load, 0, 0},
                        {Op::Load, 0, 0},
                        {Op::Member, kHex, 0},
                        {Op::Call, 2, 2},
                        {Op::Return, 0, 0}});
    if (fused) peephole(p.functions[1]);
    auto fw = findLambdaForward(p, 1);
    ASSERT_TRUE(fw) << fused;
    EXPECT_EQ(fw->target, 2);
    ASSERT_EQ(fw->args.size(), 2u);
    EXPECT_EQ(fw->args[0].param, 0);
    EXPECT_FALSE(fw->args[0].side || fw->args[0].hex);
    EXPECT_TRUE(fw->args[1].hex);
    EXPECT_EQ(fw->steps, 5) << fused;
    EXPECT_FALSE(findForward(p, 1)) << "a hook's forward is a function's only";
  }
  // `u -> g(u.side, u.hex, u.hex)`, the call's answer reached through a jump and a no-op.
  Program p = lambda({{Op::Load, 0, 0},
                      {Op::Member, kSide, 0},
                      {Op::Load, 0, 0},
                      {Op::Member, kHex, 0},
                      {Op::Load, 0, 0},
                      {Op::Member, kHex, 0},
                      {Op::Call, 0, 3},
                      {Op::Jump, 8, 0},
                      {Op::Nop, 0, 0},
                      {Op::Return, 0, 0}});
  auto fw = findLambdaForward(p, 1);
  ASSERT_TRUE(fw);
  EXPECT_EQ(fw->target, 0);
  EXPECT_TRUE(fw->args[0].side);
  EXPECT_TRUE(fw->args[1].hex);
  EXPECT_TRUE(fw->args[2].hex);
  EXPECT_EQ(fw->steps, 10);
  findForwards(p);
  EXPECT_TRUE(p.functions[1].lambdaForward);
  EXPECT_FALSE(p.functions[0].forwardTarget) << "a lambda's target is not a search's";
}

TEST(LambdaForward, AnythingMoreIsNone) {
  auto none = [](Program p, const char* why) { EXPECT_FALSE(findLambdaForward(p, 1)) << why; };
  const std::vector<Instr> plain = {{Op::Load, 0, 0},
                                    {Op::Load, 0, 0},
                                    {Op::Member, kHex, 0},
                                    {Op::Call, 2, 2},
                                    {Op::Return, 0, 0}};
  {
    Program p = lambda(plain);
    p.functions[1].kind = FuncKind::Function;
    none(p, "a function");
  }
  {
    Program p = lambda(plain);
    p.functions[1].arity = 2;
    p.functions[1].locals = 2;
    none(p, "two parameters");
  }
  {
    std::vector<Instr> c = plain;
    c[0] = {Op::Load, 1, 0};  // a capture, after the parameter
    Program p = lambda(c);
    p.functions[1].locals = 2;
    none(p, "a capture passed on");
  }
  {
    std::vector<Instr> c = plain;
    c.insert(c.begin() + 4, {Op::Not, 0, 0});
    none(lambda(c), "the answer worked on");
  }
  {
    // `u -> m(u, k(u.hex))`: a nested call.
    Program p = lambda({{Op::Load, 0, 0},
                        {Op::Load, 0, 0},
                        {Op::Member, kHex, 0},
                        {Op::Call, 3, 1},
                        {Op::Call, 2, 2},
                        {Op::Return, 0, 0}});
    Function k;
    k.name = "k";
    k.arity = 1;
    k.locals = 1;
    k.paramTypes = {of(TypeKind::Hex)};
    k.code = {{Op::Load, 0, 0}, {Op::Return, 0, 0}};
    p.functions.push_back(k);
    none(p, "a nested call");
  }
  {
    // `u -> if u.hex == u.hex then m(u, u.hex) else none`: a condition not known.
    Program p = lambda({{Op::Load, 0, 0},
                        {Op::Member, kHex, 0},
                        {Op::Load, 0, 0},
                        {Op::Member, kHex, 0},
                        {Op::Eq, 0, 0},
                        {Op::JumpIfFalse, 11, 0},
                        {Op::Load, 0, 0},
                        {Op::Load, 0, 0},
                        {Op::Member, kHex, 0},
                        {Op::Call, 2, 2},
                        {Op::Return, 0, 0},
                        {Op::Const, 0, 0},
                        {Op::Return, 0, 0}});
    none(p, "a condition");
  }
  {
    Program p = lambda(plain);
    p.classes[0].fields.push_back(FieldInfo{});
    p.classes[0].fields.back().nameId = kHex;
    p.classes[0].add(kHex, 1);
    none(p, "a class field shadows the hex");
  }
  EXPECT_FALSE(findLambdaForward(lambda(plain), 9)) << "no such function";
}

// A lambda that only reads a member of its parameter (ir::FieldRead): `x -> x.hex`, `x -> not
// x.ma`, fused or not; anything more is not one.
TEST(FieldRead, AMemberOfTheParameterReturnedIsAFieldRead) {
  Program p =
      program({TypeKind::Unit}, {{Op::Load, 0, 0}, {Op::Member, kHex, 0}, {Op::Return, 0, 0}});
  p.functions[1].kind = FuncKind::Lambda;
  auto r = findFieldRead(p, 1);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->nameId, kHex);
  EXPECT_FALSE(r->negated);
  EXPECT_EQ(r->steps, 3);
  peephole(p.functions[1]);
  r = findFieldRead(p, 1);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->nameId, kHex);
  EXPECT_EQ(r->steps, 3);
}

TEST(FieldRead, ANegatedMemberIsOneWithItsNot) {
  Program p =
      program({TypeKind::Unit},
              {{Op::Load, 0, 0}, {Op::Member, kMa, 0}, {Op::Not, 0, 0}, {Op::Return, 0, 0}});
  peephole(p.functions[1]);
  auto r = findFieldRead(p, 1);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->nameId, kMa);
  EXPECT_TRUE(r->negated);
  EXPECT_EQ(r->steps, 4);
}

TEST(FieldRead, AnythingMoreIsNone) {
  auto none = [](std::vector<TypeKind> params, std::vector<Instr> code, const char* why) {
    Program p = program(std::move(params), std::move(code));
    EXPECT_FALSE(findFieldRead(p, 1)) << why;
  };
  none({TypeKind::Unit}, {{Op::Load, 0, 0}, {Op::Return, 0, 0}}, "the parameter itself");
  none({TypeKind::Unit},
       {{Op::Load, 0, 0}, {Op::Member, kMa, 0}, {Op::Member, kHex, 0}, {Op::Return, 0, 0}},
       "a member of a member");
  none({TypeKind::Unit},
       {{Op::Load, 0, 0},
        {Op::Member, kMa, 0},
        {Op::Not, 0, 0},
        {Op::Not, 0, 0},
        {Op::Return, 0, 0}},
       "two nots");
  none({TypeKind::Unit, TypeKind::Unit},
       {{Op::Load, 1, 0}, {Op::Member, kMa, 0}, {Op::Return, 0, 0}}, "two parameters");
  none({TypeKind::Unit}, {{Op::Load, 0, 0}, {Op::Member, kMa, 0}}, "no return");
  none({TypeKind::Unit},
       {{Op::Load, 0, 0},
        {Op::Member, kMa, 0},
        {Op::Const, 0, 0},
        {Op::Eq, 0, 0},
        {Op::Return, 0, 0}},
       "a comparison");
  Program p =
      program({TypeKind::Unit}, {{Op::Load, 0, 0}, {Op::Member, kMa, 0}, {Op::Return, 0, 0}});
  p.functions[1].kind = FuncKind::Procedure;
  EXPECT_FALSE(findFieldRead(p, 1)) << "a procedure";
  EXPECT_FALSE(findFieldRead(p, 7)) << "no such function";
}

// A shipped ruleset and scenario as compiled, and a function of it by name.
std::shared_ptr<const Program> shipped(const char* ruleset, const char* scenario) {
  static diag::SourceManager sm;
  diag::Diagnostics diags(sm);
  check::Loader loader(diags);
  auto loaded = loader.load(check::LoadRequest{ruleset, scenario, {}});
  EXPECT_TRUE(loaded.program) << diags.render(false);
  return loaded.program;
}
const Function& fn(const Program& p, const char* name) {
  return p.functions.at(static_cast<size_t>(p.findFunction(name)));
}

// The shipped Standard rules, as compiled: the hooks that make a movement search's steps forward
// to the side's functions (a change to the rules or the compiler that loses this is a slower
// search, not a wrong one: this test says so).
TEST(Forwarding, StandardsMovementHooksForwardToTheSidesFunctions) {
  auto loaded = shipped("standard", "chalons");
  ASSERT_TRUE(loaded);
  const Program& p = *loaded;
  const Function& cost = fn(p, "move_cost");
  ASSERT_TRUE(cost.forward);
  EXPECT_EQ(cost.forward->target, p.findFunction("side_move_cost"));
  EXPECT_EQ(cost.forward->hexParam, 1);  // from
  EXPECT_EQ(cost.forward->unitParam, 0);
  const Function& stops = fn(p, "stops_movement");
  ASSERT_TRUE(stops.forward);
  EXPECT_EQ(stops.forward->target, p.findFunction("in_enemy_zoc"));
  EXPECT_EQ(stops.forward->hexParam, -1);
  // 6.0: whether a hex is in the side's list of enemy zones; the list is marked as a target.
  const Function& inZoc = fn(p, "in_enemy_zoc");
  ASSERT_TRUE(inZoc.membership);
  EXPECT_EQ(inZoc.membership->element, 1);
  EXPECT_EQ(inZoc.membership->list.target, p.findFunction("enemy_zoc"));
  ASSERT_EQ(inZoc.membership->list.args.size(), 1u);
  EXPECT_EQ(inZoc.membership->list.args[0].param, 0);
  EXPECT_TRUE(fn(p, "enemy_zoc").forwardTarget);
  // may_not_leave does more than call another function.
  EXPECT_FALSE(fn(p, "may_not_leave").forward);
  // 5.32's end condition, asked at every decision of a movement phase: `all(units(s), u ->
  // may_end_in(u, u.hex))`, its lambda answered by may_end_in directly.
  int forwarded = 0;
  for (const Function& f : p.functions)
    if (f.lambdaForward && f.lambdaForward->target == p.findFunction("may_end_in")) ++forwarded;
  EXPECT_GE(forwarded, 1);
}

// Deluxe's searches with facing: a turn away from the unit's own hex is priced per side (8.4,
// 8.8.1), stopping in an enemy ZOC is the side's too, and a step is the side's price for a unit
// that began in an enemy ZOC or not (8.8.2).
TEST(Forwarding, DeluxesMovementHooksForwardToTheSidesFunctions) {
  auto loaded = shipped("deluxe", "phalanx");
  ASSERT_TRUE(loaded);
  const Program& p = *loaded;
  const Function& rotate = fn(p, "rotation_cost");
  ASSERT_TRUE(rotate.forward);
  EXPECT_EQ(rotate.forward->target, p.findFunction("side_rotation_cost"));
  EXPECT_EQ(rotate.forward->hexParam, 1);  // at
  EXPECT_EQ(rotate.forward->unitParam, 0);
  ASSERT_EQ(rotate.forward->args.size(), 3u);
  EXPECT_TRUE(rotate.forward->args[0].side);
  EXPECT_EQ(rotate.forward->args[2].call, 0);  // the turn's 8.4 price
  ASSERT_EQ(rotate.forward->calls.size(), 1u);
  EXPECT_EQ(rotate.forward->calls[0].target, p.findFunction("turn_cost"));
  EXPECT_TRUE(rotate.forward->calls[0].constant);
  const Function& stops = fn(p, "stops_movement");
  ASSERT_TRUE(stops.forward);
  EXPECT_EQ(stops.forward->target, p.findFunction("in_ezoc"));
  const Function& cost = fn(p, "move_cost");
  ASSERT_TRUE(cost.forward);
  EXPECT_EQ(cost.forward->target, p.findFunction("side_move_cost"));
  ASSERT_EQ(cost.forward->calls.size(), 1u);  // whether the unit began in an enemy ZOC (8.8.2)
  EXPECT_EQ(cost.forward->calls[0].target, p.findFunction("in_ezoc"));
  EXPECT_EQ(cost.forward->hexParam, -1);
}

}  // namespace
