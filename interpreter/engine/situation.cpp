#include "engine/situation.h"

#include <fmt/format.h>

#include "check/sandbox.h"
#include "eval/interpreter.h"

namespace polemos::engine {

using namespace polemos::ir;

std::optional<Situation> captureSituation(const Session& s, std::string& why) {
  const Program& P = s.program();
  const auto& st = s.state();
  if (st.map.size() == 0) {
    why =
        "compare re-creates the situation on a map: this game has none (`sandbox COLSxROWS` makes "
        "one)";
    return std::nullopt;
  }
  if (st.map.cols() > check::kMaxSandboxSide || st.map.rows() > check::kMaxSandboxSide) {
    why = fmt::format(
        "compare re-creates the map in a sandbox of at most {0}x{0} hexes; this one is {1}x{2}",
        check::kMaxSandboxSide, st.map.cols(), st.map.rows());
    return std::nullopt;
  }
  Situation x;
  x.columns = st.map.cols();
  x.rows = st.map.rows();
  x.firstColumn = st.map.col0;
  x.firstRow = st.map.row0;
  x.firstHex = st.map.label(0);
  for (const auto& sd : P.sides) x.sides.push_back(sd.name);
  x.openTerrain = check::sandboxTerrain(P);
  for (int32_t h = 0; h < st.map.size(); ++h)
    if (P.terrains[st.map.terrain[h]].name != x.openTerrain)
      x.terrain.push_back({st.map.label(h), P.terrains[st.map.terrain[h]].name});
  for (int32_t h = 0; h < st.map.size(); ++h)
    if (st.map.elevation[h] != 0) x.elevations.push_back({st.map.label(h), st.map.elevation[h]});
  for (const auto& [ab, kinds] : st.map.hexsides)
    for (int32_t k : kinds)
      x.hexsides.push_back({st.map.label(ab.first), st.map.label(ab.second), P.features[k].name});
  for (const auto& u : st.units) {
    if (u.status != eval::UnitStatus::OnMap) continue;
    const Schema& cls = P.classes[u.cls];
    Situation::Unit unit{u.id,     P.sides[u.side].name, P.unitTypes[u.type].name,
                         cls.name, st.map.label(u.hex),  u.facing,
                         {}};
    const auto& defaults = P.unitTypes[u.type].values;
    for (size_t f = 0; f < cls.fields.size() && f < u.fields.size(); ++f) {
      if (cls.fields[f].derived >= 0) continue;
      unit.fields.push_back({cls.fields[f].name, eval::display(P, st, u.fields[f]),
                             f < defaults.size() && defaults[f] == u.fields[f]});
    }
    x.units.push_back(std::move(unit));
  }
  for (size_t sd = 0; sd < st.sides.size(); ++sd)
    for (size_t f = 0; f < P.sideState.fields.size() && f < st.sides[sd].fields.size(); ++f) {
      const FieldInfo& info = P.sideState.fields[f];
      if (info.derived >= 0) continue;
      // Only what differs from the declared default (the situation, not the ruleset's constants).
      if (info.init < 0 && info.value == st.sides[sd].fields[f]) continue;
      x.sideFields.push_back(
          {P.sides[sd].name, info.name, eval::display(P, st, st.sides[sd].fields[f])});
    }
  if (s.stop().kind == eval::Stop::Window) {
    x.phase = P.phases[s.stop().index].name;
    x.phaseSide = P.sides[s.stop().player].name;
  }
  return x;
}

}  // namespace polemos::engine
