// `polemos rules RULESET [RULE]`: the citation index of a ruleset (analysis/rule_index): every
// rule number with the declarations and tests that cite it, or one rule in full. This file reads
// the arguments and prints.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "analysis/coverage_table.h"
#include "analysis/rule_index.h"
#include "cli/commands.h"
#include "cli/options.h"

namespace polemos::cli {
namespace {

const char* kRulesUsage =
    "usage: polemos rules RULESET|FILE [--scenario NAME] [RULE]\n"
    "       polemos rules RULESET [--scenario NAME] --table [STATUS_FILE]\n"
    "\n"
    "Lists every rule number cited by the ruleset (with its bases and modules, or a house file\n"
    "with the ruleset it names), with how many declarations and test scripts cite it; with RULE\n"
    "(7.43 or §7.43), the declarations (file:line) and tests (file:line) that cite that rule.\n"
    "With --table, the rule-coverage table of the ruleset's README, generated from its status "
    "file\n"
    "(default rulesets/RULESET/coverage.status) and the index; what the check finds (a rule "
    "marked\n"
    "implemented that no test cites, a cited rule in no row) is printed on standard error.\n"
    "With --scenario, the scenario is loaded too and its exclusive rules are indexed as\n"
    "§NAME:N (chalons:6.1); its table is the scenario's own (scenarios/NAME.status), covering\n"
    "those rules only.\n"
    "Exit status: 0 printed (and, with --table, nothing found), 1 the ruleset does not load or "
    "the\n"
    "check found something, 2 bad usage.\n";

}  // namespace

int rulesCommand(const std::vector<std::string>& args) {
  CommandLine line = readCommandLine(args, {"--scenario"}, {"--table"});
  if (auto rc = helpOrUnknown(line, "polemos rules", kRulesUsage)) return *rc;
  // --scenario takes a name, not another option.
  bool badScenario =
      !line.missingValue.empty() ||
      (line.has("--scenario") &&
       std::any_of(line.values.at("--scenario").begin(), line.values.at("--scenario").end(),
                   [](const std::string& v) { return v.empty() || v[0] == '-'; }));
  if (badScenario) {
    fmt::print(stderr, "polemos rules: --scenario takes a scenario name\n{}", kRulesUsage);
    return 2;
  }
  const std::vector<std::string>& words = line.positionals;
  bool table = line.flag("--table");
  std::string scenario = line.has("--scenario") ? line.last("--scenario") : "";
  if (words.empty() || words.size() > 2) {
    std::fputs(kRulesUsage, stderr);
    return 2;
  }
  std::string rule;
  if (words.size() == 2 && !table) {
    rule = analysis::ruleNumber(words[1]);
    if (rule.empty()) {
      fmt::print(stderr, "polemos rules: '{}' is not a rule number (write 7.43)\n", words[1]);
      return 2;
    }
  }
  analysis::RuleIndex index;
  std::string errors;
  bool loaded = scenario.empty() ? analysis::loadRuleIndex(words[0], index, errors)
                                 : analysis::loadRuleIndex(
                                       check::LoadRequest{words[0], scenario, {}}, index, errors);
  if (!loaded) {
    std::fputs(errors.c_str(), stderr);
    return 1;
  }
  if (table) {
    std::string file = words.size() == 2 ? words[1] : analysis::statusFile(index);
    std::ifstream in(file);
    if (!in) {
      fmt::print(stderr, "polemos rules: cannot read the status file {}\n", file);
      return 1;
    }
    std::stringstream text;
    text << in.rdbuf();
    std::vector<std::string> problems;
    auto rows = analysis::parseStatus(text.str(), file, problems);
    analysis::CoverageTable t = analysis::coverageTable(index, rows, index.root);
    problems.insert(problems.end(), t.problems.begin(), t.problems.end());
    std::fputs(t.markdown.c_str(), stdout);
    for (const auto& p : problems) fmt::print(stderr, "coverage: {}\n", p);
    return problems.empty() ? 0 : 1;
  }
  std::fputs((rule.empty() ? analysis::formatIndex(index)
                           : analysis::formatRule(index, rule) + analysis::statusOf(index, rule))
                 .c_str(),
             stdout);
  return 0;
}

}  // namespace polemos::cli
