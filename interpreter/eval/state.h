// The mutable state of a game and the interpreter's continuation, as plain data.
//
// GameState (units, sides, map, trace) and Machine (call frames and value stack) are values: a
// Session is cloned by copying them, saved by serialising them, and undone by restoring an earlier
// copy. Nothing here points into the C++ call stack, which is what lets a ruleset suspend in the
// middle of a procedure (at a roll or a choice) and resume later, in this process or another.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <unordered_map>
#include <string>
#include <vector>

#include "ir/program.h"

namespace polemos::eval {

enum class UnitStatus : uint8_t { Off, OnMap, Eliminated, Exited };

struct UnitState {
  std::string id;
  int32_t type = -1;
  int32_t cls = -1;
  int32_t side = -1;
  int32_t hex = -1;
  int32_t facing = -1;
  UnitStatus status = UnitStatus::Off;
  std::vector<ir::Value> fields;  // one per class field
};

struct SideState {
  std::vector<ir::Value> fields;  // one per side state field
};

// One rule application, for `trace`, `why`, `log`, `--json` and coverage.
struct TraceEvent {
  uint64_t seq = 0;
  std::string citation;  // "7.43" (may hold several, space-separated)
  std::string kind;      // phase, step, action, roll, choice, modifier, table, effect, trigger, note, require
  std::string subject;
  std::string inputs;
  std::string output;
  uint32_t depth = 0;    // nesting (frames), for `why`
};

struct MapState {
  int32_t col0 = 0, col1 = -1, row0 = 0, row1 = -1;
  bool letters = false;
  std::vector<int32_t> terrain;    // per hex
  std::vector<int32_t> elevation;  // per hex
  std::map<std::pair<int32_t, int32_t>, std::vector<int32_t>> hexsides;
  std::map<std::string, std::vector<int32_t>> groups;

  int32_t rows() const { return row1 - row0 + 1; }
  int32_t cols() const { return col1 - col0 + 1; }
  int32_t size() const { return rows() > 0 && cols() > 0 ? rows() * cols() : 0; }
  int32_t colOf(int32_t h) const { return col0 + h / rows(); }
  int32_t rowOf(int32_t h) const { return row0 + h % rows(); }
  int32_t index(int32_t col, int32_t row) const {
    if (col < col0 || col > col1 || row < row0 || row > row1) return -1;
    return (col - col0) * rows() + (row - row0);
  }
  std::string label(int32_t h) const;
  int32_t parse(const std::string& label) const;  // -1 if not a hex of this map
};

struct GameResult {
  bool over = false;
  int32_t winner = -1;  // side, or -1 for a draw
  std::string level;    // "marginal", "decisive", ...
  std::string reason;
};

struct GameState {
  std::vector<UnitState> units;
  std::vector<SideState> sides;
  std::vector<ir::Value> game;        // game state fields
  std::vector<ir::Value> options;     // the session's option values
  int32_t level = 0;
  MapState map;
  int32_t activeSide = 0;
  int32_t acting = 0;                 // who decides at the current window
  int32_t phase = -1;                 // current phase (index into Program::phases), -1 none
  int32_t turn = 0;
  GameResult result;
  std::vector<TraceEvent> trace;
  bool tracing = true;
  uint64_t traceSeq = 0;
  std::vector<uint32_t> coverage;     // per citation id (see Session), how often it fired
  // Bumped on every change a pure function could see; the memo of pure calls is valid for one
  // version only.
  uint64_t version = 0;
};

struct Frame {
  int32_t fn = -1;
  int32_t pc = 0;
  int32_t base = 0;      // stack index of local 0
  bool discard = false;  // drop the return value (actions, triggers)
};

struct Machine {
  std::vector<Frame> frames;
  std::vector<ir::Value> stack;
};

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
  struct KeyHash {
    size_t operator()(const Key& k) const;
  };
  const ir::Value* find(uint64_t version, const Key& k) {
    if (version != version_) {
      clear();
      version_ = version;
      return nullptr;
    }
    auto it = map_.find(k);
    return it == map_.end() ? nullptr : &it->second;
  }
  void store(uint64_t version, Key k, ir::Value v) {
    if (version != version_) {
      clear();
      version_ = version;
    }
    // Bounded: a pathological ruleset cannot grow the cache without limit.
    if (map_.size() > 200000) map_.clear();
    map_.emplace(std::move(k), std::move(v));
  }
  void clear() {
    map_.clear();
    firstAt_.clear();
    nextAt_.clear();
    unitsAt_.clear();
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
  uint64_t version_ = ~0ull;
  std::unordered_map<Key, ir::Value, KeyHash> map_;
  // For unitsAt: per hex its first unit and per unit the next in the same hex (-1: none), and
  // per hex the list once made (none until asked for).
  std::vector<int32_t> firstAt_, nextAt_;
  std::vector<ir::Value> unitsAt_;
  std::vector<std::unique_ptr<Machine>> scratch_;
};


}  // namespace polemos::eval
