// Hex coordinates, directions, distance and hexsides: pure axial arithmetic, no bounds or labels.
#include "hex/coord.h"

#include <cstdlib>

namespace polemos::hex {
namespace {

// Axial offsets of the six directions, in Direction order. With q eastwards and r southwards inside
// a column, the NE neighbour is the upper of the two hexes in the next column and SE the lower.
constexpr std::array<Hex, kDirectionCount> kOffsets = {Hex{0, -1}, Hex{1, -1}, Hex{1, 0},
                                                       Hex{0, 1},  Hex{-1, 1}, Hex{-1, 0}};

constexpr std::array<std::string_view, kDirectionCount> kNames = {"N", "NE", "SE", "S", "SW", "NW"};

}  // namespace

std::string_view directionName(Direction d) {
  return kNames[static_cast<int>(d)];
}

std::optional<Direction> parseDirection(std::string_view text) {
  if (text.empty() || text.size() > 2) return std::nullopt;
  char buf[2] = {0, 0};
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    buf[i] = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
  }
  std::string_view up(buf, text.size());
  for (int i = 0; i < kDirectionCount; ++i) {
    if (kNames[i] == up) return static_cast<Direction>(i);
  }
  return std::nullopt;
}

Hex neighbour(Hex h, Direction d) {
  const Hex& o = kOffsets[static_cast<int>(d)];
  return Hex{h.q + o.q, h.r + o.r};
}

int distance(Hex a, Hex b) {
  int dq = b.q - a.q;
  int dr = b.r - a.r;
  return (std::abs(dq) + std::abs(dr) + std::abs(dq + dr)) / 2;
}

std::optional<Direction> directionBetween(Hex a, Hex b) {
  Hex d{b.q - a.q, b.r - a.r};
  for (int i = 0; i < kDirectionCount; ++i) {
    if (kOffsets[i] == d) return static_cast<Direction>(i);
  }
  return std::nullopt;
}

Hexside Hexside::of(Hex h, Direction d) {
  // The S, SW and NW sides belong to the neighbour, as its N, NE and SE sides.
  if (static_cast<int>(d) >= 3) return Hexside{neighbour(h, d), opposite(d)};
  return Hexside{h, d};
}

std::optional<Hexside> Hexside::between(Hex a, Hex b) {
  auto d = directionBetween(a, b);
  if (!d) return std::nullopt;
  return of(a, *d);
}

uint64_t Hexside::key() const {
  // 30 bits per coordinate is far beyond any map; the direction takes the low two bits.
  uint64_t q = static_cast<uint32_t>(hex.q) & 0x3fffffffu;
  uint64_t r = static_cast<uint32_t>(hex.r) & 0x3fffffffu;
  return (q << 32) | (r << 2) | static_cast<uint64_t>(dir);
}

}  // namespace polemos::hex
