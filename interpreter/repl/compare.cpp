// REPL: `compare`: the same situation under other rulesets or house files, side by side. It reads
// the command's words, asks analysis/compare, and renders the table, the notes and the rules that
// differ.
#include "analysis/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <sstream>

#include "repl/repl.h"

namespace polemos::repl {

using namespace polemos::ir;

// `compare TARGET... -- ACTION ARGS [--policy P]`: the same question (the odds of an action)
// asked of this game and of the same situation under each TARGET (a ruleset, or a house-rule
// file over this game's rules), side by side, with the rules that differ listed under the table.
void Repl::cmdCompare(const std::vector<std::string>& args, std::string& out) {
  auto sep = std::find(args.begin(), args.end(), "--");
  std::vector<std::string> targets(args.begin() + 1, sep);
  std::vector<std::string> question = sep == args.end()
                                          ? std::vector<std::string>{}
                                          : std::vector<std::string>(sep + 1, args.end());
  analysis::OddsRequest req;
  std::string level;
  for (size_t i = 0; i < question.size();) {
    if (question[i] == "--policy" && i + 1 < question.size()) {
      auto p = analysis::parsePolicy(question[i + 1]);
      if (!p) return error(out, "--policy takes first, last or random");
      req.policy = *p;
      question.erase(question.begin() + static_cast<std::ptrdiff_t>(i),
                     question.begin() + static_cast<std::ptrdiff_t>(i) + 2);
    } else {
      ++i;
    }
  }
  std::map<std::string, std::string>
      mapping;  // --map FROM=TO: a unit type or terrain by another name
  for (size_t i = 0; i < targets.size();) {
    if (targets[i] == "--level" && i + 1 < targets.size()) {
      level = targets[i + 1];
      targets.erase(targets.begin() + static_cast<std::ptrdiff_t>(i),
                    targets.begin() + static_cast<std::ptrdiff_t>(i) + 2);
    } else if (targets[i] == "--map" && i + 1 < targets.size() &&
               targets[i + 1].find('=') != std::string::npos) {
      const std::string& m = targets[i + 1];
      mapping[m.substr(0, m.find('='))] = m.substr(m.find('=') + 1);
      targets.erase(targets.begin() + static_cast<std::ptrdiff_t>(i),
                    targets.begin() + static_cast<std::ptrdiff_t>(i) + 2);
    } else {
      ++i;
    }
  }
  if (targets.empty() || question.empty())
    return error(out,
                 "compare takes rulesets or house files, then `--` and an action: `compare "
                 "fourbattles -- attack 0506`");
  analysis::CompareRequest request{targets, question, req, level, mapping};
  analysis::CompareResult result = analysis::compareOdds(*session_, origin(), request);
  if (!result.error.empty()) return error(out, result.error);
  const auto& cols = result.columns;
  const auto& mapped = result.mapped;
  // The table: one row per result, one column per game.
  std::vector<std::string> results;
  for (const auto& c : cols)
    for (const auto& [r, p] : c.p)
      if (std::find(results.begin(), results.end(), r) == results.end()) results.push_back(r);
  std::sort(results.begin(), results.end());
  std::string q;
  for (const auto& w : question) q += (q.empty() ? "" : " ") + w;
  out += fmt::format("compare: odds of {} (follow-on decisions: {})\n", q,
                     analysis::policyName(req.policy));
  for (const auto& m : mapped) out += "mapped in the other rulesets: " + m + "\n";
  out += "| result |";
  for (const auto& c : cols) out += " " + c.name + " |";
  out += "\n| --- |";
  for (size_t i = 0; i < cols.size(); ++i) out += " --- |";
  out += "\n";
  for (const auto& r : results) {
    out += "| " + r + " |";
    for (const auto& c : cols) {
      auto it = c.p.find(r);
      out += c.problem.empty()
                 ? fmt::format(" {:.2f}% |",
                               it == c.p.end() ? 0.0 : static_cast<double>(it->second * 100))
                 : std::string(" - |");
    }
    out += "\n";
  }
  for (const auto& c : cols) {
    if (!c.substituted.empty()) {
      std::string list;
      for (const auto& n : c.substituted) list += (list.empty() ? "" : ", ") + n;
      out += fmt::format(
          "{}: unit types it lacks, each unit re-created as a type of the same class with all its "
          "values: {}\n",
          c.name, list);
    }
    if (!c.problem.empty()) out += fmt::format("{}: not compared: {}\n", c.name, c.problem);
    if (!c.dropped.empty())
      out += fmt::format("{}: left out (no such field): {}\n", c.name, c.dropped);
    if (!c.droppedSides.empty())
      out += fmt::format("{}: left out (no such hexside feature): {}\n", c.name, c.droppedSides);
  }
  // What each game's rules worked out before the dice: the strengths, their modifiers, the odds.
  bool anyBefore = false;
  for (const auto& c : cols) anyBefore = anyBefore || !c.beforeRoll.empty();
  if (anyBefore) {
    out += "before the dice:\n";
    for (const auto& c : cols) {
      if (c.beforeRoll.empty()) continue;
      out += "  " + c.name + ":\n";
      for (const auto& l : c.beforeRoll) out += "    " + l + "\n";
    }
  }
  // The rules that differ, from `diff`.
  // Under a whole other edition that is hundreds of lines: the first ones, the count, and `diff`
  // for the rest.
  constexpr size_t kDiffLines = 40;
  for (const auto& t : targets) {
    std::string d;
    cmdDiff({"diff", t}, d);
    std::vector<std::string> lines;
    std::istringstream in(d);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    out += "rules that differ under " + t + ":\n";
    if (lines.size() <= kDiffLines + 2) {
      out += d;
    } else {
      for (size_t i = 0; i < kDiffLines; ++i) out += lines[i] + "\n";
      out += fmt::format("… {} more lines: `diff {}` lists them all\n",
                         lines.size() - kDiffLines - 1, t);
      out += lines.back() + "\n";
    }
  }
}

}  // namespace polemos::repl
