#include "engine/history.h"

#include <algorithm>

namespace polemos::engine {

History::Lines History::Lines::of(const std::vector<std::string>& log, const Lines* like) {
  Lines l;
  const size_t full = log.size() / kChunk;
  l.chunks.reserve(full);
  for (size_t c = 0; c < full; ++c) {
    auto from = log.begin() + static_cast<std::ptrdiff_t>(c * kChunk);
    auto to = from + static_cast<std::ptrdiff_t>(kChunk);
    if (like && c < like->chunks.size() && std::equal(from, to, like->chunks[c]->begin()))
      l.chunks.push_back(like->chunks[c]);
    else
      l.chunks.push_back(std::make_shared<const std::vector<std::string>>(from, to));
  }
  l.rest.assign(log.begin() + static_cast<std::ptrdiff_t>(full * kChunk), log.end());
  return l;
}

std::vector<std::string> History::Lines::lines() const {
  std::vector<std::string> out;
  out.reserve(chunks.size() * kChunk + rest.size());
  for (const auto& c : chunks) out.insert(out.end(), c->begin(), c->end());
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

void History::add(std::deque<Entry>& list, const Session& now,
                  const std::vector<std::string>& log) {
  const Lines* like = nullptr;
  if (!list.empty()) {
    Entry& newest = list.back();
    newest.delta = eval::StateDelta::between(std::move(newest.session.state_), now.state_);
    newest.session.state_ = eval::GameState{};
    like = &newest.log;
  }
  Entry e{now, std::nullopt, std::nullopt, std::nullopt, Lines::of(log, like)};
  const eval::GameState& state = e.session.state_;
  if (auto& a = e.session.actionStart_) {
    e.actionStart = eval::StateDelta::between(std::move(a->state), state);
    a->state = eval::GameState{};
  }
  if (auto& c = e.session.commandStart_) {
    e.commandStart = eval::StateDelta::between(std::move(c->state), state);
    c->state = eval::GameState{};
  }
  list.push_back(std::move(e));
}

History::Entry History::pop(std::deque<Entry>& list) {
  Entry top = std::move(list.back());
  list.pop_back();
  if (!list.empty()) {
    Entry& next = list.back();
    next.session.state_ = next.delta->restore(top.session.state_);
    next.delta.reset();
  }
  const eval::GameState& state = top.session.state_;
  if (top.actionStart) top.session.actionStart_->state = top.actionStart->restore(state);
  if (top.commandStart) top.session.commandStart_->state = top.commandStart->restore(state);
  return top;
}

void History::push(const Session& now, const std::vector<std::string>& log) {
  add(undo_, now, log);
  redo_.clear();
  if (undo_.size() > kMaxUndo) undo_.pop_front();  // the oldest goes, the others stay put
}

bool History::undo(Session& now, std::vector<std::string>& log) {
  if (undo_.empty()) return false;
  add(redo_, now, log);
  Entry back = pop(undo_);
  now = std::move(back.session);
  log = back.log.lines();
  return true;
}

bool History::redo(Session& now, std::vector<std::string>& log) {
  if (redo_.empty()) return false;
  add(undo_, now, log);
  Entry next = pop(redo_);
  now = std::move(next.session);
  log = next.log.lines();
  return true;
}

}  // namespace polemos::engine
