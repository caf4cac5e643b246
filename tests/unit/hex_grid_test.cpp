// Hex coordinates and grids: adjacency as printed on the maps (Standard 7.43), distance and range
// (Standard 10.12), directions, canonical hexsides, labels in both numbering schemes, and the
// errors for off-map hexes and malformed labels.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "hex/coord.h"
#include "hex/grid.h"

namespace polemos::hex {
namespace {

// The Chalons map: 55 columns, rows 00 to 27, numbered xxyy.
Grid chalons() {
  return Grid(GridSpec{1, 55, 0, 28, LabelStyle::Numeric, ColumnShift::OddDown});
}

std::vector<std::string> labelsOf(const Grid& g, const std::vector<Hex>& hexes) {
  std::vector<std::string> out;
  for (Hex h : hexes) out.push_back(g.label(h));
  std::sort(out.begin(), out.end());
  return out;
}

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const HexError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(HexGrid, AdjacencyOfEvenColumnMatchesStandard743) {
  Grid g = chalons();
  EXPECT_EQ(labelsOf(g, g.neighbours(g.parse("5219"))),
            (std::vector<std::string>{"5118", "5119", "5218", "5220", "5318", "5319"}));
}

TEST(HexGrid, AdjacencyOfOddColumnMatchesStandard743) {
  Grid g = chalons();
  EXPECT_EQ(labelsOf(g, g.neighbours(g.parse("3114"))),
            (std::vector<std::string>{"3014", "3015", "3113", "3115", "3214", "3215"}));
}

TEST(HexGrid, NeighboursByDirectionForFlatTopColumns) {
  Grid g = chalons();
  Hex h = g.parse("3114");
  EXPECT_EQ(g.label(neighbour(h, Direction::N)), "3113");
  EXPECT_EQ(g.label(neighbour(h, Direction::NE)), "3214");
  EXPECT_EQ(g.label(neighbour(h, Direction::SE)), "3215");
  EXPECT_EQ(g.label(neighbour(h, Direction::S)), "3115");
  EXPECT_EQ(g.label(neighbour(h, Direction::SW)), "3015");
  EXPECT_EQ(g.label(neighbour(h, Direction::NW)), "3014");
  Hex e = g.parse("5219");
  EXPECT_EQ(g.label(neighbour(e, Direction::NE)), "5318");
  EXPECT_EQ(g.label(neighbour(e, Direction::SE)), "5319");
  EXPECT_EQ(g.label(neighbour(e, Direction::SW)), "5119");
  EXPECT_EQ(g.label(neighbour(e, Direction::NW)), "5118");
}

TEST(HexGrid, EvenColumnsDownIsTheMirrorLayout) {
  Grid g(GridSpec{1, 20, 1, 20, LabelStyle::Numeric, ColumnShift::EvenDown});
  // Now the even column's neighbours are rows r and r+1.
  EXPECT_EQ(labelsOf(g, g.neighbours(g.parse("1010"))),
            (std::vector<std::string>{"0910", "0911", "1009", "1011", "1110", "1111"}));
  EXPECT_EQ(labelsOf(g, g.neighbours(g.parse("0910"))),
            (std::vector<std::string>{"0809", "0810", "0909", "0911", "1009", "1010"}));
}

TEST(HexGrid, NeighboursAtTheMapEdgeAreOnlyOnMapHexes) {
  Grid g = chalons();
  EXPECT_EQ(labelsOf(g, g.neighbours(g.parse("0100"))),
            (std::vector<std::string>{"0101", "0200", "0201"}));
  EXPECT_EQ(labelsOf(g, g.neighbours(g.parse("5527"))), (std::vector<std::string>{"5427", "5526"}));
}

TEST(HexGrid, RangeCountsTheTargetButNotTheFirer) {
  // Standard 10.12: adjacent is range 1.
  Grid g = chalons();
  EXPECT_EQ(distance(g.parse("5219"), g.parse("5219")), 0);
  EXPECT_EQ(distance(g.parse("5219"), g.parse("5118")), 1);
  EXPECT_EQ(distance(g.parse("5219"), g.parse("5319")), 1);
  EXPECT_EQ(distance(g.parse("2725"), g.parse("3025")), 3);
  EXPECT_EQ(distance(g.parse("2725"), g.parse("2425")), 3);
  EXPECT_EQ(distance(g.parse("3114"), g.parse("3120")), 6);
  // Four columns east from an odd column reaches two rows down for free.
  EXPECT_EQ(distance(g.parse("3114"), g.parse("3516")), 4);
  EXPECT_EQ(distance(g.parse("3114"), g.parse("3517")), 5);
  EXPECT_EQ(distance(g.parse("0100"), g.parse("5527")), 54);
}

TEST(HexGrid, DirectionsRotateAndName) {
  EXPECT_EQ(rotate(Direction::N, 1), Direction::NE);
  EXPECT_EQ(rotate(Direction::N, -1), Direction::NW);
  EXPECT_EQ(rotate(Direction::SW, 8), Direction::N);
  EXPECT_EQ(opposite(Direction::NE), Direction::SW);
  EXPECT_EQ(clockwiseSteps(Direction::NW, Direction::NE), 2);
  EXPECT_EQ(turnSteps(Direction::N, Direction::S), 3);
  EXPECT_EQ(turnSteps(Direction::N, Direction::SW), 2);
  EXPECT_EQ(turnSteps(Direction::NW, Direction::N), 1);
  for (Direction d : kAllDirections) EXPECT_EQ(parseDirection(directionName(d)), d);
  EXPECT_EQ(parseDirection("se"), Direction::SE);
  EXPECT_EQ(parseDirection("E"), std::nullopt);
  EXPECT_EQ(parseDirection("NNE"), std::nullopt);
}

TEST(HexGrid, DirectionBetweenAdjacentHexes) {
  Grid g = chalons();
  Hex a = g.parse("5219");
  EXPECT_EQ(directionBetween(a, g.parse("5318")), Direction::NE);
  EXPECT_EQ(directionBetween(g.parse("5318"), a), Direction::SW);
  EXPECT_EQ(directionBetween(a, g.parse("5221")), std::nullopt);
  EXPECT_EQ(g.requireDirection(a, g.parse("5220")), Direction::S);
  EXPECT_EQ(errorOf([&] { g.requireDirection(a, g.parse("5221")); }),
            "hexes 5219 and 5221 are not adjacent");
}

TEST(HexGrid, HexsideIsTheSameFromEitherSide) {
  Grid g = chalons();
  Hex a = g.parse("3114");
  std::unordered_set<Hexside> sides;
  for (Direction d : kAllDirections) {
    Hex n = neighbour(a, d);
    Hexside s = Hexside::of(a, d);
    EXPECT_EQ(Hexside::between(a, n), s);
    EXPECT_EQ(Hexside::between(n, a), s);
    EXPECT_EQ(Hexside::of(n, opposite(d)), s);
    EXPECT_TRUE(s.touches(a));
    EXPECT_TRUE(s.touches(n));
    EXPECT_LE(static_cast<int>(s.dir), 2);
    sides.insert(s);
  }
  EXPECT_EQ(sides.size(), 6u);
  EXPECT_EQ(Hexside::between(a, g.parse("3116")), std::nullopt);
  EXPECT_EQ(g.requireHexside(g.parse("3215"), a), Hexside::of(a, Direction::SE));
}

TEST(HexGrid, HexsideKeysAreUniqueAcrossTheMap) {
  Grid g = chalons();
  std::set<uint64_t> keys;
  std::set<Hexside> sides;
  for (Hex h : g.hexes()) {
    for (Direction d : kAllDirections) {
      Hexside s = Hexside::of(h, d);
      sides.insert(s);
      keys.insert(s.key());
    }
  }
  EXPECT_EQ(keys.size(), sides.size());
}

TEST(HexGrid, NumericLabelsRoundTrip) {
  Grid g = chalons();
  for (Hex h : g.hexes()) EXPECT_EQ(g.parse(g.label(h)), h);
  Hex h = g.parse("2725");
  EXPECT_EQ(g.toOffset(h), (Offset{27, 25}));
  EXPECT_EQ(g.label(g.toHex(Offset{3, 4})), "0304");
  EXPECT_EQ(g.parseOffset("0100"), (Offset{1, 0}));
}

TEST(HexGrid, LetterLabelsRoundTrip) {
  Grid g(GridSpec{1, 60, 1, 40, LabelStyle::Letters, ColumnShift::OddDown});
  for (Hex h : g.hexes()) EXPECT_EQ(g.parse(g.label(h)), h);
  EXPECT_EQ(g.toOffset(g.parse("L9")), (Offset{12, 9}));
  EXPECT_EQ(g.toOffset(g.parse("A1")), (Offset{1, 1}));
  EXPECT_EQ(g.toOffset(g.parse("Z40")), (Offset{26, 40}));
  EXPECT_EQ(g.toOffset(g.parse("AA1")), (Offset{27, 1}));
  EXPECT_EQ(g.toOffset(g.parse("bh7")), (Offset{60, 7}));
  EXPECT_EQ(g.label(g.toHex(Offset{60, 7})), "BH7");
  EXPECT_EQ(g.parse("L09"), g.parse("L9"));
  EXPECT_EQ(columnLetters(1), "A");
  EXPECT_EQ(columnLetters(26), "Z");
  EXPECT_EQ(columnLetters(27), "AA");
  EXPECT_EQ(columnLetters(52), "AZ");
  EXPECT_EQ(columnLetters(53), "BA");
  EXPECT_EQ(columnLetters(702), "ZZ");
  EXPECT_EQ(columnLetters(703), "AAA");
}

TEST(HexGrid, LetterMapAdjacencyFollowsTheSameColumnRule) {
  Grid g(GridSpec{1, 30, 1, 20, LabelStyle::Letters, ColumnShift::OddDown});
  // L is column 12 (even): its neighbours in K and M are rows 8 and 9.
  EXPECT_EQ(labelsOf(g, g.neighbours(g.parse("L9"))),
            (std::vector<std::string>{"K8", "K9", "L10", "L8", "M8", "M9"}));
}

TEST(HexGrid, WideNumericMapsPadToThreeDigits) {
  Grid g(GridSpec{1, 120, 1, 40});
  EXPECT_EQ(g.label(g.toHex(Offset{7, 3})), "007003");
  EXPECT_EQ(g.parse("120040"), g.toHex(Offset{120, 40}));
}

TEST(HexGrid, OffMapHexesAreErrors) {
  Grid g = chalons();
  EXPECT_EQ(errorOf([&] { g.parse("5630"); }), "hex 5630 is off the map (columns 1-55, rows 0-27)");
  EXPECT_EQ(errorOf([&] { g.parse("0028"); }), "hex 0028 is off the map (columns 1-55, rows 0-27)");
  EXPECT_EQ(errorOf([&] { g.parse("5528"); }), "hex 5528 is off the map (columns 1-55, rows 0-27)");
  EXPECT_NO_THROW(g.parse("5527"));
  EXPECT_FALSE(g.contains(g.toHex(Offset{0, 5})));
  EXPECT_EQ(g.indexOf(g.toHex(Offset{56, 1})), kNoIndex);
  EXPECT_EQ(errorOf([&] {
              g.require(g.toHex(Offset{-3, 2}));
            }),
            "hex column -3 row 2 is off the map (columns 1-55, rows 0-27)");
  Grid d(GridSpec{1, 21, 1, 12, LabelStyle::Letters});
  EXPECT_EQ(errorOf([&] { d.parse("V3"); }), "hex V3 is off the map (columns A-U, rows 1-12)");
  EXPECT_EQ(errorOf([&] { d.parse("A0"); }), "hex A0 is off the map (columns A-U, rows 1-12)");
}

TEST(HexGrid, MalformedLabelsAreErrors) {
  Grid g = chalons();
  EXPECT_EQ(errorOf([&] { g.parse("519"); }),
            "malformed hex label '519': expected 4 digits, column then row (e.g. 2725)");
  EXPECT_EQ(errorOf([&] { g.parse("52a9"); }),
            "malformed hex label '52a9': expected 4 digits, column then row (e.g. 2725)");
  EXPECT_EQ(errorOf([&] { g.parse(""); }),
            "malformed hex label '': expected 4 digits, column then row (e.g. 2725)");
  EXPECT_EQ(errorOf([&] { g.parse("L9"); }),
            "malformed hex label 'L9': expected 4 digits, column then row (e.g. 2725)");
  Grid d(GridSpec{1, 30, 1, 20, LabelStyle::Letters});
  for (const char* bad : {"9L", "L", "12", "L9x", "L-9", "ABCD1", " L9", ""}) {
    EXPECT_EQ(errorOf([&] { d.parse(bad); }),
              std::string("malformed hex label '") + bad +
                  "': expected column letters then a row number (e.g. L9)")
        << bad;
  }
}

TEST(HexGrid, BadGridSpecsAreErrors) {
  EXPECT_EQ(errorOf([] {
              Grid(GridSpec{1, 0, 1, 10});
            }),
            "a map must have 1 to 1000 columns and rows, not 0 x 10");
  EXPECT_EQ(errorOf([] {
              Grid(GridSpec{0, 10, 1, 10, LabelStyle::Letters});
            }),
            "a map numbered with column letters cannot start at column 0 row 1");
}

TEST(HexGrid, IndicesAreDenseAndColumnMajor) {
  Grid g(GridSpec{1, 60, 1, 40});
  ASSERT_EQ(g.size(), 2400);
  for (int32_t i = 0; i < g.size(); ++i) EXPECT_EQ(g.indexOf(g.hexAt(i)), i);
  EXPECT_EQ(g.label(g.hexAt(0)), "0101");
  EXPECT_EQ(g.label(g.hexAt(1)), "0102");
  EXPECT_EQ(g.label(g.hexAt(40)), "0201");
  for (int32_t i = 0; i < g.size(); ++i) {
    for (Direction d : kAllDirections) {
      int32_t n = g.neighbourIndices(i)[static_cast<size_t>(d)];
      Hex expected = neighbour(g.hexAt(i), d);
      EXPECT_EQ(n, g.indexOf(expected));
    }
  }
}

TEST(HexGridProperty, DistanceIsAMetric) {
  Grid g(GridSpec{1, 55, 1, 27});
  std::mt19937 rng(12345);
  std::uniform_int_distribution<int32_t> pick(0, g.size() - 1);
  for (int i = 0; i < 5000; ++i) {
    Hex a = g.hexAt(pick(rng));
    Hex b = g.hexAt(pick(rng));
    Hex c = g.hexAt(pick(rng));
    EXPECT_EQ(distance(a, b), distance(b, a));
    EXPECT_EQ(distance(a, b) == 0, a == b);
    EXPECT_LE(distance(a, c), distance(a, b) + distance(b, c));
    // Distance is the number of steps of a breadth-first walk: one step changes it by one.
    for (Direction d : kAllDirections) {
      int step = distance(neighbour(a, d), b) - distance(a, b);
      EXPECT_TRUE(step == -1 || step == 0 || step == 1);
    }
  }
}

TEST(HexGridProperty, DistanceEqualsBreadthFirstSteps) {
  Grid g(GridSpec{1, 55, 1, 27});
  Hex start = g.parse("2714");
  std::vector<int> dist(static_cast<size_t>(g.size()), -1);
  std::vector<int32_t> frontier = {g.indexOf(start)};
  dist[static_cast<size_t>(frontier[0])] = 0;
  for (size_t i = 0; i < frontier.size(); ++i) {
    int32_t cur = frontier[i];
    for (int32_t n : g.neighbourIndices(cur)) {
      if (n == kNoIndex || dist[static_cast<size_t>(n)] >= 0) continue;
      dist[static_cast<size_t>(n)] = dist[static_cast<size_t>(cur)] + 1;
      frontier.push_back(n);
    }
  }
  // The map is wide enough around 2714 that no shortest route is bent by its edge.
  for (int32_t i = 0; i < g.size(); ++i) {
    EXPECT_EQ(dist[static_cast<size_t>(i)], distance(start, g.hexAt(i))) << g.label(g.hexAt(i));
  }
}

}  // namespace
}  // namespace polemos::hex
