// Helpers shared by the unit tests that drive a REPL: one command line's answer, and the options
// of a Chalons game with a given seed.
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

inline repl::ReplOptions chalons(uint64_t seed) {
  repl::ReplOptions o;
  o.ruleset = "standard";
  o.scenario = "chalons";
  o.session.seed = seed;
  return o;
}

}  // namespace polemos::test_helpers
