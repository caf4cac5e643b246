// The memo of pure calls (user functions and the geometry builtins) for one version of the game
// state, the per-hex unit lists rules ask for thousands of times between two changes, and the
// scratch machines of nested pure calls. It holds no rule knowledge: the interpreter decides what
// may be memoized (eval/interpreter.cpp, memoizable).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "eval/state.h"

namespace polemos::eval {

// A cache of pure calls (user functions and the geometry builtins) for one version of the game
// state. A copy of a Session starts with an empty cache: the cache is never shared, so two copies
// that diverge can never read each other's results.
class MemoCache {
 public:
  MemoCache() = default;
  MemoCache(const MemoCache&) {}
  MemoCache& operator=(const MemoCache&) {
    clear();
    return *this;
  }
  struct Key {
    int32_t fn;  // function index, or -1 - builtin index
    std::vector<ir::Value> args;
    bool operator==(const Key& o) const { return fn == o.fn && args == o.args; }
  };
  static size_t hash(int32_t fn, std::span<const ir::Value> args);

  const ir::Value* find(uint64_t version, int32_t fn, std::span<const ir::Value> args) {
    if (version != version_) {
      clear();
      version_ = version;
      return nullptr;
    }
    if (used_ == 0) return nullptr;
    size_t h = hash(fn, args);
    for (size_t i = h & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.gen != gen_) return nullptr;
      if (s.hash == h && s.key.fn == fn &&
          std::equal(args.begin(), args.end(), s.key.args.begin(), s.key.args.end()))
        return &s.value;
    }
  }
  const ir::Value* find(uint64_t version, const Key& k) { return find(version, k.fn, k.args); }

  // Whether to look function fn up at all. A function whose answers are seldom asked for again
  // (fewer than one call in 20 over a window of 4096 calls, such as a check of one unit against
  // one hex) costs a store per call and saves nothing: it is called directly for a while, then
  // tried again. Answers never change with this; only the time does.
  bool worthCaching(int32_t fn) {
    if (fn < 0) return true;
    if (static_cast<size_t>(fn) >= stats_.size()) stats_.resize(static_cast<size_t>(fn) + 1);
    FnStats& s = stats_[static_cast<size_t>(fn)];
    if (!s.off) return true;
    if (++s.skipped < kReprobeAfter) return false;
    s = FnStats{};
    return true;
  }
  // Counts a look-up of fn (after worthCaching said yes).
  void counted(int32_t fn, bool hit) {
    if (fn < 0 || static_cast<size_t>(fn) >= stats_.size()) return;
    FnStats& s = stats_[static_cast<size_t>(fn)];
    ++s.calls;
    if (hit) ++s.hits;
    if (s.calls >= kWindow) {
      s.off = s.hits * 20 < s.calls;
      s.calls = s.hits = 0;
      s.skipped = 0;
    }
  }
  void store(uint64_t version, Key k, ir::Value v);
  void clear() {
    // The slots stay allocated for the next version: a new generation marks them all free.
    ++gen_;
    used_ = 0;
    firstAt_.clear();
    nextAt_.clear();
    ++unitsAtGen_;
  }

  // The units in hex h (on the map, in unit order) as a list value, computed for all hexes at
  // once the first time one is asked for in this version: rules ask `units_at` thousands of times
  // between two changes of the game.
  const ir::Value& unitsAt(const GameState& s, int32_t h);

  // Scratch machines for nested pure calls, one per nesting depth, reused from call to call so
  // that a call does not allocate a stack of its own. Never part of what the cache holds: a call
  // clears its machine before use.
  Machine& scratch(size_t depth) {
    while (scratch_.size() <= depth) scratch_.push_back(std::make_unique<Machine>());
    return *scratch_[depth];
  }

 private:
  // An open-addressing table whose slots belong to a generation: clearing it (at every change of
  // the game) is one increment, and the slots, with the capacity of their argument vectors, are
  // reused rather than freed and allocated again.
  struct Slot {
    uint64_t gen = 0;
    size_t hash = 0;
    Key key{0, {}};
    ir::Value value;
  };
  void grow();
  uint64_t version_ = ~0ull;
  std::vector<Slot> slots_;
  size_t mask_ = 0;
  size_t used_ = 0;
  uint64_t gen_ = 1;
  // For unitsAt: per hex its first unit and per unit the next in the same hex (-1: none), and
  // per hex the list once made, valid when its generation is the current one.
  std::vector<int32_t> firstAt_, nextAt_;
  std::vector<ir::Value> unitsAt_;
  std::vector<uint64_t> unitsAtMade_;
  uint64_t unitsAtGen_ = 1;
  std::vector<std::unique_ptr<Machine>> scratch_;
  struct FnStats {
    uint32_t calls = 0, hits = 0, skipped = 0;
    bool off = false;
  };
  static constexpr uint32_t kWindow = 4096, kReprobeAfter = 1u << 18;
  std::vector<FnStats> stats_;
};

}  // namespace polemos::eval
