// Sandbox maps: a copy of a checked program whose scenario is replaced by an empty map of a given
// shape (every hex the ruleset's clear or open terrain, no hexside features, the scenario's hex
// groups empty, no units), for setting a situation up by hand (the REPL's `sandbox`, `compare`).
// The unit types, sides and rules of the program are kept. It builds the map's hex::Grid here, as
// the checker does for a scenario's map; it does not place anything on it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ir/program.h"
#include "limits/limits.h"

namespace polemos::check {

struct SandboxSpec {
  int firstColumn = 1;
  int columns = 0;
  int firstRow = 1;
  int rows = 0;
  // The sides by name (a side the program has keeps its set-up); empty: the program's, or blue
  // and red if it has none.
  std::vector<std::string> sides;
  // Hex labels: -1 as the ruleset's maps are labelled, 0 numbers (0101), 1 letters (A1).
  int letters = -1;
};

// The largest sandbox: its last column and row numbers are at most the map limit.
inline constexpr int kMaxSandboxSide = limits::kMaxMapSide;

// Nothing, with `why`, when the shape is out of range, a side is named twice, or the ruleset has
// no terrain.
std::shared_ptr<const ir::Program> sandboxProgram(const ir::Program& base, const SandboxSpec& spec,
                                                  std::string& why);

// The name of the terrain every sandbox hex starts as: clear, or open, or the first declared.
std::string sandboxTerrain(const ir::Program& base);

}  // namespace polemos::check
