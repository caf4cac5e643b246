// `polemos diff` below the command line: loading each side (tests/diff/), the set difference of
// two merged rulesets, the words and the order of the report, and the REPL's `diff` leaving the
// game exactly as it was.
#include "analysis/diff.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "check/loader.h"
#include "engine/save.h"
#include "repl/repl.h"

using namespace polemos;

namespace {

const std::string kDiffDir = std::string(POLEMOS_TEST_DIR) + "/diff";

struct Fixture {
  diag::SourceManager sources;
  diag::Diagnostics diags{sources};
  check::Loader loader{diags};
  Fixture() { loader.addSearchRoot(kDiffDir); }

  analysis::RulesDiff diff(const std::string& a, const std::string& b) {
    check::MergedRules ra, rb;
    EXPECT_TRUE(loader.loadForDiff(a, ra)) << diags.render();
    EXPECT_TRUE(loader.loadForDiff(b, rb)) << diags.render();
    return analysis::diffRules(ra, rb, sources);
  }
};

const analysis::DeclChange* find(const analysis::RulesDiff& d, const std::string& kind,
                                 const std::string& name) {
  for (const auto& c : d.changes)
    if (c.kind == kind && c.name == name) return &c;
  return nullptr;
}

using K = analysis::DeclChange;

TEST(Diff, EditionAgainstItsBase) {
  Fixture f;
  auto d = f.diff("base", "edition");
  const auto* woods = find(d, "terrain", "woods");
  ASSERT_NE(woods, nullptr);
  EXPECT_EQ(woods->change, K::Replaced);
  EXPECT_EQ(woods->detail, "cost 2 -> 3");
  EXPECT_EQ(woods->comment, "Woods cost 3 in this edition.");
  EXPECT_EQ(woods->newRules, std::vector<std::string>{"8.0"});
  EXPECT_NE(woods->oldWhere.find("base.pol:18"), std::string::npos) << woods->oldWhere;
  EXPECT_NE(woods->newWhere.find("edition.pol:7"), std::string::npos) << woods->newWhere;

  const auto* crt = find(d, "table", "crt");
  ASSERT_NE(crt, nullptr);
  EXPECT_EQ(crt->detail, "5-6 x 2:1: 1 -> 2");

  const auto* dotted = find(d, "modifier", "dotted_no_zoc");
  ASSERT_NE(dotted, nullptr);
  EXPECT_EQ(dotted->change, K::Removed);
  // The comment above the `remove`, first sentence only.
  EXPECT_EQ(dotted->comment, "No dotted units in this edition.");
  EXPECT_FALSE(dotted->newWhere.empty());

  const auto* veteran = find(d, "modifier", "veteran");
  ASSERT_NE(veteran, nullptr);
  EXPECT_EQ(veteran->change, K::Added);
  EXPECT_EQ(veteran->detail, "on defense: always: + 1");
  EXPECT_TRUE(veteran->oldWhere.empty());

  EXPECT_EQ(find(d, "option", "displacement")->detail, "true -> false");
  EXPECT_EQ(find(d, "levels", "")->detail, "basic < advanced -> basic < advanced < expert");
  EXPECT_EQ(find(d, "side state field", "rallied")->change, K::Added);
  EXPECT_EQ(find(d, "sequence", "")->detail, "new phase rally, phase movement changed");
  // Restated with another layout and comments: not a change.
  EXPECT_EQ(find(d, "modifier", "woods_defense"), nullptr);
  EXPECT_EQ(d.count(K::Replaced), 5u);
  EXPECT_EQ(d.count(K::Added), 3u);
  EXPECT_EQ(d.count(K::Removed), 1u);
}

TEST(Diff, ReversedOrderSwapsAddedAndRemoved) {
  Fixture f;
  auto forward = f.diff("base", "edition");
  auto back = f.diff("edition", "base");
  EXPECT_EQ(back.count(K::Added), forward.count(K::Removed));
  EXPECT_EQ(back.count(K::Removed), forward.count(K::Added));
  EXPECT_EQ(back.count(K::Replaced), forward.count(K::Replaced));
  EXPECT_EQ(find(back, "modifier", "veteran")->change, K::Removed);
  EXPECT_EQ(find(back, "modifier", "dotted_no_zoc")->change, K::Added);
  EXPECT_EQ(find(back, "terrain", "woods")->detail, "cost 3 -> 2");
}

TEST(Diff, HouseFileAgainstItsBase) {
  Fixture f;
  auto d = f.diff("base", kDiffDir + "/house.pol");
  ASSERT_EQ(d.changes.size(), 3u) << analysis::formatDiff(d, false);
  EXPECT_EQ(find(d, "modifier", "woods_defense")->detail,
            "when u.hex.terrain.defense == DD: * 2 -> * 3");
  EXPECT_EQ(find(d, "modifier", "woods_defense")->comment, "Woods triple the defence.");
  EXPECT_EQ(find(d, "unit type", "warband")->change, K::Removed);
  EXPECT_EQ(find(d, "const", "max_stack")->detail, "= 3");
  EXPECT_NE(d.to.find("house tough"), std::string::npos) << d.to;
}

TEST(Diff, OverlaysOnOverlaysCompareTheMergedRules) {
  Fixture f;
  // edition2 puts the woods back as they were in base and removes the veteran edition added.
  auto d = f.diff("base", "edition2");
  EXPECT_EQ(find(d, "terrain", "woods"), nullptr);
  EXPECT_EQ(find(d, "modifier", "veteran"), nullptr);
  EXPECT_EQ(find(d, "modifier", "dotted_no_zoc")->change, K::Removed);
  EXPECT_EQ(find(d, "const", "max_stack")->change, K::Added);
  auto step = f.diff("edition", "edition2");
  EXPECT_EQ(find(step, "terrain", "woods")->detail, "cost 3 -> 2");
  EXPECT_EQ(find(step, "modifier", "veteran")->change, K::Removed);
  EXPECT_EQ(step.changes.size(), 3u) << analysis::formatDiff(step, false);
}

TEST(Diff, UnrelatedRulesetsByKindAndName) {
  Fixture f;
  auto d = f.diff("base", "other");
  EXPECT_EQ(find(d, "option", "displacement"), nullptr);  // the same in both
  EXPECT_EQ(find(d, "terrain", "woods"), nullptr);
  EXPECT_EQ(find(d, "enum", "Effect")->detail, "member DT removed");
  EXPECT_EQ(find(d, "unit type", "legion")->detail, "strength 6 -> 5");
  EXPECT_EQ(find(d, "unit class", "Combat")->detail, "ma default 4 -> 5");
  EXPECT_EQ(find(d, "action", "move")->detail, "requirement §5.2 to.terrain.cost <= u.ma removed");
  EXPECT_EQ(find(d, "table", "crt")->change, K::Removed);
  EXPECT_EQ(find(d, "levels", "")->change, K::Removed);
}

TEST(Diff, SortedByRuleNumberThenName) {
  Fixture f;
  auto d = f.diff("base", "edition");
  std::vector<std::string> firsts;
  for (const auto& c : d.changes) {
    const auto& rules = c.change == K::Removed ? c.oldRules : c.newRules;
    firsts.push_back(rules.empty() ? "" : rules.front());
  }
  // Numbers compare as numbers: 7.81 before 8.0 before 11.4 before 16.2.
  std::vector<std::string> expected = {"1.2", "4.0",  "6.1",  "7.6", "7.81",
                                       "8.0", "11.4", "16.2", "16.2"};
  EXPECT_EQ(firsts, expected);
  EXPECT_EQ(d.changes[7].name, "change_facing");  // ties by name
  EXPECT_EQ(d.changes[8].name, "veteran");
}

TEST(Diff, TextAndJson) {
  Fixture f;
  auto d = f.diff("base", kDiffDir + "/house.pol");
  std::string text = analysis::formatDiff(d, false);
  EXPECT_NE(text.find("~ modifier woods_defense §7.41 replaced: Woods triple the defence. [when "
                      "u.hex.terrain.defense == DD: * 2 -> * 3]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("1 replaced, 1 added, 1 removed\n"), std::string::npos) << text;
  std::string json = analysis::formatDiff(d, true);
  EXPECT_EQ(std::count(json.begin(), json.end(), '\n'), 4);
  EXPECT_NE(json.find("{\"change\":\"removed\",\"kind\":\"unit "
                      "type\",\"name\":\"warband\",\"rules\":[\"2.4\"]"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"summary\":{"), std::string::npos);
}

TEST(Diff, NoDifferences) {
  Fixture f;
  auto d = f.diff("base", kDiffDir + "/rulesets/base/base.pol");
  EXPECT_TRUE(d.changes.empty());
  EXPECT_NE(analysis::formatDiff(d, false).find("no differences\n"), std::string::npos);
}

TEST(DiffErrors, UnknownRulesetName) {
  Fixture f;
  check::MergedRules r;
  EXPECT_FALSE(f.loader.loadForDiff("nosuch", r));
  std::string out = f.diags.render();
  EXPECT_NE(out.find("error: unknown ruleset 'nosuch'"), std::string::npos) << out;
  EXPECT_NE(out.find("known rulesets: "), std::string::npos) << out;
}

TEST(DiffErrors, BrokenFile) {
  Fixture f;
  check::MergedRules r;
  EXPECT_FALSE(f.loader.loadForDiff(kDiffDir + "/broken.pol", r));
  std::string out = f.diags.render();
  EXPECT_NE(out.find("broken.pol:3:13: error: "), std::string::npos) << out;
}

TEST(DiffErrors, MissingFileAndScenario) {
  Fixture f;
  check::MergedRules r;
  EXPECT_FALSE(f.loader.loadForDiff(kDiffDir + "/nosuch.pol", r));
  EXPECT_NE(f.diags.render().find("cannot read"), std::string::npos) << f.diags.render();
  f.diags.clear();
  EXPECT_FALSE(f.loader.loadForDiff(kDiffDir + "/scenario.pol", r));
  EXPECT_NE(f.diags.render().find("is a scenario: diff compares rulesets and house-rule files"),
            std::string::npos)
      << f.diags.render();
}

// The REPL's diff reads files of its own: the game, its history and its log stay as they were.
TEST(ReplDiff, LeavesTheGameUnchanged) {
  repl::ReplOptions o;
  o.ruleset = std::string(POLEMOS_TEST_DIR) + "/golden/duel.pol";
  o.scenario = o.ruleset;
  o.houses = {std::string(POLEMOS_TEST_DIR) + "/golden/duel_house.pol"};
  repl::Repl r(o);
  std::string out;
  ASSERT_TRUE(r.start(out)) << out;
  r.execute("dice 4", out);
  r.execute("strike r1", out);
  r.execute("pick 1", out);
  std::string before = engine::saveSession(*r.session());
  std::string statusBefore;
  r.execute("status", statusBefore);
  for (const std::string& cmd :
       {std::string("diff"), "diff " + o.ruleset, "diff " + o.houses[0],
        "diff " + o.ruleset + " " + o.houses[0], std::string("diff nosuch.pol")}) {
    out.clear();
    EXPECT_TRUE(r.execute(cmd, out));
    EXPECT_FALSE(out.empty()) << cmd;
    EXPECT_EQ(engine::saveSession(*r.session()), before) << cmd;
  }
  std::string statusAfter;
  r.execute("status", statusAfter);
  EXPECT_EQ(statusAfter, statusBefore);
  // Undo still takes back the strike, the move before the diffs.
  out.clear();
  r.execute("undo", out);
  EXPECT_NE(engine::saveSession(*r.session()), before);
}

TEST(ReplDiff, HouseChangesAndNoHouse) {
  repl::ReplOptions o;
  o.ruleset = std::string(POLEMOS_TEST_DIR) + "/golden/duel.pol";
  o.scenario = o.ruleset;
  {
    repl::Repl r(o);
    std::string out;
    ASSERT_TRUE(r.start(out)) << out;
    out.clear();
    r.execute("diff", out);
    EXPECT_EQ(out.rfind("no house rules are in effect", 0), 0u) << out;
  }
  o.houses = {std::string(POLEMOS_TEST_DIR) + "/golden/duel_house.pol"};
  repl::Repl r(o);
  std::string out;
  ASSERT_TRUE(r.start(out)) << out;
  out.clear();
  r.execute("diff", out);
  EXPECT_NE(out.find("~ action strike"), std::string::npos) << out;
  EXPECT_NE(out.find("+ const max_hits"), std::string::npos) << out;
  EXPECT_NE(out.find("1 replaced, 1 added, 0 removed"), std::string::npos) << out;
}

}  // namespace
