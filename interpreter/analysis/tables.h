// The tables of a ruleset as a player aid card prints them: `tables` lists them (name, title, rule
// numbers), `table NAME` prints one as a grid, its row keys down the left and its column keys
// across the top, each cell as the rules read it. A table whose declaration (or the comment block
// just above it) says RECONSTRUCTED is marked so (analysis/provenance reads the marks): its values
// are ours, not the rule text's. This module only formats; it neither changes a game nor judges a
// table.
#pragma once

#include <set>
#include <string>

#include "check/loader.h"
#include "ir/program.h"

namespace polemos::analysis {

// One line per table: name, title, rule numbers, size, and "RECONSTRUCTED" where it is.
std::string formatTableList(const ir::Program& p, const std::set<std::string>& reconstructed);

// The table as a grid. `name` is a table of `p` (see findTable).
std::string formatTable(const ir::Program& p, const ir::TableInfo& t, bool reconstructed);

// The table named `name`, or null.
const ir::TableInfo* findTable(const ir::Program& p, const std::string& name);

}  // namespace polemos::analysis
