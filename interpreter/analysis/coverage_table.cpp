#include "analysis/coverage_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "analysis/diff.h"

namespace polemos::analysis {

namespace fs = std::filesystem;

namespace {

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

bool known(const std::string& status) {
  return status == "implemented" || status.rfind("partial: ", 0) == 0 ||
         status.rfind("not implemented: ", 0) == 0 || status.rfind("n/a: ", 0) == 0;
}

// A rule of the table's document: in a scenario's table "6.1" is the scenario's rule 6.1
// ("chalons:6.1"); a number that names its document is kept.
std::string inDocument(const RuleIndex& index, const std::string& rule) {
  if (rule.empty() || index.document.empty() || rule.find(':') != std::string::npos) return rule;
  return index.document + ":" + rule;
}

// The rules a row covers: its `cites:`, or its label's first word (a number or a range A-B).
std::vector<std::string> rowRules(const StatusRow& row, const RuleIndex& index) {
  if (!row.cites.empty()) {
    std::vector<std::string> out;
    for (const auto& c : row.cites) out.push_back(inDocument(index, c));
    return out;
  }
  std::vector<std::string> ws = words(row.label);
  if (ws.empty()) return {};
  const std::string& first = ws[0];
  size_t dash = first.find('-');
  if (dash == std::string::npos) {
    std::string r = inDocument(index, ruleNumber(first));
    return r.empty() ? std::vector<std::string>{} : std::vector<std::string>{r};
  }
  std::string a = inDocument(index, ruleNumber(first.substr(0, dash)));
  std::string b = inDocument(index, ruleNumber(first.substr(dash + 1)));
  if (a.empty() || b.empty()) return {};
  std::set<std::string, RuleOrder> all{a, b};
  for (const auto& [r, _] : index.sites)
    if (!ruleLess(r, a) && !ruleLess(b, r)) all.insert(r);
  for (const auto& [r, _] : index.tests)
    if (!ruleLess(r, a) && !ruleLess(b, r)) all.insert(r);
  return {all.begin(), all.end()};
}

bool fileCites(const std::string& path, const std::vector<std::string>& rules) {
  std::ifstream in(path);
  if (!in) return false;
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  for (const auto& r : rules) {
    std::string want = "§" + r;
    for (size_t at = text.find(want); at != std::string::npos; at = text.find(want, at + 1)) {
      size_t end = at + want.size();
      // "§7.4" must not be found inside "§7.43".
      if (end >= text.size() || !(std::isalnum(static_cast<unsigned char>(text[end])) ||
                                  (text[end] == '.' && end + 1 < text.size() &&
                                   std::isalnum(static_cast<unsigned char>(text[end + 1])))))
        return true;
    }
  }
  return false;
}

std::string escapeCell(std::string s) {
  for (size_t at = s.find('|'); at != std::string::npos; at = s.find('|', at + 2))
    s.replace(at, 1, "\\|");
  return s;
}

}  // namespace

std::vector<StatusRow> parseStatus(const std::string& text, const std::string& file,
                                   std::vector<std::string>& problems) {
  std::vector<StatusRow> rows;
  std::istringstream in(text);
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    std::vector<std::string> fields;
    std::string cur;
    for (size_t i = 0; i < t.size(); ++i) {
      if (t[i] == '\\' && i + 1 < t.size() && t[i + 1] == '|') {
        cur += '|';
        ++i;
      } else if (t[i] == '|') {
        fields.push_back(trim(cur));
        cur.clear();
      } else {
        cur += t[i];
      }
    }
    fields.push_back(trim(cur));
    if (fields.size() < 3) {
      problems.push_back(fmt::format("{}:{}: a row needs RULE | STATUS | WHAT", file, n));
      continue;
    }
    StatusRow row;
    row.label = fields[0];
    row.status = fields[1];
    row.what = fields[2];
    row.line = n;
    if (!known(row.status))
      problems.push_back(
          fmt::format("{}:{}: status '{}' is not one of: implemented, partial: WHAT IS MISSING, "
                      "not implemented: WHY, n/a: WHY",
                      file, n, row.status));
    for (size_t i = 3; i < fields.size(); ++i) {
      const std::string& f = fields[i];
      if (f.rfind("cites:", 0) == 0) {
        for (const auto& w : words(f.substr(6))) {
          std::string r = ruleNumber(w);
          if (r.empty())
            problems.push_back(fmt::format("{}:{}: '{}' is not a rule number", file, n, w));
          else
            row.cites.push_back(r);
        }
      } else if (f.rfind("in:", 0) == 0) {
        row.in = trim(f.substr(3));
      } else if (f.rfind("tests:", 0) == 0) {
        row.tests = words(f.substr(6));
      } else {
        problems.push_back(
            fmt::format("{}:{}: unknown field '{}' (cites:, in: or tests:)", file, n, f));
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<StatusRow> rowsCovering(const RuleIndex& index, const std::vector<StatusRow>& rows,
                                    const std::string& rule) {
  std::vector<StatusRow> out;
  for (const auto& row : rows) {
    auto rules = rowRules(row, index);
    if (std::find(rules.begin(), rules.end(), rule) != rules.end()) out.push_back(row);
  }
  return out;
}

std::string statusFile(const RuleIndex& index) {
  if (!index.document.empty()) {
    if (index.documentFile.empty()) return "";
    std::string f = index.root + "/" + index.documentFile;
    return f.substr(0, f.size() - 4) +
           ".status";  // scenarios/chalons.pol -> scenarios/chalons.status
  }
  return index.root + "/rulesets/" + index.ruleset + "/coverage.status";
}

std::string statusOf(const RuleIndex& index, const std::string& rule) {
  // A scenario's rule answers to the scenario's table, the ruleset's to the ruleset's.
  RuleIndex of = index;
  size_t colon = rule.find(':');
  if (colon == std::string::npos)
    of.document.clear();
  else if (rule.substr(0, colon) != index.document)
    return "  status: in no row of a coverage table of this game\n";
  std::string file = statusFile(of);
  std::ifstream in(file);
  if (file.empty() || !in) return "";
  std::stringstream text;
  text << in.rdbuf();
  std::vector<std::string> problems;
  std::string out;
  for (const auto& row : rowsCovering(of, parseStatus(text.str(), file, problems), rule))
    out += fmt::format("  status ({}): {} ({})\n", row.label, row.status, row.what);
  return out.empty() ? "  status: in no row of the coverage table\n" : out;
}

CoverageTable coverageTable(const RuleIndex& index, const std::vector<StatusRow>& rows,
                            const std::string& root) {
  CoverageTable out;
  out.markdown =
      "| rule | what | status | implemented in | tests |\n| --- | --- | --- | --- | --- |\n";
  std::set<std::string> covered;
  for (const StatusRow& row : rows) {
    std::vector<std::string> rules = rowRules(row, index);
    if (rules.empty()) {
      out.problems.push_back(fmt::format(
          "row '{}' (line {}): no rule number in its label; give `cites:`", row.label, row.line));
    }
    covered.insert(rules.begin(), rules.end());
    // Where: the declarations citing the row's rules, grouped by file, in the order first met.
    std::vector<std::string> files;
    std::map<std::string, std::vector<std::string>> names;
    for (const auto& r : rules) {
      auto s = index.sites.find(r);
      if (s == index.sites.end()) continue;
      for (const auto& site : s->second) {
        std::string file = site.where.substr(0, site.where.rfind(':'));
        std::string prefix = "rulesets/" + index.ruleset + "/";
        if (file.rfind(prefix, 0) == 0)
          file = file.substr(prefix.size());
        else if (file.rfind("rulesets/", 0) == 0)
          file = file.substr(9);
        if (!names.count(file)) files.push_back(file);
        auto& ns = names[file];
        std::string n = site.decl;
        for (const char* kind : {"function ", "procedure ", "action ", "quantity "})
          if (n.rfind(kind, 0) == 0) n = n.substr(std::string(kind).size());
        if (std::find(ns.begin(), ns.end(), n) == ns.end()) ns.push_back(n);
      }
    }
    std::string in = row.in;
    if (in.empty()) {
      for (const auto& f : files) {
        in += (in.empty() ? "" : "; ") + f + " (";
        for (size_t i = 0; i < names[f].size(); ++i) in += (i ? ", " : "") + names[f][i];
        in += ")";
      }
    }
    // Tests: the scripts citing the row's rules, then the explicit ones (which must cite them).
    std::vector<std::string> tests;
    for (const auto& r : rules) {
      auto t = index.tests.find(r);
      if (t == index.tests.end()) continue;
      for (const auto& test : t->second) {
        std::string f = test.file;
        if (f.rfind("tests/", 0) == 0) f = f.substr(6);
        if (std::find(tests.begin(), tests.end(), f) == tests.end()) tests.push_back(f);
      }
    }
    for (const auto& f : row.tests) {
      if (!fileCites((fs::path(root) / f).string(), rules)) {
        out.problems.push_back(
            fmt::format("row '{}' (line {}): {} is named as its test but does not cite §{}",
                        row.label, row.line, f, rules.empty() ? "?" : rules[0]));
        continue;
      }
      std::string g = f.rfind("tests/", 0) == 0 ? f.substr(6) : f;
      if (std::find(tests.begin(), tests.end(), g) == tests.end()) tests.push_back(g);
    }
    bool claimsWork = row.status == "implemented" || row.status.rfind("partial: ", 0) == 0;
    if (claimsWork && tests.empty())
      out.problems.push_back(fmt::format(
          "row '{}' (line {}): marked {} but no test cites {}", row.label, row.line,
          row.status.substr(0, row.status.find(':')), rules.empty() ? "it" : "§" + rules[0]));
    std::string testText;
    for (size_t i = 0; i < tests.size() && i < 4; ++i) testText += (i ? ", " : "") + tests[i];
    if (tests.size() > 4) testText += fmt::format(" and {} more", tests.size() - 4);
    std::string status = row.status;
    if (status.rfind("n/a: ", 0) == 0) status = "N/A: " + status.substr(5);
    out.markdown +=
        fmt::format("| {} | {} | {} | {} | {} |\n", escapeCell(row.label), escapeCell(row.what),
                    escapeCell(status), escapeCell(in.empty() ? "—" : in), escapeCell(testText));
  }
  // Every rule this ruleset's own files cite must be in a row. (What it inherits from a base is
  // cited by the base's numbers, and the base's table answers for it.) A scenario's table answers
  // for every citation of the scenario's own rules, and only for those.
  const std::string own = "rulesets/" + index.ruleset + "/";
  for (const auto& [r, sites] : index.sites) {
    if (covered.count(r)) continue;
    size_t colon = r.find(':');
    std::string doc = colon == std::string::npos ? "" : r.substr(0, colon);
    if (doc != index.document) continue;
    for (const auto& site : sites) {
      if (index.document.empty() && site.where.rfind(own, 0) != 0) continue;
      out.problems.push_back(fmt::format("§{} is cited by {} ({}) but is in no row of the table", r,
                                         site.decl, site.where));
      break;
    }
  }
  return out;
}

}  // namespace polemos::analysis
