// `map --svg`: one polygon per hex, one counter per unit on the map, the hexside features, a
// shaded zone of control and a line of sight, on request; a title with the turn and the phase; a
// legend of the terrains, features, symbols, sides and markers drawn; each counter with its
// NATO-like symbol, its whole id, its counter values and its markers.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "repl/repl.h"

using namespace polemos;
namespace fs = std::filesystem;

namespace {

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

// Writes the map of `r` as SVG (with `options` after the file name) and reads it back.
std::string drawMap(repl::Repl& r, const std::string& options = "") {
  fs::path file =
      fs::temp_directory_path() / ("polemos_map_" + std::to_string(::getpid()) + ".svg");
  std::string out;
  r.execute("map --svg " + file.string() + options, out);
  EXPECT_NE(out.find("wrote"), std::string::npos) << out;
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  fs::remove(file);
  return ss.str();
}

// The SVG of one unit's counter: from its group's start to the group's end.
std::string counterOf(const std::string& svg, const std::string& id) {
  size_t from = svg.find("<g class=\"counter\" data-unit=\"" + id + "\"");
  if (from == std::string::npos) return "";
  size_t to = svg.find("\n</g>\n", from);
  return svg.substr(from, to == std::string::npos ? std::string::npos : to - from);
}

TEST(ReplSvg, DrawsHexesUnitsFeaturesZocAndLos) {
  repl::ReplOptions o;
  o.ruleset = std::string(POLEMOS_TEST_DIR) + "/golden/duel.pol";
  o.scenario = o.ruleset;
  repl::Repl r(o);
  std::string out;
  ASSERT_TRUE(r.start(out));
  fs::path file =
      fs::temp_directory_path() / ("polemos_map_" + std::to_string(::getpid()) + ".svg");
  out.clear();
  r.execute("hexside 0101 0102 stream", out);
  out.clear();
  r.execute("map --svg " + file.string() + " --zoc r1 --los 0101 0404", out);
  EXPECT_NE(out.find("wrote"), std::string::npos) << out;
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string svg = ss.str();
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_EQ(count(svg, "<polygon class=\"hex\""), 16u);  // 4x4 hexes
  EXPECT_EQ(count(svg, "fill-opacity"), 3u + 1u);        // r1's zone of control, and in the legend
  EXPECT_EQ(count(svg, "<g class=\"counter\""), 4u);     // four units
  EXPECT_NE(svg.find("<title>stream</title>"), std::string::npos);
  EXPECT_NE(svg.find("stroke-dasharray"), std::string::npos);  // the line of sight
  fs::remove(file);
  out.clear();
  r.execute("map --svg", out);
  EXPECT_EQ(out.rfind("error: map --svg takes a file name", 0), 0u) << out;
  out.clear();
  r.execute("map --svg x.svg --zoc nobody", out);
  EXPECT_EQ(out.rfind("error: no zone of control for 'nobody'", 0), 0u) << out;
}

// A Standard sandbox: the title says the turn and the phase, the legend every terrain on the map
// and the sides, each counter its symbol (infantry, cavalry, leader, missiles), its whole id, its
// counter values, and a marker once it is set.
TEST(ReplSvg, TitleLegendSymbolsIdsAndMarkers) {
  repl::ReplOptions o;
  o.ruleset = "standard";
  repl::Repl r(o);
  std::string out;
  ASSERT_TRUE(r.start(out)) << out;
  for (const char* line :
       {"sandbox 4x3 --sides roman,hun", "terrain 0102 woods", "terrain 0202 river",
        "terrain 0302 hill", "hexside 0401 0402 trail", "place roman inf 0101 as legionary_first",
        "place roman general 0101 as aetius", "place hun cav 0303 as h1 facing S",
        "place hun archer 0402 as ar"})
    r.execute(line, out);
  ASSERT_EQ(r.errors(), 0) << out;
  std::string svg = drawMap(r);
  EXPECT_NE(svg.find("class=\"title\">Ancient Battles: Standard Rules: sandbox 4x3</text>"),
            std::string::npos);
  EXPECT_NE(svg.find("class=\"stand\">turn 1 of 15, movement (roman to act: movement phase"),
            std::string::npos);
  for (const char* terrain : {"clear", "woods", "river", "hill"})
    EXPECT_NE(svg.find(std::string("class=\"legend-terrain\">") + terrain + "</text>"),
              std::string::npos)
        << terrain;
  EXPECT_EQ(svg.find("class=\"legend-terrain\">slope</text>"), std::string::npos);  // not on it
  EXPECT_NE(svg.find("class=\"legend-feature\">trail: centre to centre"), std::string::npos);
  EXPECT_NE(svg.find("class=\"legend-side\">roman</text>"), std::string::npos);
  EXPECT_NE(svg.find("class=\"legend-side\">hun</text>"), std::string::npos);
  EXPECT_NE(svg.find("class=\"legend-symbol\">leader (flag)</text>"), std::string::npos);

  std::string legionary = counterOf(svg, "legionary_first");
  EXPECT_NE(legionary.find("class=\"sym-infantry\""), std::string::npos) << legionary;
  EXPECT_EQ(legionary.find("class=\"sym-missile\""), std::string::npos) << legionary;
  EXPECT_NE(legionary.find(">legionary_first</text>"), std::string::npos) << legionary;  // whole
  EXPECT_NE(legionary.find("class=\"unit-values\" fill=\"#fff\">4-4</text>"), std::string::npos)
      << legionary;
  EXPECT_NE(counterOf(svg, "aetius").find("class=\"sym-leader\""), std::string::npos);
  EXPECT_NE(counterOf(svg, "ar").find("class=\"sym-missile\""), std::string::npos);
  std::string h1 = counterOf(svg, "h1");
  EXPECT_NE(h1.find("class=\"sym-cavalry\""), std::string::npos) << h1;
  EXPECT_NE(h1.find("class=\"facing\""), std::string::npos) << h1;
  EXPECT_EQ(h1.find("class=\"marker\""), std::string::npos) << h1;  // none set yet

  r.execute("set h1 disrupted=true", out);
  ASSERT_EQ(r.errors(), 0) << out;
  svg = drawMap(r);
  h1 = counterOf(svg, "h1");
  EXPECT_NE(h1.find("<title>h1 (cav, hun), at 0303, facing S: str 4, ma 8  [disrupted]</title>"),
            std::string::npos)
      << h1;
  EXPECT_NE(h1.find("<g class=\"marker\">"), std::string::npos) << h1;
  EXPECT_NE(h1.find(">D</text></g>"), std::string::npos) << h1;
  EXPECT_NE(svg.find("class=\"legend-marker\">disrupted</text>"), std::string::npos);
  EXPECT_EQ(counterOf(svg, "ar").find("class=\"marker\""), std::string::npos);
}

// A ruleset's own markers with values (tests/golden/display.pol): a tag with the value after it,
// the full text in the counter's tooltip.
TEST(ReplSvg, MarkerWithAValue) {
  repl::ReplOptions o;
  o.ruleset = std::string(POLEMOS_TEST_DIR) + "/golden/display.pol";
  o.scenario = o.ruleset;
  repl::Repl r(o);
  std::string out;
  ASSERT_TRUE(r.start(out)) << out;
  r.execute("set a1 wounds=2", out);
  ASSERT_EQ(r.errors(), 0) << out;
  std::string svg = drawMap(r);
  std::string a1 = counterOf(svg, "a1");
  EXPECT_NE(a1.find(">W2</text></g>"), std::string::npos) << a1;
  EXPECT_NE(a1.find("[wounds 2]</title>"), std::string::npos) << a1;
  EXPECT_NE(a1.find(">3-4-1</text>"), std::string::npos) << a1;  // str, ma, now
  EXPECT_NE(svg.find("class=\"legend-side\">red (Red)</text>"), std::string::npos);
}

}  // namespace

namespace {

// `--reach UNIT`: every hex the unit can move to is shaded with its cost, as `reach UNIT` lists
// them; the legend says whose reach it is; a unit that is not there is refused.
TEST(ReplSvg, ReachShadesEachHexWithItsCost) {
  repl::ReplOptions o;
  o.ruleset = "standard";
  repl::Repl r(o);
  std::string out;
  ASSERT_TRUE(r.start(out)) << out;
  r.execute("sandbox 5x5", out);
  r.execute("place blue inf 0303 as b1", out);
  r.execute("terrain 0302 woods", out);
  out.clear();
  r.execute("reach b1", out);
  size_t listed = 0;
  for (size_t p = out.find(':'); p != std::string::npos; p = out.find(':', p + 1)) {
    size_t end = out.find('\n', p);
    std::string line = out.substr(p + 1, end - p - 1);
    if (out.rfind("\n", p) != std::string::npos && out[out.rfind("\n", p) + 1] == ' ' &&
        line.find_first_not_of(" 0123456789") == std::string::npos)
      listed += static_cast<size_t>(std::count(line.begin(), line.end(), ' '));
  }
  fs::path file =
      fs::temp_directory_path() / ("polemos_reach_" + std::to_string(::getpid()) + ".svg");
  out.clear();
  r.execute("map --svg " + file.string() + " --reach b1", out);
  EXPECT_NE(out.find("b1 reaches"), std::string::npos) << out;
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string svg = ss.str();
  size_t shaded = count(svg, "<polygon class=\"reach\"");
  EXPECT_GT(shaded, 10u);
  EXPECT_EQ(shaded, listed);
  EXPECT_EQ(count(svg, "class=\"reach-cost\""), shaded);
  EXPECT_NE(svg.find(">3</text>"), std::string::npos);  // woods: 3 MP (§5.24)
  EXPECT_NE(svg.find("where b1 can move now"), std::string::npos);
  fs::remove(file);
  out.clear();
  r.execute("map --svg x.svg --reach nobody", out);
  EXPECT_EQ(out.rfind("error: no unit 'nobody'", 0), 0u) << out;
}

}  // namespace
