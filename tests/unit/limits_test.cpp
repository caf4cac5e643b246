// limits/limits.h: every limit named once; the map limit at its edge (a sandbox numbered up to it
// is made, one past it is refused). The other edges have tests of their own: the dice per roll
// (tests/lang/limits/limit_dice_per_roll_edge.pol, tests/errors/limit_dice_per_roll_over.pol), the
// call depth (tests/lang/limits/recursion_limit.pol), the step budget
// (tests/lang/limits/runaway_loop_budget.pol), nesting and file size (syntax_robustness_test.cpp).
#include "limits/limits.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "check/loader.h"
#include "check/sandbox.h"
#include "diag/diagnostics.h"

namespace polemos {
namespace {

TEST(Limits, EachIsNamedOnceWithItsReason) {
  std::set<std::string> names;
  for (const auto& l : limits::all()) {
    EXPECT_TRUE(names.insert(l.name).second) << l.name;
    EXPECT_GT(l.value, 0) << l.name;
    EXPECT_FALSE(std::string(l.what).empty()) << l.name;
  }
  EXPECT_EQ(limits::all().size(), 10u);
}

TEST(Limits, MapAtTheEdge) {
  diag::SourceManager sources;
  diag::Diagnostics diags(sources);
  check::Loader loader(diags);
  auto program = loader.load(check::LoadRequest{"standard", "", {}}).program;
  ASSERT_TRUE(program);
  std::string why;
  check::SandboxSpec edge{1, limits::kMaxMapSide, 1, 2};
  EXPECT_NE(check::sandboxProgram(*program, edge, why), nullptr) << why;
  check::SandboxSpec over{2, limits::kMaxMapSide, 1, 2};
  EXPECT_EQ(check::sandboxProgram(*program, over, why), nullptr);
  EXPECT_NE(why.find("numbered up to 200"), std::string::npos) << why;
  check::SandboxSpec wide{1, limits::kMaxMapSide + 1, 1, 2};
  EXPECT_EQ(check::sandboxProgram(*program, wide, why), nullptr);
}

}  // namespace
}  // namespace polemos
