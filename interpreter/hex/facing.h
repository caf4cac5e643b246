// Facing: sectors around a unit, bearings between hexes, and zones of control.
//
// A unit faces one of the six directions, i.e. one hexside and the hex beyond it. Both board-game
// families that use facing describe it that way: Deluxe 8.2 points the top of the counter "toward
// one of its six adjacent hexes" (its Front hex), Four Battles 16.1 points it at a hexside whose
// hex "and the hexes on either side are the front". Directions around a unit are counted relative
// to its facing, clockwise: 0 is straight ahead, 3 directly behind. A SectorScheme names the sector
// of each relative direction, so a ruleset picks (or defines) its own; two common schemes are
// provided. This module knows no unit types and no combat modifiers.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "hex/coord.h"
#include "hex/grid.h"

namespace polemos::hex {

enum class Sector : uint8_t { Front, FrontFlank, Flank, RearFlank, Rear };

// "front", "front flank", "flank", "rear flank", "rear".
std::string_view sectorName(Sector s);

// The sector of each relative direction, index 0 = the facing, then clockwise.
using SectorScheme = std::array<Sector, kDirectionCount>;

// One front hex, two front flank, two rear flank, one rear (Deluxe 8.2, approach vectors 11.2).
inline constexpr SectorScheme kFourSectorScheme = {Sector::Front,     Sector::FrontFlank,
                                                   Sector::RearFlank, Sector::Rear,
                                                   Sector::RearFlank, Sector::FrontFlank};
// Three front hexes, two flank, one rear (Four Battles 16.1).
inline constexpr SectorScheme kThreeSectorScheme = {Sector::Front, Sector::Front, Sector::Flank,
                                                    Sector::Rear,  Sector::Flank, Sector::Front};

// The sector, for a unit facing `facing`, of the direction `toward` (from the unit outwards).
constexpr Sector sectorOf(const SectorScheme& scheme, Direction facing, Direction toward) {
  return scheme[static_cast<size_t>(clockwiseSteps(facing, toward))];
}

// The sector from which a unit in the adjacent hex `other` engages a unit at `at` facing `facing`.
// Throws HexError if the hexes are not adjacent.
Sector adjacentSector(const Grid& grid, Hex at, Direction facing, Hex other,
                      const SectorScheme& scheme);

// The direction of the line from one hex centre to another, as one of six 60-degree wedges centred
// on the six directions. When the line runs exactly along the boundary between two wedges (through
// hex vertices, e.g. due east from 0101 to 0301), both are given: `second` is `first` turned one
// hexside clockwise. Otherwise first == second.
struct Bearing {
  Direction first = Direction::N;
  Direction second = Direction::N;
  bool onBoundary() const { return first != second; }
};

// Throws HexError if from == to (a hex has no bearing to itself).
Bearing bearing(const Grid& grid, Hex from, Hex to);

// How to settle a hex lying exactly on the boundary between two sectors.
enum class BoundaryRule : uint8_t {
  TowardFront,  // the sector nearer the front (the defender's benefit)
  TowardRear,   // the sector nearer the rear (the attacker's benefit)
};

// The sector of a unit at `at` facing `facing` in which hex `other` lies, at any distance (arcs of
// fire, flank attacks from afar), by the direction of the line between the centres. For adjacent
// hexes this equals adjacentSector. Throws HexError if other == at.
Sector arcSector(const Grid& grid, Hex at, Direction facing, Hex other, const SectorScheme& scheme,
                 BoundaryRule rule);

// Relative directions as a bit set: bit k is the direction k hexsides clockwise from the facing.
using DirectionMask = uint8_t;
inline constexpr DirectionMask kAllSixMask = 0x3f;
// Straight ahead and the hexes either side of it.
inline constexpr DirectionMask kFrontThreeMask = (1u << 0) | (1u << 1) | (1u << 5);

// Vetoes ZOC projection from `from` into the adjacent `to` across the hexside in direction `dir`
// (return false to veto): e.g. not across a river hexside, not into prohibited terrain.
using ZocFilter = std::function<bool(Hex from, Hex to, Direction dir)>;

// The on-map hexes into which a unit at `at` facing `facing` projects its zone of control: the
// neighbours in the relative directions of `projects` that `allow` accepts (an empty filter
// accepts all), in direction order N, NE, SE, S, SW, NW. For a unit without facing pass any facing
// with kAllSixMask. Throws HexError if `at` is off the map.
std::vector<Hex> zoneOfControl(const Grid& grid, Hex at, Direction facing, DirectionMask projects,
                               const ZocFilter& allow = {});

}  // namespace polemos::hex
