// A game state as a difference from another: what the undo history keeps of each game but the
// newest (engine/history), so that an entry costs the units and stamps that changed, not a copy
// of every unit.
//
// `StateDelta::between(from, to)` keeps what it takes to make `from` again out of `to`: the units,
// stamp tables and coverage counts as the entries that differ, everything else of `from` as it is
// (its map and trace share their unchanged parts with `to`'s already). `restore(to)` makes `from`,
// identical to it: a value counts as unchanged only when it is the same value in every bit that
// shows (an odds 1:2 is not 2:4 here, though the two compare equal in the rules). It knows nothing
// of the Session or of commands.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "eval/state.h"

namespace polemos::eval {

class StateDelta {
 public:
  static StateDelta between(GameState from, const GameState& to);
  GameState restore(const GameState& to) const;

 private:
  // A table: its size, and the entries that differ from the other state's, by index.
  template <class T>
  struct Table {
    size_t size = 0;
    std::vector<std::pair<uint32_t, T>> changed;
  };
  GameState rest_;  // `from` without its units, stamp tables and coverage counts
  Table<UnitState> units_;
  Table<std::vector<uint64_t>> fieldStamps_;
  Table<uint64_t> unitStamps_, hexStamps_, otherStamps_;
  Table<uint32_t> coverage_;
};

// Whether two values are the same in every bit a player or a save could see (not the rules'
// equality, under which odds 1:2 and 2:4 are equal).
bool identical(const ir::Value& a, const ir::Value& b);

}  // namespace polemos::eval
