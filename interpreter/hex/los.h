// Straight lines between hex centres, and line of sight along them.
//
// traceLine() follows the straight line from the centre of one hex to the centre of another and
// reports, in order, every hex and hexside it meets. It uses exact integer arithmetic (cube
// coordinates scaled by a common denominator), so a line that runs exactly along a hexside or
// passes exactly through a hex vertex is recognised as such, and tracing b→a gives the reverse of
// a→b. lineOfSight() applies the usual board-game reading of such a line (see lineOfSight below).
// This module does not know what blocks sight: the caller supplies predicates on hexes and on
// hexsides, built from its ruleset's terrain, elevations or units.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "hex/coord.h"
#include "hex/grid.h"

namespace polemos::hex {

// One intervening step of a line: a single hex, or two hexes when the line runs exactly along the
// hexside between them ("congruent to a hexside"). For a pair, `hex` < `other`.
struct LineStep {
  Hex hex;
  Hex other;  // equal to `hex` for a single hex

  bool straddles() const { return !(hex == other); }
  friend bool operator==(const LineStep&, const LineStep&) = default;
};

// How a line meets a hexside.
enum class SideContact : uint8_t {
  Crossed,  // through the interior of the hexside, from one of its hexes into the other
  Along,    // exactly along the hexside, between its two hexes
  Corner,   // only at one of the hexside's end vertices
};

struct LineSide {
  Hexside side;
  SideContact contact = SideContact::Crossed;
  friend bool operator==(const LineSide&, const LineSide&) = default;
};

struct Line {
  Hex from;
  Hex to;
  // The hexes between `from` and `to` (both excluded), in order from `from`. Where the line runs
  // along the edge of the map a pair may include an off-map hex; single steps are always on the
  // map.
  std::vector<LineStep> steps;
  // Every hexside the line meets, in order from `from`. The hexsides met at one vertex are
  // listed together, those met only at that vertex (Corner) in Hexside order.
  std::vector<LineSide> sides;
};

// Traces the line between the centres of two on-map hexes (throws HexError for an off-map one).
Line traceLine(const Grid& grid, Hex from, Hex to);

// Predicates deciding what blocks sight. They are called only for on-map hexes other than the two
// endpoints, and for hexsides with at least one on-map hex; anything off the map never blocks. An
// empty predicate blocks nothing.
using HexBlocks = std::function<bool(Hex)>;
using SideBlocks = std::function<bool(Hexside)>;

struct LosOptions {
  // Adjacent hexes always see each other, whatever the predicates say about their common hexside
  // (Standard 10.3: a missile unit in an enemy ZOC fires at the adjacent unit).
  bool adjacentAlwaysClear = true;
};

struct Sight {
  bool clear = true;
  // When blocked: where the line is first blocked, going from `from`. `step` is set when that is
  // an intervening hex or pair of hexes (for a pair: by whatever blocked the way past each of
  // them); `side` when it is a hexside crossed, or passed at the vertex where it ends.
  std::optional<LineStep> step;
  std::optional<Hexside> side;

  explicit operator bool() const { return clear; }
};

// Line of sight between the centres of two on-map hexes (throws HexError for an off-map one).
//
// The terrain of the two endpoint hexes never blocks (Standard 10.24). Each intervening single hex
// blocks if hexBlocks says so, each hexside crossed through its interior if sideBlocks says so.
// Where the line is exactly ambiguous it is read as "blocked only if blocked on both sides"
// (Standard 10.22), which is the same as asking whether a line nudged infinitesimally to either
// side would be blocked at that place:
//   - along the hexside between X and Y, entered from hex P and left into hex C: blocked only if
//     (side P|X, hex X or side X|C blocks) and (side P|Y, hex Y or side Y|C blocks); the hexside
//     X|Y itself, which the line runs along without crossing, does not block;
//   - exactly through the vertex where the line passes from hex H1 into H2 with hex Z touching the
//     line at that point only: blocked only if side H1|H2 blocks and (side H1|Z, hex Z or
//     side Z|H2 blocks).
// With predicates that do not depend on the direction of the line, lineOfSight(a, b) equals
// lineOfSight(b, a).
Sight lineOfSight(const Grid& grid, Hex from, Hex to, const HexBlocks& hexBlocks,
                  const SideBlocks& sideBlocks = {}, const LosOptions& options = {});

}  // namespace polemos::hex
