// The citation index of a ruleset: for each rule number, the declarations that cite it (with
// file:line) and the test scripts that cite it. It is built from the merged, checked ruleset (as
// `polemos diff` loads it: bases, modules and house files, not a scenario) and from the scripts
// under tests/ whose `# ruleset:` header names the ruleset or one it extends. It answers the
// REPL's `rule N` and `polemos rules RULESET [N]`; it does not say whether a rule is implemented
// correctly, only where it is written and where it is tested.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "check/loader.h"
#include "diag/source.h"

namespace polemos::analysis {

struct RuleSite {
  std::string
      where;         // "rulesets/standard/combat.pol:69" (relative to the project root if under it)
  std::string decl;  // "modifier slope"
};

struct RuleTest {
  std::string file;  // "tests/rules/standard/7_43_slope.script"
  int line = 0;      // the first line citing the rule
};

// Orders rule numbers as a rule book does (ruleLess of diff.h).
struct RuleOrder {
  bool operator()(const std::string& a, const std::string& b) const;
};

struct RuleIndex {
  std::string ruleset;
  std::string root;  // the project root the paths are relative to
  // The rulesets of the chain, the game's last (their tests are indexed; their folders hold the
  // status files).
  std::vector<std::string> lineage;
  // With a scenario loaded: its name, the document its exclusive rules are cited by
  // (`§chalons:6.1`); its coverage table answers for those citations. Empty: the ruleset alone.
  std::string document;
  std::string documentFile;  // the scenario's file (relative to the root)
  std::map<std::string, std::vector<RuleSite>, RuleOrder> sites;
  std::map<std::string, std::vector<RuleTest>, RuleOrder> tests;
};

// The declarations' citations of a merged ruleset. `root` is the project root: paths under it are
// written relative to it.
RuleIndex indexDeclarations(const check::MergedRules& rules, const diag::SourceManager& sources,
                            const std::string& root);
// Adds the test scripts under `root`/tests whose `# ruleset:` header is one of `rulesets`.
void indexTests(RuleIndex& index, const std::string& root,
                const std::vector<std::string>& rulesets);

// One rule: its declarations and tests, a line each (or a line saying nothing cites it).
std::string formatRule(const RuleIndex& index, const std::string& rule);
// Every rule: one line each with counts and the first few places.
std::string formatIndex(const RuleIndex& index);

// Loads a ruleset (a name, a ruleset file or a house file, as `polemos diff` reads it) and builds
// its whole index, declarations and tests. False with the load's errors in `errors`.
bool loadRuleIndex(const std::string& rulesetOrFile, RuleIndex& out, std::string& errors);
// The same for a game's rules: its ruleset with its house files and its scenario (whose exclusive
// rules are cited as `§chalons:6.1`; `document` names it).
bool loadRuleIndex(const check::LoadRequest& game, RuleIndex& out, std::string& errors);

// "§7.43" or "7.43." as written in a script: the rule number alone ("7.43", "chalons:6.1"), or ""
// if none.
std::string ruleNumber(const std::string& written);

}  // namespace polemos::analysis
