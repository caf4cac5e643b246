// Battle maps: terrain kinds, hex and hexside feature sets (several per hexside, shared by both
// hexes, also on the map edge), elevations, named hex groups, and their errors.
#include <gtest/gtest.h>

#include <string>

#include "hex/map.h"

namespace polemos::hex {
namespace {

// Feature ids as a ruleset might number them; the map gives them no meaning.
constexpr int kStream = 0;
constexpr int kRidge = 1;
constexpr int kFord = 2;
constexpr int kTrail = 5;

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const HexError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(HexMap, TerrainAndElevationPerHex) {
  Map m(GridSpec{1, 55, 0, 28});
  Hex h = m.grid().parse("4719");
  EXPECT_EQ(m.terrain(h), 0);
  m.setTerrain(h, 3);
  m.setElevation(h, 2);
  EXPECT_EQ(m.terrain(h), 3);
  EXPECT_EQ(m.elevation(h), 2);
  EXPECT_EQ(m.terrain(m.grid().parse("4720")), 0);
  m.fillTerrain(1);
  EXPECT_EQ(m.terrain(h), 1);
  EXPECT_EQ(m.elevation(h), 2);
}

TEST(HexMap, HexFeatures) {
  Map m(GridSpec{1, 20, 1, 20});
  Hex h = m.grid().parse("0505");
  m.addHexFeature(h, kTrail);
  EXPECT_TRUE(m.hexHas(h, kTrail));
  EXPECT_FALSE(m.hexHas(h, kStream));
  m.removeHexFeature(h, kTrail);
  EXPECT_TRUE(m.hexFeatures(h).empty());
}

TEST(HexMap, HexsideFeaturesAreSharedByBothHexes) {
  Map m(GridSpec{1, 55, 0, 28});
  const Grid& g = m.grid();
  Hex a = g.parse("3114");
  Hex b = g.parse("3215");
  m.addHexsideFeature(a, b, kRidge);
  m.addHexsideFeature(Hexside::of(b, Direction::NW), kStream);
  EXPECT_TRUE(m.hexsideHas(b, a, kRidge));
  EXPECT_TRUE(m.hexsideHas(a, b, kStream));
  EXPECT_EQ(m.hexsideFeatures(a, b).ids(), (std::vector<int>{kStream, kRidge}));
  EXPECT_FALSE(m.hexsideHas(a, g.parse("3214"), kRidge));
  m.removeHexsideFeature(*Hexside::between(a, b), kStream);
  EXPECT_EQ(m.hexsideFeatures(b, a).ids(), (std::vector<int>{kRidge}));
  EXPECT_TRUE(m.hexsideFeatures(a, b).any(FeatureSet(uint64_t{1} << kRidge)));
}

TEST(HexMap, HexsidesOnTheMapEdgeCarryFeatures) {
  Map m(GridSpec{1, 10, 1, 10});
  const Grid& g = m.grid();
  // The north side of 0201 (even column, top row) and the SE side of 1010 face off the map.
  Hexside north = Hexside::of(g.parse("0201"), Direction::N);
  Hexside south = Hexside::of(g.parse("1010"), Direction::SE);
  Hexside west = Hexside::of(g.parse("0105"), Direction::SW);
  for (const Hexside& s : {north, south, west}) {
    m.addHexsideFeature(s, kFord);
    EXPECT_TRUE(m.hexsideHas(s, kFord));
  }
  Hexside outside = Hexside::of(g.toHex(Offset{0, 0}), Direction::NW);
  EXPECT_EQ(
      errorOf([&] { m.hexsideHas(outside, kFord); }),
      "the hexside between column -1 row -1 and 0000 is off the map (columns 1-10, rows 1-10)");
}

TEST(HexMap, AllHexsidesOfTheMapHaveDistinctStorage) {
  Map m(GridSpec{1, 12, 1, 9});
  const Grid& g = m.grid();
  int n = 0;
  for (Hex h : g.hexes()) {
    for (Direction d : kAllDirections) {
      Hexside s = Hexside::of(h, d);
      if (!m.hexsideHas(s, kRidge)) {
        m.addHexsideFeature(s, kRidge);
        ++n;
      }
    }
  }
  // 12 x 9 hexes: each has 6 sides, inner sides are shared. Count them independently.
  std::set<Hexside> distinct;
  for (Hex h : g.hexes()) {
    for (Direction d : kAllDirections) distinct.insert(Hexside::of(h, d));
  }
  EXPECT_EQ(static_cast<size_t>(n), distinct.size());
}

TEST(HexMap, FeatureIdsAreLimited) {
  Map m(GridSpec{1, 10, 1, 10});
  Hex h = m.grid().parse("0505");
  EXPECT_NO_THROW(m.addHexFeature(h, kMaxFeatureId));
  EXPECT_EQ(errorOf([&] { m.addHexFeature(h, 64); }), "feature id 64 is out of range 0-63");
  EXPECT_EQ(errorOf([&] { m.hexHas(h, -1); }), "feature id -1 is out of range 0-63");
}

TEST(HexMap, OffMapAccessIsAnError) {
  Map m(GridSpec{1, 55, 0, 28});
  Hex off = m.grid().toHex(Offset{56, 30});
  EXPECT_EQ(errorOf([&] { m.terrain(off); }), "hex 5630 is off the map (columns 1-55, rows 0-27)");
  EXPECT_EQ(errorOf([&] { m.setElevation(off, 1); }),
            "hex 5630 is off the map (columns 1-55, rows 0-27)");
  EXPECT_EQ(errorOf([&] { m.hexsideHas(m.grid().parse("0101"), m.grid().parse("0303"), kRidge); }),
            "hexes 0101 and 0303 are not adjacent");
}

TEST(HexMap, NamedGroups) {
  Map m(GridSpec{1, 55, 0, 28});
  const Grid& g = m.grid();
  for (const char* l : {"4719", "4720", "4724", "4719"}) m.addToGroup("camp", g.parse(l));
  m.addToGroup("exits", g.parse("3027"));
  ASSERT_TRUE(m.hasGroup("camp"));
  auto camp = m.group("camp");
  ASSERT_EQ(camp.size(), 3u);
  EXPECT_EQ(g.label(camp[0]), "4719");
  EXPECT_EQ(g.label(camp[2]), "4724");
  EXPECT_TRUE(m.inGroup("camp", g.parse("4720")));
  EXPECT_FALSE(m.inGroup("camp", g.parse("5216")));
  EXPECT_FALSE(m.inGroup("nowhere", g.parse("5216")));
  EXPECT_EQ(m.groupNames(), (std::vector<std::string>{"camp", "exits"}));
  EXPECT_EQ(errorOf([&] { m.group("nowhere"); }), "no hex group named 'nowhere'");
  EXPECT_EQ(errorOf([&] {
              m.addToGroup("camp", g.toHex(Offset{60, 1}));
            }),
            "hex 6001 is off the map (columns 1-55, rows 0-27)");
}

}  // namespace
}  // namespace polemos::hex
