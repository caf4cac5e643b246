// The game state's own operations: the map's labels and neighbours (through its hex::Grid) and
// how a value is shown in the trace (units by id, hexes by label).
#include <algorithm>

#include "eval/interpreter.h"

namespace polemos::eval {

using namespace polemos::ir;

std::string MapState::label(int32_t h) const {
  if (h < 0 || h >= size() || !grid) return "?";
  return grid->label(grid->hexAt(h));
}

int32_t MapState::parse(const std::string& text) const {
  if (!grid) return -1;
  try {
    hex::Offset o = grid->parseOffset(text);
    return index(o.col, o.row);
  } catch (const hex::HexError&) {
    return -1;
  }
}

void GameState::catchUp(GameState& now) {
  if (this == &now) return;
  std::vector<size_t> changed, hexes;
  bool some = epoch == now.epoch && units.size() == now.units.size() &&
              fieldStamps.size() == now.fieldStamps.size() &&
              hexStamps.size() <= now.hexStamps.size() && version <= now.version &&
              now.changesSince(version, [&](uint64_t, int32_t change) {
                if (change == kEpochChange) return false;
                if (change >= 0)
                  changed.push_back(static_cast<size_t>(change / 256));
                else if (change > kOtherChange)
                  hexes.push_back(static_cast<size_t>(-1 - static_cast<int64_t>(change)));
                return true;
              });
  if (!some) {
    *this = now;
    return;
  }
  // Everything but the units, their stamps and the hexes' stamps as a whole, while `now` lends
  // them out: of those, what changed (the hexes' stamps are some thousands, a hex past the map's
  // for each side too, GameState::sideHex, and a move renews four of them).
  std::vector<UnitState> mine = std::move(units);
  std::vector<std::vector<uint64_t>> mineStamps = std::move(fieldStamps);
  std::vector<uint64_t> mineHexes = std::move(hexStamps);
  struct Lent {
    GameState& from;
    std::vector<UnitState> units;
    std::vector<std::vector<uint64_t>> stamps;
    std::vector<uint64_t> hexes;
    ~Lent() {
      from.units = std::move(units);
      from.fieldStamps = std::move(stamps);
      from.hexStamps = std::move(hexes);
    }
  } lent{now, std::move(now.units), std::move(now.fieldStamps), std::move(now.hexStamps)};
  now.units.clear();
  now.fieldStamps.clear();
  now.hexStamps.clear();
  *this = now;
  units = std::move(mine);
  fieldStamps = std::move(mineStamps);
  hexStamps = std::move(mineHexes);
  for (size_t u : changed) {
    if (u < units.size()) units[u] = lent.units[u];
    if (u < fieldStamps.size()) fieldStamps[u] = lent.stamps[u];
  }
  // A stamp past the end of this copy's was made by a change since (the rest of the room between
  // is unstamped in both).
  hexStamps.resize(lent.hexes.size(), 0);
  for (size_t h : hexes)
    if (h < hexStamps.size()) hexStamps[h] = lent.hexes[h];
}

bool sameUnits(const GameState& a, const GameState& b) {
  if (a.units.size() != b.units.size() || a.fieldStamps != b.fieldStamps) return false;
  for (size_t i = 0; i < a.units.size(); ++i) {
    const UnitState &x = a.units[i], &y = b.units[i];
    if (x.id != y.id || x.type != y.type || x.cls != y.cls || x.side != y.side || x.hex != y.hex ||
        x.facing != y.facing || x.status != y.status || !(x.fields == y.fields))
      return false;
  }
  return true;
}

bool MapState::adjacent(int32_t a, int32_t b) const {
  if (!grid || a < 0 || b < 0 || a >= size() || b >= size()) return false;
  const auto& ns = grid->neighbourIndices(a);
  return std::find(ns.begin(), ns.end(), b) != ns.end();
}

std::vector<int32_t> MapState::neighbours(int32_t h) const {
  std::vector<int32_t> out;
  if (!grid || h < 0 || h >= size()) return out;
  for (int32_t n : grid->neighbourIndices(h))
    if (n != hex::kNoIndex) out.push_back(n);
  std::sort(out.begin(), out.end());
  return out;
}

std::string display(const Program& p, const GameState& s, const Value& v) {
  switch (v.tag) {
    case Tag::Unit:
      return v.i >= 0 && v.i < static_cast<int64_t>(s.units.size()) ? s.units[v.i].id : "?unit";
    case Tag::Hex:
      return s.map.label(static_cast<int32_t>(v.i));
    case Tag::List: {
      std::string out = v.sub == 1 ? "{" : "[";
      bool first = true;
      for (const Value& e : v.items()) {
        if (!first) out += ", ";
        first = false;
        if (v.sub == 1 && e.items().size() == 2) {
          out += display(p, s, e.items()[0]) + ": " + display(p, s, e.items()[1]);
        } else {
          out += display(p, s, e);
        }
      }
      return out + (v.sub == 1 ? "}" : "]");
    }
    default:
      return p.display(v);
  }
}

}  // namespace polemos::eval
