// Undo and redo of a game: copies of the Session as it was before each change, each with the
// commands that made it (so that an undone game can still be saved with its replay).
//
// A change is pushed before it is made and dropped if it did not happen (an illegal action, a
// refused edit), so that undo always goes back exactly one change the player saw. The history is
// bounded: a long game does not hold thousands of copies. It knows nothing of what a command is.
//
// What an entry costs: the newest entry of each list (undo, redo) is a whole copy of the Session;
// every other keeps its game state as a difference from the next newer entry's
// (eval/state_delta.h: the units and stamps that changed; its map and trace share their unchanged
// parts with the other copies already). Its commands are kept in chunks of kChunk lines, a full
// chunk shared, never changed, between the entries that hold the same lines. So the entries of a
// long game hold what each change changed, not a copy of the game and of its commands each.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/session.h"
#include "eval/state_delta.h"

namespace polemos::engine {

class History {
 public:
  static constexpr size_t kMaxUndo = 500;

  // Before a change: the game as it is now. Clears what could be redone.
  void push(const Session& now, const std::vector<std::string>& log);
  // The change pushed last did not happen.
  void dropLast() {
    if (!undo_.empty()) pop(undo_);
  }
  // Back one change (false if there is none): `now` and `log` become what they were.
  bool undo(Session& now, std::vector<std::string>& log);
  bool redo(Session& now, std::vector<std::string>& log);
  bool canUndo() const { return !undo_.empty(); }
  bool canRedo() const { return !redo_.empty(); }
  void clear() {
    undo_.clear();
    redo_.clear();
  }

 private:
  // A log of commands: full chunks of kChunk lines, shared, then the last few lines.
  struct Lines {
    static constexpr size_t kChunk = 64;
    std::vector<std::shared_ptr<const std::vector<std::string>>> chunks;
    std::vector<std::string> rest;
    // `log`, sharing each full chunk that `like` (another entry, or null) holds the same lines in.
    static Lines of(const std::vector<std::string>& log, const Lines* like);
    std::vector<std::string> lines() const;
  };
  struct Entry {
    Session session;  // without its state while `delta` holds it, and without its snapshots' states
    std::optional<eval::StateDelta> delta;  // the state, from the next newer entry's
    // The states of the Session's snapshots (the game before the action under way, before the
    // command), from the entry's own state.
    std::optional<eval::StateDelta> actionStart, commandStart;
    Lines log;
  };
  std::deque<Entry> undo_, redo_;
  // A list's newest entry (the last) is whole: the one before it becomes a difference from it.
  static void add(std::deque<Entry>& list, const Session& now, const std::vector<std::string>& log);
  // Takes the newest entry off, whole; the one before it becomes whole.
  static Entry pop(std::deque<Entry>& list);
};

}  // namespace polemos::engine
