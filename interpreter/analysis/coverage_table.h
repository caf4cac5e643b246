// The rule-coverage table of a ruleset's README, generated so that it cannot claim more than the
// code and the tests show. Its hand-kept half is the status file (rulesets/NAME/coverage.status):
// one row per rule or group of rules with a status (implemented, partial with what is missing,
// not implemented with why, n/a with why) and a line saying what the rule is. The generated half
// comes from the citation index: where each row's rules are cited in the ruleset (the
// declarations, by file) and which test scripts cite them. The check finds what a table must not
// do: mark a rule implemented or partial that no test cites, leave a rule that the ruleset's own
// files cite out of every row (an edition's inherited declarations answer to its base's table), or
// name a row's tests by hand without those files citing its rules.
//
// Status file lines (blank lines and lines starting with # are skipped):
//   RULE | STATUS | WHAT [| cites: N N ...] [| in: TEXT] [| tests: FILE ...]
// RULE is the label shown ("7.11-7.12", "4.0 A", "14.2 (the way)"); the rules it covers are
// `cites:` if given, else the label's first word: one number, or a range "A-B" covering every
// rule the index knows between A and B. `in:` replaces the generated "implemented in" text (for
// rules the C++ library implements); `tests:` adds test files (a C++ unit test, say) that must
// themselves cite one of the row's rules. In a scenario's status file (scenarios/NAME.status) the
// numbers are the scenario's exclusive rules: "6.1" stands for `§NAME:6.1`.
#pragma once

#include <string>
#include <vector>

#include "analysis/rule_index.h"

namespace polemos::analysis {

struct StatusRow {
  std::string label;
  std::string
      status;  // as written: "implemented", "partial: ...", "not implemented: ...", "n/a: ..."
  std::string what;
  std::vector<std::string> cites;  // explicit rules, or empty: from the label
  std::string in;                  // explicit "implemented in", or empty
  std::vector<std::string> tests;  // explicit extra test files (relative to the project root)
  int line = 0;
};

// Parses a status file; malformed lines are reported in `problems` as "FILE:LINE: ...".
std::vector<StatusRow> parseStatus(const std::string& text, const std::string& file,
                                   std::vector<std::string>& problems);

struct CoverageTable {
  std::string markdown;               // the table, header included
  std::vector<std::string> problems;  // what the check found (empty: the table is honest)
};

// The rows of the status file that cover `rule` (by their `cites:` or their label), for `rule N`.
std::vector<StatusRow> rowsCovering(const RuleIndex& index, const std::vector<StatusRow>& rows,
                                    const std::string& rule);
// The status file of the index's table: rulesets/RULESET/coverage.status under the index's root,
// or for a scenario's rules (index.document) the .status file beside the scenario's .pol file.
std::string statusFile(const RuleIndex& index);
// The status lines `rule N` prints for a rule: read from the status file of the ruleset (or, for a
// rule of the scenario's document, `§chalons:6.1`, the scenario's); empty if there is none.
std::string statusOf(const RuleIndex& index, const std::string& rule);

// Builds the table from the rows and the index; `root` is the project root (for `tests:` files).
CoverageTable coverageTable(const RuleIndex& index, const std::vector<StatusRow>& rows,
                            const std::string& root);

}  // namespace polemos::analysis
