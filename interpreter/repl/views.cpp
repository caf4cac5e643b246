// REPL: Looking at the game: units, the text map, show (what is shown of a unit or a side is
// declared by the ruleset and read through engine/display.h).
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "engine/display.h"
#include "engine/reach.h"
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
  if (args.size() > 2)
    return error(out, "map takes one unit or one region (`map r43`, `map 0101..0505`), or --svg");
  const auto& st = session_->state();
  const eval::MapState& m = st.map;
  if (m.size() == 0) {
    error(out, "this game has no map");
    return;
  }
  int c0 = m.col0, c1 = m.col1, r0 = m.row0, r1 = m.row1;
  if (args.size() > 1 && engine::findUnit(st, args[1]) >= 0) {
    // `map UNIT`: the ground around a unit, as wide as the window allows (16 columns in a
    // script), 5 rows above and below.
    const auto& u = st.units[static_cast<size_t>(engine::findUnit(st, args[1]))];
    if (u.status != eval::UnitStatus::OnMap)
      return error(out, fmt::format("{} is not on the map", u.id));
    int half = 8;
    if (options_.width > 0) {
      size_t w = (std::max<size_t>(u.id.size(), 3) + 4 + 1) / 2;  // a column's step
      half = std::max(2, static_cast<int>((static_cast<size_t>(options_.width) - 5) / w / 2) - 1);
    }
    int c = m.colOf(u.hex), r = m.rowOf(u.hex);
    c0 = std::max(m.col0, c - half);
    c1 = std::min(m.col1, c + half);
    r0 = std::max(m.row0, r - 5);
    r1 = std::min(m.row1, r + 5);
  } else if (args.size() > 1) {
    auto dots = args[1].find("..");
    int32_t a = dots == std::string::npos ? -1 : m.parse(args[1].substr(0, dots));
    int32_t b = dots == std::string::npos ? -1 : m.parse(args[1].substr(dots + 2));
    if (a < 0 || b < 0) {
      error(out, fmt::format("map takes a unit or a region of two corner hexes, as in `map {}..{}`",
                             m.label(0), m.label(std::min(m.size() - 1, m.rows() * 3 + 3))));
      return;
    }
    c0 = std::min(m.colOf(a), m.colOf(b));
    c1 = std::max(m.colOf(a), m.colOf(b));
    r0 = std::min(m.rowOf(a), m.rowOf(b));
    r1 = std::max(m.rowOf(a), m.rowOf(b));
  }
  renderMap(c0, c1, r0, r1, {}, out);
}

namespace {

// The character a hexside feature is drawn with on the text map, by what its name says: water
// '~', a rise '^', a wall or work '#', a way through ':' (else its first letter).
char hexsideGlyph(const std::string& name) {
  auto has = [&](std::initializer_list<const char*> words) {
    for (const char* w : words)
      if (name.find(w) != std::string::npos) return true;
    return false;
  };
  if (has({"river", "stream", "ford", "water", "creek", "brook"})) return '~';
  if (has({"ridge", "slope", "cliff", "escarp", "bank"})) return '^';
  if (has({"wall", "palisade", "rampart", "gate", "hedge", "fence", "ditch", "works"})) return '#';
  if (has({"road", "trail", "track", "bridge", "path"})) return ':';
  return name.empty() ? '?' : name[0];
}

}  // namespace

// The text map of columns c0..c1, rows r0..r1 (a hex with a unit shows the unit, one in
// `overlay` without a unit its text): flat-topped hexes in columns, odd columns half a
// hex lower, so each map row is two text lines (the even columns' hexes on the first, the odd
// columns' on the second). A hex shows its unit's full id (`+` when others share it) and facing
// (N, NE, ...), or the first letter of its terrain ('.' for the commonest) with its elevation
// where the map has any and `*` for a hex state set, or the text `overlay` gives it. Under the
// map: the key, the stacks, the markers set, the hexside features and the hex state of the region.
// At a terminal narrower than the map, the columns that fit are drawn and the cut is said.
void Repl::renderMap(int c0, int c1, int r0, int r1, const std::map<int32_t, std::string>& overlay,
                     std::string& out) {
  const auto& st = session_->state();
  const Program& P = session_->program();
  const eval::MapState& m = st.map;
  std::vector<int> counts(P.terrains.size() + 1, 0);
  for (int32_t t : m.terrain) counts[t >= 0 ? t : P.terrains.size()]++;
  int common =
      static_cast<int>(std::max_element(counts.begin(), counts.end() - 1) - counts.begin());
  auto inRegion = [&](int32_t h) {
    return m.colOf(h) >= c0 && m.colOf(h) <= c1 && m.rowOf(h) >= r0 && m.rowOf(h) <= r1;
  };
  // The units of each hex of the region, in the game's order.
  std::map<int32_t, std::vector<size_t>> at;
  bool facing = false, elevation = false;
  size_t idWidth = 3;
  for (size_t i = 0; i < st.units.size(); ++i) {
    const auto& u = st.units[i];
    if (u.status != eval::UnitStatus::OnMap || u.hex < 0 || !inRegion(u.hex)) continue;
    at[u.hex].push_back(i);
    facing = facing || u.facing >= 0;
    idWidth = std::max(idWidth, u.id.size());
  }
  for (int32_t e : m.elevation) elevation = elevation || e != 0;
  for (const auto& [h, text] : overlay) idWidth = std::max(idWidth, text.size());
  // id, stack mark, facing, a space; at least 7, so that columns step 4 characters apart
  const size_t width = std::max<size_t>(7, idWidth + 1 + (facing ? 2 : 0) + 1);
  // Cut to the window: as many columns as fit beside the row numbers.
  int shownTo = c1;
  if (options_.width > 0) {
    size_t room = static_cast<size_t>(std::max(options_.width, 6)) - 5;
    int fit = std::max(1, static_cast<int>((room - std::min(room, width)) / ((width + 1) / 2)) + 1);
    shownTo = std::min(c1, c0 + fit - 1);
  }
  std::map<char, std::string> legend;
  auto cell = [&](int32_t h) {
    if (auto it = at.find(h); it != at.end()) {
      const auto& u = st.units[it->second.front()];
      std::string face = facing ? fmt::format("{:<2}", engine::facingText(u.facing)) : "";
      return fmt::format("{:<{}}{}{} ", u.id, idWidth, it->second.size() > 1 ? "+" : " ", face);
    }
    if (auto it = overlay.find(h); it != overlay.end())
      return fmt::format(" {:<{}}", it->second, width - 1);
    int32_t t = m.terrain[h];
    std::string text = ".";
    if (t >= 0 && t != common) {
      char ch = P.terrains[t].name.empty() ? '?' : P.terrains[t].name[0];
      std::string& names = legend[ch];
      if (("/" + names + "/").find("/" + P.terrains[t].name + "/") == std::string::npos)
        names += (names.empty() ? "" : "/") + P.terrains[t].name;
      text = std::string(1, ch);
    }
    if (elevation && m.elevation[h] != 0) text += std::to_string(m.elevation[h]);
    // A hex whose hex state is not the default is starred (and listed under the map).
    if (!hexStateText(h).empty()) text += "*";
    return fmt::format(" {:<{}}", text, width - 1);
  };
  // Columns step half a cell: a column's hexes share no text line with its neighbours' (odd
  // columns are drawn on the second line of each row), so neighbours may overlap by half.
  const size_t step = (width + 1) / 2;
  auto put = [](std::string& line, size_t at, const std::string& text) {
    if (line.size() < at + text.size()) line.resize(at + text.size(), ' ');
    line.replace(at, text.size(), text);
  };
  // Header: the column labels, each over its cells.
  std::string head;
  for (int c = c0; c <= shownTo; ++c)
    put(head, 5 + static_cast<size_t>(c - c0) * step,
        m.letters
            ? m.label(m.index(c, r0)).substr(0, m.label(m.index(c, r0)).find_first_of("0123456789"))
            : fmt::format("{:02d}", c));
  out += head + "\n";
  std::vector<std::string> lines;
  for (int r = r0; r <= r1; ++r) {
    for (int parity : {0, 1}) {
      std::string line = parity == 0 ? fmt::format("{:>3}  ", r) : "     ";
      for (int c = c0; c <= shownTo; ++c) {
        bool lowered = c % 2 != 0;  // odd columns sit half a hex lower
        if (lowered == (parity == 1))
          put(line, 5 + static_cast<size_t>(c - c0) * step, cell(m.index(c, r)));
      }
      lines.push_back(std::move(line));
    }
  }
  // A hexside feature between two hexes of a column is drawn on the text line between them,
  // under the upper hex's terrain letter, where no cell's text stands (the slanting ones have no
  // such place: all are listed under the map).
  std::map<char, std::string> sideGlyphs;
  for (const auto& [k, fs] : m.hexsides) {
    int32_t a = m.rowOf(k.first) < m.rowOf(k.second) ? k.first : k.second;
    int32_t b = a == k.first ? k.second : k.first;
    int c = m.colOf(a);
    if (fs.empty() || c != m.colOf(b) || m.rowOf(b) != m.rowOf(a) + 1 || c < c0 || c > shownTo ||
        m.rowOf(a) < r0 || m.rowOf(b) > r1)
      continue;
    char g = hexsideGlyph(P.features[fs.front()].name);
    std::string& names = sideGlyphs[g];
    if (("/" + names + "/").find("/" + P.features[fs.front()].name + "/") == std::string::npos)
      names += (names.empty() ? "" : "/") + P.features[fs.front()].name;
    size_t row = static_cast<size_t>(2 * (m.rowOf(a) - r0) + (c % 2 != 0 ? 1 : 0) + 1);
    size_t x = 5 + static_cast<size_t>(c - c0) * step + 1;
    if (row < lines.size() && (lines[row].size() <= x || lines[row][x] == ' '))
      put(lines[row], x, std::string(1, g));
  }
  for (auto& line : lines) {
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  std::string key = fmt::format("  . {}", P.terrains.empty() ? "" : P.terrains[common].name);
  for (const auto& [ch, names] : legend) key += fmt::format("   {} {}", ch, names);
  if (elevation) key += "   digits: elevation";
  for (const auto& [g, names] : sideGlyphs) key += fmt::format("   {} {} (hexside)", g, names);
  key += facing ? "   units: id, + stacked, facing N NE SE S SW NW" : "   units: id, + stacked";
  out += key;
  out += P.hexState.fields.empty() ? "\n" : "   * hex state, below\n";
  if (shownTo < c1)
    out += fmt::format(
        "  (the window is {} wide: columns {} to {} of {} to {} shown; `map "
        "{}..{}` for the rest)\n",
        options_.width, c0, shownTo, c0, c1, m.label(m.index(shownTo + 1, r0)),
        m.label(m.index(c1, r1)));
  // What the cells cannot hold, for the region drawn: stacks, markers, hexside features.
  auto drawn = [&](int32_t h) { return inRegion(h) && m.colOf(h) <= shownTo; };
  for (const auto& [h, list] : at) {
    if (!drawn(h) || list.size() < 2) continue;
    std::string ids;
    for (size_t i : list) ids += (ids.empty() ? "" : ", ") + st.units[i].id;
    out += fmt::format("  {} holds {}\n", m.label(h), ids);
  }
  for (const auto& [h, list] : at) {
    if (!drawn(h)) continue;
    for (size_t i : list) {
      // The markers of the moment (state), not a counter's printed properties.
      auto fields = engine::unitFields(*session_, static_cast<int32_t>(i));
      std::erase_if(fields, [](const engine::ShownField& f) { return !f.isState && !f.derived; });
      if (std::string mk = engine::markersText(fields); !mk.empty())
        out += fmt::format("  {} [{}]\n", st.units[i].id, mk);
    }
  }
  std::map<std::string, std::string> sides;
  for (const auto& [k, fs] : m.hexsides) {
    if (!drawn(k.first) && !drawn(k.second)) continue;
    for (int32_t f : fs)
      sides[P.features[f].name] += " " + m.label(k.first) + "/" + m.label(k.second);
  }
  for (const auto& [name, list] : sides) out += fmt::format("  {}:{}\n", name, list);
  // The hex state that differs from the ruleset's defaults, hex by hex, in the region shown.
  for (int c = c0; c <= shownTo; ++c)
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

// `reach UNIT`: the hexes the unit can move to now, each with the cheapest cost of getting
// there, drawn on the map around it (the unit's own hex shows its id) and listed by cost.
void Repl::cmdReach(const std::vector<std::string>& args, std::string& out) {
  const auto& st = session_->state();
  const eval::MapState& m = st.map;
  std::string why;
  int32_t u = args.size() == 2 ? engine::readUnit(st, args[1], why) : -1;
  if (args.size() != 2) why = "reach takes a unit id, as in `reach r43`";
  if (u < 0) return error(out, why);
  engine::Reach r = engine::reach(*session_, u);
  if (!r.error.empty()) return error(out, r.error);
  const auto& unit = st.units[static_cast<size_t>(u)];
  std::string allowance = r.allowance ? fmt::format(" (allowance {})", *r.allowance) : "";
  if (r.hexes.empty()) {
    out += fmt::format("{} can move nowhere now{}\n", unit.id, allowance);
    return;
  }
  std::map<int32_t, std::string> overlay;
  int c0 = m.colOf(unit.hex), c1 = c0, r0 = m.rowOf(unit.hex), r1 = r0;
  for (const auto& h : r.hexes) {
    overlay[h.hex] = fmt::format("{}", h.cost);
    c0 = std::min(c0, m.colOf(h.hex));
    c1 = std::max(c1, m.colOf(h.hex));
    r0 = std::min(r0, m.rowOf(h.hex));
    r1 = std::max(r1, m.rowOf(h.hex));
  }
  out += fmt::format("{} at {} can reach {} hex{}{}; each empty one shows its cost:\n", unit.id,
                     m.label(unit.hex), r.hexes.size(), r.hexes.size() == 1 ? "" : "es", allowance);
  renderMap(std::max(m.col0, c0 - 1), std::min(m.col1, c1 + 1), std::max(m.row0, r0 - 1),
            std::min(m.row1, r1 + 1), overlay, out);
  std::map<int64_t, std::vector<std::string>> byCost;
  for (const auto& h : r.hexes) byCost[h.cost].push_back(m.label(h.hex));
  for (auto& [cost, labels] : byCost) {
    std::sort(labels.begin(), labels.end());
    std::string line = fmt::format("  {:>3}:", cost);
    for (const auto& l : labels) line += " " + l;
    out += line + "\n";
  }
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
