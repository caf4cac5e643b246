// REPL: The map as an SVG picture (`map --svg`): a title with the turn and the phase; the hexes
// coloured by terrain; hexside features; every unit on the map as a counter (its side's colour, a
// NATO-like symbol, its id, its counter values and its markers, as the ruleset declares them and
// engine/display.h reads them); on request a zone of control and a line of sight; and a legend of
// what is drawn. It renders what the Session holds and changes nothing in the game.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <initializer_list>
#include <map>
#include <set>

#include "diag/read_file.h"
#include "engine/display.h"
#include "engine/reach.h"
#include "engine/reading.h"
#include "eval/interpreter.h"
#include "hex/grid.h"
#include "repl/repl.h"
#include "repl/text.h"

namespace polemos::repl {

using namespace polemos::ir;

namespace {

// Text put in SVG: the characters XML reserves, escaped.
std::string xml(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Roughly how wide a text is drawn at a font size (sans-serif averages about 0.6 em a character).
double textWidth(const std::string& s, double fontSize) {
  return static_cast<double>(s.size()) * fontSize * 0.6;
}

// A <text> centred on x, no wider than `maxWidth`: a longer text is set smaller (never cut).
std::string fitText(double x, double y, const std::string& text, double fontSize, double maxWidth,
                    const std::string& attrs) {
  double size = std::min(fontSize, maxWidth / std::max(1.0, textWidth(text, 1)));
  return fmt::format(
      "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" font-size=\"{:.2g}\" {}>{}</text>\n",
      x, y, size, attrs, xml(text));
}

// A terrain's fill, chosen by keywords of its name (else of its description) so that the same
// ground looks the same in every ruleset: water, rivers, streams, lakes and marshes blue, woods
// green, hills, slopes and ridges brown or ochre (never blue), towns, villages and camps grey or
// red, clear and open ground a pale beige. The first keyword found wins, so the more particular
// ones come first (deep water before water, woodland's wood before land). A name with none of
// them takes one of a few muted colours that are none of these.
std::string terrainFill(const KindInfo& t, size_t index) {
  static const std::pair<const char*, const char*> kTable[] = {
      {"deep", "#6fa3d6"},     {"lake", "#6fa3d6"},     {"sea", "#6fa3d6"},
      {"river", "#86b6e3"},    {"stream", "#9cc6ec"},   {"shallow", "#a9cff0"},
      {"water", "#9cc6ec"},    {"ford", "#b3d5f0"},     {"marsh", "#9fc3c9"},
      {"swamp", "#93b8b8"},    {"bog", "#9fc3c9"},      {"bridge", "#b9a58a"},
      {"forest", "#4e8a46"},   {"jungle", "#4e8a46"},   {"wood", "#7caf68"},
      {"orchard", "#a3c98a"},  {"vineyard", "#b9c98f"}, {"ridge", "#a8773f"},
      {"mountain", "#9a6a3a"}, {"hill", "#c99a5b"},     {"slope", "#dcbc8a"},
      {"height", "#c99a5b"},   {"gully", "#a98a62"},    {"rough", "#c8b792"},
      {"rampart", "#8c8c8c"},  {"fort", "#8c8c8c"},     {"wall", "#8c8c8c"},
      {"building", "#9e9e9e"}, {"built", "#a6a6a6"},    {"town", "#a6a6a6"},
      {"city", "#a6a6a6"},     {"village", "#c9a9a0"},  {"camp", "#d9a3a3"},
      {"tent", "#e3b8b8"},     {"road", "#e2d3b0"},     {"trail", "#e6dab8"},
      {"field", "#ece3b5"},    {"clear", "#f4eedb"},    {"open", "#f4eedb"},
      {"plain", "#f4eedb"},    {"grass", "#e9edc9"}};
  static const char* kOthers[] = {"#e6d8ec", "#f0dcc8", "#dcdcc0", "#e8d0d0", "#d8e0c8"};
  for (const std::string& words : {lower(t.name), lower(t.description)})
    for (const auto& [key, fill] : kTable)
      if (!words.empty() && words.find(key) != std::string::npos) return fill;
  return kOthers[index % 5];
}

// How a feature is drawn: along the shared hexside edge, or, for roads and trails, from the centre
// of one hex to the centre of the other.
struct LineStyle {
  std::string stroke;
  double width = 3;
  std::string dash;  // a stroke-dasharray, empty: solid
  bool throughCentres = false;
};

// A hexside feature's line, by keywords of its name (else of its description), as terrainFill:
// rivers, streams and fords blue on the edge, ridges, slopes and gullies brown, walls dark grey,
// roads and trails brown through the hex centres.
LineStyle featureStyle(const KindInfo& f, size_t index) {
  static const std::pair<const char*, LineStyle> kTable[] = {
      {"road", {"#7a5a32", 3, "", true}},       {"trail", {"#7a5a32", 2, "4,2", true}},
      {"track", {"#7a5a32", 2, "4,2", true}},   {"ford", {"#5b9be0", 4, "3,2", false}},
      {"bridge", {"#555555", 4, "", false}},    {"river", {"#2a6fd6", 4.5, "", false}},
      {"stream", {"#3b86e0", 3, "", false}},    {"water", {"#2a6fd6", 4.5, "", false}},
      {"canal", {"#2a6fd6", 4, "", false}},     {"ridge", {"#8a5a2a", 3.5, "", false}},
      {"slope", {"#b07a40", 3, "2,2", false}},  {"gully", {"#7a5a3a", 3, "1,2", false}},
      {"cliff", {"#6a4a2a", 4, "", false}},     {"wall", {"#444444", 3.5, "", false}},
      {"rampart", {"#444444", 3.5, "", false}}, {"fort", {"#444444", 3.5, "", false}},
      {"hedge", {"#3e7a3a", 3, "2,1", false}}};
  static const char* kOthers[] = {"#d62a2a", "#8e44ad", "#d6a22a", "#444444"};
  for (const std::string& words : {lower(f.name), lower(f.description)})
    for (const auto& [key, style] : kTable)
      if (!words.empty() && words.find(key) != std::string::npos) return style;
  return LineStyle{kOthers[index % 4], 3, "", false};
}

// A terrain's or a feature's name, with its description when that says more ("shallow (Shallow
// water)", not "clear (Clear)").
std::string nameText(const KindInfo& k) {
  std::string spaced = k.name;
  std::replace(spaced.begin(), spaced.end(), '_', ' ');
  if (k.description.empty() || lower(k.description) == lower(spaced)) return k.name;
  return k.name + " (" + k.description + ")";
}

bool isRoad(const KindInfo& k) {
  std::string n = lower(k.name);
  return n.find("road") != std::string::npos || n.find("trail") != std::string::npos;
}

// The symbol on a counter, after the NATO convention, from what the ruleset declares of the unit:
// a leader (its class's name says Leader or Commander) is a flag; any other unit goes by its class
// field `kind`: infantry a box with an X, cavalry a box with one diagonal, artillery a box with a
// dot, a chariot a box with a diagonal and a wheel, an elephant (kind elephant, or a field
// `elephant` that is true) a box with a trunk, anything else a plain box. A unit with missiles (a
// field `missile` set to other than none / ms_none, or `missile_dice` above 0) has an arrow beside
// its symbol. `kind` is one of leader, infantry, cavalry, chariot, elephant, artillery, other.
struct Symbol {
  std::string kind = "other";
  bool missile = false;
};

Symbol unitSymbol(const std::string& className, const std::vector<engine::ShownField>& fields) {
  auto value = [&](const char* name) -> std::string {
    for (const auto& f : fields)
      if (f.name == name) return f.value;
    return "";
  };
  Symbol sym;
  std::string cls = lower(className);
  if (cls.find("leader") != std::string::npos || cls.find("commander") != std::string::npos) {
    sym.kind = "leader";
  } else {
    std::string kind = value("kind");
    for (const char* k : {"infantry", "cavalry", "chariot", "elephant", "artillery"})
      if (kind == k) sym.kind = k;
    if (value("elephant") == "true") sym.kind = "elephant";
  }
  std::string missile = value("missile");
  bool none = missile.empty() || missile == "none" ||
              (missile.size() >= 5 && missile.compare(missile.size() - 5, 5, "_none") == 0);
  auto dice = parseInt(value("missile_dice"));
  sym.missile = !none || (dice && *dice > 0);
  return sym;
}

// The symbol's drawing, its box 16 by 10 centred on (x, y), in `ink`; each part carries its
// class (sym-infantry, ..., sym-missile).
std::string symbolSvg(const Symbol& sym, double x, double y, const char* ink) {
  const double w = 16, h = 10, l = x - w / 2, t = y - h / 2, r = l + w, b = t + h;
  std::string g = fmt::format("<g class=\"sym-{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1\">",
                              sym.kind, ink);
  auto line = [&](double x1, double y1, double x2, double y2) {
    g += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\"/>", x1, y1, x2,
                     y2);
  };
  if (sym.kind == "leader") {
    // A flag: a staff and a pennant.
    line(x - 5, b + 1, x - 5, t - 1);
    g += fmt::format("<polygon points=\"{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}\" fill=\"{}\"/>",
                     x - 5, t - 1, x + 6, t + 2, x - 5, t + 5, ink);
  } else {
    g += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{}\" height=\"{}\"/>", l, t, w, h);
    if (sym.kind == "infantry") {
      line(l, t, r, b);
      line(l, b, r, t);
    } else if (sym.kind == "cavalry") {
      line(l, b, r, t);
    } else if (sym.kind == "chariot") {
      line(l, b, r, t);
      g += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2.5\"/>", x, y);
    } else if (sym.kind == "artillery") {
      g += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2\" fill=\"{}\"/>", x, y, ink);
    } else if (sym.kind == "elephant") {
      // A trunk hanging from the top of the box and curling up.
      g += fmt::format(
          "<path d=\"M{:.1f},{:.1f} Q{:.1f},{:.1f} {:.1f},{:.1f} Q{:.1f},{:.1f} {:.1f},{:.1f}\"/>",
          x - 4, t + 1.5, x + 2, t + 1, x + 2, y + 2, x + 2, b - 1, x - 1, b - 2);
    }
  }
  g += "</g>";
  if (sym.missile) {
    // An arrow pointing up, right of the box.
    double ax = r + 3;
    g += fmt::format(
        "<g class=\"sym-missile\" stroke=\"{0}\" fill=\"{0}\" stroke-width=\"1\"><line "
        "x1=\"{1:.1f}\" y1=\"{2:.1f}\" x2=\"{1:.1f}\" y2=\"{3:.1f}\"/><polygon "
        "points=\"{4:.1f},{5:.1f} {1:.1f},{3:.1f} {6:.1f},{5:.1f}\"/></g>",
        ink, ax, b, t, ax - 1.8, t + 3, ax + 1.8);
  }
  return g;
}

// The counter values as printed on a counter: "5-4" when they are all whole numbers, else the
// values side by side ("360 60 qc").
std::string compactCounters(const std::vector<engine::ShownField>& fields) {
  std::vector<std::string> values;
  bool numbers = true;
  for (const auto& f : fields) {
    if (f.role != Display::Counter) continue;
    values.push_back(f.value);
    numbers = numbers && parseInt(f.value).has_value();
  }
  std::string out;
  for (const auto& v : values) out += (out.empty() ? "" : numbers ? "-" : " ") + v;
  return out;
}

// A short tag for each marker label, distinct from the others: the initials of its words
// ("missile used" MU), the first word taking more letters while the tag is taken ("disrupted" D,
// then "disordered" Di).
std::map<std::string, std::string> markerTags(const std::vector<std::string>& labels) {
  std::map<std::string, std::string> tags;
  std::set<std::string> used;
  for (const auto& label : labels) {
    if (tags.count(label)) continue;
    std::vector<std::string> words = splitWords(label);
    if (words.empty()) words.push_back(label);
    std::string tag = label;
    for (size_t k = 1; k <= words[0].size(); ++k) {
      std::string t = words[0].substr(0, k);
      t[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(t[0])));
      for (size_t w = 1; w < words.size(); ++w)
        if (!words[w].empty())
          t += static_cast<char>(std::toupper(static_cast<unsigned char>(words[w][0])));
      if (!used.count(t)) {
        tag = t;
        break;
      }
    }
    used.insert(tag);
    tags[label] = tag;
  }
  return tags;
}

// What a marker's tag says: its tag, and a short value after it (fatigue 20: F20).
std::string markerTag(const engine::ShownField& f, const std::map<std::string, std::string>& tags) {
  std::string tag = tags.at(f.label);
  if (f.value != "true" && f.value.size() <= 4) tag += f.value;
  return tag;
}

// A small yellow tag with its text, its left edge at x, its middle at y.
std::string tagSvg(double x, double y, const std::string& text) {
  double w = textWidth(text, 5.5) + 3;
  return fmt::format(
      "<g class=\"marker\"><rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"7\" "
      "rx=\"1\" fill=\"#ffe066\" stroke=\"#222\" stroke-width=\"0.4\"/><text x=\"{:.1f}\" "
      "y=\"{:.1f}\" font-size=\"5.5\" fill=\"#000\">{}</text></g>",
      x, y - 3.5, w, x + 1.5, y + 2, xml(text));
}

}  // namespace

// The map as an SVG picture: flat-topped hexes filled by terrain, hexside features as lines,
// units as counters, on request one unit's zone of control (shaded) and one line of sight (a
// line, green or red), a title above and a legend to the right.
void Repl::cmdMapSvg(const std::vector<std::string>& args, std::string& out) {
  const auto& st = session_->state();
  const Program& P = session_->program();
  const eval::MapState& m = st.map;
  if (args.size() < 3)
    return error(out, "map --svg takes a file name, as in `map --svg chalons.svg`");
  if (m.size() == 0) return error(out, "this game has no map");
  std::string file = args[2];
  std::vector<int32_t> zocHexes;
  std::string zocUnit;
  std::optional<std::pair<int32_t, int32_t>> los;
  bool losClear = false;
  std::map<int32_t, int64_t> reachCost;  // --reach UNIT: each hex it can move to, with its cost
  std::string reachUnit;
  for (size_t i = 3; i < args.size(); ++i) {
    if (args[i] == "--reach" && i + 1 < args.size()) {
      std::string why;
      int32_t u = engine::readUnit(st, args[++i], why);
      if (u < 0) return error(out, why);
      engine::Reach r = engine::reach(*session_, u);
      if (!r.error.empty()) return error(out, r.error);
      reachUnit = args[i];
      for (const auto& h : r.hexes) reachCost[h.hex] = h.cost;
    } else if (args[i] == "--zoc" && i + 1 < args.size()) {
      std::string diagnostics, err;
      auto v = evaluate("zoc(unit(\"" + args[++i] + "\"))", "<zoc>", diagnostics, err);
      if (!v || v->tag != Tag::List)
        return error(out, fmt::format("no zone of control for '{}': {}", args[i],
                                      err.empty() ? "no such unit" : err));
      zocUnit = args[i];
      for (const auto& h : v->items()) zocHexes.push_back(static_cast<int32_t>(h.i));
    } else if (args[i] == "--los" && i + 2 < args.size()) {
      int32_t a = m.parse(args[i + 1]), b = m.parse(args[i + 2]);
      if (a < 0 || b < 0) return error(out, "--los takes two hexes of this map");
      std::string diagnostics, err;
      auto v = evaluate("line_of_sight(hex(\"" + args[i + 1] + "\"), hex(\"" + args[i + 2] + "\"))",
                        "<los>", diagnostics, err);
      if (!v) return error(out, "line of sight: " + (err.empty() ? diagnostics : err));
      los = std::make_pair(a, b);
      losClear = v->truthy();
      i += 2;
    } else {
      return error(
          out,
          fmt::format("unknown map option '{}' (use --reach UNIT, --zoc UNIT or --los HEX HEX)",
                      args[i]));
    }
  }
  const double s = 32, h3 = std::sqrt(3.0) * s;
  auto centre = [&](int32_t h) {
    int c = m.colOf(h) - m.col0, r = m.rowOf(h) - m.row0;
    // The map's Grid says which columns sit half a hex lower.
    bool odd = m.colOf(h) % 2 != 0;
    bool lowered = m.grid && m.grid->spec().shift == hex::ColumnShift::EvenDown ? !odd : odd;
    return std::make_pair(s + 4 + c * 1.5 * s, h3 / 2 + 4 + r * h3 + (lowered ? h3 / 2 : 0));
  };
  auto corner = [&](std::pair<double, double> c, int k) {
    double a = M_PI / 3 * k;
    return std::make_pair(c.first + s * std::cos(a), c.second + s * std::sin(a));
  };
  auto lineSvg = [](std::pair<double, double> a, std::pair<double, double> b,
                    const LineStyle& style, double width, const std::string& title) {
    return fmt::format(
        "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" "
        "stroke-width=\"{}\" stroke-linecap=\"round\"{}>{}</line>\n",
        a.first, a.second, b.first, b.second, style.stroke, width,
        style.dash.empty() ? "" : " stroke-dasharray=\"" + style.dash + "\"",
        title.empty() ? "" : "<title>" + xml(title) + "</title>");
  };
  static const char* kSideColours[] = {"#c0392b", "#2c6fbb", "#27ae60", "#8e44ad"};
  const double mapWidth = s * 2 + 8 + (m.cols() - 1) * 1.5 * s,
               mapHeight = h3 * (m.rows() + 0.5) + 8;

  // The hexes: terrain, hex state, zone of control, label; roads of terrain through the centres.
  std::string map;
  std::vector<int> terrainCount(P.terrains.size(), 0);
  bool noTerrain = false, hexState = false;
  std::vector<int32_t> roadHexes;
  for (int32_t h = 0; h < m.size(); ++h) {
    auto c = centre(h);
    std::string pts;
    for (int k = 0; k < 6; ++k) {
      auto v = corner(c, k);
      pts += fmt::format("{:.1f},{:.1f} ", v.first, v.second);
    }
    int32_t t = m.terrain[h];
    if (t >= 0)
      terrainCount[t]++;
    else
      noTerrain = true;
    if (t >= 0 && isRoad(P.terrains[t])) roadHexes.push_back(h);
    std::string fill = t >= 0 ? terrainFill(P.terrains[t], t) : "#ffffff";
    // A hex whose hex state differs from the defaults has a dashed ring and says so in its title.
    std::string state = hexStateText(h);
    hexState = hexState || !state.empty();
    map += fmt::format(
        "<polygon class=\"hex\" data-hex=\"{}\" points=\"{}\" fill=\"{}\" stroke=\"#888\" "
        "stroke-width=\"0.5\"><title>{} {}{}</title></polygon>\n",
        m.label(h), pts, fill, m.label(h), t >= 0 ? xml(P.terrains[t].name) : "",
        state.empty() ? "" : " (" + xml(state) + ")");
    if (!state.empty())
      map += fmt::format(
          "<polygon points=\"{}\" fill=\"none\" stroke=\"#b00\" stroke-width=\"1.5\" "
          "stroke-dasharray=\"3,2\" transform=\"translate({:.1f},{:.1f}) scale(0.8) "
          "translate({:.1f},{:.1f})\"/>\n",
          pts, c.first, c.second, -c.first, -c.second);
    if (std::find(zocHexes.begin(), zocHexes.end(), h) != zocHexes.end())
      map += fmt::format("<polygon points=\"{}\" fill=\"#000\" fill-opacity=\"0.18\"/>\n", pts);
    if (auto it = reachCost.find(h); it != reachCost.end())
      map += fmt::format(
          "<polygon class=\"reach\" points=\"{}\" fill=\"#2a7bd6\" fill-opacity=\"0.22\"/>\n"
          "<text class=\"reach-cost\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" "
          "fill=\"#1a4f8f\" font-size=\"9\" font-weight=\"bold\">{}</text>\n",
          pts, c.first, c.second + h3 / 2 - 5, it->second);
    map += fmt::format(
        "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" fill=\"#666\" "
        "font-size=\"6\">{}</text>\n",
        c.first, c.second - h3 / 2 + 7, m.label(h));
  }
  for (size_t i = 0; i < roadHexes.size(); ++i) {
    const KindInfo& t = P.terrains[m.terrain[roadHexes[i]]];
    LineStyle style = featureStyle(t, 0);
    for (int32_t n : m.neighbours(roadHexes[i]))
      if (n > roadHexes[i] && m.terrain[n] >= 0 && isRoad(P.terrains[m.terrain[n]]))
        map += lineSvg(centre(roadHexes[i]), centre(n), style, style.width, t.name);
  }
  // The hexside features: along the shared edge, or from centre to centre for roads and trails.
  std::set<int32_t> featuresShown;
  for (const auto& [k, fs] : m.hexsides) {
    auto a = centre(k.first), b = centre(k.second);
    // The shared edge is perpendicular to the line between the centres, through its midpoint.
    double mx = (a.first + b.first) / 2, my = (a.second + b.second) / 2;
    double dx = b.first - a.first, dy = b.second - a.second, len = std::hypot(dx, dy);
    double ex = -dy / len * s / 2, ey = dx / len * s / 2;
    for (size_t i = 0; i < fs.size(); ++i) {
      featuresShown.insert(fs[i]);
      LineStyle style = featureStyle(P.features[fs[i]], fs[i]);
      double width = std::max(1.0, style.width - static_cast<double>(i));
      map += style.throughCentres ? lineSvg(a, b, style, width, P.features[fs[i]].name)
                                  : lineSvg({mx - ex, my - ey}, {mx + ex, my + ey}, style, width,
                                            P.features[fs[i]].name);
    }
  }

  // The units on the map, hex by hex, with what the ruleset shows of them.
  struct Piece {
    int32_t unit;
    std::vector<engine::ShownField> fields;
    Symbol symbol;
  };
  std::map<int32_t, std::vector<Piece>> stacks;  // hex -> its units, in the game's order
  std::vector<std::string> markerLabels;
  std::map<std::string, std::string> classCounters;  // class -> its counter labels, for the legend
  std::set<int32_t> sidesShown;
  bool facing = false, missile = false;
  std::set<std::string> symbolsShown;
  for (size_t i = 0; i < st.units.size(); ++i) {
    const auto& u = st.units[i];
    if (u.status != eval::UnitStatus::OnMap || u.hex < 0) continue;
    Piece p{static_cast<int32_t>(i), engine::unitFields(*session_, static_cast<int32_t>(i)), {}};
    p.symbol = unitSymbol(P.classes[u.cls].name, p.fields);
    symbolsShown.insert(p.symbol.kind);
    missile = missile || p.symbol.missile;
    facing = facing || u.facing >= 0;
    sidesShown.insert(u.side);
    std::string labels;
    for (const auto& f : p.fields) {
      if (f.role == Display::Marker && f.set) markerLabels.push_back(f.label);
      if (f.role == Display::Counter) labels += (labels.empty() ? "" : ", ") + f.label;
    }
    if (!labels.empty()) classCounters[P.classes[u.cls].name] = labels;
    stacks[u.hex].push_back(std::move(p));
  }
  auto tags = markerTags(markerLabels);
  const double cw = s * 1.2, ch = s * 0.9;  // a counter's width and height
  for (const auto& [hex, pieces] : stacks) {
    auto c = centre(hex);
    // A stack is laid out side by side in a grid within the hex, its counters made smaller.
    size_t n = pieces.size();
    size_t cols = static_cast<size_t>(std::ceil(std::sqrt(static_cast<double>(n))));
    size_t rows = (n + cols - 1) / cols;
    double cellW = 1.6 * s / static_cast<double>(cols), cellH = 1.3 * s / static_cast<double>(rows);
    double k = std::min({1.0, cellW / cw, cellH / ch});
    for (size_t j = 0; j < n; ++j) {
      const Piece& p = pieces[j];
      const auto& u = st.units[static_cast<size_t>(p.unit)];
      double x = c.first + (n == 1 ? 0 : (static_cast<double>(j % cols) + 0.5) * cellW - 0.8 * s);
      double y = c.second + (n == 1 ? 0 : (static_cast<double>(j / cols) + 0.5) * cellH - 0.65 * s);
      std::string counters = engine::countersText(p.fields),
                  markers = engine::markersText(p.fields);
      std::string tip = fmt::format(
          "{} ({}, {}), at {}{}{}{}", u.id, P.unitTypes[u.type].name, P.sides[u.side].name,
          m.label(u.hex), u.facing >= 0 ? ", facing " + engine::facingText(u.facing) : "",
          counters.empty() ? "" : ": " + counters, markers.empty() ? "" : "  [" + markers + "]");
      map += fmt::format(
          "<g class=\"counter\" data-unit=\"{}\" transform=\"translate({:.1f},{:.1f}) "
          "scale({:.3f})\"><title>{}</title>\n",
          xml(u.id), x, y, k, xml(tip));
      map += fmt::format(
          "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" rx=\"2\" "
          "fill=\"{}\" stroke=\"#222\"/>\n",
          -cw / 2, -ch / 2, cw, ch, kSideColours[u.side % 4]);
      map += fitText(0, -ch / 2 + 7, u.id, 6.5, cw - 3, "class=\"unit-id\" fill=\"#fff\"");
      map += symbolSvg(p.symbol, p.symbol.missile ? -2 : 0, -1, "#fff") + "\n";
      if (std::string v = compactCounters(p.fields); !v.empty())
        map += fitText(0, ch / 2 - 2.5, v, 6.5, cw - 3, "class=\"unit-values\" fill=\"#fff\"");
      // The markers set: tags in rows under the counter (two rows at most, then "+N").
      std::vector<std::string> shown;
      for (const auto& f : p.fields)
        if (f.role == Display::Marker && f.set) shown.push_back(markerTag(f, tags));
      double tx = -cw / 2, ty = ch / 2 + 4.5;
      int tagRow = 0;
      for (size_t t = 0; t < shown.size(); ++t) {
        double w = textWidth(shown[t], 5.5) + 3;
        // A facing tick to the south runs down through the tags: they go round it.
        auto clearOfTick = [&] {
          if (u.facing == 3 && tx < 1.5 && tx + w > -1.5) tx = 2;
        };
        clearOfTick();
        if (tx + w > cw / 2 && tx > -cw / 2) {
          tx = -cw / 2;
          ty += 8;
          ++tagRow;
          clearOfTick();
        }
        if (tagRow == 2) {
          map += tagSvg(tx, ty, fmt::format("+{}", shown.size() - t));
          break;
        }
        map += tagSvg(tx, ty, shown[t]);
        tx += w + 1;
      }
      if (!shown.empty()) map += "\n";
      if (u.facing >= 0) {
        // A tick toward the faced hexside (N is up; directions go clockwise).
        double a = -M_PI / 2 + M_PI / 3 * u.facing;
        map += fmt::format(
            "<line class=\"facing\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" "
            "stroke=\"#000\" stroke-width=\"2\"/>\n",
            std::cos(a) * s * 0.45, std::sin(a) * s * 0.45, std::cos(a) * s * 0.8,
            std::sin(a) * s * 0.8);
      }
      map += "</g>\n";
    }
  }
  if (los) {
    auto a = centre(los->first), b = centre(los->second);
    map += fmt::format(
        "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" "
        "stroke-width=\"2\" stroke-dasharray=\"4 2\"/>\n",
        a.first, a.second, b.first, b.second, losClear ? "#1a9c3a" : "#d62a2a");
  }

  // The legend: one row per thing drawn, a sample at the left and its text beside it.
  std::string legend;
  double ly = 0, legendWidth = 180;
  auto heading = [&](const std::string& text) {
    ly += ly > 0 ? 20 : 12;
    legend +=
        fmt::format("<text x=\"0\" y=\"{:.1f}\" font-size=\"10\" font-weight=\"bold\">{}</text>\n",
                    ly, xml(text));
    ly += 4;
  };
  auto row = [&](const std::string& sample, const std::string& text, const std::string& cls) {
    ly += 14;
    legend += fmt::format("<g transform=\"translate(0,{:.1f})\">{}</g>", ly, sample);
    legend += fmt::format("<text x=\"30\" y=\"{:.1f}\" font-size=\"9\" class=\"{}\">{}</text>\n",
                          ly + 3, cls, xml(text));
    legendWidth = std::max(legendWidth, 30 + textWidth(text, 9));
  };
  auto swatch = [](const std::string& fill) {
    return fmt::format(
        "<rect x=\"2\" y=\"-5\" width=\"20\" height=\"10\" fill=\"{}\" stroke=\"#888\" "
        "stroke-width=\"0.5\"/>",
        fill);
  };
  heading("Terrain");
  for (size_t t = 0; t < P.terrains.size(); ++t) {
    if (terrainCount[t] == 0) continue;
    const KindInfo& k = P.terrains[t];
    std::string text = nameText(k);
    std::string sample = swatch(terrainFill(k, t));
    if (isRoad(k)) {
      LineStyle style = featureStyle(k, 0);
      sample += lineSvg({2, 0}, {22, 0}, style, style.width, "");
      text += ", joined centre to centre";
    }
    row(sample, text, "legend-terrain");
  }
  if (noTerrain) row(swatch("#ffffff"), "no terrain", "legend-terrain");
  if (!featuresShown.empty()) {
    heading("Hexsides");
    for (int32_t f : featuresShown) {
      LineStyle style = featureStyle(P.features[f], f);
      std::string text = nameText(P.features[f]);
      text += style.throughCentres ? ": centre to centre across the hexside" : ": along the edge";
      row(lineSvg({2, 0}, {22, 0}, style, style.width, ""), text, "legend-feature");
    }
  }
  if (!stacks.empty()) {
    heading("Units");
    static const std::pair<const char*, const char*> kSymbols[] = {
        {"leader", "leader (flag)"},
        {"infantry", "infantry (box with an X)"},
        {"cavalry", "cavalry (box with a diagonal)"},
        {"chariot", "chariot (diagonal and wheel)"},
        {"elephant", "elephant (trunk)"},
        {"artillery", "artillery (box with a dot)"},
        {"other", "other (plain box)"}};
    for (const auto& [kind, text] : kSymbols)
      if (symbolsShown.count(kind))
        row(symbolSvg(Symbol{kind, false}, 12, 0, "#222"), text, "legend-symbol");
    if (missile)
      row(symbolSvg(Symbol{"other", true}, 10, 0, "#222"), "missile capability (arrow)",
          "legend-symbol");
    for (const auto& [cls, labels] : classCounters)
      row("", fmt::format("{} counter: its id, then {}", cls, labels), "legend-values");
    if (facing)
      row("<line x1=\"4\" y1=\"0\" x2=\"20\" y2=\"0\" stroke=\"#000\" stroke-width=\"2\"/>",
          "facing: a tick toward the faced hexside", "legend-facing");
    if (std::any_of(stacks.begin(), stacks.end(),
                    [](const auto& e) { return e.second.size() > 1; }))
      row("", "a stack: its counters side by side, smaller", "legend-stack");
  }
  heading("Sides");
  for (size_t sd = 0; sd < P.sides.size(); ++sd) {
    std::string text = P.sides[sd].name;
    if (!P.sides[sd].title.empty() && P.sides[sd].title != P.sides[sd].name)
      text += " (" + P.sides[sd].title + ")";
    if (!sidesShown.count(static_cast<int32_t>(sd))) text += ", no unit on the map";
    row(swatch(kSideColours[sd % 4]), text, "legend-side");
  }
  heading("Markers");
  row(tagSvg(2, 0, "F20"), "a marker set: a tag under the counter, a short value after it",
      "legend-marker");
  row("", "(hover a counter: its values and markers in full)", "legend-marker");
  {
    std::vector<std::pair<std::string, std::string>> byTag;
    for (const auto& [label, tag] : tags) byTag.emplace_back(tag, label);
    std::sort(byTag.begin(), byTag.end());
    for (const auto& [tag, label] : byTag) row(tagSvg(2, 0, tag), label, "legend-marker");
    if (byTag.empty()) row("", "no marker set on the map", "legend-marker");
  }
  if (hexState || !zocHexes.empty() || los || !reachUnit.empty()) {
    heading("Also");
    if (hexState)
      row("<rect x=\"2\" y=\"-5\" width=\"20\" height=\"10\" fill=\"none\" stroke=\"#b00\" "
          "stroke-width=\"1.5\" stroke-dasharray=\"3,2\"/>",
          "hex state not the default (hover the hex)", "legend-other");
    if (!zocHexes.empty())
      row("<rect x=\"2\" y=\"-5\" width=\"20\" height=\"10\" fill=\"#000\" fill-opacity=\"0.18\"/>",
          "zone of control of " + zocUnit, "legend-other");
    if (!reachUnit.empty())
      row("<rect x=\"2\" y=\"-5\" width=\"20\" height=\"10\" fill=\"#2a7bd6\" "
          "fill-opacity=\"0.22\"/>",
          fmt::format("where {} can move now ({} hexes), with the cost", reachUnit,
                      reachCost.size()),
          "legend-other");
    if (los)
      row(fmt::format("<line x1=\"2\" y1=\"0\" x2=\"22\" y2=\"0\" stroke=\"{}\" stroke-width=\"2\" "
                      "stroke-dasharray=\"4 2\"/>",
                      losClear ? "#1a9c3a" : "#d62a2a"),
          fmt::format("line of sight {} to {}: {}", m.label(los->first), m.label(los->second),
                      losClear ? "clear" : "blocked"),
          "legend-other");
  }
  ly += 8;

  // The title: the ruleset and the scenario; where the game stands.
  std::string title = (P.title.empty() ? P.rulesetName : P.title) +
                      (P.scenarioName.empty() ? "" : ": ") +
                      (P.scenarioTitle.empty() ? P.scenarioName : P.scenarioTitle);
  int64_t last = lastTurn();
  std::string turn = st.turn <= 0 ? "setup"
                     : last > 0   ? fmt::format("turn {} of {}", st.turn, last)
                                  : fmt::format("turn {}", st.turn);
  std::string phase = session_->phaseName();
  std::string stand =
      fmt::format("{}{} ({})", turn, phase.empty() ? "" : ", " + phase, session_->describeStop());
  const double titleHeight = 46, legendX = mapWidth + 20;
  double width =
      std::max({legendX + legendWidth + 8, textWidth(title, 15) + 16, textWidth(stand, 10) + 16});
  double height = titleHeight + std::max(mapHeight, ly);
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" "
      "font-family=\"sans-serif\" font-size=\"8\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n"
      "<text x=\"8\" y=\"20\" font-size=\"15\" font-weight=\"bold\" class=\"title\">{}</text>\n"
      "<text x=\"8\" y=\"37\" font-size=\"10\" class=\"stand\">{}</text>\n"
      "<g class=\"map\" transform=\"translate(0,{:.0f})\">\n{}</g>\n"
      "<g class=\"legend\" transform=\"translate({:.0f},{:.0f})\">\n{}</g>\n"
      "</svg>\n",
      width, height, xml(title), xml(stand), titleHeight, map, legendX, titleHeight, legend);
  if (file == "-") {  // `map --svg -`: the picture itself, for a page or a pipe
    out += svg;
    return;
  }
  if (std::string why; !diag::writeFileWhole(file, svg, why)) return error(out, why);
  out += fmt::format(
      "wrote {} ({} hexes, {} units{}{}{})\n", file, m.size(),
      std::count_if(st.units.begin(), st.units.end(),
                    [](const eval::UnitState& u) { return u.status == eval::UnitStatus::OnMap; }),
      zocHexes.empty() ? "" : fmt::format(", zone of control of {} hexes", zocHexes.size()),
      reachUnit.empty() ? "" : fmt::format(", {} reaches {} hexes", reachUnit, reachCost.size()),
      los ? (losClear ? ", line of sight clear" : ", line of sight blocked") : "");
}

}  // namespace polemos::repl
