#include "engine/random_player.h"

#include <numeric>
#include <vector>

namespace polemos::engine {

size_t RandomPlayer::draw(size_t n) {
  state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
  return static_cast<size_t>((state_ >> 33) % n);
}

RandomPlayer::Move RandomPlayer::play(Session& s, const std::function<void()>& beforeApply,
                                      const std::function<void()>& afterRefused) {
  Move m;
  std::vector<Option> opts = s.legal();
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
      return m;
    }
    opts.erase(opts.begin() + static_cast<std::ptrdiff_t>(pick));
    original.erase(original.begin() + static_cast<std::ptrdiff_t>(pick));
  }
  m.kind = Move::Stuck;
  return m;
}

}  // namespace polemos::engine
