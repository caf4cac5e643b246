#pragma once
// Rule coverage: which cited rules of a program ran in a game (a script, a simulation), by rule
// number. A rule ran if a function, procedure, action, modifier or trigger citing it was entered,
// or if a traced event (a phase, table, roll, choice, note, effect) cites it.
#include <cstdint>
#include <string>
#include <vector>

#include "eval/state.h"
#include "ir/program.h"

namespace polemos::analysis {

struct CoverageRow {
  std::string rule;                  // "7.43"
  std::vector<std::string> citedBy;  // the declarations citing it ("function slope", "phase combat")
  size_t hits = 0;                   // how many times it was seen to run (0: never)
};

std::vector<CoverageRow> ruleCoverage(const ir::Program& P, const std::vector<uint8_t>& ranFunctions,
                                      const std::vector<uint8_t>& checkedRequirements,
                                      const std::vector<eval::TraceEvent>& trace);
// The table (markdown), then the rules that never ran.
std::string renderCoverage(const std::vector<CoverageRow>& rows);

}  // namespace polemos::analysis
