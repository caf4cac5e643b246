// A game's trace as a sequence that copies cheaply: events are kept in chunks of kChunk, and a
// full chunk is shared, never changed, between every copy of the game that holds it (an undo
// step, a what-if clone, a search). Copying a trace of n events copies n / kChunk pointers and at
// most one partly filled chunk, so the undo history of a long game holds each event once instead
// of once per step (a Chalons game played to the end held about a gigabyte of copied trace).
// Events are shared one by one too, so the partly filled chunk a copy takes costs a pointer per
// event, not the events.
//
// Only appending and clearing change it; reading is by index or iteration, as a vector's.
// It knows nothing of what an event means (eval/trace.h renders them).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cite/citation.h"

namespace polemos::eval {

// What a trace event records (eval/trace.h names them and renders events).
enum class TraceKind : uint8_t {
  Phase,
  Step,
  Action,
  Roll,
  Choice,
  Modifier,
  Table,
  Effect,
  Trigger,
  Note,
  Pause  // a `pause` reached (whether or not the Session stopped there)
};

// One rule application, for `trace`, `why`, `log`, `--json` and coverage.
struct TraceEvent {
  uint64_t seq = 0;
  std::vector<cite::Citation> citations;  // the rules it applies (none for a plain effect)
  TraceKind kind = TraceKind::Note;
  std::string subject;
  std::string inputs;
  std::string output;
  uint32_t depth = 0;  // nesting (frames), for `why`
  // What a field change (`x.f: a → b`) was, for the REPL's trace levels: a change of a counter
  // value (or a unit's facing) or of a marker, which a player sees, and one setting a field back
  // to its declared default (what a new phase clears). Not saved, not in the JSON form.
  uint8_t flags = 0;
  static constexpr uint8_t kFieldChange = 1, kCounter = 2, kMarker = 4, kToDefault = 8;
  // Whether the event cites rule `number` exactly ("7.8" is not "7.82").
  bool cites(std::string_view number) const {
    for (const auto& c : citations)
      if (c.number() == number) return true;
    return false;
  }
};

class TraceLog {
 public:
  static constexpr size_t kChunk = 64;

  // Events are numbered from the game's first: size() is one past the last written, and those
  // before first() have been let go (a long game keeps its last `keep`). A position taken before a
  // command stays the position of the same event after it.
  size_t size() const { return size_; }
  size_t first() const { return first_; }
  bool empty() const { return size_ == first_; }
  const TraceEvent& operator[](size_t i) const {
    return *(*chunks_[i / kChunk - first_ / kChunk])[i % kChunk];
  }
  const TraceEvent& back() const { return (*this)[size_ - 1]; }

  // Adds an event; past `keep` events and a chunk more kept, the oldest chunk is let go.
  void push_back(TraceEvent e, size_t keep = SIZE_MAX) {
    const size_t kept = size_ - first_;
    if (kept >= kChunk && kept - kChunk >= keep && chunks_.size() > 1) {
      chunks_.erase(chunks_.begin());
      first_ += kChunk;
    }
    if (chunks_.empty() || chunks_.back()->size() == kChunk) {
      chunks_.push_back(std::make_shared<Chunk>());
      chunks_.back()->reserve(kChunk);
    } else if (chunks_.back().use_count() > 1) {
      // The last chunk is shared with a copy: this one gets its own before it grows (a copy of
      // the pointers to its events, which stay shared).
      auto own = std::make_shared<Chunk>();
      own->reserve(kChunk);
      *own = *chunks_.back();
      chunks_.back() = std::move(own);
    }
    chunks_.back()->push_back(std::make_shared<const TraceEvent>(std::move(e)));
    ++size_;
  }
  void clear() {
    chunks_.clear();
    size_ = 0;
    first_ = 0;
  }

  class const_iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = TraceEvent;
    using difference_type = std::ptrdiff_t;
    using pointer = const TraceEvent*;
    using reference = const TraceEvent&;
    const_iterator() = default;
    const_iterator(const TraceLog* log, size_t i) : log_(log), i_(i) {}
    reference operator*() const { return (*log_)[i_]; }
    pointer operator->() const { return &(*log_)[i_]; }
    reference operator[](difference_type n) const { return (*log_)[i_ + n]; }
    const_iterator& operator++() { return ++i_, *this; }
    const_iterator operator++(int) { return {log_, i_++}; }
    const_iterator& operator--() { return --i_, *this; }
    const_iterator operator--(int) { return {log_, i_--}; }
    const_iterator& operator+=(difference_type n) { return i_ += n, *this; }
    const_iterator& operator-=(difference_type n) { return i_ -= n, *this; }
    friend const_iterator operator+(const_iterator a, difference_type n) { return a += n; }
    friend const_iterator operator+(difference_type n, const_iterator a) { return a += n; }
    friend const_iterator operator-(const_iterator a, difference_type n) { return a -= n; }
    friend difference_type operator-(const const_iterator& a, const const_iterator& b) {
      return static_cast<difference_type>(a.i_) - static_cast<difference_type>(b.i_);
    }
    friend bool operator==(const const_iterator& a, const const_iterator& b) {
      return a.i_ == b.i_;
    }
    friend auto operator<=>(const const_iterator& a, const const_iterator& b) {
      return a.i_ <=> b.i_;
    }

   private:
    const TraceLog* log_ = nullptr;
    size_t i_ = 0;
  };
  using iterator = const_iterator;

  const_iterator begin() const { return {this, first_}; }
  const_iterator at(size_t i) const { return {this, std::max(i, first_)}; }
  const_iterator end() const { return {this, size_}; }
  auto rbegin() const { return std::reverse_iterator<const_iterator>(end()); }
  auto rend() const { return std::reverse_iterator<const_iterator>(begin()); }

  // How many chunks this log shares with `other` (for tests and measurements).
  size_t sharedChunks(const TraceLog& other) const {
    size_t n = 0;
    for (const auto& c : chunks_)
      n += std::find(other.chunks_.begin(), other.chunks_.end(), c) != other.chunks_.end();
    return n;
  }

 private:
  // An event is written once and never changed: a chunk holds pointers to its events, so that a
  // copy that must have its own last chunk copies pointers, and the undo entries that each hold a
  // different part of the last chunk hold its events once between them.
  using Chunk = std::vector<std::shared_ptr<const TraceEvent>>;
  std::vector<std::shared_ptr<Chunk>> chunks_;
  size_t size_ = 0;
  size_t first_ = 0;  // a multiple of kChunk: only whole chunks are let go
};

}  // namespace polemos::eval
