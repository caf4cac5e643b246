#include "analysis/provenance.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string_view>

#include "diag/diagnostics.h"

namespace polemos::analysis {

namespace {

std::string lowered(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower;
}

// A table's title may say "(reconstructed)"; its source says RECONSTRUCTED.
bool says(std::string_view text) {
  return lowered(text).find("reconstructed") != std::string::npos;
}

std::string trimmed(std::string_view s) {
  size_t a = s.find_first_not_of(" \t");
  if (a == std::string_view::npos) return "";
  return std::string(s.substr(a));
}

bool isComment(std::string_view line) {
  return trimmed(line).rfind("//", 0) == 0;
}

bool mentions(const std::string& lower, std::initializer_list<const char*> words) {
  for (const char* w : words)
    if (lower.find(w) != std::string::npos) return true;
  return false;
}

// A paragraph of comment lines that carries the house mark, and the first line of code after it.
struct Paragraph {
  std::string lower;  // its text, lowered
  std::string next;   // the line of code that follows, trimmed
};

std::vector<Paragraph> markedParagraphs(const diag::SourceManager& sm, diag::FileId f) {
  std::vector<Paragraph> out;
  uint32_t n = sm.lineCount(f);
  for (uint32_t l = 1; l <= n;) {
    if (!isComment(sm.line(f, l))) {
      ++l;
      continue;
    }
    std::string text;
    bool marked = false;
    for (; l <= n && isComment(sm.line(f, l)); ++l) {
      std::string_view line = sm.line(f, l);
      marked = marked || line.find("RECONSTRUCTED") != std::string_view::npos;
      text += std::string(line) + "\n";
    }
    if (marked) out.push_back({lowered(text), l <= n ? trimmed(sm.line(f, l)) : ""});
  }
  return out;
}

// Whether file f declares the scenario `name` (a line that starts `scenario NAME `).
bool declaresScenario(const diag::SourceManager& sm, diag::FileId f, const std::string& name) {
  if (name.empty()) return false;
  std::string head = "scenario " + name + " ";
  for (uint32_t l = 1, n = sm.lineCount(f); l <= n; ++l)
    if (sm.line(f, l).substr(0, head.size()) == head) return true;
  return false;
}

}  // namespace

Provenance provenance(const check::LoadRequest& req, std::string& errors) {
  diag::SourceManager sm;
  diag::Diagnostics diags(sm);
  check::Loader loader(diags);
  auto program = loader.load(req).program;
  if (!program) {
    errors = diags.render(false);
    return {};
  }
  return provenance(*program, sm);
}

Provenance provenance(const ir::Program& program, const diag::SourceManager& sm) {
  Provenance out;
  out.tableCount = program.tables.size();
  for (const auto& t : program.tables) {
    const auto& r = t.range;
    if (!r.valid()) continue;
    bool mark = says(t.title);
    // The declaration's own lines, then the comment block just above it.
    for (uint32_t l = r.begin.line; l <= r.end.line && !mark; ++l)
      mark = says(sm.line(r.begin.file, l));
    for (uint32_t l = r.begin.line; l-- > 1 && !mark;) {
      std::string text = trimmed(sm.line(r.begin.file, l));
      if (text.rfind("//", 0) != 0) break;
      mark = says(text);
    }
    if (mark) out.tables.insert(t.name);
  }
  // The scenario's file: a mark that speaks of its map, ground or terrain covers the map; of its
  // counters, forces or set-up, the counters; of the whole scenario (or "in full"), both. Its title
  // may say so too. Elsewhere, a mark on a unit type's values (or speaking of counters) covers some
  // counters of the ruleset.
  bool whole = says(program.scenarioTitle);
  for (size_t f = 0; f < sm.fileCount(); ++f) {
    auto id = static_cast<diag::FileId>(f);
    bool scenario = declaresScenario(sm, id, program.scenarioName);
    for (const auto& p : markedParagraphs(sm, id)) {
      if (scenario) {
        bool all = whole || mentions(p.lower, {"whole", "in full", "all our own"});
        out.map = out.map || all || mentions(p.lower, {"map", "ground", "terrain"});
        out.counters = out.counters || all ||
                       mentions(p.lower, {"counter", "forces", "order of battle", "set-up"});
      } else if (p.next.rfind("unit type", 0) == 0 || p.next.rfind("unit class", 0) == 0 ||
                 mentions(p.lower, {"counter"})) {
        out.someCounters = true;
      }
    }
  }
  if (whole && !program.scenarioName.empty()) out.map = out.counters = true;
  return out;
}

std::set<std::string> reconstructedTables(const check::LoadRequest& req, std::string& errors) {
  return provenance(req, errors).tables;
}

std::string provenanceLine(const Provenance& p) {
  std::vector<std::string> parts;
  if (p.map) parts.push_back("map");
  if (p.counters)
    parts.push_back("counters");
  else if (p.someCounters)
    parts.push_back("some counter values");
  if (!p.tables.empty())
    parts.push_back(p.tables.size() == p.tableCount
                        ? std::string(p.tableCount == 1 ? "its table" : "all tables")
                        : fmt::format("{} of {} tables", p.tables.size(), p.tableCount));
  if (parts.empty()) return "";
  std::string list;
  for (size_t i = 0; i < parts.size(); ++i)
    list += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
  return fmt::format("reconstructed (our values, not the rule text's): {}\n", list);
}

}  // namespace polemos::analysis
