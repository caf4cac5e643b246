#include "analysis/tables.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "diag/diagnostics.h"

namespace polemos::analysis {

namespace {

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
