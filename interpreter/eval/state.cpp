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
