// REPL: Looking at the game: units, the text map, show (what is shown of a unit or a side is
// declared by the ruleset and read through engine/display.h).
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "engine/display.h"
#include "engine/reading.h"
#include "eval/interpreter.h"
#include "repl/repl.h"
#include "repl/text.h"

namespace polemos::repl {

using namespace polemos::ir;

// `units [SIDE]`: one line a unit, with its hex, its facing, its counter values and the markers
// on it, as the ruleset declares them (engine/display.h). Columns are as wide as their longest
// entry, so ids are never cut.
void Repl::cmdUnits(const std::vector<std::string>& args, std::string& out) {
  const auto& st = session_->state();
  const Program& P = session_->program();
  int32_t side = -1;
  if (args.size() > 1) {
    side = engine::findSide(P, args[1]);
    if (side < 0) {
      error(out, fmt::format("no side '{}'", args[1]));
      return;
    }
  }
  struct Row {
    std::string id, side, type, where, facing, counters, markers;
  };
  std::vector<Row> rows;
  size_t w[5] = {0, 0, 0, 0, 0};
  for (size_t i = 0; i < st.units.size(); ++i) {
    const auto& u = st.units[i];
    if (side >= 0 && u.side != side) continue;
    auto fields = engine::unitFields(*session_, static_cast<int32_t>(i));
    Row r{u.id,
          P.sides[u.side].name,
          P.unitTypes[u.type].name,
          whereText(static_cast<int32_t>(i)),
          u.status == eval::UnitStatus::OnMap ? engine::facingText(u.facing) : "",
          engine::countersText(fields),
          engine::markersText(fields)};
    w[0] = std::max(w[0], r.id.size());
    w[1] = std::max(w[1], r.side.size());
    w[2] = std::max(w[2], r.type.size());
    w[3] = std::max(w[3], r.where.size());
    w[4] = std::max(w[4], r.facing.size());
    rows.push_back(std::move(r));
  }
  if (rows.empty()) {
    out += side >= 0 ? fmt::format("{} has no units\n", args[1]) : "no units\n";
    return;
  }
  for (const auto& r : rows) {
    std::string line = fmt::format("{:<{}}  {:<{}}  {:<{}}  {:<{}}  ", r.id, w[0], r.side, w[1],
                                   r.type, w[2], r.where, w[3]);
    if (w[4] > 0) line += fmt::format("{:<{}}  ", r.facing, w[4]);  // a ruleset with facing
    line += r.counters;
    if (!r.markers.empty()) line += "  [" + r.markers + "]";
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
}

std::string Repl::whereText(int32_t unit) const {
  const auto& st = session_->state();
  const auto& u = st.units[static_cast<size_t>(unit)];
  switch (u.status) {
    case eval::UnitStatus::OnMap:
      return st.map.label(u.hex);
    case eval::UnitStatus::Eliminated:
      return "eliminated";
    case eval::UnitStatus::Exited:
      return "exited";
    case eval::UnitStatus::Merged:
      return "merged";
    default:
      return "off map";
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

// The fields of a unit or a side for `show`: the counter values and the markers set, then, with
// --all (or when the ruleset declares no counter and no marker for them), every field with its
// role; otherwise how many bookkeeping fields are not shown.
void Repl::showFields(const std::vector<engine::ShownField>& fields, bool all,
                      const std::string& what, std::string& out) const {
  bool declared = std::any_of(fields.begin(), fields.end(), [](const engine::ShownField& f) {
    return f.role != ir::Display::Hidden;
  });
  if (!all && declared) {
    if (std::string c = engine::countersText(fields); !c.empty()) out += "  " + c + "\n";
    std::string m = engine::markersText(fields);
    out += "  markers: " + (m.empty() ? std::string("none") : m) + "\n";
    size_t hidden = std::count_if(fields.begin(), fields.end(), [](const engine::ShownField& f) {
      return f.role == ir::Display::Hidden;
    });
    if (hidden > 0)
      out +=
          fmt::format("  ({} more field{}: show {} --all)\n", hidden, hidden == 1 ? "" : "s", what);
    return;
  }
  for (const auto& f : fields) {
    std::string role = f.role == ir::Display::Counter  ? "counter"
                       : f.role == ir::Display::Marker ? "marker"
                                                       : "";
    if (!role.empty() && f.label != f.name) role += " \"" + f.label + "\"";
    std::string line = fmt::format("  {}{} {} {}",
                                   f.derived   ? ""
                                   : f.isState ? "state "
                                               : "",
                                   f.name, f.derived ? ":=" : "=", f.value);
    if (!role.empty()) line += "   (" + role + ")";
    out += line + "\n";
  }
}

// `show UNIT [--all]`, `show SIDE [--all]`, `show HEX`.
void Repl::cmdShow(const std::vector<std::string>& args, std::string& out) {
  bool all = args.size() == 3 && args[2] == "--all";
  if (args.size() < 2 || args.size() > 3 || (args.size() == 3 && !all)) {
    error(out,
          "show takes a unit id, a side or a hex, and --all for a unit's or a side's bookkeeping "
          "fields, as in `show h12`, `show h12 --all`, `show roman` or `show 2725`");
    return;
  }
  const auto& st = session_->state();
  const Program& P = session_->program();
  if (int32_t i = engine::findUnit(st, args[1]); i >= 0) {
    const auto& u = st.units[static_cast<size_t>(i)];
    std::string where =
        u.status == eval::UnitStatus::OnMap ? "at " + st.map.label(u.hex) : whereText(i);
    if (u.status == eval::UnitStatus::OnMap && u.facing >= 0)
      where += ", facing " + engine::facingText(u.facing);
    out += fmt::format("{} ({}, {}), {}\n", u.id, P.unitTypes[u.type].name, P.sides[u.side].name,
                       where);
    showFields(engine::unitFields(*session_, i), all, u.id, out);
    return;
  }
  if (int32_t s = engine::findSide(P, args[1]); s >= 0) {
    size_t on = 0, gone = 0, off = 0;
    for (const auto& u : st.units) {
      if (u.side != s) continue;
      if (u.status == eval::UnitStatus::OnMap)
        ++on;
      else if (u.status == eval::UnitStatus::Eliminated)
        ++gone;
      else
        ++off;
    }
    out += fmt::format("{}{}: {} unit{} on the map, {} eliminated, {} elsewhere\n", P.sides[s].name,
                       P.sides[s].title.empty() ? "" : " (" + P.sides[s].title + ")", on,
                       on == 1 ? "" : "s", gone, off);
    showFields(engine::sideFields(*session_, s), all, P.sides[s].name, out);
    return;
  }
  if (all) {
    error(out,
          fmt::format("'{}' is neither a unit nor a side: --all is for their fields", args[1]));
    return;
  }
  int32_t h = st.map.parse(args[1]);
  if (h < 0) {
    error(out, fmt::format("'{}' is neither a unit, a side nor a hex of this map", args[1]));
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
  for (size_t i = 0; i < st.units.size(); ++i) {
    const auto& u = st.units[i];
    if (u.status != eval::UnitStatus::OnMap || u.hex != h) continue;
    auto fields = engine::unitFields(*session_, static_cast<int32_t>(i));
    std::string c = engine::countersText(fields), m = engine::markersText(fields);
    out +=
        fmt::format("  {} ({}, {}){}{}{}\n", u.id, P.unitTypes[u.type].name, P.sides[u.side].name,
                    u.facing >= 0 ? ", facing " + engine::facingText(u.facing) : "",
                    c.empty() ? "" : ": " + c, m.empty() ? "" : "  [" + m + "]");
  }
}

}  // namespace polemos::repl
