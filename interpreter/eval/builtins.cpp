#include "eval/builtins.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "engine/hex_adapter.h"
#include "eval/builtins_hex.h"
#include "eval/interpreter.h"

namespace polemos::eval {
namespace {

using namespace polemos::ir;
using Args = std::span<const Value>;

const char* kind(const Value& v) { return tagName(v.tag); }

int64_t needInt(Context& c, const Value& v, const char* fn) {
  if (v.tag != Tag::Int) c.fail(fmt::format("{}() needs a number, found {}", fn, kind(v)));
  return v.i;
}
const ValueList& needList(Context& c, const Value& v, const char* fn) {
  if (v.tag != Tag::List) c.fail(fmt::format("{}() needs a list, found {}", fn, kind(v)));
  return v.items();
}
const UnitState& needUnit(Context& c, const Value& v, const char* fn) {
  if (v.tag != Tag::Unit || v.i < 0 || v.i >= static_cast<int64_t>(c.state.units.size()))
    c.fail(fmt::format("{}() needs a unit, found {}", fn, kind(v)));
  return c.state.units[v.i];
}
int32_t needHex(Context& c, const Value& v, const char* fn) {
  if (v.tag == Tag::Int) {
    // A number stands for its xxyy label, as a player writes hexes at the REPL.
    int32_t h = c.state.map.parse(fmt::format("{:04d}", v.i));
    if (h < 0) c.fail(fmt::format("{}(): {:04d} is not a hex of this map", fn, v.i));
    return h;
  }
  if (v.tag != Tag::Hex || v.i < 0 || v.i >= c.state.map.size())
    c.fail(fmt::format("{}() needs a hex, found {}", fn, kind(v)));
  return static_cast<int32_t>(v.i);
}
int32_t needSide(Context& c, const Value& v, const char* fn) {
  if (v.tag != Tag::Side || v.i < 0 || v.i >= static_cast<int64_t>(c.state.sides.size()))
    c.fail(fmt::format("{}() needs a side, found {}", fn, kind(v)));
  return static_cast<int32_t>(v.i);
}
const TableInfo& needTable(Context& c, const Value& v, const char* fn) {
  if (v.tag != Tag::Table) c.fail(fmt::format("{}() needs a table, found {}", fn, kind(v)));
  return c.program.tables.at(v.i);
}
bool needBool(Context& c, const Value& v, const char* fn) {
  if (v.tag != Tag::Bool) c.fail(fmt::format("{}(): the function must give true or false, found {}", fn, kind(v)));
  return v.i != 0;
}
Value callOne(Context& c, const Value& f, const Value& x) { return c.call(f, std::span<const Value>(&x, 1)); }

// --- lists -----------------------------------------------------------------------------------

Value bLen(Context& c, Args a) { return Value::integer(static_cast<int64_t>(needList(c, a[0], "len").size())); }
Value bCount(Context& c, Args a) {
  const auto& l = needList(c, a[0], "count");
  if (a.size() == 1) return Value::integer(static_cast<int64_t>(l.size()));
  int64_t n = 0;
  for (const Value& x : l) n += needBool(c, callOne(c, a[1], x), "count");
  return Value::integer(n);
}
Value bSum(Context& c, Args a) {
  const auto& l = needList(c, a[0], "sum");
  int64_t s = 0;
  for (const Value& x : l) {
    Value v = a.size() > 1 ? callOne(c, a[1], x) : x;
    s += needInt(c, v, "sum");
  }
  return Value::integer(s);
}
Value bAll(Context& c, Args a) {
  for (const Value& x : needList(c, a[0], "all"))
    if (!needBool(c, a.size() > 1 ? callOne(c, a[1], x) : x, "all")) return Value::boolean(false);
  return Value::boolean(true);
}
Value bAny(Context& c, Args a) {
  for (const Value& x : needList(c, a[0], "any"))
    if (needBool(c, a.size() > 1 ? callOne(c, a[1], x) : x, "any")) return Value::boolean(true);
  return Value::boolean(false);
}
Value bFilter(Context& c, Args a) {
  ValueList out;
  for (const Value& x : needList(c, a[0], "filter"))
    if (needBool(c, callOne(c, a[1], x), "filter")) out.push_back(x);
  return Value::makeList(std::move(out));
}
Value bMap(Context& c, Args a) {
  ValueList out;
  for (const Value& x : needList(c, a[0], "map")) out.push_back(callOne(c, a[1], x));
  return Value::makeList(std::move(out));
}
Value bFirst(Context& c, Args a) {
  const auto& l = needList(c, a[0], "first");
  return l.empty() ? Value::none() : l.front();
}
Value bLast(Context& c, Args a) {
  const auto& l = needList(c, a[0], "last");
  return l.empty() ? Value::none() : l.back();
}
Value minMax(Context& c, Args a, bool wantMax, const char* fn) {
  if (a.size() == 1) {
    const auto& l = needList(c, a[0], fn);
    if (l.empty()) return Value::none();
    Value best = l[0];
    for (const Value& x : l) {
      int cmp = compareValues(x, best);
      if (wantMax ? cmp > 0 : cmp < 0) best = x;
    }
    return best;
  }
  Value best = a[0];
  for (const Value& x : a) {
    if (x.tag != best.tag) c.fail(fmt::format("{}() needs values of one kind", fn));
    int cmp = compareValues(x, best);
    if (wantMax ? cmp > 0 : cmp < 0) best = x;
  }
  return best;
}
Value bMin(Context& c, Args a) { return minMax(c, a, false, "min"); }
Value bMax(Context& c, Args a) { return minMax(c, a, true, "max"); }
// min_by/max_by: the first element with the least/greatest key (ties: the earliest).
Value byKey(Context& c, Args a, bool wantMax, const char* fn) {
  const auto& l = needList(c, a[0], fn);
  Value best;
  Value bestKey;
  bool have = false;
  for (const Value& x : l) {
    Value k = callOne(c, a[1], x);
    int cmp = have ? compareValues(k, bestKey) : 0;
    if (!have || (wantMax ? cmp > 0 : cmp < 0)) {
      best = x;
      bestKey = k;
      have = true;
    }
  }
  return best;
}
Value bMinBy(Context& c, Args a) { return byKey(c, a, false, "min_by"); }
Value bMaxBy(Context& c, Args a) { return byKey(c, a, true, "max_by"); }
Value bSortBy(Context& c, Args a) {
  const auto& l = needList(c, a[0], "sort_by");
  std::vector<std::pair<Value, Value>> keyed;
  for (const Value& x : l) keyed.emplace_back(callOne(c, a[1], x), x);
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& x, const auto& y) { return compareValues(x.first, y.first) < 0; });
  ValueList out;
  for (auto& [k, v] : keyed) out.push_back(v);
  return Value::makeList(std::move(out));
}
Value bContains(Context& c, Args a) {
  for (const Value& x : needList(c, a[0], "contains"))
    if (x == a[1]) return Value::boolean(true);
  return Value::boolean(false);
}
Value bAppend(Context& c, Args a) {
  ValueList out = needList(c, a[0], "append");
  out.push_back(a[1]);
  return Value::makeList(std::move(out));
}
Value bWithout(Context& c, Args a) {
  ValueList out;
  for (const Value& x : needList(c, a[0], "without"))
    if (!(x == a[1])) out.push_back(x);
  return Value::makeList(std::move(out));
}
Value bConcat(Context& c, Args a) {
  ValueList out = needList(c, a[0], "concat");
  const auto& b = needList(c, a[1], "concat");
  out.insert(out.end(), b.begin(), b.end());
  return Value::makeList(std::move(out));
}
Value bFlatten(Context& c, Args a) {
  ValueList out;
  for (const Value& x : needList(c, a[0], "flatten")) {
    if (x.tag == Tag::List) out.insert(out.end(), x.items().begin(), x.items().end());
    else out.push_back(x);
  }
  return Value::makeList(std::move(out));
}
Value bReverse(Context& c, Args a) {
  ValueList out = needList(c, a[0], "reverse");
  std::reverse(out.begin(), out.end());
  return Value::makeList(std::move(out));
}
Value bDistinct(Context& c, Args a) {
  ValueList out;
  for (const Value& x : needList(c, a[0], "distinct"))
    if (std::find(out.begin(), out.end(), x) == out.end()) out.push_back(x);
  return Value::makeList(std::move(out));
}
Value bIsEmpty(Context& c, Args a) { return Value::boolean(needList(c, a[0], "empty").empty()); }

// --- numbers ---------------------------------------------------------------------------------

Value bAbs(Context& c, Args a) {
  int64_t v = needInt(c, a[0], "abs");
  if (v == INT64_MIN) c.fail("integer overflow");
  return Value::integer(v < 0 ? -v : v);
}
Value bDivDown(Context& c, Args a) {
  int64_t x = needInt(c, a[0], "div_down"), y = needInt(c, a[1], "div_down");
  if (y == 0) c.fail("division by zero");
  return Value::integer(floorDiv(x, y));
}
Value bDivUp(Context& c, Args a) {
  int64_t x = needInt(c, a[0], "div_up"), y = needInt(c, a[1], "div_up");
  if (y == 0) c.fail("division by zero");
  return Value::integer(-floorDiv(-x, y));
}
Value bDivNearest(Context& c, Args a) {
  // Halves round up (x.5 -> x+1), as a player rounding on paper does.
  int64_t x = needInt(c, a[0], "div_nearest"), y = needInt(c, a[1], "div_nearest");
  if (y == 0) c.fail("division by zero");
  return Value::integer(floorDiv(2 * x + y, 2 * y));
}
Value bOdds(Context& c, Args a) {
  int64_t x = needInt(c, a[0], "odds"), y = needInt(c, a[1], "odds");
  if (x <= 0 || y <= 0) c.fail("odds() needs two positive numbers");
  return Value::odds(x, y);
}
Value bStr(Context& c, Args a) { return Value::string(display(c.program, c.state, a[0])); }

// --- tables ----------------------------------------------------------------------------------

Value bColumns(Context& c, Args a) {
  const TableInfo& t = needTable(c, a[0], "columns");
  ValueList out;
  for (size_t i = 0; i < t.cols.size(); ++i) out.push_back(Value::of(Tag::Column, static_cast<int64_t>(i), static_cast<int32_t>(a[0].i)));
  return Value::makeList(std::move(out));
}
Value bColumn(Context& c, Args a) {
  const TableInfo& t = needTable(c, a[0], "column");
  int64_t i = needInt(c, a[1], "column");
  if (i < -1 || i >= static_cast<int64_t>(t.cols.size()))
    c.fail(fmt::format("table {} has columns 0 to {}", t.name, t.cols.size() - 1));
  return Value::of(Tag::Column, i, static_cast<int32_t>(a[0].i));
}
Value bColumnOdds(Context& c, Args a) {
  if (a[0].tag != Tag::Column) c.fail("column_odds() needs a column");
  const TableInfo& t = c.program.tables.at(a[0].sub);
  if (a[0].i < 0) return Value::none();
  const TableKeyInfo& k = t.cols.at(a[0].i);
  if (k.kind != TableKeyInfo::Odds) c.fail(fmt::format("the columns of table {} are not odds", t.name));
  return Value::odds(k.lo, k.hi);
}
Value bColumnIndex(Context& c, Args a) {
  if (a[0].tag != Tag::Column) c.fail("column_index() needs a column");
  return Value::integer(a[0].i);
}
// shift(column, n): move n columns right (negative: left), clamped at the table's edges; a
// column below the table stays below it when shifted left. shift(int, n) is plain addition.
Value bShift(Context& c, Args a) {
  int64_t n = needInt(c, a[1], "shift");
  if (a[0].tag == Tag::Int) return Value::integer(a[0].i + n);
  if (a[0].tag != Tag::Column) c.fail(fmt::format("shift() needs a table column, found {}", kind(a[0])));
  const TableInfo& t = c.program.tables.at(a[0].sub);
  int64_t last = static_cast<int64_t>(t.cols.size()) - 1;
  int64_t i = a[0].i;
  if (i < 0 && n <= 0) return a[0];
  i = std::clamp<int64_t>(i + n, 0, last);
  return Value::of(Tag::Column, i, a[0].sub);
}
Value bRowCount(Context& c, Args a) { return Value::integer(static_cast<int64_t>(needTable(c, a[0], "row_count").rows.size())); }

// --- game state --------------------------------------------------------------------------------

Value bLevel(Context& c, Args) { return Value::of(Tag::Level, c.state.level); }
Value bActiveSide(Context& c, Args) { return Value::of(Tag::Side, c.state.activeSide); }
Value bActing(Context& c, Args) { return Value::of(Tag::Side, c.state.acting); }
Value bPhase(Context& c, Args) {
  return c.state.phase >= 0 ? Value::string(c.program.phases.at(c.state.phase).name) : Value::string("");
}
Value bTurn(Context& c, Args) { return Value::integer(c.state.turn); }
Value bScenarioValue(Context& c, Args a) {
  int64_t i = needInt(c, a[0], "scenario_value");
  if (i < 0 || i >= static_cast<int64_t>(c.program.scenarioValues.size()))
    c.fail("no scenario is loaded, so scenario values are unknown");
  return c.program.scenarioValues[i];
}
Value bSides(Context& c, Args) {
  ValueList out;
  for (size_t i = 0; i < c.state.sides.size(); ++i) out.push_back(Value::of(Tag::Side, static_cast<int64_t>(i)));
  return Value::makeList(std::move(out));
}
Value bEnemy(Context& c, Args a) {
  int32_t s = needSide(c, a[0], "enemy");
  if (c.state.sides.size() != 2) c.fail("enemy() needs a two-sided game");
  return Value::of(Tag::Side, 1 - s);
}
Value bNextSide(Context& c, Args a) {
  int32_t s = needSide(c, a[0], "next_side");
  return Value::of(Tag::Side, (s + 1) % static_cast<int32_t>(c.state.sides.size()));
}
Value bUnits(Context& c, Args a) {
  int32_t side = a.empty() ? -1 : needSide(c, a[0], "units");
  ValueList out;
  for (size_t i = 0; i < c.state.units.size(); ++i) {
    const UnitState& u = c.state.units[i];
    if (u.status == UnitStatus::OnMap && (side < 0 || u.side == side)) out.push_back(Value::of(Tag::Unit, static_cast<int64_t>(i)));
  }
  return Value::makeList(std::move(out));
}
Value bAllUnits(Context& c, Args a) {
  int32_t side = a.empty() ? -1 : needSide(c, a[0], "all_units");
  ValueList out;
  for (size_t i = 0; i < c.state.units.size(); ++i)
    if (side < 0 || c.state.units[i].side == side) out.push_back(Value::of(Tag::Unit, static_cast<int64_t>(i)));
  return Value::makeList(std::move(out));
}
Value bUnitsAt(Context& c, Args a) {
  int32_t h = needHex(c, a[0], "units_at");
  if (MemoCache* memo = c.interp.memo()) return memo->unitsAt(c.state, h);
  ValueList out;
  for (size_t i = 0; i < c.state.units.size(); ++i)
    if (c.state.units[i].status == UnitStatus::OnMap && c.state.units[i].hex == h)
      out.push_back(Value::of(Tag::Unit, static_cast<int64_t>(i)));
  return Value::makeList(std::move(out));
}
Value bUnitById(Context& c, Args a) {
  if (a[0].tag != Tag::Str) c.fail("unit() needs a unit id string");
  for (size_t i = 0; i < c.state.units.size(); ++i)
    if (c.state.units[i].id == a[0].text()) return Value::of(Tag::Unit, static_cast<int64_t>(i));
  return Value::none();
}
Value bHexes(Context& c, Args) {
  ValueList out;
  for (int32_t h = 0; h < c.state.map.size(); ++h) out.push_back(Value::of(Tag::Hex, h));
  return Value::makeList(std::move(out));
}
Value bGroup(Context& c, Args a) {
  if (a[0].tag != Tag::Str) c.fail("group() needs a group name string");
  auto it = c.state.map.groups.find(a[0].text());
  if (it == c.state.map.groups.end()) c.fail(fmt::format("the map has no hex group '{}'", a[0].text()));
  ValueList out;
  for (int32_t h : it->second) out.push_back(Value::of(Tag::Hex, h));
  return Value::makeList(std::move(out));
}
Value bHex(Context& c, Args a) {
  if (a[0].tag != Tag::Str) c.fail("hex() needs a label string such as \"2725\"");
  int32_t h = c.state.map.parse(a[0].text());
  if (h < 0) c.fail(fmt::format("'{}' is not a hex of this map", a[0].text()));
  return Value::of(Tag::Hex, h);
}
Value bAdjacent(Context& c, Args a) {
  int32_t x = needHex(c, a[0], "adjacent"), y = needHex(c, a[1], "adjacent");
  const MapState& m = c.state.map;
  return Value::boolean(labels::adjacent(m.colOf(x), m.rowOf(x), m.colOf(y), m.rowOf(y)));
}
Value bNeighbors(Context& c, Args a) {
  int32_t x = needHex(c, a[0], "neighbors");
  const MapState& m = c.state.map;
  ValueList out;
  int cx = m.colOf(x), rx = m.rowOf(x);
  for (int dc = -1; dc <= 1; ++dc)
    for (int dr = -1; dr <= 1; ++dr) {
      int32_t y = m.index(cx + dc, rx + dr);
      if (y >= 0 && y != x && labels::adjacent(cx, rx, cx + dc, rx + dr)) out.push_back(Value::of(Tag::Hex, y));
    }
  return Value::makeList(std::move(out));
}
Value bFeatures(Context& c, Args a) {
  int32_t x = needHex(c, a[0], "features"), y = needHex(c, a[1], "features");
  auto it = c.state.map.hexsides.find({std::min(x, y), std::max(x, y)});
  // Most hexsides have no feature, and movement asks about thousands of them: one shared empty
  // list (lists are immutable once made).
  static const Value kNoFeatures = Value::makeList({});
  if (it == c.state.map.hexsides.end() || it->second.empty()) return kNoFeatures;
  ValueList out;
  for (int32_t f : it->second) out.push_back(Value::of(Tag::Feature, f));
  return Value::makeList(std::move(out));
}

// --- effects ---------------------------------------------------------------------------------

Value bEliminate(Context& c, Args a) {
  const UnitState& u = needUnit(c, a[0], "eliminate");
  if (u.status == UnitStatus::Eliminated) return Value::none();
  std::string where = u.hex >= 0 ? c.state.map.label(u.hex) : "off map";
  c.state.units[a[0].i].status = UnitStatus::Eliminated;
  c.trace({}, TraceKind::Effect, "eliminate " + u.id, where, "eliminated");
  c.emit(0, {a[0]});
  return Value::none();
}
Value bPlace(Context& c, Args a) {
  const UnitState& u = needUnit(c, a[0], "place");
  int32_t h = needHex(c, a[1], "place");
  int32_t from = u.status == UnitStatus::OnMap ? u.hex : -1;
  UnitState& w = c.state.units[a[0].i];
  w.hex = h;
  w.status = UnitStatus::OnMap;
  c.trace({}, TraceKind::Effect, "move " + w.id, from >= 0 ? c.state.map.label(from) : "off map", c.state.map.label(h));
  c.emit(1, {a[0], from >= 0 ? Value::of(Tag::Hex, from) : Value::none(), a[1]});
  return Value::none();
}
Value bRemove(Context& c, Args a) {
  const UnitState& u = needUnit(c, a[0], "exit_map");
  UnitState& w = c.state.units[a[0].i];
  c.trace({}, TraceKind::Effect, "exit " + u.id, u.hex >= 0 ? c.state.map.label(u.hex) : "off map", "exited");
  w.status = UnitStatus::Exited;
  return Value::none();
}
Value bRestore(Context& c, Args a) {
  const UnitState& u = needUnit(c, a[0], "restore");
  int32_t h = needHex(c, a[1], "restore");
  UnitState& w = c.state.units[a[0].i];
  c.trace({}, TraceKind::Effect, "return " + u.id, "eliminated", c.state.map.label(h));
  w.status = UnitStatus::OnMap;
  w.hex = h;
  return Value::none();
}
// A unit changes type during play (Deluxe 17.5 dismounting: a cavalry counter replaced by an
// infantry one). Only to a type of the same unit class: the new type's values replace the unit's
// fields that are not `state` (a placement's per-unit override of such a field is lost); the
// state fields (Disordered, markers, ...) are kept.
Value bSetType(Context& c, Args a) {
  const UnitState& u = needUnit(c, a[0], "set_type");
  if (a[1].tag != Tag::UnitType || a[1].i < 0 || a[1].i >= static_cast<int64_t>(c.program.unitTypes.size()))
    c.fail(fmt::format("set_type() needs a unit type, found {}", kind(a[1])));
  const UnitTypeInfo& t = c.program.unitTypes[a[1].i];
  if (t.cls != u.cls)
    c.fail(fmt::format("set_type(): {} is of unit class {}, the type {} of class {}", u.id, c.program.classes[u.cls].name,
                       t.name, c.program.classes[t.cls].name));
  UnitState& w = c.state.units[a[0].i];
  std::string old = c.program.unitTypes.at(w.type).name;
  const Schema& cls = c.program.classes[w.cls];
  for (size_t i = 0; i < cls.fields.size() && i < w.fields.size(); ++i)
    if (!cls.fields[i].isState && cls.fields[i].derived < 0) w.fields[i] = t.values[i];
  w.type = static_cast<int32_t>(a[1].i);
  c.trace({}, TraceKind::Effect, "type of " + w.id, old, t.name);
  return Value::none();
}
// A unit passes to another side's control (Deluxe 17.5: a panicked elephant fights for the side
// that frightened it). Everything that asks `u.side` sees the new side from now on.
Value bSetSide(Context& c, Args a) {
  const UnitState& u = needUnit(c, a[0], "set_side");
  int32_t s = needSide(c, a[1], "set_side");
  UnitState& w = c.state.units[a[0].i];
  std::string old = c.program.sides.at(u.side).name;
  w.side = s;
  c.trace({}, TraceKind::Effect, "side of " + w.id, old, c.program.sides.at(s).name);
  return Value::none();
}
Value bSetActive(Context& c, Args a) {
  c.state.activeSide = needSide(c, a[0], "set_active");
  return Value::none();
}
Value bSetTurn(Context& c, Args a) {
  c.state.turn = static_cast<int32_t>(needInt(c, a[0], "set_turn"));
  c.trace({}, TraceKind::Phase, "turn", "", std::to_string(c.state.turn));
  return Value::none();
}
Value bFinish(Context& c, Args a) {
  GameResult& r = c.state.result;
  if (r.over) return Value::none();
  r.over = true;
  r.winner = a[0].tag == Tag::Side ? static_cast<int32_t>(a[0].i) : -1;
  if (a.size() > 1) r.level = display(c.program, c.state, a[1]);
  if (a.size() > 2) r.reason = display(c.program, c.state, a[2]);
  // The rule that ended the game is the one the running procedure cites (16.0, 15.2, 5.1, ...).
  c.trace(c.interp.runningCitations(), TraceKind::Effect, "game over", r.reason,
          r.winner >= 0 ? fmt::format("{} wins{}", c.program.sides[r.winner].name, r.level.empty() ? "" : " (" + r.level + ")")
                        : "draw");
  return Value::none();
}
Value bGameOver(Context& c, Args) { return Value::boolean(c.state.result.over); }

#define B(name, lo, hi, eff, res, elem, doc, fn) \
  BuiltinInfo { name, lo, hi, eff, TypeKind::res, TypeKind::elem, doc, fn }

const std::vector<BuiltinInfo>& table() {
  static const std::vector<BuiltinInfo> kTable = {
      B("len", 1, 1, false, Int, Any, "number of elements of a list", bLen),
      B("count", 1, 2, false, Int, Any, "count(list[, pred]): how many (satisfy pred)", bCount),
      B("sum", 1, 2, false, Int, Any, "sum(list[, f]): the sum (of f of each)", bSum),
      B("all", 1, 2, false, Bool, Any, "all(list[, pred])", bAll),
      B("any", 1, 2, false, Bool, Any, "any(list[, pred])", bAny),
      B("filter", 2, 2, false, Any, Any, "filter(list, pred)", bFilter),
      B("map", 2, 2, false, List, Any, "map(list, f)", bMap),
      B("first", 1, 1, false, Any, Any, "first element, or none", bFirst),
      B("last", 1, 1, false, Any, Any, "last element, or none", bLast),
      B("min", 1, 8, false, Any, Any, "min(list) or min(a, b, ...)", bMin),
      B("max", 1, 8, false, Any, Any, "max(list) or max(a, b, ...)", bMax),
      B("min_by", 2, 2, false, Any, Any, "min_by(list, key): first element with the least key", bMinBy),
      B("max_by", 2, 2, false, Any, Any, "max_by(list, key): first element with the greatest key", bMaxBy),
      B("sort_by", 2, 2, false, Any, Any, "sort_by(list, key): stable sort", bSortBy),
      B("contains", 2, 2, false, Bool, Any, "contains(list, x)", bContains),
      B("append", 2, 2, false, Any, Any, "append(list, x): a new list", bAppend),
      B("without", 2, 2, false, Any, Any, "without(list, x): a new list", bWithout),
      B("concat", 2, 2, false, Any, Any, "concat(a, b)", bConcat),
      B("reverse", 1, 1, false, Any, Any, "reverse(list)", bReverse),
      B("flatten", 1, 1, false, List, Any, "flatten(list of lists): one list of their elements", bFlatten),
      B("distinct", 1, 1, false, Any, Any, "distinct(list): first occurrences", bDistinct),
      B("empty", 1, 1, false, Bool, Any, "empty(list)", bIsEmpty),
      B("abs", 1, 1, false, Int, Any, "absolute value", bAbs),
      B("div_down", 2, 2, false, Int, Any, "division rounding down", bDivDown),
      B("div_up", 2, 2, false, Int, Any, "division rounding up", bDivUp),
      B("div_nearest", 2, 2, false, Int, Any, "division rounding to nearest (halves up)", bDivNearest),
      B("odds", 2, 2, false, Odds, Any, "odds(a, b): the ratio a:b", bOdds),
      B("str", 1, 1, false, Str, Any, "a value as text", bStr),
      B("columns", 1, 1, false, List, Column, "the columns of a table", bColumns),
      B("column", 2, 2, false, Column, Any, "column(table, i): column i (-1: below the table)", bColumn),
      B("column_odds", 1, 1, false, Odds, Any, "the odds key of a column", bColumnOdds),
      B("column_index", 1, 1, false, Int, Any, "the index of a column (-1: below the table)", bColumnIndex),
      B("shift", 2, 2, false, Any, Any, "shift(column, n): clamped column shift", bShift),
      B("row_count", 1, 1, false, Int, Any, "number of rows of a table", bRowCount),
      B("level", 0, 0, false, Level, Any, "the level being played", bLevel),
      B("active_side", 0, 0, false, Side, Any, "the side whose turn it is", bActiveSide),
      B("acting_side", 0, 0, false, Side, Any, "the side deciding at the current phase window", bActing),
      B("phase", 0, 0, false, Str, Any, "the name of the current phase (empty between phases)", bPhase),
      B("turn", 0, 0, false, Int, Any, "the game turn", bTurn),
      B("scenario_value", 1, 1, false, Any, Any, "(internal) a scenario attribute", bScenarioValue),
      B("sides", 0, 0, false, List, Side, "every side, in scenario order", bSides),
      B("enemy", 1, 1, false, Side, Any, "the other side (two-sided games)", bEnemy),
      B("next_side", 1, 1, false, Side, Any, "the next side in scenario order", bNextSide),
      B("units", 0, 1, false, List, Unit, "units on the map (of a side)", bUnits),
      B("all_units", 0, 1, false, List, Unit, "every unit, on the map or not (of a side)", bAllUnits),
      B("units_at", 1, 1, false, List, Unit, "units in a hex", bUnitsAt),
      B("unit", 1, 1, false, Unit, Any, "unit(\"id\"): a unit by id, or none", bUnitById),
      B("hexes", 0, 0, false, List, Hex, "every hex of the map", bHexes),
      B("group", 1, 1, false, List, Hex, "group(\"name\"): a named hex group", bGroup),
      B("hex", 1, 1, false, Hex, Any, "hex(\"2725\"): a hex by label", bHex),
      B("adjacent", 2, 2, false, Bool, Any, "adjacent(a, b)", bAdjacent),
      B("neighbors", 1, 1, false, List, Hex, "the hexes around a hex, on the map", bNeighbors),
      B("features", 2, 2, false, List, Feature, "features(a, b): hexside kinds between two hexes", bFeatures),
      B("hexside", 2, 2, false, List, Feature, "hexside(a, b): the same as features(a, b)", bFeatures),
      B("distance", 2, 2, false, Int, Any, "distance(a, b): range in hexes (the target counts, the firer's hex not)", bDistance),
      B("direction", 2, 2, false, Int, Any, "direction(a, b): 0..5 (N, NE, SE, S, SW, NW) between adjacent hexes, or none", bDirection),
      B("line_of_sight", 2, 3, false, Bool, Any, "line_of_sight(a, b[, blocks]): hook los_blocks(h), los_blocks_side(a, b)", bLineOfSight),
      B("reachable", 1, 1, false, List, Hex, "reachable(u): hexes u can move to (hooks move_cost, stops_movement, ...)", bReachable),
      B("path_cost", 2, 3, false, Int, Any, "path_cost(u, h[, facing]): cheapest legal cost to h (ending with that facing), or none", bPathCost),
      B("path", 2, 3, false, List, Hex, "path(u, h[, step_ok]): the cheapest legal path to h (whose every step from, to satisfies step_ok), empty if none", bPath),
      B("zoc", 1, 1, false, List, Hex, "zoc(u): hexes in u's zone of control (hooks exerts_zoc, zoc_front_only, zoc_into)", bZoc),
      B("sector_toward", 2, 2, false, Str, Any, "sector_toward(u, dir): the sector of u's hexside in direction dir, named as by sector()", bSectorToward),
      B("sector", 2, 2, false, Str, Any, "sector(defender, attacker): front, front flank, flank, rear flank or rear", bSector),
      B("eliminate", 1, 1, true, Void, Any, "eliminate(u): remove from play; fires `eliminated`", bEliminate),
      B("place", 2, 2, true, Void, Any, "place(u, hex): put on the map or move; fires `moved`", bPlace),
      B("exit_map", 1, 1, true, Void, Any, "exit_map(u): the unit leaves the map", bRemove),
      B("restore", 2, 2, true, Void, Any, "restore(u, hex): an eliminated unit returns", bRestore),
      B("set_type", 2, 2, true, Void, Any, "set_type(u, type): the unit becomes that type (same class; state fields kept)", bSetType),
      B("set_side", 2, 2, true, Void, Any, "set_side(u, side): the unit passes to that side's control", bSetSide),
      B("set_active", 1, 1, true, Void, Any, "set_active(side): whose turn it is", bSetActive),
      B("set_turn", 1, 1, true, Void, Any, "set_turn(n): the game turn", bSetTurn),
      B("finish", 1, 3, true, Void, Any, "finish(winner or none, level, reason): end the game", bFinish),
      B("game_over", 0, 0, false, Bool, Any, "whether the game has ended", bGameOver),
  };
  return kTable;
}

#undef B

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

const BuiltinInfo& builtin(int index) { return table().at(index); }
int builtinCount() { return static_cast<int>(table().size()); }

}  // namespace polemos::eval
