// The lambdas a function makes again at each call (eval/memo.h, MemoCache::closureAt): the one
// made last at a place in the code is given again while its captured values are the same
// scalars, bit for bit; any other captured value makes a new one. These tests ask the same
// lambda with other captured values one after another, so that a closure given again for the
// wrong captures would give the first call's answer to the second.
#include <gtest/gtest.h>

#include <string>

#include "engine/session.h"
#include "temp_rules.h"

namespace polemos {
namespace {

constexpr const char* kRules = R"(
ruleset t {
  terrain open { }
  unit class C { state n: int = 0 ; state k: int = 0 ; state m: int = 0 }
  unit type inf: C { }
  // A side captured (a scalar: the closure may be given again).
  function others(s: side): int = len(filter(all_units(), x -> x.side != s))
  // A number captured, and two captured at one place.
  function above(k: int): int = len(filter(all_units(), x -> x.k > k))
  function between(lo: int, hi: int): int = len(filter(all_units(), x -> x.k > lo and x.k < hi))
  // A list captured (a payload: never given again, always made).
  function outside(l: list<unit>): int = len(filter(all_units(), x -> not (x in l)))
  sequence {
    let a1 = unit("a1")
    let b1 = unit("b1")
    let b2 = unit("b2")
    b1.k = 1
    b2.k = 2
    a1.n = others(a1.side)
    b1.n = others(b1.side)
    b2.n = others(a1.side)
    a1.k = 5
    a1.m = above(0) * 100 + above(1) * 10 + above(2)
    b1.m = between(0, 5) * 100 + between(1, 5) * 10 + between(0, 2)
    b2.m = outside([a1]) * 100 + outside([a1, b1]) * 10 + outside([a1])
  }
}
scenario s for t {
  map columns 1..2 rows 1..2 { default open }
  side a { }
  side b { }
  force a { a1 inf at 0101 }
  force b { b1 inf at 0102  b2 inf at 0201 }
}
)";

int64_t field(const engine::Session& s, size_t unit, const std::string& name) {
  const ir::Program& p = s.program();
  const eval::UnitState& u = s.state().units.at(unit);
  const int32_t slot = p.classes[u.cls].find(p.nameIds.at(name));
  return u.fields.at(static_cast<size_t>(slot)).i;
}

void expectAnswers(bool tracing) {
  test_helpers::TempRules r(kRules, "closure_reuse");
  ASSERT_TRUE(r.program);
  engine::SessionConfig config;
  config.tracing = tracing;
  engine::Session s(r.program, config);
  ASSERT_EQ(s.start().kind, engine::Outcome::Ok) << s.stop().message;
  // Units in the force's order: a1, b1, b2.
  EXPECT_EQ(field(s, 0, "n"), 2) << "others(a): b1 and b2";
  EXPECT_EQ(field(s, 1, "n"), 1) << "others(b): a1, not the closure of side a again";
  EXPECT_EQ(field(s, 2, "n"), 2) << "others(a) again: side a's closure";
  // k: a1 5, b1 1, b2 2.
  EXPECT_EQ(field(s, 0, "m"), 3 * 100 + 2 * 10 + 1) << "above(0), above(1), above(2)";
  EXPECT_EQ(field(s, 1, "m"), 2 * 100 + 1 * 10 + 1) << "between(0,5), (1,5), (0,2)";
  EXPECT_EQ(field(s, 2, "m"), 2 * 100 + 1 * 10 + 2) << "outside([a1]), ([a1,b1]), ([a1])";
}

TEST(ClosureReuse, ALambdaMadeAgainWithOtherCapturedValuesAnswersForThem) {
  expectAnswers(false);
}

TEST(ClosureReuse, TheSameAnswersWithATrace) {
  expectAnswers(true);
}

}  // namespace
}  // namespace polemos
