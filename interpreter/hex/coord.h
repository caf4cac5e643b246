// Hex coordinates, directions, distance and hexsides for maps of flat-topped hexes.
//
// A Hex is an axial coordinate (q = column, r = the column's "diagonal" row); the cube form
// (x = q, y = -q - r, z = r) is used inside the algorithms. Everything here is pure arithmetic on
// an unbounded plane: it does not know map bounds, labels or terrain (see grid.h and map.h), and it
// never throws. The only exception type of the hex module, HexError, is declared here because every
// other hex header includes this one.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace polemos::hex {

// The single exception type of the hex module. It is thrown only for bad input from a ruleset or a
// player (an off-map hex, a malformed label, a query about hexes that are not adjacent), and its
// message is meant to be shown to that person unchanged.
class HexError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The six directions of a flat-topped hex, clockwise from north. The numeric values are part of the
// interface: rotations are arithmetic modulo 6 and tie-breaking in path searches uses this order.
enum class Direction : uint8_t { N = 0, NE = 1, SE = 2, S = 3, SW = 4, NW = 5 };

inline constexpr int kDirectionCount = 6;
inline constexpr std::array<Direction, kDirectionCount> kAllDirections = {
    Direction::N, Direction::NE, Direction::SE, Direction::S, Direction::SW, Direction::NW};

// The direction turned by `steps` hexsides clockwise (negative steps turn anticlockwise).
constexpr Direction rotate(Direction d, int steps) {
  int v = (static_cast<int>(d) + steps) % kDirectionCount;
  return static_cast<Direction>(v < 0 ? v + kDirectionCount : v);
}
constexpr Direction opposite(Direction d) {
  return rotate(d, 3);
}

// How many hexsides clockwise `to` lies from `from`: 0..5. Relative direction 0 is "straight
// ahead", 3 is "directly behind".
constexpr int clockwiseSteps(Direction from, Direction to) {
  return (static_cast<int>(to) - static_cast<int>(from) + kDirectionCount) % kDirectionCount;
}
// The smallest number of hexside rotations between two facings: 0..3.
constexpr int turnSteps(Direction from, Direction to) {
  int cw = clockwiseSteps(from, to);
  return cw <= 3 ? cw : kDirectionCount - cw;
}

// "N", "NE", "SE", "S", "SW", "NW".
std::string_view directionName(Direction d);
// Parses a direction name, case-insensitively; nullopt if it is not one of the six.
std::optional<Direction> parseDirection(std::string_view text);

// An axial hex coordinate. Column q grows eastwards; within a column r grows southwards.
struct Hex {
  int q = 0;
  int r = 0;

  friend bool operator==(const Hex&, const Hex&) = default;
  friend auto operator<=>(const Hex&, const Hex&) = default;
};

// The hex across hexside `d`.
Hex neighbour(Hex h, Direction d);
// Hexes between a and b, counting b but not a: the range of 10.12 (adjacent is 1, same hex is 0).
int distance(Hex a, Hex b);
// The direction from a to an adjacent b; nullopt if they are not adjacent.
std::optional<Direction> directionBetween(Hex a, Hex b);

// A hexside, in canonical form: it is stored by the hex whose N, NE or SE side it is, so the side
// between a and b has a single representation whichever hex is named first. Usable as a map key
// (operator<=> and std::hash are defined).
struct Hexside {
  Hex hex;                       // the owning hex
  Direction dir = Direction::N;  // always N, NE or SE

  // The hexside of `h` in direction `d`, canonicalised.
  static Hexside of(Hex h, Direction d);
  // The hexside between two adjacent hexes; nullopt if they are not adjacent.
  static std::optional<Hexside> between(Hex a, Hex b);

  // The two hexes sharing this side: the owner first, then its neighbour across `dir`.
  Hex first() const { return hex; }
  Hex second() const { return neighbour(hex, dir); }
  // True if h is one of the two hexes on this side.
  bool touches(Hex h) const { return h == first() || h == second(); }
  // A 64-bit key, unique per hexside, for hashing or packing.
  uint64_t key() const;

  friend bool operator==(const Hexside&, const Hexside&) = default;
  friend auto operator<=>(const Hexside&, const Hexside&) = default;
};

}  // namespace polemos::hex

template <>
struct std::hash<polemos::hex::Hex> {
  size_t operator()(const polemos::hex::Hex& h) const noexcept {
    return std::hash<uint64_t>{}((static_cast<uint64_t>(static_cast<uint32_t>(h.q)) << 32) |
                                 static_cast<uint32_t>(h.r));
  }
};

template <>
struct std::hash<polemos::hex::Hexside> {
  size_t operator()(const polemos::hex::Hexside& s) const noexcept {
    return std::hash<uint64_t>{}(s.key());
  }
};
