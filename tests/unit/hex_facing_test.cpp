// Facing: sectors in both schemes (Deluxe 8.2 and its approach vectors, Four Battles 16.1), the
// sector from which an adjacent attacker engages, bearings and arcs for distant hexes (with the
// two boundary rules), and zones of control (all six hexes, the three frontal ones, vetoes for a
// river hexside and prohibited terrain, the map edge).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <string>
#include <vector>

#include "hex/facing.h"
#include "hex/map.h"

namespace polemos::hex {
namespace {

Grid grid() {
  return Grid(GridSpec{1, 30, 1, 20});
}

std::vector<std::string> sortedLabels(const Grid& g, std::vector<Hex> hexes) {
  std::vector<std::string> out;
  for (Hex h : hexes) out.push_back(g.label(h));
  std::sort(out.begin(), out.end());
  return out;
}

TEST(HexFacing, FourSectorSchemeAroundAUnitFacingNorth) {
  // Deluxe 8.2: Front, Front Flank, Rear Flank, Rear; 11.2 iv gives +0, +1, +2, +4 for them.
  Grid g = grid();
  Hex at = g.parse("1010");
  const std::map<std::string, Sector> expected = {
      {"1009", Sector::Front},     {"1109", Sector::FrontFlank}, {"0909", Sector::FrontFlank},
      {"1110", Sector::RearFlank}, {"0910", Sector::RearFlank},  {"1011", Sector::Rear}};
  const std::map<Sector, int> approachVector = {
      {Sector::Front, 0}, {Sector::FrontFlank, 1}, {Sector::RearFlank, 2}, {Sector::Rear, 4}};
  int total = 0;
  for (const auto& [label, sector] : expected) {
    Sector s = adjacentSector(g, at, Direction::N, g.parse(label), kFourSectorScheme);
    EXPECT_EQ(s, sector) << label;
    total += approachVector.at(s);
  }
  EXPECT_EQ(total, 0 + 1 + 1 + 2 + 2 + 4);
}

TEST(HexFacing, ThreeSectorSchemeAroundAUnitFacingSouthEast) {
  // Four Battles 16.1: the faced hex and the hexes either side are the front, the hex behind is
  // the rear, the two others the flanks.
  Grid g = grid();
  Hex at = g.parse("1010");
  const std::map<std::string, Sector> expected = {{"1110", Sector::Front}, {"1109", Sector::Front},
                                                  {"1011", Sector::Front}, {"1009", Sector::Flank},
                                                  {"0910", Sector::Flank}, {"0909", Sector::Rear}};
  for (const auto& [label, sector] : expected) {
    EXPECT_EQ(adjacentSector(g, at, Direction::SE, g.parse(label), kThreeSectorScheme), sector)
        << label;
  }
}

TEST(HexFacing, SectorsRotateWithTheFacing) {
  for (Direction facing : kAllDirections) {
    for (int k = 0; k < kDirectionCount; ++k) {
      Direction toward = rotate(facing, k);
      EXPECT_EQ(sectorOf(kFourSectorScheme, facing, toward),
                kFourSectorScheme[static_cast<size_t>(k)]);
      EXPECT_EQ(sectorOf(kThreeSectorScheme, facing, toward),
                kThreeSectorScheme[static_cast<size_t>(k)]);
    }
  }
  EXPECT_EQ(sectorName(Sector::FrontFlank), "front flank");
  EXPECT_EQ(sectorName(Sector::Rear), "rear");
}

TEST(HexFacing, AdjacentSectorNeedsAdjacentHexes) {
  Grid g = grid();
  try {
    adjacentSector(g, g.parse("1010"), Direction::N, g.parse("1012"), kFourSectorScheme);
    FAIL() << "expected HexError";
  } catch (const HexError& e) {
    EXPECT_STREQ(e.what(), "hexes 1010 and 1012 are not adjacent");
  }
}

TEST(HexFacing, Bearings) {
  Grid g = grid();
  Hex at = g.parse("1010");
  auto b = [&](const char* to) { return bearing(g, at, g.parse(to)); };
  EXPECT_EQ(b("1009").first, Direction::N);
  EXPECT_FALSE(b("1009").onBoundary());
  EXPECT_EQ(b("1005").first, Direction::N);
  EXPECT_EQ(b("1412").first, Direction::SE);  // four hexes straight south-east
  EXPECT_EQ(b("1511").first, Direction::SE);
  EXPECT_FALSE(b("1511").onBoundary());
  // Due east runs through hex vertices, between the NE and SE wedges.
  EXPECT_TRUE(b("1410").onBoundary());
  EXPECT_EQ(b("1410").first, Direction::NE);
  EXPECT_EQ(b("1410").second, Direction::SE);
  // 0908 lies up and to the left at 30 degrees from north: between NW and N.
  EXPECT_EQ(b("0908").first, Direction::NW);
  EXPECT_EQ(b("0908").second, Direction::N);
  // Due west.
  EXPECT_EQ(b("0610").first, Direction::SW);
  EXPECT_EQ(b("0610").second, Direction::NW);
  for (Direction d : kAllDirections) {
    Bearing adj = bearing(g, at, neighbour(at, d));
    EXPECT_EQ(adj.first, d);
    EXPECT_EQ(adj.second, d);
  }
}

TEST(HexFacing, ArcSectorsAtADistance) {
  Grid g = grid();
  Hex at = g.parse("1010");
  auto arc = [&](const char* to, const SectorScheme& scheme, BoundaryRule rule) {
    return arcSector(g, at, Direction::N, g.parse(to), scheme, rule);
  };
  EXPECT_EQ(arc("1005", kFourSectorScheme, BoundaryRule::TowardFront), Sector::Front);
  EXPECT_EQ(arc("1016", kFourSectorScheme, BoundaryRule::TowardFront), Sector::Rear);
  EXPECT_EQ(arc("1511", kFourSectorScheme, BoundaryRule::TowardFront), Sector::RearFlank);
  EXPECT_EQ(arc("1410", kFourSectorScheme, BoundaryRule::TowardFront), Sector::FrontFlank);
  EXPECT_EQ(arc("1410", kFourSectorScheme, BoundaryRule::TowardRear), Sector::RearFlank);
  EXPECT_EQ(arc("0908", kFourSectorScheme, BoundaryRule::TowardFront), Sector::Front);
  EXPECT_EQ(arc("0908", kFourSectorScheme, BoundaryRule::TowardRear), Sector::FrontFlank);
  EXPECT_EQ(arc("1410", kThreeSectorScheme, BoundaryRule::TowardFront), Sector::Front);
  EXPECT_EQ(arc("1410", kThreeSectorScheme, BoundaryRule::TowardRear), Sector::Flank);
  // Where both wedges are in the same sector the rule does not matter.
  EXPECT_EQ(arc("0908", kThreeSectorScheme, BoundaryRule::TowardRear), Sector::Front);
  // Adjacent hexes get the same answer as adjacentSector, for every facing.
  for (Direction facing : kAllDirections) {
    for (Hex n : g.neighbours(at)) {
      EXPECT_EQ(arcSector(g, at, facing, n, kFourSectorScheme, BoundaryRule::TowardRear),
                adjacentSector(g, at, facing, n, kFourSectorScheme));
    }
  }
  try {
    arc("1010", kFourSectorScheme, BoundaryRule::TowardFront);
    FAIL() << "expected HexError";
  } catch (const HexError& e) {
    EXPECT_STREQ(e.what(), "hex 1010 has no bearing to itself");
  }
}

TEST(HexFacing, BearingWedgesAreSixtyDegreesWide) {
  // Every hex within distance 6 is in the wedge (or on the boundary) its true angle says.
  Grid g = grid();
  Hex at = g.parse("1510");
  for (Hex h : g.hexes()) {
    if (h == at || distance(at, h) > 6) continue;
    double x = 1.5 * (h.q - at.q);
    double y = -std::sqrt(3.0) * ((h.r - at.r) + (h.q - at.q) / 2.0);  // north is up
    double clockwiseFromNorth = std::atan2(x, y) * 180.0 / std::numbers::pi;
    if (clockwiseFromNorth < 0) clockwiseFromNorth += 360.0;
    double sector = clockwiseFromNorth / 60.0;
    double nearest = std::round(sector);
    Bearing b = bearing(g, at, h);
    if (std::abs(sector - std::floor(sector) - 0.5) < 1e-9) {
      EXPECT_TRUE(b.onBoundary()) << g.label(h);
      EXPECT_EQ(static_cast<int>(b.first), static_cast<int>(std::floor(sector)) % 6) << g.label(h);
    } else {
      EXPECT_FALSE(b.onBoundary()) << g.label(h);
      EXPECT_EQ(static_cast<int>(b.first), static_cast<int>(nearest) % 6) << g.label(h);
    }
  }
}

// ---- Zones of control ----

constexpr int kClear = 0;
constexpr int kMarsh = 3;
constexpr int kRiver = 4;

TEST(HexZoc, AllSixAdjacentHexes) {
  // Standard 6.6: ZOC extends into all hexes adjacent to the unit.
  Grid g = grid();
  EXPECT_EQ(sortedLabels(g, zoneOfControl(g, g.parse("1010"), Direction::N, kAllSixMask)),
            (std::vector<std::string>{"0909", "0910", "1009", "1011", "1109", "1110"}));
}

TEST(HexZoc, ThreeFrontalHexes) {
  Grid g = grid();
  EXPECT_EQ(sortedLabels(g, zoneOfControl(g, g.parse("1010"), Direction::N, kFrontThreeMask)),
            (std::vector<std::string>{"0909", "1009", "1109"}));
  EXPECT_EQ(sortedLabels(g, zoneOfControl(g, g.parse("1010"), Direction::S, kFrontThreeMask)),
            (std::vector<std::string>{"0910", "1011", "1110"}));
  EXPECT_EQ(sortedLabels(g, zoneOfControl(g, g.parse("1111"), Direction::NE, kFrontThreeMask)),
            (std::vector<std::string>{"1110", "1211", "1212"}));
  // A custom mask: the front hex only.
  EXPECT_EQ(sortedLabels(g, zoneOfControl(g, g.parse("1010"), Direction::SW, DirectionMask{1})),
            (std::vector<std::string>{"0910"}));
}

TEST(HexZoc, VetoedAcrossARiverHexsideAndIntoProhibitedTerrain) {
  Map m(GridSpec{1, 30, 1, 20});
  const Grid& g = m.grid();
  Hex at = g.parse("1010");
  m.addHexsideFeature(at, g.parse("1109"), kRiver);
  m.setTerrain(g.parse("1011"), kMarsh);
  ZocFilter filter = [&m](Hex from, Hex to, Direction) {
    return !m.hexsideHas(from, to, kRiver) && m.terrain(to) != kMarsh;
  };
  EXPECT_EQ(sortedLabels(g, zoneOfControl(g, at, Direction::N, kAllSixMask, filter)),
            (std::vector<std::string>{"0909", "0910", "1009", "1110"}));
  EXPECT_EQ(sortedLabels(g, zoneOfControl(g, at, Direction::N, kFrontThreeMask, filter)),
            (std::vector<std::string>{"0909", "1009"}));
  // The filter is told the direction, so a ruleset can also veto by facing.
  std::vector<Direction> asked;
  zoneOfControl(g, at, Direction::N, kAllSixMask, [&](Hex, Hex, Direction d) {
    asked.push_back(d);
    return true;
  });
  EXPECT_EQ(asked, std::vector<Direction>(kAllDirections.begin(), kAllDirections.end()));
  EXPECT_EQ(m.terrain(g.parse("1009")), kClear);
}

TEST(HexZoc, StopsAtTheMapEdge) {
  Grid g = grid();
  EXPECT_EQ(sortedLabels(g, zoneOfControl(g, g.parse("0101"), Direction::N, kAllSixMask)),
            (std::vector<std::string>{"0102", "0201", "0202"}));
  EXPECT_THROW(zoneOfControl(g, g.toHex(Offset{0, 1}), Direction::N, kAllSixMask), HexError);
}

}  // namespace
}  // namespace polemos::hex
