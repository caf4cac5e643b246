// Undo and redo of a game: copies of the Session as it was before each change, each with the
// commands that made it (so that an undone game can still be saved with its replay).
//
// A change is pushed before it is made and dropped if it did not happen (an illegal action, a
// refused edit), so that undo always goes back exactly one change the player saw. The history is
// bounded: a long game does not hold thousands of copies. It knows nothing of what a command is.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "engine/session.h"

namespace polemos::engine {

class History {
 public:
  struct Entry {
    Session session;
    std::vector<std::string> log;
  };

  static constexpr size_t kMaxUndo = 500;

  // Before a change: the game as it is now. Clears what could be redone.
  void push(const Session& now, const std::vector<std::string>& log);
  // The change pushed last did not happen.
  void dropLast() {
    if (!undo_.empty()) undo_.pop_back();
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
  std::vector<Entry> undo_, redo_;
};

}  // namespace polemos::engine
