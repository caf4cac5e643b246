// The generated coverage table (analysis/coverage_table): the status file's rows, ranges of rules,
// the columns generated from the citation index, and every way the check refuses a table that
// claims more than the tests show.
#include "analysis/coverage_table.h"

#include <gtest/gtest.h>

using namespace polemos;

namespace {

analysis::RuleIndex sampleIndex() {
  analysis::RuleIndex index;
  index.ruleset = "mini";
  index.sites["7.41"] = {{"rulesets/mini/combat.pol:10", "modifier woods"}};
  index.sites["7.42"] = {{"rulesets/mini/combat.pol:14", "function across"}};
  index.sites["7.5"] = {{"rulesets/mini/combat.pol:20", "action attack"}};
  index.sites["9.1"] = {{"rulesets/mini/other.pol:3", "procedure later"}};
  // Inherited from a base ruleset: its own table answers for it.
  index.sites["9.2"] = {{"rulesets/base/other.pol:3", "procedure inherited"}};
  index.tests["7.41"] = {{"tests/rules/mini/7_41.script", 1}};
  index.tests["7.5"] = {{"tests/rules/mini/7_5.script", 2}};
  return index;
}

std::vector<analysis::StatusRow> parse(const std::string& text,
                                       std::vector<std::string>& problems) {
  return analysis::parseStatus(text, "mini.status", problems);
}

TEST(CoverageTable, GeneratesTheColumnsFromTheIndex) {
  std::vector<std::string> problems;
  auto rows = parse(
      "# comment\n7.41-7.42 | implemented | terrain\n7.5 | partial: no forced attacks | attacks\n"
      "9.1 | not implemented: later | later\n",
      problems);
  ASSERT_TRUE(problems.empty());
  auto t = analysis::coverageTable(sampleIndex(), rows, "/nonexistent");
  EXPECT_TRUE(t.problems.empty()) << t.problems.front();
  EXPECT_NE(t.markdown.find("| 7.41-7.42 | terrain | implemented | combat.pol (modifier woods, "
                            "across) | rules/mini/7_41.script |"),
            std::string::npos)
      << t.markdown;
  EXPECT_NE(t.markdown.find("| 7.5 | attacks | partial: no forced attacks | combat.pol (attack) | "
                            "rules/mini/7_5.script |"),
            std::string::npos)
      << t.markdown;
  EXPECT_NE(t.markdown.find("| 9.1 | later | not implemented: later | other.pol (later) |  |"),
            std::string::npos)
      << t.markdown;
}

TEST(CoverageTable, RefusesWhatOverstates) {
  std::vector<std::string> problems;
  // 7.42 claimed implemented alone has no test; 9.1 is in no row; a named test must exist and cite.
  auto rows = parse(
      "7.41 | implemented | woods\n7.42 | implemented | across\n7.5 | implemented | attacks | "
      "tests: nope.cpp\n",
      problems);
  ASSERT_TRUE(problems.empty());
  auto t = analysis::coverageTable(sampleIndex(), rows, "/nonexistent");
  std::string all;
  for (const auto& p : t.problems) all += p + "\n";
  EXPECT_NE(all.find("row '7.42' (line 2): marked implemented but no test cites §7.42"),
            std::string::npos)
      << all;
  EXPECT_NE(
      all.find("§9.1 is cited by procedure later (rulesets/mini/other.pol:3) but is in no row"),
      std::string::npos)
      << all;
  EXPECT_NE(all.find("nope.cpp is named as its test but does not cite §7.5"), std::string::npos)
      << all;
  EXPECT_EQ(all.find("row '7.41'"), std::string::npos) << all;
  EXPECT_EQ(all.find("§9.2"), std::string::npos) << all;
}

TEST(CoverageTable, RowsCoveringARule) {
  std::vector<std::string> problems;
  auto rows = parse(
      "7.41-7.42 | implemented | terrain\n7.5 | partial: x | attacks | cites: 7.5 9.1\n", problems);
  auto idx = sampleIndex();
  ASSERT_EQ(analysis::rowsCovering(idx, rows, "7.42").size(), 1u);
  EXPECT_EQ(analysis::rowsCovering(idx, rows, "7.42")[0].label, "7.41-7.42");
  ASSERT_EQ(analysis::rowsCovering(idx, rows, "9.1").size(), 1u);
  EXPECT_EQ(analysis::rowsCovering(idx, rows, "9.1")[0].status, "partial: x");
  EXPECT_TRUE(analysis::rowsCovering(idx, rows, "8.0").empty());
}

TEST(CoverageTable, StatusFileErrors) {
  std::vector<std::string> problems;
  parse(
      "7.41 | done | woods\n7.42 | implemented\n7.5 | implemented | x | cites: 7.5 abc | colour: "
      "red\n",
      problems);
  ASSERT_EQ(problems.size(), 4u);
  EXPECT_NE(problems[0].find("mini.status:1: status 'done' is not one of"), std::string::npos);
  EXPECT_NE(problems[1].find("mini.status:2: a row needs RULE | STATUS | WHAT"), std::string::npos);
  EXPECT_NE(problems[2].find("mini.status:3: 'abc' is not a rule number"), std::string::npos);
  EXPECT_NE(problems[3].find("mini.status:3: unknown field 'colour: red'"), std::string::npos);
}

}  // namespace
