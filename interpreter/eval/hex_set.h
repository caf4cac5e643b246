// Whether a hex is in a long list, for `h in list` asked many times of one list (a side's enemy
// zones of control, asked at hundreds of hexes of a movement search and again each time the
// answers are made anew): the list's hexes as a bitmap, made at the second question about the
// same list and kept for the questions after it. It holds no rule knowledge and never changes an
// answer: a hex is in the list exactly when an element is a hex of that index, as the scan of
// Interpreter::binary tests. A list is known by its payload, and an entry keeps a copy of the list,
// so that no other list can take the same payload while the entry lives. The bits themselves
// (HexBits) also serve a movement search's stop question asked of one list (eval/builtins_hex).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "ir/value.h"

namespace polemos::eval {

// A list's hexes as bits by grid index: a bit is set when some element is the hex of that index
// (an element of another kind is never a hex asked about).
class HexBits {
 public:
  static constexpr int64_t kMaxHex = int64_t{1} << 16;
  // The bits of `list`'s hexes, or nullopt when one lies outside [0, kMaxHex).
  static std::optional<HexBits> of(const ir::Value& list);
  bool has(int64_t h) const {
    const size_t word = static_cast<size_t>(h) / 64;
    return h >= 0 && word < words_.size() && (words_[word] >> (static_cast<size_t>(h) % 64) & 1u);
  }

 private:
  std::vector<uint64_t> words_;
};

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
    bool built = false;
    std::optional<HexBits> bits;  // once built: none when a hex of the list is out of range
  };
  static constexpr size_t kEntries = 4;
  std::array<Entry, kEntries> entries_;
  size_t next_ = 0;  // the entry a new list takes (round robin)
};

}  // namespace polemos::eval
