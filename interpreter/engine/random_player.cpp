#include "engine/random_player.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <vector>

namespace polemos::engine {

size_t RandomPlayer::draw(size_t n) {
  state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
  return static_cast<size_t>((state_ >> 33) % n);
}

namespace {

// The options of a window as blocks of leaves, without checking any requirement: per action and
// arguments but the last, the last argument's candidates (an action without parameters is a
// block of one leaf). Leaf r of the whole is found by its block's offset.
struct Block {
  int32_t action = -1;
  std::vector<ir::Value> prefix;
  ir::Value last;  // a list (shared with the domain's answer; none: no parameters)
  size_t offset = 0;
};

void collect(Session& s, int32_t action, std::vector<ir::Value>& prefix, size_t& total,
             std::vector<Block>& out) {
  const size_t n = s.program().actions[action].params.size();
  if (n == 0) {
    out.push_back(Block{action, {}, {}, total});
    total += 1;
    return;
  }
  const ir::Value c = s.candidates(action, prefix);
  if (prefix.size() + 1 == n) {
    const size_t size = c.items().size();
    if (size == 0) return;
    out.push_back(Block{action, prefix, c, total});
    total += size;
    return;
  }
  for (const ir::Value& v : c.items()) {
    prefix.push_back(v);
    collect(s, action, prefix, total, out);
    prefix.pop_back();
  }
}

}  // namespace

RandomPlayer::Move RandomPlayer::play(Session& s, const std::function<void()>& beforeApply,
                                      const std::function<void()>& afterRefused) {
  if (s.stop().kind == eval::Stop::Window) return playWindow(s, beforeApply, afterRefused);
  return playListed(s, s.legal(), beforeApply, afterRefused);
}

RandomPlayer::Move RandomPlayer::playListed(Session& s, std::vector<Option> opts,
                                            const std::function<void()>& beforeApply,
                                            const std::function<void()>& afterRefused) {
  Move m;
  if (opts.empty()) return m;
  std::vector<size_t> original(opts.size());
  std::iota(original.begin(), original.end(), size_t{0});
  const eval::Stop before = s.stop();
  while (!opts.empty()) {
    size_t pick = draw(opts.size());
    if (beforeApply) beforeApply();
    m.outcome = s.apply(opts[pick]);
    if (m.outcome.kind == Outcome::Ok) {
      m.kind = Move::Played;
      m.option = std::move(opts[pick]);
      m.index = original[pick];
      return m;
    }
    if (afterRefused) afterRefused();
    if (m.outcome.kind == Outcome::Error) {
      m.kind = Move::Failed;
      m.option = std::move(opts[pick]);
      m.index = original[pick];
      return m;
    }
    const eval::Stop& now = s.stop();
    if (now.kind != before.kind || now.index != before.index || now.player != before.player) {
      m.kind = Move::Relist;
      m.option = std::move(opts[pick]);
      m.index = original[pick];
      return m;
    }
    opts.erase(opts.begin() + static_cast<std::ptrdiff_t>(pick));
    original.erase(original.begin() + static_cast<std::ptrdiff_t>(pick));
  }
  m.kind = Move::Stuck;
  return m;
}

// Rejection sampling: a leaf drawn uniformly among all the candidate leaves (every action's
// argument combinations, and `end` or `pass`) is played if its requirements hold, and set aside
// otherwise; the first leaf accepted is uniform over the legal options, as if they had been
// listed. Whether the phase may end (its `end requires`, Standard 5.32: a look at every unit of
// the side) is asked only when the end leaf is drawn, as an action's requirements are, or when
// there is no other leaf. Once half the leaves are set aside, drawing blind wastes draws: the rest
// are checked and listed, and the draw is among those (still uniform over what remains).
RandomPlayer::Move RandomPlayer::playWindow(Session& s, const std::function<void()>& beforeApply,
                                            const std::function<void()>& afterRefused) {
  std::vector<Block> blocks;
  size_t total = 0;
  for (int32_t a : s.openActions()) {
    std::vector<ir::Value> prefix;
    collect(s, a, prefix, total, blocks);
  }
  std::optional<bool> mayEnd;
  auto endHolds = [&] {
    if (!mayEnd) mayEnd = s.mayEnd();
    return *mayEnd;
  };
  const bool endLeaf = total > 0 || endHolds();
  const size_t all = total + (endLeaf ? 1 : 0);
  Move m;
  if (all == 0) return m;
  auto leaf = [&](size_t r) -> Option {
    if (r == total) return s.endOption();
    auto it = std::upper_bound(blocks.begin(), blocks.end(), r,
                               [](size_t x, const Block& b) { return x < b.offset; });
    const Block& b = *std::prev(it);
    // Its text is made once its requirements hold (named): most leaves drawn are set aside.
    Option o;
    o.kind = Option::Action;
    o.action = b.action;
    o.args = b.prefix;
    if (!b.last.items().empty()) o.args.push_back(b.last.items()[r - b.offset]);
    return o;
  };
  auto named = [&](Option& o) {
    if (o.kind == Option::Action) o = s.actionOption(o.action, std::move(o.args));
  };
  std::vector<bool> aside(all, false);
  size_t setAside = 0;
  const eval::Stop before = s.stop();
  while (setAside * 2 < all) {
    size_t r = draw(all);
    if (aside[r]) continue;
    Option o = leaf(r);
    aside[r] = true;
    ++setAside;
    if (o.kind == Option::Action ? !s.guardHolds(o.action, o.args) : !endHolds()) continue;
    named(o);
    if (beforeApply) beforeApply();
    m.outcome = s.apply(o);
    if (m.outcome.kind == Outcome::Ok) {
      m.kind = Move::Played;
      m.option = std::move(o);
      m.index = r;
      return m;
    }
    if (afterRefused) afterRefused();
    if (m.outcome.kind == Outcome::Error) {
      m.kind = Move::Failed;
      m.option = std::move(o);
      m.index = r;
      return m;
    }
    const eval::Stop& now = s.stop();
    if (now.kind != before.kind || now.index != before.index || now.player != before.player) {
      m.kind = Move::Relist;
      return m;
    }
  }
  std::vector<Option> rest;
  for (size_t r = 0; r < all; ++r) {
    if (aside[r]) continue;
    Option o = leaf(r);
    if (o.kind == Option::Action ? !s.guardHolds(o.action, o.args) : !endHolds()) continue;
    named(o);
    rest.push_back(std::move(o));
  }
  if (rest.empty()) {
    m.kind = Move::Stuck;
    return m;
  }
  return playListed(s, std::move(rest), beforeApply, afterRefused);
}

}  // namespace polemos::engine
