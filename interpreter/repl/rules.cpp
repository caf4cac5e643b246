// REPL: Questions about the rules: rule N (the citation index), diff, odds.
#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "analysis/coverage_table.h"
#include "analysis/diff.h"
#include "analysis/odds.h"
#include "analysis/provenance.h"
#include "analysis/rule_index.h"
#include "analysis/tables.h"
#include "check/loader.h"
#include "eval/interpreter.h"
#include "repl/repl.h"
#include "repl/text.h"

namespace polemos::repl {

using namespace polemos::ir;

// `rule N`: where rule N is written in this game's rules and which tests cite it (the citation
// index of analysis/rule_index). Reads the files afresh; the game is not touched.
void Repl::cmdRule(const std::vector<std::string>& args, std::string& out) {
  std::string rule = args.size() == 2 ? analysis::ruleNumber(args[1]) : "";
  if (rule.empty()) {
    error(out, "rule takes one rule number, as in `rule 7.43`");
    return;
  }
  analysis::RuleIndex index;
  std::string errors;
  if (!analysis::loadRuleIndex(
          check::LoadRequest{options_.ruleset, options_.scenario, options_.houses}, index,
          errors)) {
    ++errors_;
    out += errors;
    return;
  }
  out += analysis::formatRule(index, rule) + analysis::statusOf(index, rule);
}

// `tables`, `table NAME`: the ruleset's tables as a player aid card prints them, those whose values
// are ours marked RECONSTRUCTED (read from the files afresh; the game is not touched).
void Repl::cmdTables(const std::vector<std::string>& args, std::string& out) {
  const Program& P = session_->program();
  std::string errors;
  auto marked = analysis::reconstructedTables(
      check::LoadRequest{options_.ruleset, options_.scenario, options_.houses}, errors);
  if (!errors.empty()) {
    ++errors_;
    out += errors;
    return;
  }
  if (args[0] == "tables") {
    out += analysis::formatTableList(P, marked);
    return;
  }
  if (args.size() != 2) return error(out, "table takes a table's name (`tables` lists them)");
  const TableInfo* t = analysis::findTable(P, args[1]);
  if (!t) {
    std::string names;
    for (const auto& x : P.tables) names += (names.empty() ? "" : ", ") + x.name;
    return error(out, fmt::format("no table '{}' (the tables: {})", args[1],
                                  names.empty() ? "none" : names));
  }
  out += analysis::formatTable(P, *t, marked.count(t->name) > 0);
}

void Repl::cmdDiff(const std::vector<std::string>& args, std::string& out) {
  if (args.size() > 3) {
    error(out, "diff takes at most two rulesets or files: `diff`, `diff OTHER` or `diff A B`");
    return;
  }
  // The game's rules as they were loaded: the ruleset and the house files, not the scenario's
  // special rules (the other side has no scenario).
  check::LoadRequest current{options_.ruleset, "", options_.houses};
  if (args.size() == 1 && options_.houses.empty()) {
    out += fmt::format(
        "no house rules are in effect: the rules are those of ruleset {} (`diff OTHER` "
        "compares them with another ruleset or file)\n",
        session_->program().rulesetName);
    return;
  }
  diag::SourceManager sm;
  diag::Diagnostics diags(sm);
  check::Loader loader(diags);
  check::MergedRules a, b;
  bool ok = false;
  if (args.size() == 1) {
    ok = loader.load(check::LoadRequest{options_.ruleset, "", {}}, &a).program &&
         loader.load(current, &b).program;
  } else if (args.size() == 2) {
    ok = loader.load(current, &a).program && loader.loadForDiff(args[1], b);
  } else {
    ok = loader.loadForDiff(args[1], a) && loader.loadForDiff(args[2], b);
  }
  if (!ok) {
    ++errors_;
    out += diags.render(false);
    return;
  }
  out += analysis::formatDiff(analysis::diffRules(a, b, sm), options_.json);
}

std::optional<analysis::OddsReport> Repl::computeOdds(const std::vector<std::string>& words,
                                                      const analysis::OddsRequest& req,
                                                      std::string& why) {
  return analysis::oddsOfWords(*session_, words, req, why);
}

void Repl::cmdOdds(const std::vector<std::string>& args, std::string& out) {
  analysis::OddsRequest req;
  bool json = options_.json;
  std::vector<std::string> words;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--split") {
      req.split = true;
    } else if (a == "--json") {
      json = true;
    } else if (a == "--policy") {
      auto p = i + 1 < args.size() ? analysis::parsePolicy(args[i + 1]) : std::nullopt;
      if (!p) {
        error(out, "--policy takes first, last or random");
        return;
      }
      req.policy = *p;
      ++i;
    } else if (a == "--picks") {
      std::string list = i + 1 < args.size() ? args[++i] : "";
      std::istringstream in(list);
      std::string one;
      while (std::getline(in, one, ',')) {
        auto v = parseInt(one);
        if (!v || *v < 1) {
          error(out,
                "--picks takes option numbers from 1, separated by commas, as in `--picks 1,2`");
          return;
        }
        req.picks.push_back(static_cast<size_t>(*v - 1));
      }
      if (req.picks.empty()) {
        error(out, "--picks takes option numbers from 1, separated by commas, as in `--picks 1,2`");
        return;
      }
    } else if (a.size() > 1 && a[0] == '-' && a[1] == '-') {
      error(out, fmt::format("odds: unknown option '{}' (--policy, --split, --picks, --json)", a));
      return;
    } else {
      words.push_back(a);
    }
  }
  std::string why;
  auto report = computeOdds(words, req, why);
  if (!report) {
    error(out, why);
    return;
  }
  analysis::OddsReport& r = *report;
  if (!r.error.empty()) ++errors_;
  std::string text = analysis::formatOdds(r, json);
  // A refused question reads as an error line, like any other command's.
  if (!r.error.empty() && !json) text = "error: odds of " + r.question + ": " + r.error + "\n";
  out += text;
}

}  // namespace polemos::repl
