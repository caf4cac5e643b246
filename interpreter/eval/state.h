// The mutable state of a game and the interpreter's continuation, as plain data.
//
// GameState (units, sides, map, trace) and Machine (call frames and value stack) are values: a
// Session is cloned by copying them, saved by serialising them, and undone by restoring an earlier
// copy. Nothing here points into the C++ call stack, which is what lets a ruleset suspend in the
// middle of a procedure (at a roll or a choice) and resume later, in this process or another.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cite/citation.h"
#include "eval/operand_stack.h"
#include "eval/trace_log.h"
#include "hex/grid.h"
#include "ir/program.h"

namespace polemos::eval {

// Merged: joined another unit during play (merge()); out of play, neither lost nor gone.
enum class UnitStatus : uint8_t { Off, OnMap, Eliminated, Exited, Merged };

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

// A value shared between copies until one of them changes it (copy on write): a game's map is
// set up once and seldom edited, and a clone of the game (undo, what-if, enumeration) shares it.
// Reading goes through the const operations; changing it through mut(), which copies it first if
// another copy shares it.
template <class T>
class Shared {
 public:
  Shared() : p_(std::make_shared<T>()) {}
  Shared& operator=(T v) {
    p_ = std::make_shared<T>(std::move(v));
    return *this;
  }
  const T& get() const { return *p_; }
  operator const T&() const { return *p_; }  // NOLINT: reads as the value itself
  T& mut() {
    if (p_.use_count() > 1) p_ = std::make_shared<T>(*p_);
    return *p_;
  }
  template <class K>
  decltype(auto) operator[](const K& k) const {
    return get()[k];
  }
  template <class K>
  auto find(const K& k) const {
    return get().find(k);
  }
  auto begin() const { return get().begin(); }
  auto end() const { return get().end(); }
  size_t size() const { return p_->size(); }
  bool empty() const { return p_->empty(); }

 private:
  std::shared_ptr<T> p_;
};

struct MapState {
  int32_t col0 = 0, col1 = -1, row0 = 0, row1 = -1;
  bool letters = false;
  Shared<std::vector<int32_t>> terrain;    // per hex
  Shared<std::vector<int32_t>> elevation;  // per hex
  Shared<std::map<std::pair<int32_t, int32_t>, std::vector<int32_t>>> hexsides;
  Shared<std::map<std::string, std::vector<int32_t>>> groups;
  // The hex state (`hex state { ... }`, rules change it during play): field `slot` of hex h at
  // h * hexFieldCount + slot.
  Shared<std::vector<ir::Value>> hexFields;
  int32_t hexFieldCount = 0;
  const ir::Value& hexField(int32_t h, int32_t slot) const {
    return hexFields.get()[static_cast<size_t>(h) * hexFieldCount + slot];
  }

  int32_t rows() const { return row1 - row0 + 1; }
  int32_t cols() const { return col1 - col0 + 1; }
  int32_t size() const { return rows() > 0 && cols() > 0 ? rows() * cols() : 0; }
  int32_t colOf(int32_t h) const { return col0 + h / rows(); }
  int32_t rowOf(int32_t h) const { return row0 + h % rows(); }
  int32_t index(int32_t col, int32_t row) const {
    if (col < col0 || col > col1 || row < row0 || row > row1) return -1;
    return (col - col0) * rows() + (row - row0);
  }
  // The geometry (labels, neighbours, distances) is the map's hex::Grid, shared with the program
  // that built it; null without a map.
  std::shared_ptr<const hex::Grid> grid;

  std::string label(int32_t h) const;
  int32_t parse(const std::string& label) const;  // -1 if not a hex of this map
  bool adjacent(int32_t a, int32_t b) const;
  // The hexes around h on the map, in index order (column by column, north to south).
  std::vector<int32_t> neighbours(int32_t h) const;
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
  std::vector<ir::Value> game;     // game state fields
  std::vector<ir::Value> options;  // the session's option values
  int32_t level = 0;
  MapState map;
  int32_t activeSide = 0;
  int32_t acting = 0;  // who decides at the current window
  int32_t phase = -1;  // current phase (index into Program::phases), -1 none
  int32_t turn = 0;
  GameResult result;
  TraceLog trace;  // shared in chunks between copies of the game (eval/trace_log.h)
  bool tracing = true;
  uint64_t traceSeq = 0;
  std::vector<uint32_t> coverage;  // per citation id (see Session), how often it fired
  // Bumped on every change a pure function could see; the memo of pure calls is valid for one
  // version only.
  uint64_t version = 0;
  // Stamps, for keeping a movement search across changes that cannot have altered it (eval/memo):
  // a unit field's stamp is renewed when it changes (slot: the class field, or kHexSlot, or
  // kFacingSlot), a unit's when any of its fields does, a hex's when a unit on the map enters or
  // leaves it, a side's or the game's field when it changes, the clock (the phase, who acts)
  // when it moves on, the roster (which units are on the map) when a unit enters or leaves it
  // (with the unit's hex slot, which also stands for its status, and the hexes), and `epoch`
  // with every other change a pure function could see (a unit changing side or type, the turn,
  // a set-up edit). Each is taken from `version`, which only grows, so a stamp names one content:
  // a search is still right while the epoch and the stamps of what it read are those it was made
  // with.
  static constexpr size_t kHexSlot = 253, kFacingSlot = 254, kWholeUnit = 255;
  uint64_t epoch = 0;
  std::vector<uint64_t> unitStamps, hexStamps;
  // Per unit, per slot, densely: the hex slot first, then the facing, then the class fields (a
  // unit's vector is a few words, not 255, which every copy of the game would carry).
  std::vector<std::vector<uint64_t>> fieldStamps;
  static size_t stampIndex(size_t slot) {
    return slot == kHexSlot ? 0 : slot == kFacingSlot ? 1 : slot + 2;
  }

  // Every change goes through one of these (nothing else bumps `version`).
  void touch() {
    epoch = ++version;
    noteChange(kEpochChange);
  }
  void touchField(size_t u, size_t slot) {
    stamp(unitStamps, u,
          static_cast<int32_t>(u * 256 + std::min<size_t>(slot, kWholeUnit)));  // as memo reads
    if (fieldStamps.size() <= u) fieldStamps.resize(u + 1);
    if (slot < kWholeUnit) {
      auto& f = fieldStamps[u];
      const size_t i = stampIndex(slot);
      if (f.size() <= i) f.resize(i + 1, 0);
      f[i] = version;
    }
  }
  void touchHex(size_t h) { stamp(hexStamps, h, -1 - static_cast<int32_t>(h)); }
  // Which units of one side are in hex h (what `enemies_at` reads: a unit of another side
  // entering or leaving leaves it as it was) has a stamp of its own, kept as the stamp of a hex
  // past the map's, h + size * (1 + side), so that it is read, logged, grouped and copied as a
  // hex is. -1 (read the whole hex instead) for a code past those a hex's read can have.
  int64_t sideHex(size_t side, int32_t h) const {
    const int64_t n = static_cast<int64_t>(map.size());
    if (h < 0 || h >= n || side >= kMaxSideHexSides) return -1;
    const int64_t code = h + n * (1 + static_cast<int64_t>(side));
    return code < kMaxHexCode ? code : -1;
  }
  static constexpr size_t kMaxSideHexSides = 64;
  static constexpr int64_t kMaxHexCode = (int64_t{1} << 22) - 1;  // see eval/memo.h, kOtherBase
  // A unit moved, or entered or left the map: its hex slot, the hexes it left and entered (-1:
  // none), each also for the unit's side (sideHex), and the roster if it entered or left.
  void touchWhere(size_t u, int32_t from, int32_t to, bool rosterChanged) {
    touchField(u, kHexSlot);
    const size_t side =
        u < units.size() && units[u].side >= 0 ? static_cast<size_t>(units[u].side) : ~size_t{0};
    for (int32_t h : {from, to}) {
      if (h < 0) continue;
      touchHex(static_cast<size_t>(h));
      if (const int64_t sh = sideHex(side, h); sh >= 0) touchHex(static_cast<size_t>(sh));
    }
    if (rosterChanged) touchOther(kRoster);
  }
  // The other stamps by number, densely (a state copies the vector): the clock, the roster (which
  // units are on the map: units(), a side's units), then 64 game fields and 64 fields of each of
  // 16 sides (-1: a field past those, whose change is a new epoch).
  std::vector<uint64_t> otherStamps;
  static constexpr int64_t kClock = 0, kRoster = 1;
  static constexpr size_t kStampedSlots = 64, kStampedSides = 16;
  static int64_t gameField(size_t slot) {
    return slot < kStampedSlots ? 2 + static_cast<int64_t>(slot) : -1;
  }
  static int64_t sideField(size_t side, size_t slot) {
    return slot < kStampedSlots && side < kStampedSides
               ? 2 + static_cast<int64_t>(kStampedSlots * (1 + side) + slot)
               : -1;
  }
  void touchOther(int64_t id) {
    if (id < 0)
      touch();
    else
      stamp(otherStamps, static_cast<size_t>(id), kOtherChange - static_cast<int32_t>(id));
  }
  uint64_t otherStamp(size_t id) const { return id < otherStamps.size() ? otherStamps[id] : 0; }
  uint64_t unitStamp(size_t u) const { return u < unitStamps.size() ? unitStamps[u] : 0; }
  uint64_t fieldStamp(size_t u, size_t slot) const {
    if (slot >= kWholeUnit) return unitStamp(u);
    const size_t i = stampIndex(slot);
    if (u >= fieldStamps.size() || i >= fieldStamps[u].size()) return 0;
    return fieldStamps[u][i];
  }
  uint64_t hexStamp(size_t h) const { return h < hexStamps.size() ? hexStamps[h] : 0; }

  // The latest changes, one a version (each version after the first names one change, above),
  // oldest first, as what each renewed: a unit's field, unit * 256 + slot (kWholeUnit: the unit
  // alone); a hex, -1 - h; another stamp, kOtherChange - id (the codes eval/memo gives its reads);
  // or a new epoch, kEpochChange. At most kChangesKept are held; a version taken another way (a
  // game put back as it was, Session::replaceState, restore) leaves a gap, and the changes held
  // start again after it. The memo keeps a group of reads up to date from them (a few changes a
  // move, where a group has hundreds of reads: MemoCache::groupStamp).
  static constexpr size_t kChangesKept = 64;
  static constexpr int32_t kEpochChange = INT32_MIN;
  static constexpr int32_t kOtherChange = -(1 << 22) - 1;  // below every hex's code
  // Makes this state, a copy of `now` taken at this state's version and left as it was, equal to
  // `now` again: when every change since is held (GameState::changesSince), in the same epoch
  // with the same units, only the units that changed are copied with their stamps, and only the
  // hexes' stamps that changed (an action's snapshot, taken at every action, copies the units
  // and hexes a move touched, not a hundred units and thousands of stamps); otherwise
  // the whole state. `now` is borrowed meanwhile (its units moved out and back) and is the same
  // after, an error included.
  void catchUp(GameState& now);
  // Calls f(version, code) for every change after version v, oldest first, and is true, when
  // all of them are held and the last is the version now; false otherwise (f may have been
  // called for some), or as soon as f gives false.
  template <class F>
  bool changesSince(uint64_t v, F f) const {
    if (changesCount_ == 0 || v < changesFrom_ || changesFrom_ + changesCount_ != version ||
        v > version)
      return false;
    for (uint64_t at = v + 1; at <= version; ++at) {
      const uint64_t k = at - changesFrom_ - 1;
      if (!f(at, changes_[(changesHead_ + k) % kChangesKept])) return false;
    }
    return true;
  }

 private:
  void stamp(std::vector<uint64_t>& v, size_t i, int32_t change) {
    if (v.size() <= i) v.resize(i + 1, 0);
    v[i] = ++version;
    noteChange(change);
  }
  // The change that made `version` (just taken).
  void noteChange(int32_t change) {
    if (changesCount_ == 0 || changesFrom_ + changesCount_ + 1 != version) {
      changesFrom_ = version - 1;  // a gap before it, or the first
      changesHead_ = changesCount_ = 0;
    } else if (changesCount_ == kChangesKept) {
      changesHead_ = (changesHead_ + 1) % kChangesKept;
      ++changesFrom_;
      --changesCount_;
    }
    changes_[(changesHead_ + changesCount_) % kChangesKept] = change;
    ++changesCount_;
  }
  uint64_t changesFrom_ = 0;  // the version before the first change held
  uint32_t changesHead_ = 0, changesCount_ = 0;
  std::array<int32_t, kChangesKept> changes_{};
};

// Whether two states have the same units, field by field, with the same field stamps (what
// GameState::catchUp copies one by one; POLEMOS_VERIFY_KEPT checks it against a whole copy).
bool sameUnits(const GameState& a, const GameState& b);

struct Frame {
  int32_t fn = -1;
  int32_t pc = 0;
  int32_t base = 0;      // stack index of local 0
  bool discard = false;  // drop the return value (actions, triggers)
};

struct Machine {
  std::vector<Frame> frames;
  OperandStack stack;
};

}  // namespace polemos::eval
