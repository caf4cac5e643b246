// Completion that knows what each argument takes, and `legal` summarised at a terminal. After an
// action and its arguments so far, the next words of the legal options (the hexes a unit can
// reach, not every hex); after `pick` the options' words; units, sides and hexes after the
// commands that look at them; file names after `load` and `save`; command names first.
#include <gtest/gtest.h>

#include <algorithm>

#include "repl/repl.h"

using namespace polemos;

namespace {

bool has(const std::vector<std::string>& v, const std::string& w) {
  return std::find(v.begin(), v.end(), w) != v.end();
}

repl::Repl chalons() {
  repl::ReplOptions o;
  o.ruleset = "standard";
  o.scenario = "chalons";
  return repl::Repl(o);
}

TEST(ReplCompletion, AnActionsArgumentsAreItsLegalOptions) {
  repl::Repl r = chalons();
  std::string out;
  ASSERT_TRUE(r.start(out)) << out;
  auto units = r.completions("move ", "r4");
  EXPECT_TRUE(has(units, "r43")) << units.size();
  EXPECT_FALSE(has(units, "h1"));  // a Hunnic unit does not move in the Roman phase (§5.11)
  auto hexes = r.completions("move r43 ", "262");
  EXPECT_TRUE(has(hexes, "2621"));                           // 4 MP away: within its allowance
  EXPECT_FALSE(has(hexes, "2620"));                          // 5 MP: beyond it (§5.15)
  EXPECT_FALSE(has(hexes, "2625"));                          // where it stands
  EXPECT_TRUE(r.completions("move r43 2621 ", "").empty());  // nothing after the last argument
}

TEST(ReplCompletion, PickTakesTheOptionsWords) {
  repl::Repl r = chalons();
  std::string out;
  ASSERT_TRUE(r.start(out)) << out;
  auto first = r.completions("pick ", "");
  EXPECT_TRUE(has(first, "move"));
  EXPECT_TRUE(has(first, "end"));
  EXPECT_TRUE(has(r.completions("pick move ", "r4"), "r43"));
}

TEST(ReplCompletion, CommandsUnitsSidesAndHexes) {
  repl::Repl r = chalons();
  std::string out;
  ASSERT_TRUE(r.start(out)) << out;
  EXPECT_TRUE(has(r.completions("", "rea"), "reach"));
  EXPECT_TRUE(has(r.completions("show ", "rom"), "roman"));
  EXPECT_TRUE(has(r.completions("show ", "r4"), "r43"));
  EXPECT_TRUE(has(r.completions("map ", "262"), "2621"));
  EXPECT_TRUE(has(r.completions("units ", "hu"), "hunnic"));
  EXPECT_FALSE(has(r.completions("units ", "r4"), "r43"));  // units takes a side
}

TEST(ReplCompletion, FileNamesAfterLoadAndSave) {
  repl::Repl r = chalons();
  std::string out;
  ASSERT_TRUE(r.start(out)) << out;
  auto files = r.completions("load ", std::string(POLEMOS_TEST_DIR) + "/golden/du");
  EXPECT_TRUE(has(files, std::string(POLEMOS_TEST_DIR) + "/golden/duel.pol")) << files.size();
  EXPECT_TRUE(r.completions("save ", std::string(POLEMOS_TEST_DIR) + "/golden/zz_none").empty());
}

}  // namespace

namespace {

// `legal` at a terminal (a width known) summarises more options than a screen holds by action and
// unit; `legal --all` and `legal UNIT` number them; a script (no width) lists them all.
TEST(ReplLegal, ALongListIsSummarisedAtATerminal) {
  repl::Repl r = chalons();
  std::string out;
  ASSERT_TRUE(r.start(out)) << out;
  std::string script;
  r.execute("legal", script);
  r.setWidth(100);
  std::string summary, all, one;
  r.execute("legal", summary);
  r.execute("legal --all", all);
  r.execute("legal r43", one);
  EXPECT_NE(summary.find("move r43: 30 options (`legal r43`)"), std::string::npos) << summary;
  EXPECT_NE(summary.find("options in all: `legal --all` numbers every one"), std::string::npos);
  EXPECT_LT(summary.size(), script.size() / 10);
  EXPECT_EQ(all, script);
  EXPECT_NE(one.find(". move r43 2621"), std::string::npos) << one;
  std::string bad;
  r.execute("legal r43 r44", bad);
  EXPECT_EQ(bad.rfind("error: legal takes", 0), 0u) << bad;
}

}  // namespace
