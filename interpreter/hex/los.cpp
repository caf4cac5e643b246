// Straight lines between hex centres, traced exactly, and line of sight along them.
//
// The geometry works in cube coordinates (x = q, y = -q - r, z = r), in which the hex centres form
// a regular triangular lattice. The cell of hex h is the set of points p with |u(p) - u(h)| <= 1,
// |v(p) - v(h)| <= 1 and |w(p) - w(h)| <= 1, where u = x - y, v = y - z and w = z - x, so every
// hexside lies on a line where u, v or w is an integer. Along the line from centre A to centre B
// each of u, v and w changes linearly, passing integers at evenly spaced times i / |change|; with
// a common multiple of the three changes as the unit of time, every event (leaving a hex, passing
// a vertex) happens at an integer time, and the walk compares 64-bit integers only. There
// is no floating point and no epsilon: "exactly along a hexside" and "exactly through a vertex"
// are decided by equalities between integers.
#include "hex/los.h"

#include <algorithm>
#include <array>
#include <cstdlib>

namespace polemos::hex {
namespace {

struct Cube {
  int64_t x = 0;
  int64_t y = 0;
  int64_t z = 0;
};

Cube cubeOf(Hex h) {
  return Cube{h.q, -static_cast<int64_t>(h.q) - h.r, h.r};
}

// What the walk reports, in order along the line.
struct LineEvent {
  enum class Kind : uint8_t {
    Region,  // the line is now inside hex a, or (a != b) running along the hexside between a and b
    Edge,    // it passes from hex a into hex b through the interior of their hexside
    Vertex,  // it passes from hex a into hex b through a vertex; hex c touches it there only
  };
  Kind kind = Kind::Region;
  Hex a;
  Hex b;
  Hex c;
};

// The walk reports the first region, `from`, before anything else; both walkers below follow on
// from there. They stop early when visit returns false, and report `to` as the last region.
//
// Lines along hexsides. If u (say) does not change along the line, the line lies on the integer
// line u = u(from), and the step from `from` to `to` is a multiple k of one of the six "spine"
// vectors such as cube (1, 1, -2), the sum of two neighbour offsets (1, 0, -1) + (0, 1, -1). Each
// spine step runs from a hex centre through the interior to a vertex, along the whole hexside
// between those two neighbours, through the next vertex and interior to the next centre: so the
// line alternates pairs and single hexes, with no crossing of a hexside's interior.
template <class Visit>
void walkAlongSides(const Cube& a, const Cube& delta, const std::array<int64_t, 3>& change,
                    Visit&& visit) {
  // The spine vector is delta / k, where k is the common factor: delta has the form
  // (t, t, -2t) up to the order of components, so k = |t| = change of any other family / 3.
  int64_t k = std::max({change[0], change[1], change[2]}) / 3;
  Cube spine{delta.x / k, delta.y / k, delta.z / k};
  // The two neighbours on either side of the first spine step, whose offsets add up to the spine:
  // each takes half of its +-2 component and one of its +-1 components, and a third component
  // that makes the sum zero.
  std::array<int64_t, 3> sv = {spine.x, spine.y, spine.z};
  size_t big = std::abs(sv[0]) == 2 ? 0 : std::abs(sv[1]) == 2 ? 1 : 2;
  int64_t half = sv[big] / 2;
  std::array<int64_t, 3> n1{};
  std::array<int64_t, 3> n2{};
  n1[big] = half;
  n2[big] = half;
  size_t j1 = (big + 1) % 3;
  size_t j2 = (big + 2) % 3;
  n1[j1] = sv[j1];
  n1[j2] = -half - sv[j1];
  n2[j2] = sv[j2];
  n2[j1] = -half - sv[j2];
  auto hexAt = [](const Cube& c, const std::array<int64_t, 3>& o) {
    return Hex{static_cast<int>(c.x + o[0]), static_cast<int>(c.z + o[2])};
  };
  Cube centre = a;
  for (int64_t i = 0; i < k; ++i) {
    Hex p = hexAt(centre, n1);
    Hex q = hexAt(centre, n2);
    if (q < p) std::swap(p, q);
    if (!visit(LineEvent{LineEvent::Kind::Region, p, q, p})) return;
    centre = Cube{centre.x + spine.x, centre.y + spine.y, centre.z + spine.z};
    Hex c = hexAt(centre, {0, 0, 0});
    if (!visit(LineEvent{LineEvent::Kind::Region, c, c, c})) return;
  }
}

// The fast walker, for lines crossing every family of lines (all but those along hexsides). It
// follows the current hex incrementally. Inside hex H the value of u stays within 1 of u(H), so the
// line leaves H where u first reaches u(H) + 1 (if u grows along the line; u(H) - 1 if it falls),
// across that edge into the neighbour whose u is 2 further on; likewise for v and w. Family f
// passes integers at the times i * stride[f], so each exit time is one multiplication, and the
// walk takes one step per hex. When two families exit at once the line passes through the vertex
// where those two edges meet: the third family's line runs through that vertex between the two
// candidate neighbours, and the sign of its slope says which one the line enters.
template <class Visit>
void walkAcross(const Cube& a, const Cube& delta, const std::array<int64_t, 3>& change,
                Visit&& visit) {
  // The product of the changes serves as the unit of time (any common multiple would do, and this
  // one needs no division). On any grid within kMaxGridSide each change is below 10^4, so times
  // stay below 10^13, far from overflow.
  const int64_t span = change[0] * change[1] * change[2];
  const std::array<int64_t, 3> stride = {change[1] * change[2], change[0] * change[2],
                                         change[0] * change[1]};
  const std::array<int64_t, 3> slope = {delta.x - delta.y, delta.y - delta.z, delta.z - delta.x};
  std::array<int64_t, 3> sign{};
  for (size_t f = 0; f < 3; ++f) sign[f] = slope[f] > 0 ? 1 : -1;
  // The neighbour across the edge where family f reaches its hex value + 1 (index 0) or - 1
  // (index 1), as a cube offset.
  static constexpr std::array<std::array<std::array<int64_t, 3>, 2>, 3> kExit = {{
      {{{1, -1, 0}, {-1, 1, 0}}},  // u = x - y
      {{{0, 1, -1}, {0, -1, 1}}},  // v = y - z
      {{{-1, 0, 1}, {1, 0, -1}}},  // w = z - x
  }};
  // How u, v and w change from a hex to its neighbour at cube offset o.
  auto familyStep = [](const std::array<int64_t, 3>& o) {
    return std::array<int64_t, 3>{o[0] - o[1], o[1] - o[2], o[2] - o[0]};
  };
  // In the start hex every family first exits after one stride; each step to a neighbour moves the
  // exits by the change in the family's value, one stride per unit.
  std::array<int64_t, 3> exitTime = stride;
  Hex here{static_cast<int>(a.x), static_cast<int>(a.z)};
  while (true) {
    int64_t t = std::min({exitTime[0], exitTime[1], exitTime[2]});
    if (t >= span) return;  // `here` is `to`, already reported
    size_t first = exitTime[0] == t ? 0 : exitTime[1] == t ? 1 : 2;
    size_t second = 3;
    for (size_t f = first + 1; f < 3; ++f) {
      if (exitTime[f] == t) second = f;
    }
    const std::array<int64_t, 3>* step = &kExit[first][sign[first] > 0 ? 0 : 1];
    LineEvent e{LineEvent::Kind::Edge, here, here, here};
    if (second != 3) {
      size_t third = 3 - first - second;
      const std::array<int64_t, 3>* other = &kExit[second][sign[second] > 0 ? 0 : 1];
      if (familyStep(*step)[third] * sign[third] < 0) std::swap(step, other);
      e.kind = LineEvent::Kind::Vertex;
      e.c = Hex{here.q + static_cast<int>((*other)[0]), here.r + static_cast<int>((*other)[2])};
    }
    e.b = Hex{here.q + static_cast<int>((*step)[0]), here.r + static_cast<int>((*step)[2])};
    if (!visit(e)) return;
    if (!visit(LineEvent{LineEvent::Kind::Region, e.b, e.b, e.b})) return;
    std::array<int64_t, 3> moved = familyStep(*step);
    for (size_t f = 0; f < 3; ++f) exitTime[f] += moved[f] * sign[f] * stride[f];
    here = e.b;
  }
}

// Walks the line from the centre of `from` to the centre of `to`, calling visit(event) for each
// region and each change of hex; stops early when visit returns false. The first region reported is
// `from`, the last `to`. Between two single hexes there is always an Edge or Vertex event; entering
// or leaving a hexside region needs none (it happens at a vertex of the hexside, by construction).
template <class Visit>
void walkLine(Hex from, Hex to, Visit&& visit) {
  if (!visit(LineEvent{LineEvent::Kind::Region, from, from, from})) return;
  if (from == to) return;
  Cube a = cubeOf(from);
  Cube b = cubeOf(to);
  Cube delta{b.x - a.x, b.y - a.y, b.z - a.z};
  // Along the line u, v and w change by these amounts in total; each passes an integer at the
  // equally spaced times i / |change|.
  std::array<int64_t, 3> change = {std::llabs(delta.x - delta.y), std::llabs(delta.y - delta.z),
                                   std::llabs(delta.z - delta.x)};
  if (change[0] == 0 || change[1] == 0 || change[2] == 0) {
    walkAlongSides(a, delta, change, visit);
  } else {
    walkAcross(a, delta, change, visit);
  }
}

void addCorners(std::vector<LineSide>& out, std::initializer_list<Hexside> sides) {
  size_t start = out.size();
  for (const Hexside& s : sides) out.push_back(LineSide{s, SideContact::Corner});
  std::sort(out.begin() + static_cast<std::ptrdiff_t>(start), out.end(),
            [](const LineSide& l, const LineSide& r) { return l.side < r.side; });
}

Hexside sideOf(Hex a, Hex b) {
  return *Hexside::between(a, b);
}

}  // namespace

Line traceLine(const Grid& grid, Hex from, Hex to) {
  grid.require(from);
  grid.require(to);
  Line line{from, to, {}, {}};
  line.steps.reserve(static_cast<size_t>(distance(from, to)));
  Hex single = from;    // the last single hex passed
  bool inPair = false;  // whether the last region was a hexside
  Hex pairA = from;
  Hex pairB = from;
  bool first = true;
  walkLine(from, to, [&](const LineEvent& e) {
    switch (e.kind) {
      case LineEvent::Kind::Region:
        if (first) {
          first = false;
        } else if (e.a == e.b) {
          if (inPair) {
            addCorners(line.sides, {sideOf(pairA, e.a), sideOf(pairB, e.a)});
            inPair = false;
          }
          if (!(e.a == to)) line.steps.push_back(LineStep{e.a, e.a});
          single = e.a;
        } else {
          line.steps.push_back(LineStep{e.a, e.b});
          addCorners(line.sides, {sideOf(single, e.a), sideOf(single, e.b)});
          line.sides.push_back(LineSide{sideOf(e.a, e.b), SideContact::Along});
          inPair = true;
          pairA = e.a;
          pairB = e.b;
        }
        break;
      case LineEvent::Kind::Edge:
        line.sides.push_back(LineSide{sideOf(e.a, e.b), SideContact::Crossed});
        break;
      case LineEvent::Kind::Vertex:
        addCorners(line.sides, {sideOf(e.a, e.b), sideOf(e.a, e.c), sideOf(e.c, e.b)});
        break;
    }
    return true;
  });
  return line;
}

Sight lineOfSight(const Grid& grid, Hex from, Hex to, const HexBlocks& hexBlocks,
                  const SideBlocks& sideBlocks, const LosOptions& options) {
  grid.require(from);
  grid.require(to);
  Sight sight;
  int dist = distance(from, to);
  if (dist == 0 || (dist == 1 && options.adjacentAlwaysClear)) return sight;

  // The endpoints' own terrain never blocks, and nothing off the map does.
  auto hexBlock = [&](Hex h) {
    return hexBlocks && !(h == from) && !(h == to) && grid.contains(h) && hexBlocks(h);
  };
  auto sideBlock = [&](Hex a, Hex b) {
    return sideBlocks && (grid.contains(a) || grid.contains(b)) && sideBlocks(sideOf(a, b));
  };

  Hex single = from;
  bool first = true;
  bool inPair = false;
  Hex pairA = from;
  Hex pairB = from;
  Hex pairEntry = from;
  walkLine(from, to, [&](const LineEvent& e) {
    switch (e.kind) {
      case LineEvent::Kind::Region:
        if (first) {
          first = false;
          return true;
        }
        if (e.a == e.b) {
          if (inPair) {
            // Along a hexside: blocked only if the way past each of its two hexes is blocked.
            bool left = sideBlock(pairEntry, pairA) || hexBlock(pairA) || sideBlock(pairA, e.a);
            bool right = sideBlock(pairEntry, pairB) || hexBlock(pairB) || sideBlock(pairB, e.a);
            inPair = false;
            if (left && right) {
              sight.clear = false;
              sight.step = LineStep{pairA, pairB};
              return false;
            }
          }
          if (hexBlock(e.a)) {
            sight.clear = false;
            sight.step = LineStep{e.a, e.a};
            return false;
          }
          single = e.a;
        } else {
          inPair = true;
          pairA = e.a;
          pairB = e.b;
          pairEntry = single;
        }
        return true;
      case LineEvent::Kind::Edge:
        if (sideBlock(e.a, e.b)) {
          sight.clear = false;
          sight.side = sideOf(e.a, e.b);
          return false;
        }
        return true;
      case LineEvent::Kind::Vertex:
        // Through a vertex: nudged one way the line crosses side a|b, the other way it passes
        // through the corner hex c.
        if (sideBlock(e.a, e.b) && (sideBlock(e.a, e.c) || hexBlock(e.c) || sideBlock(e.c, e.b))) {
          sight.clear = false;
          sight.side = sideOf(e.a, e.b);
          return false;
        }
        return true;
    }
    return true;
  });
  return sight;
}

}  // namespace polemos::hex
