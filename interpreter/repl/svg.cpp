// REPL: The map as an SVG picture (`map --svg`).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "eval/interpreter.h"
#include "hex/grid.h"
#include "repl/repl.h"
#include "repl/text.h"

namespace polemos::repl {

using namespace polemos::ir;

// The map as an SVG picture: flat-topped hexes filled by terrain, hexside features as coloured
// edges, units as counters in their side's colour with type, strength and a facing tick; on
// request one unit's zone of control (shaded) and one line of sight (a line, green or red).
void Repl::cmdMapSvg(const std::vector<std::string>& args, std::string& out) {
  const auto& st = session_->state();
  const Program& P = session_->program();
  const eval::MapState& m = st.map;
  if (args.size() < 3)
    return error(out, "map --svg takes a file name, as in `map --svg chalons.svg`");
  if (m.size() == 0) return error(out, "this game has no map");
  std::string file = args[2];
  std::vector<int32_t> zocHexes;
  std::optional<std::pair<int32_t, int32_t>> los;
  bool losClear = false;
  for (size_t i = 3; i < args.size(); ++i) {
    if (args[i] == "--zoc" && i + 1 < args.size()) {
      std::string diagnostics, err;
      auto v = evaluate("zoc(unit(\"" + args[++i] + "\"))", "<zoc>", diagnostics, err);
      if (!v || v->tag != Tag::List)
        return error(out, fmt::format("no zone of control for '{}': {}", args[i],
                                      err.empty() ? "no such unit" : err));
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
          out, fmt::format("unknown map option '{}' (use --zoc UNIT or --los HEX HEX)", args[i]));
    }
  }
  const double s = 24, h3 = std::sqrt(3.0) * s;
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
  static const char* kTerrainColours[] = {"#eef2d8", "#9cc58a", "#d8c49a", "#c8d8ef",
                                          "#b8a58a", "#e0d0e8", "#f0e0c0", "#a0b0a0"};
  static const char* kFeatureColours[] = {"#2a6fd6", "#8a5a2a", "#444444",
                                          "#d62a2a", "#2ad66f", "#d6a22a"};
  static const char* kSideColours[] = {"#c0392b", "#2c6fbb", "#27ae60", "#8e44ad"};
  double width = s * 2 + 8 + (m.cols() - 1) * 1.5 * s, height = h3 * (m.rows() + 0.5) + 8;
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" "
      "font-family=\"sans-serif\" font-size=\"8\">\n",
      width, height);
  for (int32_t h = 0; h < m.size(); ++h) {
    auto c = centre(h);
    std::string pts;
    for (int k = 0; k < 6; ++k) {
      auto v = corner(c, k);
      pts += fmt::format("{:.1f},{:.1f} ", v.first, v.second);
    }
    int32_t t = m.terrain[h];
    const char* fill = t >= 0 ? kTerrainColours[t % 8] : "#ffffff";
    // A hex whose hex state differs from the defaults has a dashed ring and says so in its title.
    std::string state = hexStateText(h);
    svg += fmt::format(
        "<polygon points=\"{}\" fill=\"{}\" stroke=\"#888\" stroke-width=\"0.5\"><title>{} "
        "{}{}</title></polygon>\n",
        pts, fill, m.label(h), t >= 0 ? P.terrains[t].name : "",
        state.empty() ? "" : " (" + state + ")");
    if (!state.empty())
      svg += fmt::format(
          "<polygon points=\"{}\" fill=\"none\" stroke=\"#b00\" stroke-width=\"1.5\" "
          "stroke-dasharray=\"3,2\" transform=\"translate({:.1f},{:.1f}) scale(0.8) "
          "translate({:.1f},{:.1f})\"/>\n",
          pts, c.first, c.second, -c.first, -c.second);
    if (std::find(zocHexes.begin(), zocHexes.end(), h) != zocHexes.end())
      svg += fmt::format("<polygon points=\"{}\" fill=\"#000\" fill-opacity=\"0.18\"/>\n", pts);
    svg += fmt::format(
        "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" fill=\"#666\" "
        "font-size=\"6\">{}</text>\n",
        c.first, c.second - h3 / 2 + 8, m.label(h));
  }
  for (const auto& [k, fs] : m.hexsides) {
    auto a = centre(k.first), b = centre(k.second);
    // The shared edge is perpendicular to the line between the centres, through its midpoint.
    double mx = (a.first + b.first) / 2, my = (a.second + b.second) / 2;
    double dx = b.first - a.first, dy = b.second - a.second, len = std::hypot(dx, dy);
    double ex = -dy / len * s / 2, ey = dx / len * s / 2;
    for (size_t i = 0; i < fs.size(); ++i)
      svg += fmt::format(
          "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" "
          "stroke-width=\"{}\"><title>{}</title></line>\n",
          mx - ex, my - ey, mx + ex, my + ey, kFeatureColours[fs[i] % 6], 4 - static_cast<int>(i),
          P.features[fs[i]].name);
  }
  int32_t strengthId = P.nameIds.count("strength") ? P.nameIds.at("strength") : -1;
  for (const auto& u : st.units) {
    if (u.status != eval::UnitStatus::OnMap || u.hex < 0) continue;
    auto c = centre(u.hex);
    const char* colour = kSideColours[u.side % 4];
    svg += fmt::format(
        "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" rx=\"2\" fill=\"{}\" "
        "stroke=\"#222\"><title>{}</title></rect>\n",
        c.first - s * 0.55, c.second - s * 0.45, s * 1.1, s * 0.9, colour, u.id);
    int32_t slot = strengthId >= 0 ? P.classes[u.cls].find(strengthId) : -1;
    std::string strength = slot >= 0 ? session_->display(u.fields[slot]) : "";
    svg += fmt::format(
        "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" fill=\"#fff\">{}</text>\n", c.first,
        c.second - 1, P.unitTypes[u.type].name.substr(0, 6));
    svg += fmt::format(
        "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" fill=\"#fff\">{} {}</text>\n",
        c.first, c.second + 8, u.id, strength);
    if (u.facing >= 0) {
      // A tick toward the faced hexside (N is up; directions go clockwise).
      double a = -M_PI / 2 + M_PI / 3 * u.facing;
      svg += fmt::format(
          "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#000\" "
          "stroke-width=\"2\"/>\n",
          c.first + std::cos(a) * s * 0.45, c.second + std::sin(a) * s * 0.45,
          c.first + std::cos(a) * s * 0.8, c.second + std::sin(a) * s * 0.8);
    }
  }
  if (los) {
    auto a = centre(los->first), b = centre(los->second);
    svg += fmt::format(
        "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" "
        "stroke-width=\"2\" stroke-dasharray=\"4 2\"/>\n",
        a.first, a.second, b.first, b.second, losClear ? "#1a9c3a" : "#d62a2a");
  }
  svg += "</svg>\n";
  std::ofstream f(file);
  if (!f || !(f << svg)) return error(out, fmt::format("cannot write '{}'", file));
  out += fmt::format(
      "wrote {} ({} hexes, {} units{}{})\n", file, m.size(),
      std::count_if(st.units.begin(), st.units.end(),
                    [](const eval::UnitState& u) { return u.status == eval::UnitStatus::OnMap; }),
      zocHexes.empty() ? "" : fmt::format(", zone of control of {} hexes", zocHexes.size()),
      los ? (losClear ? ", line of sight clear" : ", line of sight blocked") : "");
}

}  // namespace polemos::repl
