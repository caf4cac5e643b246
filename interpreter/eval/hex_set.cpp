// The bitmap of a long list's hexes (eval/hex_set.h says when one is made and why it changes no
// answer).
#include "eval/hex_set.h"

namespace polemos::eval {

using ir::Tag;
using ir::Value;

std::optional<HexBits> HexBits::of(const Value& list) {
  HexBits b;
  for (const Value& x : list.items()) {
    if (x.tag != Tag::Hex) continue;
    if (x.i < 0 || x.i >= kMaxHex) return std::nullopt;
    const size_t word = static_cast<size_t>(x.i) / 64;
    if (word >= b.words_.size()) b.words_.resize(word + 1, 0);
    b.words_[word] |= uint64_t{1} << (static_cast<size_t>(x.i) % 64);
  }
  return b;
}

std::optional<bool> HexSet::contains(const Value& list, int64_t h) {
  const void* id = list.payloadId();
  if (id == nullptr) return std::nullopt;
  for (Entry& e : entries_) {
    if (e.list.payloadId() != id) continue;
    if (!e.built) {
      // The second question about this list: its hexes as bits.
      e.built = true;
      e.bits = HexBits::of(list);
    }
    if (!e.bits || h < 0) return std::nullopt;
    return e.bits->has(h);
  }
  // The first question: remembered, scanned by the caller.
  Entry& e = entries_[next_];
  next_ = (next_ + 1) % kEntries;
  e.list = list;
  e.built = false;
  e.bits.reset();
  return std::nullopt;
}

}  // namespace polemos::eval
