#include "ir/builtins.h"

#include <unordered_map>
#include <vector>

namespace polemos::ir {

namespace {

#define S(name, lo, hi, eff, res, elem, doc)              \
  BuiltinSig {                                            \
    name, lo, hi, eff, TypeKind::res, TypeKind::elem, doc \
  }

const std::vector<BuiltinSig>& table() {
  static const std::vector<BuiltinSig> kTable = {
      S("len", 1, 1, false, Int, Any, "number of elements of a list"),
      S("count", 1, 2, false, Int, Any, "count(list[, pred]): how many (satisfy pred)"),
      S("sum", 1, 2, false, Int, Any, "sum(list[, f]): the sum (of f of each)"),
      S("all", 1, 2, false, Bool, Any, "all(list[, pred])"),
      S("any", 1, 2, false, Bool, Any, "any(list[, pred])"),
      S("filter", 2, 2, false, Any, Any, "filter(list, pred)"),
      S("map", 2, 2, false, List, Any, "map(list, f)"),
      S("first", 1, 1, false, Any, Any, "first element, or none"),
      S("last", 1, 1, false, Any, Any, "last element, or none"),
      S("min", 1, 8, false, Any, Any, "min(list) or min(a, b, ...)"),
      S("max", 1, 8, false, Any, Any, "max(list) or max(a, b, ...)"),
      S("min_by", 2, 2, false, Any, Any, "min_by(list, key): first element with the least key"),
      S("max_by", 2, 2, false, Any, Any, "max_by(list, key): first element with the greatest key"),
      S("sort_by", 2, 2, false, Any, Any, "sort_by(list, key): stable sort"),
      S("contains", 2, 2, false, Bool, Any, "contains(list, x)"),
      S("append", 2, 2, false, Any, Any, "append(list, x): a new list"),
      S("without", 2, 2, false, Any, Any, "without(list, x): a new list"),
      S("concat", 2, 2, false, Any, Any, "concat(a, b)"),
      S("reverse", 1, 1, false, Any, Any, "reverse(list)"),
      S("flatten", 1, 1, false, List, Any, "flatten(list of lists): one list of their elements"),
      S("distinct", 1, 1, false, Any, Any, "distinct(list): first occurrences"),
      S("empty", 1, 1, false, Bool, Any, "empty(list)"),
      S("abs", 1, 1, false, Int, Any, "absolute value"),
      S("div_down", 2, 2, false, Int, Any, "division rounding down"),
      S("div_up", 2, 2, false, Int, Any, "division rounding up"),
      S("div_nearest", 2, 2, false, Int, Any, "division rounding to nearest (halves up)"),
      S("odds", 2, 2, false, Odds, Any, "odds(a, b): the ratio a:b"),
      S("str", 1, 1, false, Str, Any, "a value as text"),
      S("columns", 1, 1, false, List, Column, "the columns of a table"),
      S("column", 2, 2, false, Column, Any, "column(table, i): column i (-1: below the table)"),
      S("column_odds", 1, 1, false, Odds, Any, "the odds key of a column"),
      S("column_index", 1, 1, false, Int, Any, "the index of a column (-1: below the table)"),
      S("shift", 2, 2, false, Any, Any, "shift(column, n): clamped column shift"),
      S("row_count", 1, 1, false, Int, Any, "number of rows of a table"),
      S("level", 0, 0, false, Level, Any, "the level being played"),
      S("active_side", 0, 0, false, Side, Any, "the side whose turn it is"),
      S("acting_side", 0, 0, false, Side, Any, "the side deciding at the current phase window"),
      S("phase", 0, 0, false, Str, Any, "the name of the current phase (empty between phases)"),
      S("turn", 0, 0, false, Int, Any, "the game turn"),
      S("scenario_value", 1, 1, false, Any, Any, "(internal) a scenario attribute"),
      S("sides", 0, 0, false, List, Side, "every side, in scenario order"),
      S("enemy", 1, 1, false, Side, Any, "the other side (two-sided games)"),
      S("next_side", 1, 1, false, Side, Any, "the next side in scenario order"),
      S("units", 0, 1, false, List, Unit, "units on the map (of a side)"),
      S("all_units", 0, 1, false, List, Unit, "every unit, on the map or not (of a side)"),
      S("units_at", 1, 1, false, List, Unit, "units in a hex"),
      S("enemies_at", 2, 2, false, List, Unit,
        "enemies_at(h, s): the units in a hex of every side but s"),
      S("unit", 1, 1, false, Unit, Any, "unit(\"id\"): a unit by id, or none"),
      S("hexes", 0, 0, false, List, Hex, "every hex of the map"),
      S("group", 1, 1, false, List, Hex, "group(\"name\"): a named hex group"),
      S("hex", 1, 1, false, Hex, Any, "hex(\"2725\"): a hex by label"),
      S("adjacent", 2, 2, false, Bool, Any, "adjacent(a, b)"),
      S("neighbors", 1, 1, false, List, Hex, "the hexes around a hex, on the map"),
      S("features", 2, 2, false, List, Feature, "features(a, b): hexside kinds between two hexes"),
      S("hexside", 2, 2, false, List, Feature, "hexside(a, b): the same as features(a, b)"),
      S("distance", 2, 2, false, Int, Any,
        "distance(a, b): range in hexes (the target counts, the firer's hex not)"),
      S("direction", 2, 2, false, Int, Any,
        "direction(a, b): 0..5 (N, NE, SE, S, SW, NW) between adjacent hexes, or none"),
      S("line_of_sight", 2, 3, false, Bool, Any,
        "line_of_sight(a, b[, blocks]): hook los_blocks(h), los_blocks_side(a, b)"),
      S("reachable", 1, 1, false, List, Hex,
        "reachable(u): hexes u can move to (hooks move_cost, stops_movement, ...)"),
      S("path_cost", 2, 3, false, Int, Any,
        "path_cost(u, h[, facing]): cheapest legal cost to h (ending with that facing), or none"),
      S("path", 2, 3, false, List, Hex,
        "path(u, h[, step_ok]): the cheapest legal path to h (whose every step from, to satisfies "
        "step_ok), empty if none"),
      S("reachable_from", 4, 4, false, List, Hex,
        "reachable_from(u, start, facing, budget): hexes u could move to from start, facing that "
        "way (none: its own facing), with that budget: planning a later order"),
      S("path_cost_from", 5, 5, false, Int, Any,
        "path_cost_from(u, start, facing, budget, h): the cheapest legal cost from start to h, or "
        "none"),
      S("path_from", 5, 5, false, List, Hex,
        "path_from(u, start, facing, budget, h): the cheapest legal path from start to h, empty "
        "if none"),
      S("zoc", 1, 1, false, List, Hex,
        "zoc(u): hexes in u's zone of control (hooks exerts_zoc, zoc_front_only, zoc_into)"),
      S("sector_toward", 2, 2, false, Str, Any,
        "sector_toward(u, dir): the sector of u's hexside in direction dir, named as by sector()"),
      S("sector", 2, 2, false, Str, Any,
        "sector(defender, attacker): front, front flank, flank, rear flank or rear"),
      S("eliminate", 1, 1, true, Void, Any, "eliminate(u): remove from play; fires `eliminated`"),
      S("place", 2, 2, true, Void, Any, "place(u, hex): put on the map or move; fires `moved`"),
      S("exit_map", 1, 1, true, Void, Any, "exit_map(u): the unit leaves the map"),
      S("restore", 2, 2, true, Void, Any, "restore(u, hex): an eliminated unit returns"),
      S("split", 1, 1, true, Unit, Any,
        "split(u): a copy of the unit, in its hex, under a new id (u's id, '_' and the first free "
        "number from 2): a detachment; the rules then share out its men"),
      S("merge", 2, 2, true, Void, Any,
        "merge(b, a): unit b joins unit a and leaves play (b.merged; not eliminated, not exited); "
        "the rules add its men to a's"),
      S("set_terrain", 2, 2, true, Void, Any,
        "set_terrain(h, kind): the hex's terrain changes (a village burns, a wall is breached)"),
      S("add_hexside", 3, 3, true, Void, Any,
        "add_hexside(a, b, kind): the hexside between two adjacent hexes gains a kind (a palisade, "
        "a bridge)"),
      S("remove_hexside", 3, 3, true, Void, Any,
        "remove_hexside(a, b, kind): the hexside between two adjacent hexes loses a kind"),
      S("set_type", 2, 2, true, Void, Any,
        "set_type(u, type): the unit becomes that type (same class; state fields kept)"),
      S("set_side", 2, 2, true, Void, Any,
        "set_side(u, side): the unit passes to that side's control"),
      S("set_active", 1, 1, true, Void, Any, "set_active(side): whose turn it is"),
      S("set_turn", 1, 1, true, Void, Any, "set_turn(n): the game turn"),
      S("finish", 1, 3, true, Void, Any, "finish(winner or none, level, reason): end the game"),
      S("game_over", 0, 0, false, Bool, Any, "whether the game has ended"),
  };
  return kTable;
}

#undef S

}  // namespace

int findBuiltin(std::string_view name) {
  static const std::unordered_map<std::string_view, int> kIndex = [] {
    std::unordered_map<std::string_view, int> m;
    const auto& t = table();
    for (size_t i = 0; i < t.size(); ++i) m.emplace(t[i].name, static_cast<int>(i));
    return m;
  }();
  auto it = kIndex.find(name);
  return it == kIndex.end() ? -1 : it->second;
}

const BuiltinSig& builtin(int index) {
  return table().at(static_cast<size_t>(index));
}
int builtinCount() {
  return static_cast<int>(table().size());
}

}  // namespace polemos::ir
