#include "engine/board.h"

#include <fmt/format.h>

#include "engine/reading.h"

namespace polemos::engine {

namespace {

// The option's first unit argument is `unit`.
bool isOfUnit(const Option& o, int32_t unit) {
  for (const auto& v : o.args)
    if (v.tag == ir::Tag::Unit) return v.i == unit;
  return false;
}

// The option's direction argument, if it has one, is `facing`.
bool keepsFacing(const ir::Program& P, const Option& o, int32_t facing) {
  const auto& params = P.actions[static_cast<size_t>(o.action)].params;
  for (size_t i = 0; i < o.args.size() && i < params.size(); ++i)
    if (o.args[i].tag == ir::Tag::Int && isDirectionParameter(params[i]))
      return o.args[i].i == facing;
  return false;
}

}  // namespace

std::optional<std::string> commandForClick(Session& s, int32_t unit, int32_t hex,
                                           std::string& why) {
  const ir::Program& P = s.program();
  const auto& st = s.state();
  if (unit < 0 || static_cast<size_t>(unit) >= st.units.size() || hex < 0 || hex >= st.map.size()) {
    why = "no such unit or hex";
    return std::nullopt;
  }
  const auto& u = st.units[static_cast<size_t>(unit)];
  std::vector<Option> options = s.legal();
  const Option* byHex = nullptr;
  int byHexRank = -1;
  const Option* byDirection = nullptr;
  for (const auto& o : options) {
    if (o.kind != Option::Action || o.action < 0 || !isOfUnit(o, unit)) continue;
    const auto& params = P.actions[static_cast<size_t>(o.action)].params;
    for (size_t i = 0; i < o.args.size() && i < params.size(); ++i) {
      const ir::Value& v = o.args[i];
      if (v.tag == ir::Tag::Hex && v.i == hex) {
        // A move first; of those, one that keeps the unit's facing (Deluxe's `move u to dir`
        // ends facing a direction: the click keeps the one it has, the menu offers the others).
        int rank = (P.actions[static_cast<size_t>(o.action)].name == "move" ? 2 : 0) +
                   (keepsFacing(P, o, u.facing) ? 1 : 0);
        if (!byHex || rank > byHexRank) {
          byHex = &o;
          byHexRank = rank;
        }
      } else if (v.tag == ir::Tag::Int && isDirectionParameter(params[i]) && st.map.grid &&
                 u.hex >= 0 && v.i >= 0 && v.i < 6 &&
                 st.map.grid->neighbourIndices(u.hex)[static_cast<size_t>(v.i)] == hex) {
        if (!byDirection) byDirection = &o;
      }
    }
  }
  if (byHex) return byHex->text;
  if (byDirection) return byDirection->text;
  for (size_t a = 0; a < P.actions.size(); ++a) {
    const auto& act = P.actions[a];
    if (act.name != "move" || act.params.size() != 2) continue;
    std::string unitWhy, hexWhy;
    if (readArgument(s, act.params[0], u.id, unitWhy) &&
        readArgument(s, act.params[1], st.map.label(hex), hexWhy))
      return fmt::format("move {} {}", u.id, st.map.label(hex));
  }
  why = fmt::format("no action open now takes {} to {}", u.id, st.map.label(hex));
  return std::nullopt;
}

}  // namespace polemos::engine
