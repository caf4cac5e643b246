// REPL: Looking at the game: units, the text map, show.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "eval/interpreter.h"
#include "repl/repl.h"
#include "repl/text.h"

namespace polemos::repl {

using namespace polemos::ir;

void Repl::cmdUnits(const std::vector<std::string>& args, std::string& out) {
  const auto& st = session_->state();
  const Program& P = session_->program();
  int32_t side = -1;
  if (args.size() > 1) {
    for (size_t s = 0; s < P.sides.size(); ++s)
      if (P.sides[s].name == args[1]) side = static_cast<int32_t>(s);
    if (side < 0) {
      error(out, fmt::format("no side '{}'", args[1]));
      return;
    }
  }
  for (const auto& u : st.units) {
    if (side >= 0 && u.side != side) continue;
    std::string where = u.status == eval::UnitStatus::OnMap        ? st.map.label(u.hex)
                        : u.status == eval::UnitStatus::Eliminated ? "eliminated"
                        : u.status == eval::UnitStatus::Exited     ? "exited"
                        : u.status == eval::UnitStatus::Merged     ? "merged"
                                                                   : "off map";
    out += fmt::format("{:<10} {:<8} {:<14} {}\n", u.id, P.sides[u.side].name,
                       P.unitTypes[u.type].name, where);
  }
}

// The map as text. Columns of flat-topped hexes: odd columns sit half a hex lower, so each map row
// is printed as two text lines, the even columns' hexes on the first and the odd columns' on the
// second. A hex shows its units (the first unit's id, then its facing as an arrow) or its terrain's
// first letter ('.' for the map's commonest terrain); a legend follows.
void Repl::cmdMap(const std::vector<std::string>& args, std::string& out) {
  if (args.size() > 1 && args[1] == "--svg") return cmdMapSvg(args, out);
  const auto& st = session_->state();
  const Program& P = session_->program();
  const eval::MapState& m = st.map;
  if (m.size() == 0) {
    error(out, "this game has no map");
    return;
  }
  int c0 = m.col0, c1 = m.col1, r0 = m.row0, r1 = m.row1;
  if (args.size() > 1) {
    auto dots = args[1].find("..");
    int32_t a = dots == std::string::npos ? -1 : m.parse(args[1].substr(0, dots));
    int32_t b = dots == std::string::npos ? -1 : m.parse(args[1].substr(dots + 2));
    if (a < 0 || b < 0) {
      error(out, fmt::format("map takes a region of two corner hexes, as in `map {}..{}`",
                             m.label(0), m.label(std::min(m.size() - 1, m.rows() * 3 + 3))));
      return;
    }
    c0 = std::min(m.colOf(a), m.colOf(b));
    c1 = std::max(m.colOf(a), m.colOf(b));
    r0 = std::min(m.rowOf(a), m.rowOf(b));
    r1 = std::max(m.rowOf(a), m.rowOf(b));
  }
  std::vector<int> counts(P.terrains.size() + 1, 0);
  for (int32_t t : m.terrain) counts[t >= 0 ? t : P.terrains.size()]++;
  int common =
      static_cast<int>(std::max_element(counts.begin(), counts.end() - 1) - counts.begin());
  std::map<char, std::string> legend;
  auto cell = [&](int32_t h) {
    for (const auto& u : st.units) {
      if (u.status != eval::UnitStatus::OnMap || u.hex != h) continue;
      std::string id = u.id.substr(0, 3);
      std::string face = u.facing >= 0 ? std::string(1, "^>>v<<"[u.facing]) : " ";
      return fmt::format("{:<3}{}", id, face);
    }
    int32_t t = m.terrain[h];
    // A hex whose hex state is not the default is starred (and listed under the map).
    const char* mark = hexStateText(h).empty() ? " " : "*";
    if (t < 0 || t == common) return fmt::format(" .{} ", mark);
    char ch = P.terrains[t].name.empty() ? '?' : P.terrains[t].name[0];
    std::string& names = legend[ch];
    if (("/" + names + "/").find("/" + P.terrains[t].name + "/") == std::string::npos)
      names += (names.empty() ? "" : "/") + P.terrains[t].name;
    return fmt::format(" {}{} ", ch, mark);
  };
  // Header: column numbers, each centred on its cell.
  std::string head = "     ";
  for (int c = c0; c <= c1; ++c)
    head += fmt::format(
        "{:<4}",
        m.letters
            ? m.label(m.index(c, r0)).substr(0, m.label(m.index(c, r0)).find_first_of("0123456789"))
            : fmt::format("{:02d}", c));
  while (!head.empty() && head.back() == ' ') head.pop_back();
  out += head + "\n";
  for (int r = r0; r <= r1; ++r) {
    for (int parity : {0, 1}) {
      std::string line = parity == 0 ? fmt::format("{:>3}  ", r) : "     ";
      for (int c = c0; c <= c1; ++c) {
        bool lowered = c % 2 != 0;  // odd columns sit half a hex lower
        if (lowered != (parity == 1)) {
          line += "    ";
          continue;
        }
        line += cell(m.index(c, r));
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
  }
  std::string key = fmt::format("  . {}", P.terrains.empty() ? "" : P.terrains[common].name);
  for (const auto& [ch, names] : legend) key += fmt::format("   {} {}", ch, names);
  out += key + "   units: id, facing ^ N, > NE/SE, v S, < SW/NW";
  out += P.hexState.fields.empty() ? "\n" : "   * hex state, below\n";
  // The hex state that differs from the ruleset's defaults, hex by hex, in the region shown.
  for (int c = c0; c <= c1; ++c)
    for (int r = r0; r <= r1; ++r)
      if (std::string s = hexStateText(m.index(c, r)); !s.empty())
        out += fmt::format("  {}: {}\n", m.label(m.index(c, r)), s);
}

std::string Repl::hexStateText(int32_t h) const {
  const auto& st = session_->state();
  const Program& P = session_->program();
  std::string out;
  for (int32_t f = 0;
       f < st.map.hexFieldCount && f < static_cast<int32_t>(P.hexState.fields.size()); ++f) {
    const FieldInfo& info = P.hexState.fields[static_cast<size_t>(f)];
    if (info.derived >= 0 || st.map.hexField(h, f) == info.value) continue;
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", info.name,
                       session_->display(st.map.hexField(h, f)));
  }
  return out;
}

void Repl::cmdShow(const std::vector<std::string>& args, std::string& out) {
  if (args.size() != 2) {
    error(out, "show takes a unit id or a hex, as in `show h12` or `show 2725`");
    return;
  }
  const auto& st = session_->state();
  const Program& P = session_->program();
  for (const auto& u : st.units) {
    if (u.id != args[1]) continue;
    out += fmt::format(
        "{} ({}, {}), {}\n", u.id, P.unitTypes[u.type].name, P.sides[u.side].name,
        u.status == eval::UnitStatus::OnMap ? "at " + st.map.label(u.hex) : "not on the map");
    const Schema& cls = P.classes[u.cls];
    for (size_t f = 0; f < cls.fields.size(); ++f) {
      if (cls.fields[f].derived >= 0) continue;
      out += fmt::format("  {}{} = {}\n", cls.fields[f].isState ? "state " : "", cls.fields[f].name,
                         session_->display(u.fields[f]));
    }
    return;
  }
  int32_t h = st.map.parse(args[1]);
  if (h < 0) {
    error(out, fmt::format("'{}' is neither a unit nor a hex of this map", args[1]));
    return;
  }
  out += fmt::format("hex {}: {}\n", args[1],
                     st.map.terrain[h] >= 0 ? P.terrains[st.map.terrain[h]].name : "no terrain");
  for (size_t f = 0; f < P.hexState.fields.size(); ++f) {
    if (P.hexState.fields[f].derived >= 0 || static_cast<int32_t>(f) >= st.map.hexFieldCount)
      continue;
    out += fmt::format("  state {} = {}\n", P.hexState.fields[f].name,
                       session_->display(st.map.hexField(h, static_cast<int32_t>(f))));
  }
  for (const auto& [k, fs] : st.map.hexsides) {
    if (k.first != h && k.second != h) continue;
    std::string names;
    for (int32_t f : fs) names += (names.empty() ? "" : ", ") + P.features[f].name;
    out +=
        fmt::format("  hexside {}/{}: {}\n", st.map.label(k.first), st.map.label(k.second), names);
  }
  for (const auto& u : st.units)
    if (u.status == eval::UnitStatus::OnMap && u.hex == h)
      out += fmt::format("  {} ({}, {})\n", u.id, P.unitTypes[u.type].name, P.sides[u.side].name);
}

}  // namespace polemos::repl
