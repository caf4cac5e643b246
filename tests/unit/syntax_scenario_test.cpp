// The AST builder on scenarios: the map (bounds, labels, terrain, hexsides, elevation, groups),
// sides, forces and unit placements, settings, and special rules.

#include <gtest/gtest.h>

#include "ast/ast.h"
#include "syntax/ast_dump.h"
#include "syntax/parse.h"

namespace polemos {
namespace {

using ast::MapItem;

struct Scenario {
  explicit Scenario(const std::string& body) {
    id = sources.add("chalons.pol",
                     "scenario chalons for standard \"Chalons, 451 AD\" §S1 {\n" + body + "\n}\n");
    file = syntax::parseFile(diags, id);
  }
  std::string errors() const { return diags.render(); }
  const ast::Scenario& sc() const { return file->blocks.at(0)->scenario; }

  diag::SourceManager sources;
  diag::Diagnostics diags{sources};
  diag::FileId id = 0;
  std::unique_ptr<ast::File> file;
};

TEST(syntax_scenario, Map) {
  Scenario s(
      "map columns 1..55 rows 0..27 labels xxyy §2.1 {\n"
      "  default clear;\n"
      "  terrain woods: 0305 0306..0410 A5\n"
      "  hexside river: 0101/0102 0102/0203;\n"
      "  elevation 2: 0202 0203..0303\n"
      "  group camp: 0101 0102\n"
      "  terrain marsh:\n"
      "}");
  ASSERT_EQ(s.errors(), "");
  ASSERT_TRUE(s.sc().map.has_value());
  const ast::MapSpec& m = *s.sc().map;
  EXPECT_EQ(m.colFrom, 1);
  EXPECT_EQ(m.colTo, 55);
  EXPECT_EQ(m.rowFrom, 0);
  EXPECT_EQ(m.rowTo, 27);
  EXPECT_EQ(m.labels.name, "xxyy");
  ASSERT_EQ(m.citations.size(), 1u);
  EXPECT_EQ(m.range.begin.line, 2u);
  ASSERT_EQ(m.items.size(), 6u);
  EXPECT_EQ(m.items[0].kind, MapItem::Default);
  EXPECT_EQ(m.items[0].name.name, "clear");
  const MapItem& woods = m.items[1];
  EXPECT_EQ(woods.kind, MapItem::Terrain);
  EXPECT_EQ(woods.name.name, "woods");
  ASSERT_EQ(woods.hexes.size(), 3u);
  EXPECT_EQ(woods.hexes[0].from.name, "0305");  // as written, leading zero kept
  EXPECT_FALSE(woods.hexes[0].to.has_value());
  EXPECT_EQ(woods.hexes[1].from.name, "0306");
  ASSERT_TRUE(woods.hexes[1].to.has_value());
  EXPECT_EQ(woods.hexes[1].to->name, "0410");
  EXPECT_EQ(woods.hexes[2].from.name, "A5");
  EXPECT_EQ(woods.hexes[0].from.range.begin.col, 17u);
  EXPECT_EQ(woods.hexes[0].from.range.end.col, 21u);
  const MapItem& river = m.items[2];
  EXPECT_EQ(river.kind, MapItem::Hexside);
  ASSERT_EQ(river.pairs.size(), 2u);
  EXPECT_EQ(river.pairs[0].a.name, "0101");
  EXPECT_EQ(river.pairs[0].b.name, "0102");
  EXPECT_EQ(river.pairs[1].b.name, "0203");
  const MapItem& elev = m.items[3];
  EXPECT_EQ(elev.kind, MapItem::Elevation);
  EXPECT_EQ(elev.elevation, 2);
  EXPECT_EQ(elev.hexes.size(), 2u);
  EXPECT_EQ(m.items[4].kind, MapItem::Group);
  EXPECT_EQ(m.items[4].name.name, "camp");
  EXPECT_TRUE(m.items[5].hexes.empty());
}

TEST(syntax_scenario, MapWithoutLabels) {
  Scenario s("map columns 1..10 rows 1..10 { }");
  ASSERT_EQ(s.errors(), "");
  EXPECT_EQ(s.sc().map->labels.name, "");
  EXPECT_TRUE(s.sc().map->items.empty());
}

TEST(syntax_scenario, SecondMapIsAnError) {
  Scenario s("map columns 1..10 rows 1..10 { }\nmap columns 1..5 rows 1..5 { }");
  EXPECT_EQ(s.errors(),
            "chalons.pol:3:1: error: a scenario has only one map\n"
            "map columns 1..5 rows 1..5 { }\n"
            "^~~\n"
            "chalons.pol:2:1: note: the first map is here\n"
            "map columns 1..10 rows 1..10 { }\n"
            "^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n");
  EXPECT_EQ(s.sc().map->colTo, 10);
}

TEST(syntax_scenario, SidesForcesSettingsRules) {
  Scenario s(
      "side roman \"Western Romans\" §2 { morale = 3; leader = aetius }\n"
      "side hunnic { }\n"
      "force roman §3.1 {\n"
      "  r1 legion at 0305 facing N tribe = visigoth; strength = 5\n"
      "  r2 legion at B4;\n"
      "  r3 cavalry\n"
      "  r4 cavalry facing S\n"
      "}\n"
      "turns = 15 §2.1;\n"
      "turn_order = [roman, hunnic]\n"
      "rules { const camp_bonus = 1 replace terrain camp { cost = 1 } }");
  ASSERT_EQ(s.errors(), "");
  const ast::Scenario& sc = s.sc();
  ASSERT_EQ(sc.sides.size(), 2u);
  EXPECT_EQ(sc.sides[0].name.name, "roman");
  EXPECT_EQ(sc.sides[0].title, "Western Romans");
  EXPECT_EQ(sc.sides[0].citations.size(), 1u);
  ASSERT_EQ(sc.sides[0].inits.size(), 2u);
  EXPECT_EQ(sc.sides[0].inits[1].name.name, "leader");
  EXPECT_TRUE(sc.sides[1].inits.empty());
  ASSERT_EQ(sc.forces.size(), 1u);
  const ast::ForceSpec& f = sc.forces[0];
  EXPECT_EQ(f.side.name, "roman");
  EXPECT_EQ(f.citations.at(0).text, "3.1");
  ASSERT_EQ(f.units.size(), 4u);
  const ast::UnitPlacement& u1 = f.units[0];
  EXPECT_EQ(u1.id.name, "r1");
  EXPECT_EQ(u1.type.name, "legion");
  ASSERT_TRUE(u1.hex.has_value());
  EXPECT_EQ(u1.hex->name, "0305");
  ASSERT_TRUE(u1.facing.has_value());
  EXPECT_EQ(u1.facing->name, "N");
  ASSERT_EQ(u1.inits.size(), 2u);
  EXPECT_EQ(u1.inits[0].name.name, "tribe");
  EXPECT_EQ(u1.inits[1].name.name, "strength");
  EXPECT_EQ(f.units[1].hex->name, "B4");
  EXPECT_FALSE(f.units[1].facing.has_value());
  EXPECT_FALSE(f.units[2].hex.has_value());
  EXPECT_FALSE(f.units[2].facing.has_value());
  EXPECT_FALSE(f.units[3].hex.has_value());
  EXPECT_EQ(f.units[3].facing->name, "S");
  ASSERT_EQ(sc.settings.size(), 2u);
  EXPECT_EQ(sc.settings[0].name.name, "turns");
  EXPECT_EQ(sc.settings[0].value->intValue, 15);
  ASSERT_EQ(sc.settings[0].citations.size(), 1u);
  EXPECT_EQ(sc.settings[0].citations[0].text, "2.1");
  EXPECT_EQ(syntax::dumpExpr(sc.settings[1].value.get()), "(list roman hunnic)");
  ASSERT_EQ(sc.rules.size(), 2u);
  EXPECT_EQ(sc.rules[0]->kind, ast::DeclKind::Const);
  EXPECT_EQ(sc.rules[1]->overlay, ast::OverlayMode::Replace);
}

TEST(syntax_scenario, SoftKeywordsInScenarios) {
  // `map`, `side`, `rules` and friends are names where they do not start an item.
  Scenario s("map = 3\nside = 1\nforce facing at 0101 facing N");
  EXPECT_NE(s.errors(), "");  // `force` needs a side and a block
  Scenario t("map = 3\nside = 1\nrules = 2");
  ASSERT_EQ(t.errors(), "");
  ASSERT_EQ(t.sc().settings.size(), 3u);
  EXPECT_EQ(t.sc().settings[0].name.name, "map");
  EXPECT_EQ(t.sc().settings[2].name.name, "rules");
}

TEST(syntax_scenario, Dump) {
  Scenario s(
      "map columns 1..2 rows 1..2 { default clear; terrain woods: 0101..0202; "
      "hexside river: 0101/0102 }\n"
      "force roman { r1 legion at 0101 facing N }\n"
      "turns = 3");
  ASSERT_EQ(s.errors(), "");
  EXPECT_EQ(syntax::dumpFile(*s.file),
            "scenario chalons for standard \"Chalons, 451 AD\" §S1\n"
            "  map columns 1..2 rows 1..2\n"
            "    default clear\n"
            "    terrain woods: 0101..0202\n"
            "    hexside river: 0101/0102\n"
            "  force roman\n"
            "    r1 legion at 0101 facing N\n"
            "  set turns = 3\n");
}

}  // namespace
}  // namespace polemos
