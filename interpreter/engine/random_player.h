// The uniform random player: at each decision it applies one of the legal options drawn
// uniformly by its own seeded generator, so that the same seed gives the same game. At a window
// it does not list the options (that checks every candidate's requirements): it draws candidates
// and checks only the one drawn (rejection sampling, see playWindow). It is the one
// random player of the program: the REPL's `auto`, `polemos sim` (and the greedy player's
// fallback), the conformance tests and the benchmarks use it. It does not judge options (see
// analysis/sim for the greedy player) and does not print.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/session.h"

namespace polemos::engine {

class RandomPlayer {
 public:
  // Seeded from the game's seed: a game played by `polemos sim` with seed S replays in the REPL
  // with `--seed S` and `auto`.
  static RandomPlayer forSeed(uint64_t seed) { return RandomPlayer(seed * 7919 + 17); }
  explicit RandomPlayer(uint64_t state) : state_(state) {}

  struct Move {
    enum Kind {
      Played,  // `option` (at `index` of the options listed) was applied
      Relist,  // a refusal deep in an action put the game back where the action began: decide again
      Stuck,   // every option was refused (a fault of the rules)
      Failed,  // an option raised an error (`outcome` says which)
      None,    // there was nothing to decide (no option listed)
    } kind = None;
    Option option;
    size_t index = 0;  // at a choice: in the list of options; at a window: the candidate drawn
    Outcome outcome;   // the last attempt's
  };

  // Decides once at `s`'s current decision. An option can still be refused by a requirement deep
  // in the action (a choice made inside it); the player then draws another, the game unchanged
  // meanwhile. `beforeApply` runs before each attempt and `afterRefused` after each refused one
  // (the REPL keeps its undo history with them).
  Move play(Session& s, const std::function<void()>& beforeApply = {},
            const std::function<void()>& afterRefused = {});

  // Draws a number below n (n > 0) from the player's generator.
  size_t draw(size_t n);
  uint64_t state() const { return state_; }

 private:
  Move playWindow(Session& s, const std::function<void()>& beforeApply,
                  const std::function<void()>& afterRefused);
  Move playListed(Session& s, std::vector<Option> opts, const std::function<void()>& beforeApply,
                  const std::function<void()>& afterRefused);
  uint64_t state_;
};

}  // namespace polemos::engine
