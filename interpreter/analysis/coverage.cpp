#include "analysis/coverage.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "analysis/diff.h"

namespace polemos::analysis {

namespace {
std::string bare(std::string c) {
  if (c.rfind("§", 0) == 0) c = c.substr(std::string("§").size());
  return c;
}
}  // namespace

std::vector<CoverageRow> ruleCoverage(const ir::Program& P,
                                      const std::vector<uint8_t>& ranFunctions,
                                      const std::vector<uint8_t>& checkedRequirements,
                                      const std::vector<eval::TraceEvent>& trace) {
  std::map<std::string, std::set<std::string>> citedBy;
  std::map<std::string, size_t> hits;
  auto cite = [&](const std::vector<std::string>& cs, const std::string& who) {
    for (const auto& c : cs) citedBy[bare(c)].insert(who);
  };
  for (size_t f = 0; f < P.functions.size(); ++f) {
    const auto& fn = P.functions[f];
    if (fn.citations.empty()) continue;
    std::string who = fn.name.empty() || fn.name[0] == '<' ? "code" : fn.name;
    cite(fn.citations, who);
    if (f < ranFunctions.size() && ranFunctions[f])
      for (const auto& c : fn.citations) ++hits[bare(c)];
  }
  for (const auto& a : P.actions) cite(a.citations, "action " + a.name);
  for (const auto& t : P.tables) cite(t.citations, "table " + t.name);
  for (const auto& ph : P.phases) cite(ph.citations, "phase " + ph.name);
  for (const auto& m : P.modifiers) cite(m.citations, "modifier " + m.name);
  for (const auto& r : P.rolls) cite(r.citations, "roll");
  for (const auto& c : P.chooses) cite(c.citations, "choice");
  for (size_t i = 0; i < P.requirements.size(); ++i) {
    cite(P.requirements[i].citations, "requirement");
    if (i < checkedRequirements.size() && checkedRequirements[i])
      for (const auto& c : P.requirements[i].citations) ++hits[bare(c)];
  }
  for (size_t i = 0; i < P.steps.size() && i < P.stepCitations.size(); ++i)
    cite(P.stepCitations[i], "step " + P.steps[i]);
  for (const auto& e : trace) {
    for (const auto& c : e.citations)
      if (citedBy.count(c.number())) ++hits[c.number()];
  }
  std::vector<CoverageRow> rows;
  for (auto& [rule, who] : citedBy) {
    CoverageRow r;
    r.rule = rule;
    r.citedBy.assign(who.begin(), who.end());
    r.hits = hits[rule];
    rows.push_back(std::move(r));
  }
  std::sort(rows.begin(), rows.end(),
            [](const CoverageRow& a, const CoverageRow& b) { return ruleLess(a.rule, b.rule); });
  return rows;
}

std::string renderCoverage(const std::vector<CoverageRow>& rows) {
  size_t ran =
      std::count_if(rows.begin(), rows.end(), [](const CoverageRow& r) { return r.hits > 0; });
  std::string out = fmt::format("rule coverage: {} of {} cited rules ran\n", ran, rows.size());
  out += "| rule | ran | cited by |\n| --- | --- | --- |\n";
  for (const auto& r : rows) {
    std::string who;
    for (size_t i = 0; i < r.citedBy.size() && i < 4; ++i) who += (i ? ", " : "") + r.citedBy[i];
    if (r.citedBy.size() > 4) who += fmt::format(", and {} more", r.citedBy.size() - 4);
    out +=
        fmt::format("| §{} | {} | {} |\n", r.rule, r.hits ? std::to_string(r.hits) : "never", who);
  }
  std::string never;
  for (const auto& r : rows)
    if (!r.hits) never += (never.empty() ? "§" : " §") + r.rule;
  out += "never ran: " + (never.empty() ? std::string("none") : never) + "\n";
  return out;
}

void RuleTally::add(const std::vector<CoverageRow>& rows) {
  for (const auto& r : rows) {
    citedBy[r.rule].insert(r.citedBy.begin(), r.citedBy.end());
    hits[r.rule] += r.hits;
  }
}

void RuleTally::add(const RuleTally& other) {
  for (const auto& [k, v] : other.citedBy) citedBy[k].insert(v.begin(), v.end());
  for (const auto& [k, v] : other.hits) hits[k] += v;
}

std::string RuleTally::render() const {
  std::vector<CoverageRow> rows;
  for (const auto& [rule, who] : citedBy) {
    CoverageRow r;
    r.rule = rule;
    r.citedBy.assign(who.begin(), who.end());
    r.hits = hits.count(rule) ? hits.at(rule) : 0;
    rows.push_back(std::move(r));
  }
  std::sort(rows.begin(), rows.end(),
            [](const CoverageRow& a, const CoverageRow& b) { return ruleLess(a.rule, b.rule); });
  return renderCoverage(rows);
}

}  // namespace polemos::analysis
