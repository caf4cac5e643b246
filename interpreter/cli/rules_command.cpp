// `polemos rules RULESET [RULE]`: the citation index of a ruleset (analysis/rule_index): every
// rule number with the declarations and tests that cite it, or one rule in full. This file reads
// the arguments and prints.
#include <fmt/format.h>

#include <cstdio>

#include "analysis/rule_index.h"
#include "cli/commands.h"

namespace polemos::cli {
namespace {

const char* kRulesUsage =
    "usage: polemos rules RULESET|FILE [RULE]\n"
    "\n"
    "Lists every rule number cited by the ruleset (with its bases and modules, or a house file\n"
    "with the ruleset it names), with how many declarations and test scripts cite it; with RULE\n"
    "(7.43 or §7.43), the declarations (file:line) and tests (file:line) that cite that rule.\n"
    "Exit status: 0 printed, 1 the ruleset does not load, 2 bad usage.\n";

}  // namespace

int rulesCommand(const std::vector<std::string>& args) {
  std::vector<std::string> words;
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h") {
      std::fputs(kRulesUsage, stdout);
      return 0;
    }
    if (!a.empty() && a[0] == '-') {
      fmt::print(stderr, "polemos rules: unknown option '{}'\n{}", a, kRulesUsage);
      return 2;
    }
    words.push_back(a);
  }
  if (words.empty() || words.size() > 2) {
    std::fputs(kRulesUsage, stderr);
    return 2;
  }
  std::string rule;
  if (words.size() == 2) {
    rule = analysis::ruleNumber(words[1]);
    if (rule.empty()) {
      fmt::print(stderr, "polemos rules: '{}' is not a rule number (write 7.43)\n", words[1]);
      return 2;
    }
  }
  analysis::RuleIndex index;
  std::string errors;
  if (!analysis::loadRuleIndex(words[0], index, errors)) {
    std::fputs(errors.c_str(), stderr);
    return 1;
  }
  std::fputs((rule.empty() ? analysis::formatIndex(index) : analysis::formatRule(index, rule)).c_str(), stdout);
  return 0;
}

}  // namespace polemos::cli
