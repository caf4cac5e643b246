// Helpers shared by the unit tests that drive a REPL: one command line's answer, and the options
// of a game (a Chalons game) with a given seed.
#pragma once

#include <cstdint>
#include <string>

#include "repl/repl.h"

namespace polemos::test_helpers {

inline std::string run(repl::Repl& r, const std::string& line) {
  std::string out;
  r.execute(line, out);
  return out;
}

// The options of a game of `ruleset` (its `scenario`, or "" for its sandbox) with a given seed.
inline repl::ReplOptions game(const std::string& ruleset, const std::string& scenario,
                              uint64_t seed) {
  repl::ReplOptions o;
  o.ruleset = ruleset;
  o.scenario = scenario;
  o.session.seed = seed;
  return o;
}

inline repl::ReplOptions chalons(uint64_t seed) {
  return game("standard", "chalons", seed);
}

}  // namespace polemos::test_helpers
