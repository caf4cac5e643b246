// `map --svg`: one polygon per hex, one counter per unit on the map, the hexside features, a
// shaded zone of control and a line of sight, on request.
#include <gtest/gtest.h>
#include <unistd.h>

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
  EXPECT_EQ(count(svg, "<polygon points") - count(svg, "fill-opacity"), 16u);  // 4x4 hexes
  EXPECT_EQ(count(svg, "fill-opacity"), 3u);  // r1's zone of control
  EXPECT_EQ(count(svg, "<rect"), 4u);         // four units
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

}  // namespace
