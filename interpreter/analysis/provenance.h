// Provenance: which parts of a game are our reconstruction rather than the rule text's. A ruleset
// marks such values in its source with the word RECONSTRUCTED (the house mark) in the declaration
// or the comment block just above it; this module reads those marks afresh from the files of a
// load and says, for the banner of a game and for `tables`, which of the map, the counters and
// the tables they cover. It reads comments only: it neither changes a game nor judges a value.
#pragma once

#include <set>
#include <string>

#include "check/loader.h"
#include "diag/source.h"
#include "ir/program.h"

namespace polemos::analysis {

struct Provenance {
  bool map = false;              // the scenario's map (terrain, hexsides, where things lie)
  bool counters = false;         // the scenario's counters (its forces and their values)
  bool someCounters = false;     // some unit-type values of the ruleset (not the whole sheet)
  std::set<std::string> tables;  // the tables marked RECONSTRUCTED
  size_t tableCount = 0;         // the ruleset's tables in all
};

// The marks of `req`'s files; `errors` set (and nothing marked) if they cannot be loaded.
Provenance provenance(const check::LoadRequest& req, std::string& errors);
// The same for a program just loaded, whose files `sm` holds.
Provenance provenance(const ir::Program& program, const diag::SourceManager& sm);

// The names of the tables whose source says RECONSTRUCTED (the `tables` of provenance()).
std::set<std::string> reconstructedTables(const check::LoadRequest& req, std::string& errors);

// One line for a game's banner: "reconstructed (...): map, counters and 3 of 9 tables\n", or
// nothing when no part is marked.
std::string provenanceLine(const Provenance& p);

}  // namespace polemos::analysis
