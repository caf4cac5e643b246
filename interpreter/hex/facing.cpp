// Facing sectors, bearings between hex centres, and zone-of-control projection.
//
// Bearings use cube coordinates (x = q, y = -q - r, z = r). The six 60-degree wedges around a hex
// are exactly the six orderings of a vector's cube components (the lines where two components are
// equal pass through hex vertices), and each wedge contains one direction, so a bearing is found
// with integer comparisons only.
#include "hex/facing.h"

#include <fmt/format.h>

namespace polemos::hex {
namespace {

// For each direction, the cube components (0 = x, 1 = y, 2 = z) from largest to smallest in its
// wedge; e.g. N = (0, 1, -1) has y > x > z.
constexpr std::array<std::array<int, 3>, kDirectionCount> kWedgeOrder = {{
    {1, 0, 2},  // N
    {0, 1, 2},  // NE
    {0, 2, 1},  // SE
    {2, 0, 1},  // S
    {2, 1, 0},  // SW
    {1, 2, 0},  // NW
}};

constexpr std::array<std::string_view, 5> kSectorNames = {"front", "front flank", "flank",
                                                          "rear flank", "rear"};

int severity(Sector s) {
  return static_cast<int>(s);
}

}  // namespace

std::string_view sectorName(Sector s) {
  return kSectorNames[static_cast<size_t>(s)];
}

Sector adjacentSector(const Grid& grid, Hex at, Direction facing, Hex other,
                      const SectorScheme& scheme) {
  return sectorOf(scheme, facing, grid.requireDirection(at, other));
}

Bearing bearing(const Grid& grid, Hex from, Hex to) {
  if (from == to) {
    throw HexError(fmt::format("hex {} has no bearing to itself", grid.label(from)));
  }
  int dq = to.q - from.q;
  int dr = to.r - from.r;
  std::array<int, 3> c = {dq, -dq - dr, dr};
  bool in[kDirectionCount] = {};
  for (int d = 0; d < kDirectionCount; ++d) {
    const auto& o = kWedgeOrder[static_cast<size_t>(d)];
    in[d] = c[static_cast<size_t>(o[0])] >= c[static_cast<size_t>(o[1])] &&
            c[static_cast<size_t>(o[1])] >= c[static_cast<size_t>(o[2])];
  }
  for (int d = 0; d < kDirectionCount; ++d) {
    if (!in[d]) continue;
    int next = (d + 1) % kDirectionCount;
    int prev = (d + kDirectionCount - 1) % kDirectionCount;
    if (in[next]) return Bearing{static_cast<Direction>(d), static_cast<Direction>(next)};
    if (in[prev]) return Bearing{static_cast<Direction>(prev), static_cast<Direction>(d)};
    return Bearing{static_cast<Direction>(d), static_cast<Direction>(d)};
  }
  // Every non-zero vector lies in at least one closed wedge.
  return Bearing{};
}

Sector arcSector(const Grid& grid, Hex at, Direction facing, Hex other, const SectorScheme& scheme,
                 BoundaryRule rule) {
  Bearing b = bearing(grid, at, other);
  Sector s1 = sectorOf(scheme, facing, b.first);
  Sector s2 = sectorOf(scheme, facing, b.second);
  bool firstIsFront = severity(s1) <= severity(s2);
  if (rule == BoundaryRule::TowardFront) return firstIsFront ? s1 : s2;
  return firstIsFront ? s2 : s1;
}

std::vector<Hex> zoneOfControl(const Grid& grid, Hex at, Direction facing, DirectionMask projects,
                               const ZocFilter& allow) {
  grid.require(at);
  std::vector<Hex> out;
  for (Direction d : kAllDirections) {
    if (((projects >> clockwiseSteps(facing, d)) & 1u) == 0) continue;
    Hex n = neighbour(at, d);
    if (!grid.contains(n)) continue;
    if (allow && !allow(at, n, d)) continue;
    out.push_back(n);
  }
  return out;
}

}  // namespace polemos::hex
