#include "analysis/tables.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "diag/diagnostics.h"

namespace polemos::analysis {

namespace {

// The house mark is RECONSTRUCTED; a title may say "(reconstructed)".
bool says(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower.find("reconstructed") != std::string::npos;
}

std::string trimmed(std::string_view s) {
  size_t a = s.find_first_not_of(" \t");
  if (a == std::string_view::npos) return "";
  return std::string(s.substr(a));
}

std::string cites(const std::vector<std::string>& citations) {
  std::string out;
  for (const auto& c : citations) out += " §" + c;
  return out;
}

// A cell as the rules read it; an empty cell (none) as "-", as a chart prints it.
std::string cell(const ir::Program& p, const ir::Value& v) {
  return v.tag == ir::Tag::None ? "-" : p.display(v);
}

}  // namespace

std::set<std::string> reconstructedTables(const check::LoadRequest& req, std::string& errors) {
  diag::SourceManager sm;
  diag::Diagnostics diags(sm);
  check::Loader loader(diags);
  auto program = loader.load(req).program;
  std::set<std::string> out;
  if (!program) {
    errors = diags.render(false);
    return out;
  }
  for (const auto& t : program->tables) {
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
    if (mark) out.insert(t.name);
  }
  return out;
}

const ir::TableInfo* findTable(const ir::Program& p, const std::string& name) {
  for (const auto& t : p.tables)
    if (t.name == name) return &t;
  return nullptr;
}

std::string formatTableList(const ir::Program& p, const std::set<std::string>& reconstructed) {
  if (p.tables.empty()) return "this ruleset has no tables\n";
  size_t width = 0;
  for (const auto& t : p.tables) width = std::max(width, t.name.size());
  std::string out;
  for (const auto& t : p.tables) {
    size_t cols = std::max<size_t>(1, t.cols.size());
    out += fmt::format("{:<{}}  {}{} ({} x {}){}\n", t.name, width,
                       t.title.empty() ? t.name : t.title, cites(t.citations), t.rows.size(), cols,
                       reconstructed.count(t.name) ? " RECONSTRUCTED" : "");
  }
  out += "`table NAME` prints one\n";
  return out;
}

std::string formatTable(const ir::Program& p, const ir::TableInfo& t, bool reconstructed) {
  std::string out = fmt::format("{}{}{}\n", t.title.empty() ? t.name : t.title, cites(t.citations),
                                reconstructed ? " (RECONSTRUCTED: the values are ours, not the "
                                                "rule text's; see the ruleset's docs)"
                                              : "");
  size_t ncols = std::max<size_t>(1, t.cols.size());
  // The grid as text first, then the widths.
  std::vector<std::vector<std::string>> grid;
  std::vector<std::string> head{""};
  if (t.cols.empty())
    head.push_back("");
  else
    for (const auto& c : t.cols) head.push_back(c.text);
  grid.push_back(head);
  for (size_t r = 0; r < t.rows.size(); ++r) {
    std::vector<std::string> line{t.rows[r].text};
    for (size_t c = 0; c < ncols; ++c) {
      size_t at = r * ncols + c;
      line.push_back(at < t.cells.size() ? cell(p, t.cells[at]) : "?");
    }
    grid.push_back(line);
  }
  std::vector<size_t> width(ncols + 1, 0);
  for (const auto& line : grid)
    for (size_t c = 0; c < line.size(); ++c) width[c] = std::max(width[c], line[c].size());
  for (size_t l = 0; l < grid.size(); ++l) {
    if (l == 0 && t.cols.empty()) continue;  // a one-column table has no column keys
    std::string text = fmt::format("{:<{}}", grid[l][0], width[0]);
    text += " |";
    for (size_t c = 1; c < grid[l].size(); ++c)
      text += fmt::format(" {:>{}}", grid[l][c], width[c]);
    out += text + "\n";
    if (l == 0) {
      std::string rule(width[0], '-');
      rule += "-+";
      for (size_t c = 1; c < width.size(); ++c) rule += std::string(width[c] + 1, '-');
      out += rule + "\n";
    }
  }
  return out;
}

}  // namespace polemos::analysis
