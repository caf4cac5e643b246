// Whether a hex is in a long list, for `h in list` asked many times of one list (a side's enemy
// zones of control, asked at hundreds of hexes of a movement search and again each time the
// answers are made anew): the list's hexes as a bitmap, made at the second question about the
// same list and kept for the questions after it. It holds no rule knowledge and never changes an
// answer: a hex is in the list exactly when an element is a hex of that index, as the scan of
// Interpreter::binary tests. A list is known by its payload, and an entry keeps a copy of the list,
// so that no other list can take the same payload while the entry lives.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "ir/value.h"

namespace polemos::eval {

class HexSet {
 public:
  // A list shorter than this is scanned: a bitmap would not pay for itself.
  static constexpr size_t kMinItems = 32;
  // Whether hex index `h` is among `list`'s elements (a list, not a map, of at least kMinItems
  // elements), or nullopt: scan it (the first question about this list, or a hex the bitmap
  // does not cover).
  std::optional<bool> contains(const ir::Value& list, int64_t h);

 private:
  struct Entry {
    ir::Value list;  // keeps the payload alive: its identity is this list's
    std::vector<uint64_t> bits;
    bool built = false;
    bool usable = false;  // built, and every hex of the list within the bitmap's range
  };
  static constexpr size_t kEntries = 4;
  static constexpr int64_t kMaxHex = int64_t{1} << 16;
  std::array<Entry, kEntries> entries_;
  size_t next_ = 0;  // the entry a new list takes (round robin)
};

}  // namespace polemos::eval
