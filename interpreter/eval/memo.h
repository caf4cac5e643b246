// The memo of pure calls (user functions and the geometry builtins): an answer holds for the
// version of the game state it was made in and, when it was made with its reads logged (inside a
// movement search), in later versions while what it read is unchanged; the per-hex unit lists
// rules ask for thousands of times between two changes; movement searches kept across versions
// while what they read, or their hooks' answers, are unchanged (the read logs and the kept
// searches); and the scratch machines of nested pure calls. It holds no rule knowledge: the
// interpreter decides what may be memoized (eval/interpreter.cpp, memoizable) and the geometry
// builtins what is kept (eval/builtins_hex.cpp, memoizedList).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "eval/state.h"
#include "hex/grid.h"
#include "ir/value_pool.h"

namespace polemos::eval {

// A cache of pure calls (user functions and the geometry builtins). A copy of a Session starts with
// an empty cache: the cache is never shared, so two copies that diverge can never read each other's
// results.
class MemoCache {
 public:
  MemoCache() = default;
  MemoCache(const MemoCache&) {}
  MemoCache& operator=(const MemoCache&) {
    clear();
    kept_.clear();
    return *this;
  }
  struct Key {
    int32_t fn;  // function index, or -1 - builtin index
    std::vector<ir::Value> args;
    bool operator==(const Key& o) const { return fn == o.fn && args == o.args; }
  };
  static size_t hash(int32_t fn, std::span<const ir::Value> args);

  // The answer to fn(args) in state `st`: one made in this version, or one made logged in an
  // earlier version of the same epoch whose reads all have the stamps they had then (a movement
  // hook's answer survives a unit moving elsewhere, and a new turn). With POLEMOS_VERIFY_KEPT set,
  // such an answer is not given but made again and compared when stored (see store).
  const ir::Value* find(const GameState& st, int32_t fn, std::span<const ir::Value> args) {
    Answer* s = lookup(st, fn, args, logTop_ > 0);
    if (!s) return nullptr;
    if (logTop_ > 0)
      for (const StampedRead& r : s->reads) note(r.read);
    return &s->value;
  }
  const ir::Value* find(const GameState& st, const Key& k) { return find(st, k.fn, k.args); }

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
  // Whether worthCaching says no to fn for now (asking changes nothing).
  bool skipping(int32_t fn) const {
    return fn >= 0 && static_cast<size_t>(fn) < stats_.size() &&
           stats_[static_cast<size_t>(fn)].off;
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
  // Whether POLEMOS_VERIFY_KEPT is set: every kept search and carried answer is made again and
  // compared (a test runs games so).
  bool verifying() const { return verify_; }
  // A difference found so: stops the process (an error could be taken by the caller for an
  // illegal option and the game would go on). `what`: what was kept.
  [[noreturn]] static void verifyFailed(const char* what);
  // Stores an answer made in state `st`; `reads` (units and hexes it read, see below) when it was
  // made logged, with their stamps now, so that a later version may take it (see find).
  // The key as a function and its arguments, copied into the slot only where the hash table
  // keeps it (a dense table's slot is its key): storing an answer allocates nothing of its own
  // once the slot it takes has held a key as long.
  void store(const GameState& st, int32_t fn, std::span<const ir::Value> args, ir::Value v,
             const std::vector<int32_t>* reads = nullptr);
  void store(const GameState& st, const Key& k, ir::Value v,
             const std::vector<int32_t>* reads = nullptr) {
    store(st, k.fn, k.args, std::move(v), reads);
  }

  // Whether fn's answers are kept in a dense table (see Dense), for tests; one is made once fn
  // has been stored kDenseAfter times.
  static constexpr uint32_t kDenseAfter = 256;
  bool dense(int32_t fn) const {
    return fn >= 0 && static_cast<size_t>(fn) < denseOf_.size() &&
           denseOf_[static_cast<size_t>(fn)] > 0;
  }

  // --- Searches kept across changes ----------------------------------------------------------
  // A movement search is costly and most changes of the game (a unit moving elsewhere) leave it
  // as it was. While one is made, what it reads is logged (a unit's field, its hex or facing;
  // which units are in a hex; a side's or the game's field; the clock), memoized calls inside it
  // carry their own reads, and the search is kept with the stamps of what it read (eval/state.h):
  // it is taken again, in a later version of the game, while the epoch is the same and its reads
  // or, where they changed, its hook calls' answers are unchanged (see HookCall). Encoded reads:
  // field `slot` of unit u as u * 256 + slot (GameState::kWholeUnit: any of its fields), a hex h
  // as -1 - h, other stamp i as kOtherBase - i, a group of reads g (see Group) as kGroupBase - g.
  bool logging() const { return logTop_ > 0; }
  void readField(int64_t u, size_t slot) {
    if (logTop_ > 0)
      note(static_cast<int32_t>(u * 256 + static_cast<int64_t>(std::min<size_t>(slot, 255))));
  }
  void readUnit(int64_t u) { readField(u, GameState::kWholeUnit); }
  void readHex(int64_t h) {
    if (logTop_ > 0) note(static_cast<int32_t>(-1 - h));
  }
  // A clock, game or side stamp by number (GameState::otherStamps); -1: not stamped (its change
  // is a new epoch), nothing to log.
  void readOther(int64_t id) {
    if (logTop_ > 0 && id >= 0) note(static_cast<int32_t>(kOtherBase - id));
  }
  static constexpr int32_t kOtherBase = -(1 << 22) - 1;  // below every hex's code
  static constexpr int32_t kGroupBase = -(1 << 24) - 1;  // below every other stamp's code
  // The stamp of a read now; a group's is the greatest of its reads' (see Group).
  uint64_t stampOf(const GameState& s, int32_t read) {
    if (read <= kGroupBase) return groupStamp(s, static_cast<size_t>(kGroupBase - read));
    if (read <= kOtherBase) return s.otherStamp(static_cast<size_t>(kOtherBase - read));
    if (read < 0) return s.hexStamp(static_cast<size_t>(-1 - static_cast<int64_t>(read)));
    return s.fieldStamp(static_cast<size_t>(read / 256), static_cast<size_t>(read % 256));
  }
  // A log open for a scope: begun when made, closed when the scope ends (on an error too: what
  // was read counts in the log it was opened in), or before by close().
  class LogScope {
   public:
    explicit LogScope(MemoCache& m) : memo_(m), at_(m.beginLog()) {}
    ~LogScope() {
      if (open_) memo_.endLog(at_);
    }
    LogScope(const LogScope&) = delete;
    LogScope& operator=(const LogScope&) = delete;
    std::vector<int32_t> close(bool intoOuter = true) {
      open_ = false;
      return memo_.endLog(at_, intoOuter);
    }
    // As close(), the reads in the cache's own vector (see closeLog): for an answer on its way
    // to store, with no vector of its own.
    const std::vector<int32_t>& closeReused() {
      open_ = false;
      return memo_.closeLog(at_);
    }

   private:
    MemoCache& memo_;
    size_t at_;
    bool open_ = true;
  };
  // Opens a log; endLog(at) closes it and every log opened after it (a call that failed left
  // its log open: what it read is counted), returns its reads, each once (in the order first read;
  // a recall that reads the same in another order re-indexes its search, see kept), and
  // adds them to the log it was opened in.
  size_t beginLog();
  std::vector<int32_t> endLog(size_t at, bool intoOuter = true);
  // endLog's reads appended to `out`, not added to the log it was opened in.
  void endLogInto(size_t at, std::vector<int32_t>& out);
  // endLog(at), its reads in a vector the cache keeps for the next one (valid until closeLog is
  // called again): a made answer's reads, given to store at once, cost no allocation.
  const std::vector<int32_t>& closeLog(size_t at) {
    closed_.clear();
    endLogInto(at, closed_);
    if (logTop_ > 0) logReads(closed_);
    return closed_;
  }
  static constexpr size_t kNoLog = ~size_t{0};

  // What a search asked of the rules' hooks (move_cost, stops_movement, ...), each call with its
  // answer and what it read. A search is a function of its own reads (the unit, its allowance)
  // and of these answers: when some read has changed since, the calls that read it are made
  // again, and if every answer is the same the search still holds (and is kept with the new
  // stamps); only a different answer makes it be searched again.
  using Stamped = std::vector<std::pair<int32_t, uint64_t>>;
  // A hook call: its arguments and its reads are runs of the pools of the search that made it
  // (Recording, Kept), so that recording one allocates nothing of its own (a search makes
  // hundreds).
  // A call's answer is results[i] of its recording, call i (HookCall itself holds no value:
  // freeing a record then touches only its pools, see ir::ValuePool).
  // A call taken from fn's dense table by its slot (findRecordedAt, nearly every step of a
  // search) keeps no arguments in the pool: its slot names them (argsOf), and argCount carries
  // kDenseCall.
  struct HookCall {
    int32_t fn = -1;
    uint32_t argsAt = 0, argCount = 0;    // in the pool of arguments; a dense call: its slot
    uint32_t readsAt = 0, readCount = 0;  // in the pool of reads: each once
    bool dense() const { return (argCount & kDenseCall) != 0; }
  };
  static constexpr uint32_t kDenseCall = 1u << 31;
  struct Recording {
    std::vector<HookCall> calls;
    ir::ValuePool args;
    ir::ValuePool results;  // by call
    std::vector<int32_t> reads;
    // The calls every step may make again with the same arguments (a forward's nested call,
    // such as whether the unit began in an enemy ZOC): within one search they have one answer,
    // recorded once and given again (findShared).
    std::vector<uint32_t> shared;
    const ir::Value* findShared(int32_t fn, std::span<const ir::Value> a) const {
      for (uint32_t i : shared) {
        const HookCall& c = calls[i];
        if (c.fn == fn && !c.dense() &&
            std::equal(a.begin(), a.end(), args.begin() + c.argsAt,
                       args.begin() + c.argsAt + c.argCount))
          return &results[i];
      }
      return nullptr;
    }
  };
  // Records a hook call of a search being made, and closes the log opened (beginLog) at `at`
  // for it: what the call read goes with it.
  void record(Recording& r, size_t at, int32_t fn, std::span<const ir::Value> args,
              const ir::Value& result);
  // fn(args) asked for a search being made: the answer find gives inside the call's own log,
  // recorded in `r` at once with the reads it carries (as record would, with the log that find
  // would have filled), so that a look-up that finds it opens and closes no log. Null when there
  // is none (make the call in its log, and record it).
  const ir::Value* findRecorded(const GameState& st, int32_t fn, std::span<const ir::Value> args,
                                Recording& r) {
    Answer* s = lookup(st, fn, args, true);
    return s ? recordFound(r, fn, args, *s) : nullptr;
  }
  // A dense slot found by its arguments' numbers. A caller that has a call's arguments as numbers
  // (a movement search's planned hook call has a side's number, a hex's index and a step's
  // direction at hand, eval/builtins_hex.cpp) finds the answer in fn's dense table without making
  // its arguments into a key: denseRoute gives, once, each argument's stride in the table when the
  // table has the layout asked for (per argument its kind and whether it is a step); then
  // findRecordedAt is findRecorded for the slot so numbered, with the same answer and the same
  // record. The caller keeps each number below its size (a step's: its direction, 0 to 5).
  struct DenseKind {
    ir::Tag tag = ir::Tag::None;
    bool step = false;
  };
  struct DenseRoute {
    static constexpr size_t kMaxArgs = 6;
    int32_t table = -1;
    std::array<uint32_t, kMaxArgs> size{}, stride{};
  };
  bool denseRoute(int32_t fn, const hex::Grid* grid, std::span<const DenseKind> kinds,
                  DenseRoute& out) const;
  // The arguments slot `slot` of fn's dense table stands for, made into `out`: each a number of
  // its kind, a step the hex next to the one before it in its direction.
  std::span<const ir::Value> denseArgs(int32_t fn, uint32_t slot,
                                       std::array<ir::Value, DenseRoute::kMaxArgs>& out) const;
  const ir::Value* findRecordedAt(const GameState& st, int32_t fn, const DenseRoute& route,
                                  size_t at, std::span<const ir::Value> args, Recording& r) {
    if (st.version != version_) advance(st);
    if (used_ + denseUsed_ == 0) return nullptr;  // as lookup
    Dense& t = dense_[static_cast<size_t>(route.table)];
    if (st.map.grid.get() != t.grid || at >= t.slots.size()) return nullptr;
    Answer& d = t.slots[at];
    if (d.gen != denseGen_) return nullptr;
    Answer* s = holding(st, d, true);
    return s ? recordFound(r, fn, args, *s, static_cast<uint32_t>(at)) : nullptr;
  }
  struct Kept {
    uint64_t epoch = 0;
    std::vector<int32_t> base;  // the search's own reads, outside its hook calls
    Recording made;             // its hook calls
    ir::Value value;
    // Every read of the search and its calls once, with its stamp.
    Stamped all;
    std::vector<int32_t> allReads() const;
    int32_t group = 0;  // `all` as one group read, once asked for (0: not yet; see readsAsOne)
    static constexpr size_t kDerived = 2;
    ir::Value derived[kDerived];  // values worked out of `value`, once asked for (see derived)
    std::span<const int32_t> readsOf(const HookCall& c) const {
      return {made.reads.data() + c.readsAt, c.readCount};
    }
  };
  // A recorded call's arguments: in its record's pool, or (a dense call) made from its slot into
  // `buf`.
  using CallArgs = std::array<ir::Value, DenseRoute::kMaxArgs>;
  std::span<const ir::Value> argsOf(const Recording& r, const HookCall& c, CallArgs& buf) const {
    if (!c.dense()) return {r.args.data() + c.argsAt, c.argCount};
    return denseArgs(c.fn, c.argsAt, buf);
  }
  // The kept search that made `list`, the answer under `k` in the version now (found by find),
  // or null. Its hook calls' answers hold now: the list was either made in this version, or
  // carried (nothing the search read has changed), or taken by `kept` (every call whose reads
  // changed was asked again and gave the same answer).
  Kept* keptOf(const GameState& s, const Key& k, const ir::Value& list) {
    auto it = kept_.find(k);
    if (it == kept_.end() || it->second.epoch != s.epoch || !list.hasPayload()) return nullptr;
    return it->second.value.payloadId() == list.payloadId() ? &it->second : nullptr;
  }
  // The answers of a kept search's hook calls by call (function and arguments), for another
  // search of the same unit in the same version that asks some of the same calls (Standard 14.2:
  // a charge route is the unit's movement search with steps left out). Valid while that version
  // lasts; it holds a pointer into the kept search.
  class Answers {
   public:
    Answers(const MemoCache& memo, const Kept& k);
    // The call's answer, or null when the kept search did not make that call.
    const ir::Value* find(int32_t fn, std::span<const ir::Value> args) const;

   private:
    const MemoCache& memo_;
    const Kept& kept_;
    std::vector<uint32_t> table_;  // open addressing: a call's index + 1, 0 for an empty slot
    size_t mask_ = 0;
  };
  // Makes a hook call again (what it reads now is logged by `kept`).
  using Recall = std::function<ir::Value(int32_t fn, std::span<const ir::Value> args)>;
  // The search kept under `k` if it still holds for `s` (what it read then counts in the open
  // log); `recall` makes again the calls whose reads changed.
  Kept* kept(const GameState& s, const Key& k, const Recall& recall);
  void index(const GameState& s, Kept& e);
  Kept& keep(const GameState& s, const Key& k, const ir::Value& v, std::vector<int32_t> base,
             Recording&& calls);
  // An empty record for a search about to be made, with the room an earlier search's record
  // left (keep copies a record out at its own size and gives the room back): a search's record
  // then grows without allocating again.
  Recording spareRecording() {
    if (spare_.empty()) return Recording{};
    Recording r = std::move(spare_.back());
    spare_.pop_back();
    return r;
  }
  // What a kept search read, for the answer that gives it (MemoCache::store): one group read
  // when it read many things (see Group), made once per kept search.
  std::vector<int32_t> readsAsOne(Kept& e);
  void clear() {
    clearHash();
    // The dense tables have generations of their own (compacting the hash table leaves them).
    if (++denseGen_ == 0) {
      for (Dense& d : dense_)
        for (Answer& s : d.slots) s.gen = 0;
      denseGen_ = 1;
    }
    denseUsed_ = 0;
    denseLogged_ = 0;
  }

  // The units in hex h (on the map, in unit order) as a list value, computed for all hexes at
  // once the first time one is asked for in this version: rules ask `units_at` thousands of times
  // between two changes of the game.
  const ir::Value& unitsAt(const GameState& s, int32_t h);

  // A value worked out of a kept search's list, kept with the search (the hexes it reached: the
  // random player asks every unit's kept search for them at every decision): `list` is the answer
  // under `k` now; while it is the kept search's own list, the value is worked out once (slot
  // `kind` of the search's, below kDerived) and given again. `make` must not search.
  template <class Make>
  ir::Value derived(const GameState& s, const Key& k, const ir::Value& list, size_t kind,
                    Make make) {
    Kept* e = kind < Kept::kDerived ? keptOf(s, k, list) : nullptr;
    if (!e) return make();
    ir::Value& d = e->derived[kind];
    if (d.isNone()) d = make();
    return d;
  }

  // Closures made again with the same captured values: a lambda inside a function (`x -> x.side
  // != s`) is made at every call of the function, most often with the same side. The last one
  // made at each place in the code (function `fn`, instruction `pc`) is kept, and given again
  // while its captured values are the same scalars, bit for bit (values that hold no payload): a
  // closure is immutable, so the one kept is the one that would be made. Nothing else changes
  // (a closure is equal to another by its function and captured values, not by its payload).
  // `lambda`: the closure's function. Null: make it (and keep it with keepClosure).
  const ir::Value* closureAt(int32_t fn, int32_t pc, int64_t lambda,
                             std::span<const ir::Value> caps) const {
    const MadeClosure& e = closures_[closureSlot(fn, pc)];
    if (e.fn != fn || e.pc != pc || e.value.tag != ir::Tag::Func || e.value.i != lambda)
      return nullptr;
    const ir::ValueList& kept = e.value.items();
    if (kept.size() != caps.size()) return nullptr;
    for (size_t k = 0; k < caps.size(); ++k)
      if (!sameScalar(kept[k], caps[k])) return nullptr;
    return &e.value;
  }
  // Whether closureAt may keep a closure with these captured values (all scalars).
  static bool closureKeepable(std::span<const ir::Value> caps) {
    if (caps.empty() || caps.size() > 4) return false;
    for (const ir::Value& c : caps)
      if (c.hasPayload()) return false;
    return true;
  }
  void keepClosure(int32_t fn, int32_t pc, const ir::Value& v) {
    MadeClosure& e = closures_[closureSlot(fn, pc)];
    e.fn = fn;
    e.pc = pc;
    e.value = v;
  }

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
  // reused rather than freed and allocated again. A slot is kept small (104 bytes; a dense
  // table's, which needs no key, 72): the first look at a slot is most of a look-up's time (a
  // cache miss), and every game's table is made and filled anew.
  struct StampedRead {
    int32_t read;
    uint64_t stamp;  // when the answer was made
  };
  // An answer's reads with their stamps, in the slot itself when there is one (nearly always: a
  // hex, or a group standing for many, see Group), so that taking an answer in a search or
  // checking that it holds looks at no other memory; more are kept on the heap. As small as a
  // vector.
  class StampedReads {
   public:
    StampedReads() { one_ = StampedRead{0, 0}; }
    StampedReads(const StampedReads& o) { copyFrom(o); }
    StampedReads& operator=(const StampedReads& o) {
      if (this != &o) {
        release();
        copyFrom(o);
      }
      return *this;
    }
    StampedReads(StampedReads&& o) noexcept : n_(o.n_), cap_(o.cap_) {
      if (o.cap_ > 0)
        heap_ = o.heap_;
      else
        one_ = o.one_;
      o.n_ = o.cap_ = 0;
    }
    StampedReads& operator=(StampedReads&& o) noexcept {
      if (this != &o) {
        release();
        n_ = o.n_;
        cap_ = o.cap_;
        if (o.cap_ > 0)
          heap_ = o.heap_;
        else
          one_ = o.one_;
        o.n_ = o.cap_ = 0;
      }
      return *this;
    }
    ~StampedReads() { release(); }
    size_t size() const { return n_; }
    StampedRead* begin() { return cap_ > 0 ? heap_ : &one_; }
    StampedRead* end() { return begin() + n_; }
    const StampedRead* begin() const { return cap_ > 0 ? heap_ : &one_; }
    const StampedRead* end() const { return begin() + n_; }
    void clear() { n_ = 0; }  // keeps the heap's capacity, as a vector does
    void push_back(StampedRead r) {
      if (cap_ == 0 && n_ == 0) {
        one_ = r;
        n_ = 1;
        return;
      }
      if (n_ >= cap_) {  // the one in the slot, or a full heap: to a larger heap
        const uint32_t cap = cap_ == 0 ? 4 : cap_ * 2;
        auto* more = new StampedRead[cap];
        std::copy(begin(), end(), more);
        if (cap_ > 0) delete[] heap_;
        heap_ = more;
        cap_ = cap;
      }
      heap_[n_++] = r;
    }

   private:
    void release() {
      if (cap_ > 0) delete[] heap_;
      n_ = cap_ = 0;
    }
    void copyFrom(const StampedReads& o) {
      n_ = cap_ = 0;
      for (const StampedRead& r : o) push_back(r);
    }
    union {
      StampedRead one_;    // while cap_ is 0 (at most one read)
      StampedRead* heap_;  // cap_ reads, n_ of them used
    };
    uint32_t n_ = 0, cap_ = 0;
  };
  static_assert(sizeof(StampedReads) <= 24, "as small as the vector it replaces");
  // An answer as a slot holds it: all a dense table's slot is (its key is its place), the first
  // part of a hash table's slot, which adds its key.
  struct Answer {
    uint32_t gen = 0;
    bool logged = false;
    bool verifying = false;  // given up by find for POLEMOS_VERIFY_KEPT: compare when made again
    uint64_t version = 0;    // the version it was made or last found to hold in
    uint64_t epoch = 0;
    ir::Value value;
    StampedReads reads;
  };
  struct Slot : Answer {
    uint32_t hash = 0;  // the low half of the key's hash
    int32_t fn = 0;     // the key: function and arguments
    std::vector<ir::Value> args;
  };
  static_assert(sizeof(Answer) <= 72 && sizeof(Slot) <= 104,
                "a memo slot is kept small (see above)");
  // The answer found for fn(args) in a search being made, recorded as its call with the reads it
  // carries.
  // `slot`: the answer's slot in fn's dense table, which names the arguments (kNoSlot: none, the
  // arguments go to the pool).
  static constexpr uint32_t kNoSlot = ~0u;
  const ir::Value* recordFound(Recording& r, int32_t fn, std::span<const ir::Value> args,
                               const Answer& found, uint32_t slot = kNoSlot) {
    const Answer* s = &found;
    HookCall& call = r.calls.emplace_back();
    call.fn = fn;
    if (slot != kNoSlot) {
      call.argsAt = slot;
      call.argCount = kDenseCall | static_cast<uint32_t>(args.size());
      if (verify_) {
        CallArgs buf;
        auto named = denseArgs(fn, slot, buf);
        if (!std::equal(args.begin(), args.end(), named.begin(), named.end()))
          verifyFailed("a dense call's arguments named by its slot");
      }
    } else {
      call.argsAt = static_cast<uint32_t>(r.args.size());
      call.argCount = static_cast<uint32_t>(args.size());
      r.args.append(args);
    }
    call.readsAt = static_cast<uint32_t>(r.reads.size());
    for (const StampedRead& x : s->reads) r.reads.push_back(x.read);  // each once (setReads)
    call.readCount = static_cast<uint32_t>(s->reads.size());
    r.results.push_back(s->value);
    return &s->value;
  }
  // The slot of fn(args) whose answer holds in `st` (see find), or null; `inLog`: asked inside a
  // logged computation, where an answer counts only with what it read (an answer made outside
  // one is made again, once, with its reads).
  Answer* lookup(const GameState& st, int32_t fn, std::span<const ir::Value> args, bool inLog) {
    if (st.version != version_) advance(st);
    if (used_ + denseUsed_ == 0) return nullptr;
    if (Answer* d = denseSlot(st, fn, args)) {
      if (d->gen != denseGen_) return nullptr;
      return holding(st, *d, inLog);
    }
    if (used_ == 0) return nullptr;
    size_t h = hash(fn, args);
    for (size_t i = h & mask_;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.gen != gen_) return nullptr;
      if (s.hash == static_cast<uint32_t>(h) && s.fn == fn &&
          std::equal(args.begin(), args.end(), s.args.begin(), s.args.end()))
        return holding(st, s, inLog);
    }
  }
  // Slot s, found under the key asked for: itself if its answer holds in `st` (see lookup).
  Answer* holding(const GameState& st, Answer& s, bool inLog) {
    if (s.version != version_) {
      if (!carried(st, s)) return nullptr;
      if (verify_) {
        s.verifying = true;
        return nullptr;
      }
      s.version = version_;
    }
    if (inLog && !s.logged) return nullptr;
    return &s;
  }

  // Dense tables. A function whose arguments are all units, sides and hexes of the game, truth
  // values and small numbers (0 to kDenseInts - 1: a facing, a price), a hex perhaps a step (a
  // hex next to the hex just before it, as `side_move_cost(s, from, to)` is asked by a movement
  // search) keeps its answers in an array indexed by its arguments
  // instead of the hash table: no hash, no arguments kept or compared, no probing, and the six
  // steps out of one hex side by side (a search prices them one after another). The layout is
  // taken, once the function has been stored kDenseAfter times (a short-lived copy of a game
  // never makes one), from the kinds of the arguments of that call, and the function's answers
  // in the hash table that fit it are copied in; a call whose arguments do not fit it (another
  // kind, a hex not next to the one before, an index past the game's, another map) goes to the hash
  // table, so that each key has one place while the layout holds. A table larger than kMaxDense
  // slots, or past kMaxDenseTotal slots in all, is never made. Answers never change with this; only
  // the time does.
  struct DenseDim {
    ir::Tag tag = ir::Tag::None;
    bool step = false;  // a hex next to the argument before it: its direction from that one
    uint32_t size = 0;
  };
  struct Dense {
    std::vector<DenseDim> dims;
    const hex::Grid* grid = nullptr;  // the map whose hexes and steps it indexes
    std::vector<Answer> slots;        // 72 bytes a slot, not a hash slot's 104: no key
  };
  static constexpr size_t kMaxDense = size_t{1} << 17, kMaxDenseTotal = size_t{1} << 18;
  static constexpr uint32_t kDenseInts = 8;  // the numbers a table indexes: 0 to 7
  // The slot of fn(args) in fn's dense table, or null when the key belongs to the hash table.
  Answer* denseSlot(const GameState& st, int32_t fn, std::span<const ir::Value> args) {
    if (fn < 0 || static_cast<size_t>(fn) >= denseOf_.size()) return nullptr;
    const int32_t d = denseOf_[static_cast<size_t>(fn)];
    if (d <= 0) return nullptr;
    Dense& t = dense_[static_cast<size_t>(d - 1)];
    if (args.size() != t.dims.size() || st.map.grid.get() != t.grid) return nullptr;
    size_t at = 0;
    for (size_t k = 0; k < args.size(); ++k) {
      const ir::Value& v = args[k];
      const DenseDim& dim = t.dims[k];
      if (v.tag != dim.tag || v.i < 0) return nullptr;
      size_t x = 0;
      if (dim.step) {
        const auto& next = t.grid->neighbourIndices(static_cast<int32_t>(args[k - 1].i));
        while (x < next.size() && next[x] != v.i) ++x;
        if (x == next.size()) return nullptr;
      } else {
        if (v.i >= dim.size) return nullptr;
        x = static_cast<size_t>(v.i);
      }
      at = at * dim.size + x;
    }
    return &t.slots[at];
  }
  // store's two halves: whether the slot of the key keeps the answer it has (made in this
  // version: the first answer stays), and putting an answer in a slot.
  bool keepsFirst(const GameState& st, Answer& s, const ir::Value& v,
                  const std::vector<int32_t>* reads, size_t& logged);
  void put(const GameState& st, Answer& s, ir::Value v, const std::vector<int32_t>* reads,
           uint32_t gen, size_t& used, size_t& logged);
  // Counts a store of fn (outside a dense table) and makes its table once it is due.
  void countDense(const GameState& st, int32_t fn, std::span<const ir::Value> args);
  std::vector<int32_t> denseOf_;  // per function: its table in dense_ + 1; 0: none yet; -1: never
  std::vector<uint32_t> denseStores_;  // per function: stores counted before deciding
  std::vector<Dense> dense_;
  size_t denseSlots_ = 0;                   // in all tables
  size_t denseUsed_ = 0, denseLogged_ = 0;  // as used_ and logged_, in the dense tables
  uint32_t denseGen_ = 1;                   // as gen_, for the dense tables' slots
  // A new version of the game: the per-hex lists go; the answers stay, to be checked when asked.
  void advance(const GameState& st) {
    version_ = st.version;
    if (logged_ + denseLogged_ == 0 && used_ + denseUsed_ > 0)
      clear();  // nothing of the last version can be taken again
    // Another epoch: nothing that names a group of the last can be taken again (an answer or a
    // search of another epoch never is); a long epoch's groups are bounded with the answers.
    if ((st.epoch != groupsEpoch_ || groupReads_ > kMaxGroupReads) && logTop_ == 0 && busy_ == 0)
      dropGroups(st);
    firstAt_.clear();
    nextAt_.clear();
    ++unitsAtGen_;
  }
  void stampReads(const GameState& st, Answer& s) {
    for (StampedRead& r : s.reads) r.stamp = stampOf(st, r.read);
  }
  // Whether an answer made in an earlier version holds in `st` (made logged, in this epoch, and
  // nothing it read has changed since).
  bool carried(const GameState& st, const Answer& s) {
    if (!s.logged || s.epoch != st.epoch) return false;
    for (const StampedRead& r : s.reads)
      if (stampOf(st, r.read) != r.stamp) return false;
    return true;
  }
  // Empties the hash table (not the dense tables).
  void clearHash() {
    // The slots stay allocated for the next version: a new generation marks them all free (and
    // when the generations go round, every slot is marked free by hand).
    if (++gen_ == 0) {
      for (Slot& s : slots_) s.gen = 0;
      gen_ = 1;
    }
    used_ = 0;
    logged_ = 0;
    firstAt_.clear();
    nextAt_.clear();
    ++unitsAtGen_;
  }
  // Past this many entries the table keeps only the answers that still hold (or, if most do, is
  // emptied).
  static constexpr size_t kMaxEntries = 50000;
  static constexpr size_t kMaxGroupReads = size_t{1} << 22;
  void dropGroups(const GameState& st);
  void compact(const GameState& st);
  const bool verify_ = std::getenv("POLEMOS_VERIFY_KEPT") != nullptr;
  // A read's place in the scratch arrays: units, hexes, other stamps and groups interleaved, so
  // that each kind needs as many entries as it has.
  static size_t readIndex(int32_t read) {
    if (read <= kGroupBase) return 4 * static_cast<size_t>(kGroupBase - read) + 3;
    if (read <= kOtherBase) return 4 * static_cast<size_t>(kOtherBase - read) + 2;
    if (read < 0) return 4 * static_cast<size_t>(-1 - static_cast<int64_t>(read)) + 1;
    return 4 * static_cast<size_t>(read);
  }

  // A group of reads: the reads of an answer that read many things (the enemy's zones of control
  // read every enemy unit's hex and fields), named by one read, so that every answer and search
  // that takes it logs, records and checks one read instead of all of them. Its stamp is the
  // greatest stamp of its reads: a stamp is renewed only to a version never used before (the
  // version only grows, also across a rollback), so the greatest stays the same exactly while
  // every read of the group keeps its stamp (each version names one change, in one line of the
  // game's history: two states with the same greatest stamp both come after that change, and
  // neither changed a read of the group after it). Worked out once per version of the game.
  // Groups belong to an epoch (no answer or search of another epoch is ever taken: their reads
  // are never asked for), and go with it.
  // Worked out anew only when the changes since the last version it was worked out in are not
  // all held by the game (GameState::changesSince) or are more than a few: otherwise from them
  // (a change to one of its reads gives its version) and its nested groups' stamps.
  struct Group {
    std::vector<int32_t> reads;    // each once, ascending, its groups' reads left out
    std::vector<uint32_t> nested;  // the groups it reads: each an older group
    uint64_t at = ~0ull;           // the version `stamp` was worked out in
    uint64_t stamp = 0;
    // Where each kind of read begins in `reads` (ascending: other stamps, hexes, units' fields),
    // so that a change is looked for among the reads of its kind only, and not at all when it
    // falls outside their range (a unit's move, to the kept search of another unit).
    uint32_t hexesFrom = 0, unitsFrom = 0;
    bool renews(int32_t change) const;  // whether a change renewed one of `reads`
    bool has(int32_t read) const;
  };
  static constexpr size_t kGroupFrom = 6;  // an answer with this many reads or more: a group
  std::vector<Group> groups_;
  size_t groupReads_ = 0;
  uint64_t groupsEpoch_ = ~0ull;
  int32_t makeGroup(const std::vector<int32_t>& reads);
  uint64_t groupStamp(const GameState& s, size_t g);
  // The reads an answer keeps: as they are, or as one group (see Group).
  void setReads(StampedReads& out, const std::vector<int32_t>& reads) {
    out.clear();
    if (reads.size() < kGroupFrom)
      for (int32_t r : reads) out.push_back(StampedRead{r, 0});
    else
      out.push_back(StampedRead{makeGroup(reads), 0});
  }
  // A read is added to the open log once: marks_ holds, per read, the token of the log that last
  // took it (a read taken by a log opened inside may come again when that log closes).
  void note(int32_t read) {
    size_t i = readIndex(read);
    if (i >= marks_.size()) marks_.resize(i + 1024, 0);
    uint32_t token = tokens_[logTop_ - 1];
    if (marks_[i] == token) return;
    marks_[i] = token;
    logs_[logTop_ - 1].push_back(read);
  }
  void logReads(const std::vector<int32_t>& reads) {
    for (int32_t r : reads) note(r);
  }
  // The open logs, logs_[0, logTop_), their vectors kept for reuse, and their tokens.
  std::vector<std::vector<int32_t>> logs_;
  std::vector<uint32_t> tokens_;
  size_t logTop_ = 0;
  uint32_t nextToken_ = 0;
  std::vector<uint32_t> marks_;
  std::vector<int32_t> closed_;  // closeLog's reads
  // Scratch of index() and kept(): per read (readIndex), whether it was taken (or found changed)
  // by the pass that holds token indexToken_ (every read is indexed once slotMark_ has grown to
  // it: index() sees every read of a search before kept() marks one).
  std::vector<uint32_t> slotMark_;
  uint32_t indexToken_ = 0;
  uint32_t nextIndexToken() {
    if (++indexToken_ == 0) {
      std::fill(slotMark_.begin(), slotMark_.end(), 0);
      indexToken_ = 1;
    }
    return indexToken_;
  }
  struct KeyHash {
    size_t operator()(const Key& k) const { return hash(k.fn, k.args); }
  };
  std::unordered_map<Key, Kept, KeyHash> kept_;
  std::vector<Recording> spare_;  // emptied records kept for their room (spareRecording)
  int busy_ = 0;                  // validations under way
  void grow();
  uint64_t version_ = ~0ull;
  std::vector<Slot> slots_;
  size_t mask_ = 0;
  size_t used_ = 0;
  size_t logged_ = 0;             // of used_, the answers made logged
  uint64_t compactedAt_ = ~0ull;  // the version compacted last (once a version is enough)
  uint32_t gen_ = 1;
  // For unitsAt: per hex its first unit and per unit the next in the same hex (-1: none), and
  // per hex the list once made, valid when its generation is the current one.
  std::vector<int32_t> firstAt_, nextAt_;
  std::vector<ir::Value> unitsAt_;
  std::vector<uint64_t> unitsAtMade_;
  uint64_t unitsAtGen_ = 1;
  std::vector<std::unique_ptr<Machine>> scratch_;
  struct MadeClosure {
    int32_t fn = -1, pc = -1;
    ir::Value value;
  };
  static constexpr size_t kClosureSlots = 64;
  static size_t closureSlot(int32_t fn, int32_t pc) {
    return (static_cast<size_t>(fn) * 131 + static_cast<size_t>(pc)) & (kClosureSlots - 1);
  }
  static bool sameScalar(const ir::Value& a, const ir::Value& b) {
    return a.tag == b.tag && a.sub == b.sub && a.i == b.i && a.j() == b.j() && !b.hasPayload();
  }
  std::array<MadeClosure, kClosureSlots> closures_;
  struct FnStats {
    uint32_t calls = 0, hits = 0, skipped = 0;
    bool off = false;
  };
  static constexpr uint32_t kWindow = 4096, kReprobeAfter = 1u << 18;
  std::vector<FnStats> stats_;
};

}  // namespace polemos::eval
