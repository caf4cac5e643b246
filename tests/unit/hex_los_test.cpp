// Lines between hex centres and line of sight: a table of cases from the rule texts (Standard
// §10.21 any terrain between blocks, §10.22 a line along a hexside blocked only if both sides are,
// §10.23 slopes clear but a ridge crossed blocks, §10.24 the end hexes never block, §10.25 units
// never block; Four Battles 10.21-10.24), the exact raw line (steps, straddled pairs, hexsides),
// and properties over random pairs on a 55 x 27 map checked against an independent floating-point
// clipping of the segment against every hexagon.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numbers>
#include <ostream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "hex/los.h"
#include "hex/map.h"

namespace polemos::hex {
namespace {

// Terrain kinds and hexside features as a test ruleset numbers them.
constexpr int kClear = 0;
constexpr int kWoods = 1;
constexpr int kSlope = 2;
constexpr int kTown = 3;
constexpr int kRidge = 1;

GridSpec testSpec() {
  return GridSpec{1, 55, 1, 27};
}

// Standard 10.21/10.23: any terrain feature blocks, except that slope hexes are clear; a ridge
// hexside blocks when the line crosses it.
HexBlocks standardHexBlocks(const Map& m) {
  return [&m](Hex h) { return m.terrain(h) != kClear && m.terrain(h) != kSlope; };
}
SideBlocks ridgeBlocks(const Map& m) {
  return [&m](Hexside s) { return m.hexsideHas(s, kRidge); };
}

struct LosCase {
  const char* name;
  const char* from;
  const char* to;
  std::vector<std::pair<const char*, int>> terrain;
  std::vector<std::pair<const char*, const char*>> ridges;
  bool clear;
};

// Lets GoogleTest show a case by its name rather than its bytes.
void PrintTo(const LosCase& c, std::ostream* os) {
  *os << c.name;
}

class HexLosTable : public ::testing::TestWithParam<LosCase> {};

TEST_P(HexLosTable, Sight) {
  const LosCase& c = GetParam();
  Map m(testSpec());
  const Grid& g = m.grid();
  for (auto [hex, kind] : c.terrain) m.setTerrain(g.parse(hex), kind);
  for (auto [a, b] : c.ridges) m.addHexsideFeature(g.parse(a), g.parse(b), kRidge);
  Hex a = g.parse(c.from);
  Hex b = g.parse(c.to);
  EXPECT_EQ(lineOfSight(g, a, b, standardHexBlocks(m), ridgeBlocks(m)).clear, c.clear) << c.name;
  EXPECT_EQ(lineOfSight(g, b, a, standardHexBlocks(m), ridgeBlocks(m)).clear, c.clear)
      << c.name << " (reversed)";
}

INSTANTIATE_TEST_SUITE_P(
    HexRuleTexts, HexLosTable,
    ::testing::Values(
        LosCase{"10.21 a straight path of clear hexes", "0505", "0508", {}, {}, true},
        LosCase{
            "10.21 an intervening woods hex blocks", "0505", "0508", {{"0506", kWoods}}, {}, false},
        LosCase{"10.21 the last intervening hex blocks too",
                "0505",
                "0508",
                {{"0507", kWoods}},
                {},
                false},
        LosCase{"10.24 terrain in the firer's and target's hexes does not block",
                "0505",
                "0508",
                {{"0505", kWoods}, {"0508", kTown}},
                {},
                true},
        LosCase{"10.31 adjacent hexes always see each other",
                "0505",
                "0506",
                {{"0505", kWoods}, {"0506", kWoods}},
                {{"0505", "0506"}},
                true},
        LosCase{"10.22 along a hexside with one side blocking",
                "0101",
                "0301",
                {{"0201", kWoods}},
                {},
                true},
        LosCase{"10.22 along a hexside with the other side blocking",
                "0101",
                "0301",
                {{"0202", kWoods}},
                {},
                true},
        LosCase{"10.22 along a hexside with both sides blocking",
                "0101",
                "0301",
                {{"0201", kWoods}, {"0202", kWoods}},
                {},
                false},
        LosCase{"10.22 each congruent hexside judged alone",
                "1010",
                "1610",
                {{"1109", kWoods}, {"1310", kWoods}, {"1509", kWoods}},
                {},
                true},
        LosCase{"10.22 a blocked pair on a long congruent line",
                "1010",
                "1610",
                {{"1309", kWoods}, {"1310", kWoods}},
                {},
                false},
        LosCase{"10.21 the hex between congruent stretches blocks",
                "1010",
                "1610",
                {{"1210", kWoods}},
                {},
                false},
        LosCase{"10.23 slope hexes are clear",
                "0505",
                "0508",
                {{"0506", kSlope}, {"0507", kSlope}},
                {},
                true},
        LosCase{"10.23 slope intersected by a ridge between firer and target",
                "0505",
                "0508",
                {{"0506", kSlope}, {"0507", kSlope}},
                {{"0506", "0507"}},
                false},
        LosCase{"10.23 a ridge beside the line does not block",
                "0505",
                "0508",
                {{"0506", kSlope}},
                {{"0506", "0606"}, {"0507", "0407"}},
                true},
        LosCase{"10.23 a ridge on the firer's own hexside is between firer and target",
                "0505",
                "0508",
                {},
                {{"0505", "0506"}},
                false},
        LosCase{"10.22 a ridge the line runs along is not crossed",
                "0101",
                "0301",
                {},
                {{"0201", "0202"}},
                true},
        LosCase{"10.22 one side blocked by woods, the other by a ridge",
                "0101",
                "0301",
                {{"0201", kWoods}},
                {{"0101", "0202"}},
                false},
        LosCase{"10.22 through a vertex: the corner hex alone does not block",
                "1010",
                "1511",
                {{"1210", kWoods}},
                {},
                true},
        LosCase{"10.22 through a vertex: the ridge ending there alone does not block",
                "1010",
                "1511",
                {},
                {{"1110", "1211"}},
                true},
        LosCase{"10.22 through a vertex: corner hex and ridge together block",
                "1010",
                "1511",
                {{"1210", kWoods}},
                {{"1110", "1211"}},
                false},
        LosCase{"10.21 a long diagonal line blocked in its middle",
                "2010",
                "2414",
                {{"2212", kWoods}},
                {},
                false},
        LosCase{"10.21 a long diagonal line past woods on both sides",
                "2010",
                "2414",
                {{"2211", kWoods}, {"2213", kWoods}, {"2311", kWoods}},
                {},
                true}),
    [](const ::testing::TestParamInfo<LosCase>& info) {
      // "10.22 along a hexside ..." becomes "Rule10_22_along_a_hexside_...".
      std::string name = "Rule";
      for (const char* c = info.param.name; *c; ++c)
        name += std::isalnum(static_cast<unsigned char>(*c)) ? *c : '_';
      return name;
    });

TEST(HexLos, AdjacentRidgeBlocksWhenAdjacencyIsNotExempt) {
  Map m(testSpec());
  const Grid& g = m.grid();
  m.addHexsideFeature(g.parse("0505"), g.parse("0506"), kRidge);
  LosOptions strict;
  strict.adjacentAlwaysClear = false;
  Sight s = lineOfSight(g, g.parse("0505"), g.parse("0506"), {}, ridgeBlocks(m), strict);
  EXPECT_FALSE(s.clear);
  EXPECT_EQ(s.side, Hexside::between(g.parse("0505"), g.parse("0506")));
  EXPECT_TRUE(lineOfSight(g, g.parse("0505"), g.parse("0505"), {}, ridgeBlocks(m), strict).clear);
}

TEST(HexLos, FourBattlesBlockingTerrain) {
  // Four Battles 10.23: forest, camp, rampart and town block; slope and hilltop do not.
  Map m(testSpec());
  const Grid& g = m.grid();
  auto fourBattles = [&m](Hex h) { return m.terrain(h) == kWoods || m.terrain(h) == kTown; };
  m.setTerrain(g.parse("0507"), kSlope);
  EXPECT_TRUE(lineOfSight(g, g.parse("0505"), g.parse("0508"), fourBattles).clear);
  m.setTerrain(g.parse("0507"), kTown);
  Sight s = lineOfSight(g, g.parse("0505"), g.parse("0508"), fourBattles);
  EXPECT_FALSE(s.clear);
  EXPECT_EQ(s.step, (LineStep{g.parse("0507"), g.parse("0507")}));
}

TEST(HexLos, ReportsWhereTheLineIsBlocked) {
  Map m(testSpec());
  const Grid& g = m.grid();
  m.setTerrain(g.parse("0201"), kWoods);
  m.setTerrain(g.parse("0202"), kWoods);
  Sight s = lineOfSight(g, g.parse("0101"), g.parse("0301"), standardHexBlocks(m));
  ASSERT_FALSE(s.clear);
  ASSERT_TRUE(s.step.has_value());
  EXPECT_TRUE(s.step->straddles());
  EXPECT_EQ(std::set<Hex>({s.step->hex, s.step->other}),
            std::set<Hex>({g.parse("0201"), g.parse("0202")}));
}

TEST(HexLos, PredicatesAreNotAskedAboutEndpointsOrOffMapHexes) {
  Grid g(testSpec());
  std::set<Hex> asked;
  auto record = [&](Hex h) {
    asked.insert(h);
    return false;
  };
  // Along the top edge the congruent line straddles off-map hexes (rows 0 of odd columns).
  Hex a = g.parse("0201");
  Hex b = g.parse("1001");
  EXPECT_TRUE(lineOfSight(g, a, b, record).clear);
  EXPECT_FALSE(asked.count(a));
  EXPECT_FALSE(asked.count(b));
  for (Hex h : asked) EXPECT_TRUE(g.contains(h)) << g.label(h);
  EXPECT_FALSE(asked.empty());
  Line line = traceLine(g, a, b);
  bool offMapStep = false;
  for (const LineStep& s : line.steps) {
    offMapStep = offMapStep || !g.contains(s.hex) || !g.contains(s.other);
    EXPECT_TRUE(s.straddles() || g.contains(s.hex));
  }
  EXPECT_TRUE(offMapStep);
  // An off-map half of a pair does not block, so "everything on the map blocks" is still clear.
  EXPECT_TRUE(lineOfSight(g, a, b, [&](Hex h) {
                return !(g.label(h) == "0401" || g.label(h) == "0601" || g.label(h) == "0801");
              }).clear);
}

TEST(HexLos, OffMapEndpointsAreErrors) {
  Grid g(testSpec());
  try {
    lineOfSight(g, g.parse("0101"), g.toHex(Offset{56, 1}), {});
    FAIL() << "expected HexError";
  } catch (const HexError& e) {
    EXPECT_STREQ(e.what(), "hex 5601 is off the map (columns 1-55, rows 1-27)");
  }
  EXPECT_THROW(traceLine(g, g.toHex(Offset{0, 1}), g.parse("0101")), HexError);
}

std::vector<std::string> stepLabels(const Grid& g, const Line& line) {
  std::vector<std::string> out;
  for (const LineStep& s : line.steps) {
    out.push_back(s.straddles() ? g.label(s.hex) + "|" + g.label(s.other) : g.label(s.hex));
  }
  return out;
}

std::vector<std::string> sideLabels(const Grid& g, const Line& line) {
  std::vector<std::string> out;
  for (const LineSide& s : line.sides) {
    std::string a = g.label(s.side.first());
    std::string b = g.label(s.side.second());
    if (b < a) std::swap(a, b);
    const char* kind = s.contact == SideContact::Crossed ? "crossed"
                       : s.contact == SideContact::Along ? "along"
                                                         : "corner";
    out.push_back(a + "/" + b + " " + kind);
  }
  return out;
}

TEST(HexLine, StraightDownAColumn) {
  Grid g(testSpec());
  Line line = traceLine(g, g.parse("0505"), g.parse("0508"));
  EXPECT_EQ(stepLabels(g, line), (std::vector<std::string>{"0506", "0507"}));
  EXPECT_EQ(sideLabels(g, line), (std::vector<std::string>{"0505/0506 crossed", "0506/0507 crossed",
                                                           "0507/0508 crossed"}));
}

TEST(HexLine, CongruentToAHexside) {
  Grid g(testSpec());
  Line line = traceLine(g, g.parse("0101"), g.parse("0301"));
  EXPECT_EQ(stepLabels(g, line), (std::vector<std::string>{"0201|0202"}));
  EXPECT_EQ(sideLabels(g, line),
            (std::vector<std::string>{"0101/0201 corner", "0101/0202 corner", "0201/0202 along",
                                      "0201/0301 corner", "0202/0301 corner"}));
  Line longer = traceLine(g, g.parse("1010"), g.parse("1610"));
  EXPECT_EQ(stepLabels(g, longer),
            (std::vector<std::string>{"1109|1110", "1210", "1309|1310", "1410", "1509|1510"}));
}

TEST(HexLine, ThroughVertices) {
  Grid g(testSpec());
  Line line = traceLine(g, g.parse("1010"), g.parse("1511"));
  EXPECT_EQ(stepLabels(g, line), (std::vector<std::string>{"1110", "1211", "1310", "1411"}));
  EXPECT_EQ(sideLabels(g, line), (std::vector<std::string>{
                                     "1010/1110 crossed", "1110/1210 corner", "1110/1211 corner",
                                     "1210/1211 corner", "1211/1310 crossed", "1310/1411 corner",
                                     "1310/1311 corner", "1311/1411 corner", "1411/1511 crossed"}));
}

TEST(HexLine, ADiagonalLine) {
  Grid g(testSpec());
  Line line = traceLine(g, g.parse("2010"), g.parse("2414"));
  EXPECT_EQ(stepLabels(g, line),
            (std::vector<std::string>{"2110", "2111", "2212", "2312", "2313"}));
  EXPECT_EQ(line.sides.size(), 6u);
  for (const LineSide& s : line.sides) EXPECT_EQ(s.contact, SideContact::Crossed);
}

TEST(HexLine, TrivialLines) {
  Grid g(testSpec());
  Line same = traceLine(g, g.parse("0505"), g.parse("0505"));
  EXPECT_TRUE(same.steps.empty());
  EXPECT_TRUE(same.sides.empty());
  Line adjacent = traceLine(g, g.parse("0505"), g.parse("0606"));
  EXPECT_TRUE(adjacent.steps.empty());
  EXPECT_EQ(sideLabels(g, adjacent), (std::vector<std::string>{"0505/0606 crossed"}));
}

// ---- Properties over random pairs ----

// The Euclidean plane: flat-topped hexes of circumradius 1.
struct Point {
  double x;
  double y;
};
Point centre(Hex h) {
  return Point{1.5 * h.q, std::sqrt(3.0) * (h.r + h.q / 2.0)};
}

// The parameter interval [t0, t1] of the segment p0 + t (p1 - p0) inside the closed hexagon of h
// (Cyrus-Beck clipping against its six edges), or t0 > t1 if it misses.
std::pair<double, double> clip(Point p0, Point p1, Hex h) {
  constexpr double kTolerance = 1e-9;
  Point c = centre(h);
  double t0 = 0;
  double t1 = 1;
  for (int k = 0; k < 6; ++k) {
    // The edge between vertices k and k+1 has its outward normal at 30 + 60k degrees and lies at
    // the apothem sqrt(3)/2 from the centre.
    double angle = (30.0 + 60.0 * k) * std::numbers::pi / 180.0;
    double nx = std::cos(angle);
    double ny = std::sin(angle);
    double apothem = std::sqrt(3.0) / 2.0;
    double start = nx * (p0.x - c.x) + ny * (p0.y - c.y) - apothem;
    double along = nx * (p1.x - p0.x) + ny * (p1.y - p0.y);
    if (std::abs(along) < 1e-12) {
      if (start > kTolerance) return {1, 0};
      continue;
    }
    double t = (kTolerance - start) / along;
    if (along > 0) {
      t1 = std::min(t1, t);
    } else {
      t0 = std::max(t0, t);
    }
  }
  return {t0, t1};
}

// The hexes the segment meets along a positive length, grouped by equal intervals (a pair means
// the segment runs along their common side), in order along the segment.
std::vector<std::set<Hex>> oracleGroups(Hex a, Hex b) {
  Point p0 = centre(a);
  Point p1 = centre(b);
  int d = distance(a, b);
  std::vector<std::tuple<double, double, Hex>> met;
  for (int dq = -d - 1; dq <= d + 1; ++dq) {
    for (int dr = -d - 1; dr <= d + 1; ++dr) {
      Hex h{a.q + dq, a.r + dr};
      if (distance(h, a) > d + 1 || distance(h, b) > d + 1) continue;
      auto [t0, t1] = clip(p0, p1, h);
      if (t1 - t0 > 1e-6) met.emplace_back(t0, t1, h);
    }
  }
  std::sort(met.begin(), met.end());
  std::vector<std::set<Hex>> groups;
  double last0 = -1;
  double last1 = -1;
  for (auto [t0, t1, h] : met) {
    if (!groups.empty() && std::abs(t0 - last0) < 1e-6 && std::abs(t1 - last1) < 1e-6) {
      groups.back().insert(h);
    } else {
      groups.push_back({h});
      last0 = t0;
      last1 = t1;
    }
  }
  return groups;
}

std::vector<std::set<Hex>> traceGroups(const Line& line) {
  std::vector<std::set<Hex>> groups = {{line.from}};
  for (const LineStep& s : line.steps) groups.push_back({s.hex, s.other});
  if (!(line.from == line.to)) groups.push_back({line.to});
  return groups;
}

std::vector<std::pair<Hex, Hex>> randomPairs(const Grid& g, int count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int32_t> pick(0, g.size() - 1);
  std::vector<std::pair<Hex, Hex>> out;
  for (int i = 0; i < count; ++i) out.emplace_back(g.hexAt(pick(rng)), g.hexAt(pick(rng)));
  // Lines along hexsides and through vertices are rare among random pairs; add them on purpose.
  for (int i = 0; i < count / 4; ++i) {
    Hex a = g.hexAt(pick(rng));
    int k = 1 + static_cast<int>(rng() % 8);
    // Axial (2k, -k) is due east, congruent to hexsides all the way.
    Hex spine{a.q + 2 * k, a.r - k};
    if (g.contains(spine)) out.emplace_back(a, spine);
    // Axial steps (q, r) with q = r (mod 3), q not a multiple of 3 and not a congruent direction
    // pass exactly through hex vertices.
    const Hex kVertexSteps[] = {{4, 1}, {5, -1}, {7, 1}, {5, -4}, {1, -5}, {-4, -1}, {-1, 5}};
    Hex step = kVertexSteps[rng() % 7];
    Hex vertex{a.q + step.q, a.r + step.r};
    if (g.contains(vertex)) out.emplace_back(a, vertex);
  }
  return out;
}

TEST(HexLineProperty, MatchesEuclideanClipping) {
  Grid g(testSpec());
  int straddles = 0;
  int vertices = 0;
  for (auto [a, b] : randomPairs(g, 400, 7)) {
    Line line = traceLine(g, a, b);
    EXPECT_EQ(traceGroups(line), oracleGroups(a, b)) << g.label(a) << " -> " << g.label(b);
    for (const LineStep& s : line.steps) straddles += s.straddles() ? 1 : 0;
    for (const LineSide& s : line.sides) vertices += s.contact == SideContact::Corner ? 1 : 0;
  }
  // The sample must exercise the exact cases, or the test proves little.
  EXPECT_GT(straddles, 20);
  EXPECT_GT(vertices, 60);
}

TEST(HexLineProperty, StepsAreAdjacentAndSidesConsistent) {
  Grid g(testSpec());
  for (auto [a, b] : randomPairs(g, 400, 8)) {
    Line line = traceLine(g, a, b);
    auto groups = traceGroups(line);
    for (size_t i = 0; i + 1 < groups.size(); ++i) {
      for (Hex x : groups[i]) {
        for (Hex y : groups[i + 1]) EXPECT_EQ(distance(x, y), 1);
      }
    }
    // Every hexside listed touches hexes of the line, and each crossing joins consecutive hexes.
    std::set<Hex> onLine;
    for (const auto& grp : groups) onLine.insert(grp.begin(), grp.end());
    for (const LineSide& s : line.sides) {
      if (s.contact != SideContact::Corner) {
        EXPECT_TRUE(onLine.count(s.side.first()) && onLine.count(s.side.second()));
      }
    }
    // A single step never straddles, and pairs are adjacent hexes at the same distance.
    for (const LineStep& s : line.steps) {
      EXPECT_EQ(distance(s.hex, s.other), s.straddles() ? 1 : 0);
    }
    EXPECT_LE(line.steps.size(), static_cast<size_t>(std::max(0, 2 * distance(a, b))));
  }
}

TEST(HexLineProperty, ReversedLineIsTheReverse) {
  Grid g(testSpec());
  for (auto [a, b] : randomPairs(g, 500, 9)) {
    Line ab = traceLine(g, a, b);
    Line ba = traceLine(g, b, a);
    std::vector<LineStep> reversed(ba.steps.rbegin(), ba.steps.rend());
    EXPECT_EQ(ab.steps, reversed) << g.label(a) << " -> " << g.label(b);
    auto key = [](const LineSide& s) {
      return std::make_pair(s.side, static_cast<int>(s.contact));
    };
    std::multiset<std::pair<Hexside, int>> sa;
    std::multiset<std::pair<Hexside, int>> sb;
    for (const LineSide& s : ab.sides) sa.insert(key(s));
    for (const LineSide& s : ba.sides) sb.insert(key(s));
    EXPECT_EQ(sa, sb);
  }
}

TEST(HexLosProperty, SymmetricWithSymmetricPredicates) {
  Map m(testSpec());
  const Grid& g = m.grid();
  std::mt19937 rng(42);
  for (int density : {5, 15, 30}) {
    for (Hex h : g.hexes()) {
      m.setTerrain(h, static_cast<int>(rng() % 100) < density ? kWoods : kClear);
      for (Direction d : {Direction::N, Direction::NE, Direction::SE}) {
        Hexside s = Hexside::of(h, d);
        if (static_cast<int>(rng() % 100) < density / 2) {
          m.addHexsideFeature(s, kRidge);
        } else {
          m.removeHexsideFeature(s, kRidge);
        }
      }
    }
    int clear = 0;
    int blocked = 0;
    for (auto [a, b] : randomPairs(g, 1000, static_cast<uint32_t>(density))) {
      bool ab = lineOfSight(g, a, b, standardHexBlocks(m), ridgeBlocks(m)).clear;
      bool ba = lineOfSight(g, b, a, standardHexBlocks(m), ridgeBlocks(m)).clear;
      EXPECT_EQ(ab, ba) << g.label(a) << " <-> " << g.label(b);
      (ab ? clear : blocked) += 1;
      // A line with no ambiguous places is clear exactly when no intervening hex or crossed side
      // blocks.
      Line line = traceLine(g, a, b);
      bool plain = std::none_of(line.sides.begin(), line.sides.end(), [](const LineSide& s) {
        return s.contact != SideContact::Crossed;
      });
      if (plain && distance(a, b) > 1) {
        bool any = false;
        for (const LineStep& s : line.steps) any = any || m.terrain(s.hex) == kWoods;
        for (const LineSide& s : line.sides) any = any || m.hexsideHas(s.side, kRidge);
        EXPECT_EQ(ab, !any);
      }
    }
    EXPECT_GT(clear, 0);
    EXPECT_GT(blocked, 0);
  }
}

}  // namespace
}  // namespace polemos::hex
