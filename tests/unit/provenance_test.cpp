// Provenance (analysis/provenance): the banner says which of the map, the counters and the tables
// are our reconstruction, read from the RECONSTRUCTED marks of the source. A mark in a scenario's
// comments covers what it speaks of (its map, its counters, or the whole scenario); a mark above a
// unit type covers some counter values; a table's mark covers that table only; a lower-case
// "reconstructed" in a comment is prose, not the mark.
#include "analysis/provenance.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace polemos;

namespace {

std::string ruleset(const std::string& unitComment, const std::string& tableComment) {
  return "ruleset t {\n  terrain clear { }\n  unit class C { }\n" + unitComment +
         "  unit type inf: C { }\n" + tableComment +
         "  table crt \"CRT\" { rows d6 ; columns odds 1:1 2:1 ; row 1-6: 1 2 }\n"
         "  table other \"Other\" { rows d6 ; columns odds 1:1 2:1 ; row 1-6: 1 2 }\n"
         "  sequence { note \"start\" }\n}\n";
}

std::string scenario(const std::string& header, const std::string& title = "S") {
  return header + "scenario s for t \"" + title +
         "\" {\n  map columns 1..3 rows 1..3 {\n    default clear\n  }\n"
         "  side a { } side b { }\n  force a { x inf at 0101 }\n}\n";
}

analysis::Provenance marks(const std::string& text, bool withScenario = true) {
  auto path = std::filesystem::temp_directory_path() /
              ("polemos_provenance_test_" + std::to_string(::getpid()) + ".pol");
  std::ofstream(path) << text;
  std::string errors;
  auto p = analysis::provenance(
      check::LoadRequest{path.string(), withScenario ? path.string() : "", {}}, errors);
  EXPECT_EQ(errors, "");
  std::filesystem::remove(path);
  return p;
}

TEST(Provenance, NothingMarkedSaysNothing) {
  auto p = marks(ruleset("", "") + scenario("// A battle of the rule text.\n"));
  EXPECT_FALSE(p.map);
  EXPECT_FALSE(p.counters);
  EXPECT_FALSE(p.someCounters);
  EXPECT_TRUE(p.tables.empty());
  EXPECT_EQ(p.tableCount, 2u);
  EXPECT_EQ(analysis::provenanceLine(p), "");
}

TEST(Provenance, ScenarioMarksCoverWhatTheySpeakOf) {
  auto map = marks(ruleset("", "") + scenario("// RECONSTRUCTED: the map's terrain.\n"));
  EXPECT_TRUE(map.map);
  EXPECT_FALSE(map.counters);
  auto forces = marks(ruleset("", "") + scenario("// RECONSTRUCTED: the forces.\n"));
  EXPECT_FALSE(forces.map);
  EXPECT_TRUE(forces.counters);
  auto whole = marks(ruleset("", "") + scenario("// RECONSTRUCTED: the whole scenario.\n"));
  EXPECT_TRUE(whole.map && whole.counters);
  // A title that says so covers the whole scenario.
  auto titled = marks(ruleset("", "") + scenario("", "A reconstructed battle"));
  EXPECT_TRUE(titled.map && titled.counters);
  EXPECT_EQ(analysis::provenanceLine(titled),
            "reconstructed (our values, not the rule text's): map and counters\n");
}

TEST(Provenance, ProseIsNotTheMark) {
  auto p = marks(ruleset("", "") + scenario("// The map is reconstructed from a photograph.\n"));
  EXPECT_FALSE(p.map);
}

TEST(Provenance, UnitTypesAndTables) {
  auto p = marks(ruleset("  // RECONSTRUCTED: a typical value.\n", "  // RECONSTRUCTED values.\n"),
                 false);
  EXPECT_FALSE(p.map);
  EXPECT_FALSE(p.counters);
  EXPECT_TRUE(p.someCounters);
  EXPECT_EQ(p.tables, std::set<std::string>{"crt"});
  EXPECT_EQ(analysis::provenanceLine(p),
            "reconstructed (our values, not the rule text's): some counter values and 1 of 2 "
            "tables\n");
}

}  // namespace
