// The rules diff: what differs between two merged rulesets (`polemos diff`, the REPL's `diff`).
//
// Both sides are loaded and merged as a game would use them (bases, extensions, house files), and
// their declarations are compared by kind and name: one only in the first side is removed, one
// only in the second is added, one in both whose normalised syntax tree differs (layout and
// comments do not count) is replaced. This set difference of the two merged programs is the
// honest answer whatever the two sides are: an edition and its base in either order, a house
// file and the ruleset it overlays, two unrelated rulesets, or overlays on overlays. The fields
// of side state, game state and the attribute blocks are compared one by one, since overlays add
// them field by field.
//
// Each change carries its rule numbers (the declaration's § citations, old and new), the comment
// written above the newer declaration (or above the `remove` that removed it), and a generated
// one-line description of what changed ("cost 1 -> 2"). It deliberately does not compare
// behaviour: two declarations written differently that compute the same thing are "replaced".
// Scenarios (maps, forces, a scenario's special rules) are not compared.
#pragma once

#include <string>
#include <vector>

#include "check/loader.h"
#include "diag/source.h"

namespace polemos::analysis {

struct DeclChange {
  enum Kind { Replaced, Added, Removed } change = Replaced;
  std::string kind;                             // "modifier", "terrain", "side state field", ...
  std::string name;                             // empty for `sequence` and `levels`
  std::vector<std::string> oldRules, newRules;  // citations, without the §
  std::string comment;             // the first sentence of the comment above the newer declaration
  std::string detail;              // generated: what changed, or what was added or removed
  std::string oldWhere, newWhere;  // file:line of each side, or empty
};

struct RulesDiff {
  std::string from, to;             // what was compared, as MergedRules::what
  std::vector<DeclChange> changes;  // sorted by rule number, then name and kind
  size_t count(DeclChange::Kind k) const;
};

// Compares `a` (the old side) with `b` (the new side). `sources` is the SourceManager both were
// loaded into: comments and value texts are read from it.
RulesDiff diffRules(const check::MergedRules& a, const check::MergedRules& b,
                    const diag::SourceManager& sources);

// One line per change, then a summary line ("2 replaced, 1 added, 0 removed"); with `json`, one
// JSON object per line for each change, then one for the summary.
std::string formatDiff(const RulesDiff& d, bool json);

// The one-line description shown for a change: the comment, with the generated detail after it
// in brackets when both exist and the detail is short; at most about 110 characters.
std::string describe(const DeclChange& c);

// Rule numbers in rule-book order: 7.41 before 7.6, 9 before 10, numbered parts before 4.A.
bool ruleLess(const std::string& a, const std::string& b);

}  // namespace polemos::analysis
