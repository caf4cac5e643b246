// The citation index (analysis/rule_index): rule numbers as written, every citation of a
// declaration found wherever it is written (on the declaration, inside its code, on a unit value),
// and the tests that cite a rule found by their `# ruleset:` header.
#include "analysis/rule_index.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "check/loader.h"

using namespace polemos;
namespace fs = std::filesystem;

namespace {

TEST(RuleIndex, RuleNumbersAsWritten) {
  EXPECT_EQ(analysis::ruleNumber("§7.43"), "7.43");
  EXPECT_EQ(analysis::ruleNumber("§7.43."), "7.43");
  EXPECT_EQ(analysis::ruleNumber("7.43,"), "7.43");
  EXPECT_EQ(analysis::ruleNumber("§4.A"), "4.A");
  EXPECT_EQ(analysis::ruleNumber("§6.1.1.m30"), "6.1.1.m30");
  EXPECT_EQ(analysis::ruleNumber("§x"), "");
  EXPECT_EQ(analysis::ruleNumber("§"), "");
  EXPECT_EQ(analysis::ruleNumber("7-43"), "");
}

struct TempProject {
  fs::path root =
      fs::temp_directory_path() / fs::path("polemos_rule_index_" + std::to_string(::getpid()));
  TempProject() { fs::create_directories(root / "tests" / "rules" / "mini"); }
  ~TempProject() { fs::remove_all(root); }
  void write(const fs::path& rel, const std::string& text) {
    fs::create_directories((root / rel).parent_path());
    std::ofstream(root / rel) << text;
  }
};

TEST(RuleIndex, DeclarationsAndTests) {
  TempProject p;
  p.write("mini.pol", R"(ruleset mini {
  unit class C { strength: int §2.4 "strength" }
  quantity q(x: int): int §7.0 = x
  modifier m on q(x) §7.41 { when x > 1: * 2 because "big" }
  procedure f(x: int): int §7.5 {
    require x > 0 §7.52 else "positive"
    return roll d6 §7.6
  }
  sequence { note §3.0 "start" }
}
)");
  p.write("tests/rules/mini/7_5.script",
          "# §7.5 and §7.52.\n# ruleset: mini\nexpect fired §7.6 roll\n");
  p.write("tests/rules/mini/other.script", "# §7.5 of another game\n# ruleset: other\n");
  diag::SourceManager sources;
  diag::Diagnostics diags(sources);
  check::Loader loader(diags);
  check::MergedRules rules;
  ASSERT_TRUE(loader.loadForDiff((p.root / "mini.pol").string(), rules)) << diags.render(false);
  analysis::RuleIndex index = analysis::indexDeclarations(rules, sources, p.root.string());
  analysis::indexTests(index, p.root.string(), {"mini"});

  // Every citation, wherever it is written, with its file and line.
  ASSERT_EQ(index.sites.count("2.4"), 1u);
  EXPECT_EQ(index.sites["2.4"][0].where, "mini.pol:2");
  EXPECT_EQ(index.sites["2.4"][0].decl, "unit class C");
  EXPECT_EQ(index.sites["7.41"][0].decl, "modifier m");
  EXPECT_EQ(index.sites["7.52"][0].where, "mini.pol:6");
  EXPECT_EQ(index.sites["7.6"][0].where, "mini.pol:7");
  EXPECT_EQ(index.sites["3.0"][0].decl, "sequence");
  // Tests: only those of this ruleset, one entry per rule and file (the first line citing it).
  ASSERT_EQ(index.tests["7.5"].size(), 1u);
  EXPECT_EQ(index.tests["7.5"][0].file, "tests/rules/mini/7_5.script");
  EXPECT_EQ(index.tests["7.5"][0].line, 1);
  EXPECT_EQ(index.tests["7.6"][0].line, 3);
  EXPECT_EQ(index.tests.count("7.41"), 0u);

  std::string one = analysis::formatRule(index, "7.52");
  EXPECT_NE(one.find("mini.pol:6  procedure f"), std::string::npos) << one;
  EXPECT_NE(one.find("tests/rules/mini/7_5.script:1"), std::string::npos) << one;
  EXPECT_NE(analysis::formatRule(index, "9.9").find("no declaration of mini and no test cites it"),
            std::string::npos);
  // Rule-book order: 7.41 before 7.5 before 7.52 before 7.6.
  std::string all = analysis::formatIndex(index);
  EXPECT_LT(all.find("§7.41"), all.find("§7.5 "));
  EXPECT_LT(all.find("§7.52"), all.find("§7.6 "));
}

}  // namespace
