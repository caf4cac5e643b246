#pragma once
// Rule coverage: which cited rules of a program ran in a game (a script, a simulation), by rule
// number. A rule ran if a function, procedure, action, modifier or trigger citing it was entered,
// or if a traced event (a phase, table, roll, choice, note, effect) cites it.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "eval/state.h"
#include "ir/program.h"

namespace polemos::analysis {

struct CoverageRow {
  std::string rule;  // "7.43"
  std::vector<std::string>
      citedBy;      // the declarations citing it ("function slope", "phase combat")
  size_t hits = 0;  // how many times it was seen to run (0: never)
};

std::vector<CoverageRow> ruleCoverage(const ir::Program& P,
                                      const std::vector<uint8_t>& ranFunctions,
                                      const std::vector<uint8_t>& checkedRequirements,
                                      const std::vector<eval::TraceEvent>& trace);
// The table (markdown), then the rules that never ran.
std::string renderCoverage(const std::vector<CoverageRow>& rows);

// Coverage added up over several stretches of play (commands of a script, games of a run).
struct RuleTally {
  std::map<std::string, std::set<std::string>> citedBy;
  std::map<std::string, size_t> hits;
  void add(const std::vector<CoverageRow>& rows);
  void add(const RuleTally& other);
  std::string render() const;  // as renderCoverage, in rule-book order
};

}  // namespace polemos::analysis
