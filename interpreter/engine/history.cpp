#include "engine/history.h"

namespace polemos::engine {

void History::push(const Session& now, const std::vector<std::string>& log) {
  undo_.push_back(Entry{now, log});
  redo_.clear();
  if (undo_.size() > kMaxUndo) undo_.erase(undo_.begin());
}

bool History::undo(Session& now, std::vector<std::string>& log) {
  if (undo_.empty()) return false;
  redo_.push_back(Entry{now, log});
  now = std::move(undo_.back().session);
  log = std::move(undo_.back().log);
  undo_.pop_back();
  return true;
}

bool History::redo(Session& now, std::vector<std::string>& log) {
  if (redo_.empty()) return false;
  undo_.push_back(Entry{now, log});
  now = std::move(redo_.back().session);
  log = std::move(redo_.back().log);
  redo_.pop_back();
  return true;
}

}  // namespace polemos::engine
