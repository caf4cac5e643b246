// analysis/compare: a situation set up again under other rules. Compared with its own rules a
// situation gives exactly its own odds; what a target lacks is listed, never dropped in silence;
// the game compared is never changed.
#include "analysis/compare.h"

#include <gtest/gtest.h>

#include "check/loader.h"
#include "diag/diagnostics.h"
#include "engine/reading.h"
#include "engine/save.h"
#include "engine/setup.h"

namespace polemos {
namespace {

namespace edit = engine::edit;

// A Standard sandbox: blue infantry at 0505 and 0606 against red at 0506, the blue combat phase.
std::unique_ptr<engine::Session> attackSituation() {
  diag::SourceManager sources;
  diag::Diagnostics diags(sources);
  auto p = check::Loader(diags).load(check::LoadRequest{"standard", "", {}}).program;
  if (!p) return nullptr;
  std::string why;
  auto s =
      engine::openSandbox(*p, check::SandboxSpec{1, 12, 1, 10, {}}, engine::SessionConfig{}, why);
  if (!s) return nullptr;
  const auto& P = s->program();
  int32_t inf = engine::findUnitType(P, "inf");
  for (auto [side, hex, id] : {std::tuple{"blue", "0505", "a"}, std::tuple{"blue", "0606", "b"},
                               std::tuple{"red", "0506", "d"}})
    if (engine::applyEdit(
            *s, edit::Place{engine::findSide(P, side), inf, s->state().map.parse(hex), -1, id, {}})
            .kind != engine::Outcome::Ok)
      return nullptr;
  if (engine::gotoPhase(*s, engine::findPhase(P, "combat"), engine::findSide(P, "blue"), false,
                        nullptr)
          .kind != engine::Outcome::Ok)
    return nullptr;
  return s;
}

analysis::CompareRequest attack(std::vector<std::string> targets) {
  analysis::CompareRequest r;
  r.targets = std::move(targets);
  r.question = {"attack", "0506"};
  return r;
}

TEST(Compare, ASituationUnderItsOwnRulesHasItsOwnOdds) {
  auto s = attackSituation();
  ASSERT_TRUE(s);
  std::string before = engine::saveSession(*s);
  auto r =
      analysis::compareOdds(*s, engine::GameOrigin{"standard", "", {}, {}}, attack({"standard"}));
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(r.columns.size(), 2u);
  EXPECT_EQ(r.columns[0].problem, "");
  EXPECT_EQ(r.columns[1].problem, "");
  EXPECT_FALSE(r.columns[0].p.empty());
  EXPECT_EQ(r.columns[0].p, r.columns[1].p);
  EXPECT_EQ(r.columns[0].beforeRoll, r.columns[1].beforeRoll);
  long double total = 0;
  for (const auto& [result, p] : r.columns[0].p) total += p;
  EXPECT_NEAR(static_cast<double>(total), 1.0, 1e-9);
  EXPECT_EQ(engine::saveSession(*s), before);
}

TEST(Compare, WhatATargetLacksIsListed) {
  auto s = attackSituation();
  ASSERT_TRUE(s);
  const auto& P = s->program();
  // A hexside feature only Standard has, and a side field set away from its default.
  const auto& m = s->state().map;
  int32_t feature = -1;
  for (size_t f = 0; f < P.features.size(); ++f)
    if (P.features[f].name == "stream") feature = static_cast<int32_t>(f);
  ASSERT_GE(feature, 0);
  ASSERT_EQ(engine::applyEdit(*s, edit::Hexside{m.parse("0505"), m.parse("0506"), feature}).kind,
            engine::Outcome::Ok);
  auto r =
      analysis::compareOdds(*s, engine::GameOrigin{"standard", "", {}, {}}, attack({"deluxe"}));
  ASSERT_EQ(r.columns.size(), 2u);
  // Deluxe has no combat phase of that name: the comparison says so rather than guessing.
  EXPECT_NE(r.columns[1].problem.find("goto combat blue --first"), std::string::npos)
      << r.columns[1].problem;
  EXPECT_TRUE(r.columns[1].p.empty());
  // Its hexsides have no stream: left out, and said with the hexside.
  EXPECT_EQ(r.columns[1].droppedSides.rfind("`hexside 0505 0506 stream`: error: unknown hexside "
                                            "kind 'stream'",
                                            0),
            0u)
      << r.columns[1].droppedSides;
}

TEST(Compare, ATargetThatDoesNotLoadIsSaid) {
  diag::SourceManager sources;
  diag::Diagnostics diags(sources);
  auto p = check::Loader(diags).load(check::LoadRequest{"standard", "chalons", {}}).program;
  ASSERT_TRUE(p);
  engine::Session s(p, engine::SessionConfig{});
  ASSERT_EQ(s.start().kind, engine::Outcome::Ok);
  auto r = analysis::compareOdds(s, engine::GameOrigin{"standard", "chalons", {}, {}},
                                 attack({"nosuchruleset"}));
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(r.columns.size(), 2u);
  EXPECT_EQ(r.columns[1].problem.rfind("does not load: ", 0), 0u) << r.columns[1].problem;
}

}  // namespace
}  // namespace polemos
