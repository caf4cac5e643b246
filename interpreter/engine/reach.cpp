#include "engine/reach.h"

#include <fmt/format.h>

namespace polemos::engine {

using namespace polemos::ir;

namespace {

// The unit as the language names it: unit("id") (ids are plain words; a quote is escaped).
std::string unitExpr(const Session& s, int32_t unit) {
  std::string id = s.state().units.at(static_cast<size_t>(unit)).id, q;
  for (char c : id) q += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return "unit(\"" + q + "\")";
}

std::string allowanceExpr(const Session& s, const std::string& u) {
  return s.program().findFunction("movement_allowance") >= 0 ? "movement_allowance(" + u + ")"
                                                             : u + ".ma";
}

std::optional<int64_t> intOf(const Value& v) {
  if (v.tag == Tag::Int) return v.i;
  return std::nullopt;
}

}  // namespace

Reach reach(const Session& s, int32_t unit) {
  Reach out;
  const auto& units = s.state().units;
  if (unit < 0 || static_cast<size_t>(unit) >= units.size()) {
    out.error = "no such unit";
    return out;
  }
  if (units[static_cast<size_t>(unit)].status != eval::UnitStatus::OnMap) {
    out.error = fmt::format("{} is not on the map", units[static_cast<size_t>(unit)].id);
    return out;
  }
  std::string u = unitExpr(s, unit);
  auto e = s.evaluate(fmt::format("[{}, map(reachable({}), h -> [h, path_cost({}, h)])]",
                                  allowanceExpr(s, u), u, u),
                      "<reach>");
  if (!e.value) {
    out.error = !e.error.empty() ? e.error : e.diagnostics;
    return out;
  }
  const auto& parts = e.value->items();
  if (parts.size() != 2) return out;
  out.allowance = intOf(parts[0]);
  for (const auto& pair : parts[1].items()) {
    const auto& hc = pair.items();
    if (hc.size() != 2 || hc[0].tag != Tag::Hex) continue;
    out.hexes.push_back({static_cast<int32_t>(hc[0].i), intOf(hc[1]).value_or(0)});
  }
  return out;
}

std::string whyUnreachable(const Session& s, int32_t unit, int32_t to) {
  const auto& st = s.state();
  if (unit < 0 || static_cast<size_t>(unit) >= st.units.size() || to < 0 || to >= st.map.size())
    return "";
  const auto& un = st.units[static_cast<size_t>(unit)];
  if (un.status != eval::UnitStatus::OnMap || un.hex == to) return "";
  std::string u = unitExpr(s, unit), h = fmt::format("hex(\"{}\")", st.map.label(to));
  // Now; and with a budget no move could exhaust, from where it stands: the cheapest way that
  // the terrain, the hexsides and the zones of control allow at all.
  auto e = s.evaluate(fmt::format("[path_cost({0}, {1}), path_cost_from({0}, {0}.hex, none, "
                                  "1000000000, {1}), {2}]",
                                  u, h, allowanceExpr(s, u)),
                      "<why>");
  if (!e.value || e.value->items().size() != 3) return "";
  const auto& v = e.value->items();
  if (intOf(v[0])) return "";  // it can
  // A unit with nothing left to spend: the refusal itself says why (it has moved).
  if (auto allowance = intOf(v[2]); allowance && *allowance <= 0) return "";
  std::string where = st.map.label(to);
  if (auto cheapest = intOf(v[1])) {
    if (auto allowance = intOf(v[2]))
      return fmt::format("the cheapest way to {} costs {} against an allowance of {}", where,
                         *cheapest, *allowance);
    return fmt::format("the cheapest way to {} costs {}, more than the unit has", where, *cheapest);
  }
  // No way at any cost. Next to it: the step itself.
  auto adj = s.evaluate(fmt::format("adjacent({}.hex, {})", u, h), "<why>");
  if (adj.value && adj.value->tag == Tag::Bool && adj.value->i != 0) {
    std::string ground =
        st.map.terrain[to] >= 0 ? s.program().terrains[st.map.terrain[to]].name : "no terrain";
    std::string sides;
    auto it = st.map.hexsides.find(std::make_pair(std::min(un.hex, to), std::max(un.hex, to)));
    if (it != st.map.hexsides.end())
      for (int32_t f : it->second)
        sides += (sides.empty() ? ", hexside " : " and ") + s.program().features[f].name;
    return fmt::format("entering {} from {} is prohibited ({}{})", where, st.map.label(un.hex),
                       ground, sides);
  }
  return fmt::format(
      "no way leads to {} at any cost: prohibited terrain or hexsides, or a zone of control that "
      "stops the unit, bar every way",
      where);
}

}  // namespace polemos::engine
