#include "eval/builtins.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <set>
#include <tuple>
#include <unordered_map>

#include "eval/builtins_hex.h"
#include "eval/interpreter.h"
#include "limits/limits.h"

namespace polemos::eval {
namespace {

using namespace polemos::ir;
using Args = std::span<const Value>;

const char* kind(const Value& v) {
  return tagName(v.tag);
}

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
  if (MemoCache* memo = c.interp.memo()) memo->readUnit(v.i);
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
  if (v.tag != Tag::Bool)
    c.fail(fmt::format("{}(): the function must give true or false, found {}", fn, kind(v)));
  return v.i != 0;
}
// A lambda (or function) of one argument called by a builtin for each item of a list. One that
// only reads a member of it (`x -> not x.moved`, ir::FieldRead) is answered without a call; one
// that only gives back a function's answer (`u -> may_end_in(u, u.hex)`,
// ir::Function::lambdaForward) by that function, without the lambda's frame.
Value callOne(Context& c, const Value& f, const Value& x) {
  if (f.tag == Tag::Func && f.i >= 0 && static_cast<size_t>(f.i) < c.program.functions.size()) {
    const Function& fn = c.program.functions[static_cast<size_t>(f.i)];
    if (fn.fieldRead)
      if (auto v = c.interp.fieldRead(static_cast<int32_t>(f.i), x)) return std::move(*v);
    if (fn.lambdaForward)
      if (auto v = c.interp.lambdaForward(static_cast<int32_t>(f.i), x)) return std::move(*v);
  }
  return c.call(f, std::span<const Value>(&x, 1));
}

// --- lists -----------------------------------------------------------------------------------

Value bLen(Context& c, Args a) {
  return Value::integer(static_cast<int64_t>(needList(c, a[0], "len").size()));
}
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
    if (__builtin_add_overflow(s, needInt(c, v, "sum"), &s)) c.fail("integer overflow in sum()");
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
Value bMin(Context& c, Args a) {
  return minMax(c, a, false, "min");
}
Value bMax(Context& c, Args a) {
  return minMax(c, a, true, "max");
}
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
Value bMinBy(Context& c, Args a) {
  return byKey(c, a, false, "min_by");
}
Value bMaxBy(Context& c, Args a) {
  return byKey(c, a, true, "max_by");
}
Value bSortBy(Context& c, Args a) {
  const auto& l = needList(c, a[0], "sort_by");
  std::vector<std::pair<Value, Value>> keyed;
  for (const Value& x : l) keyed.emplace_back(callOne(c, a[1], x), x);
  // Sorting compares about n log2 n pairs: charged as steps, beyond the items themselves.
  int64_t comparisons = static_cast<int64_t>(keyed.size()) * std::bit_width(keyed.size());
  c.charge(comparisons * limits::kStepsPerComparison);
  std::stable_sort(keyed.begin(), keyed.end(), [](const auto& x, const auto& y) {
    return compareValues(x.first, y.first) < 0;
  });
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
    if (x.tag == Tag::List)
      out.insert(out.end(), x.items().begin(), x.items().end());
    else
      out.push_back(x);
  }
  return Value::makeList(std::move(out));
}
Value bReverse(Context& c, Args a) {
  ValueList out = needList(c, a[0], "reverse");
  std::reverse(out.begin(), out.end());
  return Value::makeList(std::move(out));
}
// The first of each value, in order. Values that are equal only when their tag, sub and number
// are (numbers, units, hexes, kinds, ...) are found in a set; others (strings, lists, odds, which
// compare by content) are compared with those kept, each comparison a step of the budget.
Value bDistinct(Context& c, Args a) {
  const auto& l = needList(c, a[0], "distinct");
  ValueList out;
  std::set<std::tuple<int, int32_t, int64_t>> seen;
  for (const Value& x : l) {
    bool plain =
        x.tag != Tag::Str && x.tag != Tag::List && x.tag != Tag::Func && x.tag != Tag::Odds;
    if (plain) {
      if (seen.emplace(static_cast<int>(x.tag), x.sub, x.i).second) out.push_back(x);
      continue;
    }
    c.charge(static_cast<int64_t>(out.size()) * limits::kStepsPerComparison);
    if (std::find(out.begin(), out.end(), x) == out.end()) out.push_back(x);
  }
  return Value::makeList(std::move(out));
}
Value bIsEmpty(Context& c, Args a) {
  return Value::boolean(needList(c, a[0], "empty").empty());
}

// --- numbers ---------------------------------------------------------------------------------

Value bAbs(Context& c, Args a) {
  int64_t v = needInt(c, a[0], "abs");
  if (v == INT64_MIN) c.fail("integer overflow");
  return Value::integer(v < 0 ? -v : v);
}
// The divisions are done in 128 bits: no quotient of two 64-bit numbers overflows there, and one
// that does not fit back (the smallest number divided by -1) is an error, not a crash.
int64_t fitted(Context& c, __int128 v, const char* what) {
  if (v > INT64_MAX || v < INT64_MIN) c.fail(fmt::format("integer overflow in {}()", what));
  return static_cast<int64_t>(v);
}
__int128 floorDiv128(__int128 x, __int128 y) {
  __int128 q = x / y;
  if ((x % y != 0) && ((x < 0) != (y < 0))) --q;
  return q;
}
Value bDivDown(Context& c, Args a) {
  int64_t x = needInt(c, a[0], "div_down"), y = needInt(c, a[1], "div_down");
  if (y == 0) c.fail("division by zero");
  return Value::integer(fitted(c, floorDiv128(x, y), "div_down"));
}
Value bDivUp(Context& c, Args a) {
  int64_t x = needInt(c, a[0], "div_up"), y = needInt(c, a[1], "div_up");
  if (y == 0) c.fail("division by zero");
  return Value::integer(fitted(c, -floorDiv128(-static_cast<__int128>(x), y), "div_up"));
}
Value bDivNearest(Context& c, Args a) {
  // Halves round up (x.5 -> x+1), as a player rounding on paper does.
  int64_t x = needInt(c, a[0], "div_nearest"), y = needInt(c, a[1], "div_nearest");
  if (y == 0) c.fail("division by zero");
  return Value::integer(
      fitted(c, floorDiv128(2 * static_cast<__int128>(x) + y, 2 * static_cast<__int128>(y)),
             "div_nearest"));
}
Value bOdds(Context& c, Args a) {
  int64_t x = needInt(c, a[0], "odds"), y = needInt(c, a[1], "odds");
  if (x <= 0 || y <= 0) c.fail("odds() needs two positive numbers");
  return Value::odds(x, y);
}
Value bStr(Context& c, Args a) {
  return Value::string(display(c.program, c.state, a[0]));
}

// --- tables ----------------------------------------------------------------------------------

Value bColumns(Context& c, Args a) {
  const TableInfo& t = needTable(c, a[0], "columns");
  ValueList out;
  for (size_t i = 0; i < t.cols.size(); ++i)
    out.push_back(Value::of(Tag::Column, static_cast<int64_t>(i), static_cast<int32_t>(a[0].i)));
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
  if (k.kind != TableKeyInfo::Odds)
    c.fail(fmt::format("the columns of table {} are not odds", t.name));
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
  if (a[0].tag == Tag::Int) {
    int64_t r = 0;
    if (__builtin_add_overflow(a[0].i, n, &r)) c.fail("integer overflow in shift()");
    return Value::integer(r);
  }
  if (a[0].tag != Tag::Column)
    c.fail(fmt::format("shift() needs a table column, found {}", kind(a[0])));
  const TableInfo& t = c.program.tables.at(a[0].sub);
  int64_t last = static_cast<int64_t>(t.cols.size()) - 1;
  int64_t i = a[0].i;
  if (i < 0 && n <= 0) return a[0];
  i = static_cast<int64_t>(
      std::clamp<__int128>(static_cast<__int128>(i) + n, 0, static_cast<__int128>(last)));
  return Value::of(Tag::Column, i, a[0].sub);
}
Value bRowCount(Context& c, Args a) {
  return Value::integer(static_cast<int64_t>(needTable(c, a[0], "row_count").rows.size()));
}

// --- game state --------------------------------------------------------------------------------

Value bLevel(Context& c, Args) {
  return Value::of(Tag::Level, c.state.level);
}
Value bActiveSide(Context& c, Args) {
  if (MemoCache* memo = c.interp.memo()) memo->readOther(GameState::kClock);
  return Value::of(Tag::Side, c.state.activeSide);
}
// The turn, the phase, the active side and who acts move with the clock (eval/state.h).
Value bActing(Context& c, Args) {
  if (MemoCache* memo = c.interp.memo()) memo->readOther(GameState::kClock);
  return Value::of(Tag::Side, c.state.acting);
}
Value bPhase(Context& c, Args) {
  if (MemoCache* memo = c.interp.memo()) memo->readOther(GameState::kClock);
  return c.state.phase >= 0 ? Value::string(c.program.phases.at(c.state.phase).name)
                            : Value::string("");
}
Value bTurn(Context& c, Args) {
  if (MemoCache* memo = c.interp.memo()) memo->readOther(GameState::kClock);
  return Value::integer(c.state.turn);
}
Value bScenarioValue(Context& c, Args a) {
  int64_t i = needInt(c, a[0], "scenario_value");
  if (i < 0 || i >= static_cast<int64_t>(c.program.scenarioValues.size()))
    c.fail("no scenario is loaded, so scenario values are unknown");
  return c.program.scenarioValues[i];
}
Value bSides(Context& c, Args) {
  ValueList out;
  for (size_t i = 0; i < c.state.sides.size(); ++i)
    out.push_back(Value::of(Tag::Side, static_cast<int64_t>(i)));
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
  if (MemoCache* memo = c.interp.memo()) memo->readOther(GameState::kRoster);
  ValueList out;
  for (size_t i = 0; i < c.state.units.size(); ++i) {
    const UnitState& u = c.state.units[i];
    if (u.status == UnitStatus::OnMap && (side < 0 || u.side == side))
      out.push_back(Value::of(Tag::Unit, static_cast<int64_t>(i)));
  }
  return Value::makeList(std::move(out));
}
Value bAllUnits(Context& c, Args a) {
  int32_t side = a.empty() ? -1 : needSide(c, a[0], "all_units");
  ValueList out;
  for (size_t i = 0; i < c.state.units.size(); ++i)
    if (side < 0 || c.state.units[i].side == side)
      out.push_back(Value::of(Tag::Unit, static_cast<int64_t>(i)));
  return Value::makeList(std::move(out));
}
Value bUnitsAt(Context& c, Args a) {
  int32_t h = needHex(c, a[0], "units_at");
  if (MemoCache* memo = c.interp.memo()) {
    memo->readHex(h);
    return memo->unitsAt(c.state, h);
  }
  ValueList out;
  for (size_t i = 0; i < c.state.units.size(); ++i)
    if (c.state.units[i].status == UnitStatus::OnMap && c.state.units[i].hex == h)
      out.push_back(Value::of(Tag::Unit, static_cast<int64_t>(i)));
  return Value::makeList(std::move(out));
}
// The units in hex h whose side is not s, in unit order. What it reads is which units of each
// other side are in h (GameState::sideHex), not the whole hex: a unit of side s entering or
// leaving h leaves the answers that read it as they were (a movement search of side s asks
// whether an enemy holds each hex it steps into, and its own side moves a unit at a time).
Value bEnemiesAt(Context& c, Args a) {
  int32_t h = needHex(c, a[0], "enemies_at");
  const int32_t side = needSide(c, a[1], "enemies_at");
  MemoCache* memo = c.interp.memo();
  if (memo) {
    for (size_t t = 0; t < c.state.sides.size(); ++t) {
      if (static_cast<int32_t>(t) == side) continue;
      const int64_t sh = c.state.sideHex(t, h);
      memo->readHex(sh >= 0 ? sh : h);
    }
  }
  static const Value kNone = Value::makeList({});
  const Value all = memo ? memo->unitsAt(c.state, h) : bUnitsAt(c, a.first(1));
  const ValueList& units = all.items();
  size_t enemies = 0;
  for (const Value& u : units) enemies += c.state.units[static_cast<size_t>(u.i)].side != side;
  if (enemies == units.size()) return all;
  if (enemies == 0) return kNone;
  ValueList out;
  for (const Value& u : units)
    if (c.state.units[static_cast<size_t>(u.i)].side != side) out.push_back(u);
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
  if (it == c.state.map.groups.end())
    c.fail(fmt::format("the map has no hex group '{}'", a[0].text()));
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
  return Value::boolean(c.state.map.adjacent(x, y));
}
Value bNeighbors(Context& c, Args a) {
  int32_t x = needHex(c, a[0], "neighbors");
  ValueList out;
  for (int32_t y : c.state.map.neighbours(x)) out.push_back(Value::of(Tag::Hex, y));
  return Value::makeList(std::move(out));
}
Value bFeatures(Context& c, Args a) {
  int32_t x = needHex(c, a[0], "features"), y = needHex(c, a[1], "features");
  auto it = c.state.map.hexsides.get().find({std::min(x, y), std::max(x, y)});
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
  c.state.touchWhere(static_cast<size_t>(a[0].i), u.status == UnitStatus::OnMap ? u.hex : -1, -1,
                     u.status == UnitStatus::OnMap);
  c.state.units[a[0].i].status = UnitStatus::Eliminated;
  c.trace({}, TraceKind::Effect, "eliminate " + u.id, where, "eliminated");
  c.emit(0, {a[0]});
  return Value::none();
}
Value bPlace(Context& c, Args a) {
  const UnitState& u = needUnit(c, a[0], "place");
  int32_t h = needHex(c, a[1], "place");
  int32_t from = u.status == UnitStatus::OnMap ? u.hex : -1;
  // A move renews the stamps of the unit and of the hexes it leaves and enters; a unit entering
  // the map, the roster's too.
  c.state.touchWhere(static_cast<size_t>(a[0].i), from, h, from < 0);
  UnitState& w = c.state.units[a[0].i];
  w.hex = h;
  w.status = UnitStatus::OnMap;
  c.trace({}, TraceKind::Effect, "move " + w.id, from >= 0 ? c.state.map.label(from) : "off map",
          c.state.map.label(h));
  c.emit(1, {a[0], from >= 0 ? Value::of(Tag::Hex, from) : Value::none(), a[1]});
  return Value::none();
}
Value bRemove(Context& c, Args a) {
  const UnitState& u = needUnit(c, a[0], "exit_map");
  UnitState& w = c.state.units[a[0].i];
  c.state.touchWhere(static_cast<size_t>(a[0].i), u.status == UnitStatus::OnMap ? u.hex : -1, -1,
                     u.status == UnitStatus::OnMap);
  c.trace({}, TraceKind::Effect, "exit " + u.id, u.hex >= 0 ? c.state.map.label(u.hex) : "off map",
          "exited");
  w.status = UnitStatus::Exited;
  return Value::none();
}
Value bRestore(Context& c, Args a) {
  const UnitState& u = needUnit(c, a[0], "restore");
  int32_t h = needHex(c, a[1], "restore");
  UnitState& w = c.state.units[a[0].i];
  c.state.touchWhere(static_cast<size_t>(a[0].i), u.status == UnitStatus::OnMap ? u.hex : -1, h,
                     u.status != UnitStatus::OnMap);
  c.trace({}, TraceKind::Effect, "return " + u.id, "eliminated", c.state.map.label(h));
  w.status = UnitStatus::OnMap;
  w.hex = h;
  return Value::none();
}
// Units made and joined during play (a detachment split off, two units combined). A new unit comes
// after every other, so the indexes of the units there were do not change and a replay of the same
// commands makes the same ids.
Value bSplit(Context& c, Args a) {
  const UnitState& u = needUnit(c, a[0], "split");
  if (u.status != UnitStatus::OnMap) c.fail(fmt::format("split(): {} is not on the map", u.id));
  if (c.state.units.size() >= limits::kMaxSavedUnits)
    c.fail(fmt::format("split(): a game has at most {} units (the most a saved game may have)",
                       limits::kMaxSavedUnits));
  std::string id;
  for (int n = 2;; ++n) {
    id = fmt::format("{}_{}", u.id, n);
    bool used = false;
    for (const UnitState& o : c.state.units) used = used || o.id == id;
    if (!used) break;
  }
  UnitState d = u;  // a copy: the push below may move the units, `u` with them
  d.id = id;
  const std::string what = "split " + u.id, where = c.state.map.label(u.hex);
  size_t at = c.state.units.size();
  c.state.units.push_back(std::move(d));
  c.state.touchWhere(at, -1, c.state.units[at].hex, true);
  c.trace({}, TraceKind::Effect, what, where, id);
  return Value::of(Tag::Unit, static_cast<int64_t>(at));
}
Value bMerge(Context& c, Args a) {
  const UnitState& b = needUnit(c, a[0], "merge");
  const UnitState& into = needUnit(c, a[1], "merge");
  if (a[0].i == a[1].i) c.fail(fmt::format("merge(): {} cannot join itself", b.id));
  if (b.status != UnitStatus::OnMap || into.status != UnitStatus::OnMap)
    c.fail(fmt::format("merge(): {} and {} must both be on the map", b.id, into.id));
  std::string what = b.id + " into " + into.id;
  c.state.touchWhere(static_cast<size_t>(a[0].i), b.hex, -1, true);
  c.state.units[a[0].i].status = UnitStatus::Merged;
  c.trace({}, TraceKind::Effect, "merge " + what, c.state.map.label(c.state.units[a[0].i].hex),
          "merged");
  return Value::none();
}

// The map changed during play: a village set afire, a fort breached (a hex's terrain), a palisade
// built or a bridge destroyed (a hexside's kinds). Each is a new epoch (eval/state.h): what the
// hooks read of the map is not stamped, so every kept search is made anew.
static std::string featureNames(const Context& c, const std::vector<int32_t>& fs) {
  std::string out = "[";
  for (size_t i = 0; i < fs.size(); ++i)
    out += (i > 0 ? ", " : "") + c.program.features[static_cast<size_t>(fs[i])].name;
  return out + "]";
}
Value bSetTerrain(Context& c, Args a) {
  int32_t h = needHex(c, a[0], "set_terrain");
  if (a[1].tag != Tag::Terrain || a[1].i < 0 ||
      a[1].i >= static_cast<int64_t>(c.program.terrains.size()))
    c.fail(fmt::format("set_terrain() needs a terrain kind, found {}", kind(a[1])));
  int32_t before = c.state.map.terrain[h], after = static_cast<int32_t>(a[1].i);
  if (before == after) return Value::none();
  c.state.touch();
  c.state.map.terrain.mut()[static_cast<size_t>(h)] = after;
  c.trace({}, TraceKind::Effect, c.state.map.label(h) + ".terrain",
          before >= 0 ? c.program.terrains[static_cast<size_t>(before)].name : "none",
          c.program.terrains[static_cast<size_t>(after)].name);
  return Value::none();
}
static Value changeHexside(Context& c, Args a, const char* what, bool add) {
  int32_t x = needHex(c, a[0], what), y = needHex(c, a[1], what);
  if (!c.state.map.adjacent(x, y))
    c.fail(fmt::format("{}(): {} and {} are not adjacent", what, c.state.map.label(x),
                       c.state.map.label(y)));
  if (a[2].tag != Tag::Feature || a[2].i < 0 ||
      a[2].i >= static_cast<int64_t>(c.program.features.size()))
    c.fail(fmt::format("{}() needs a hexside kind, found {}", what, kind(a[2])));
  const auto key = std::make_pair(std::min(x, y), std::max(x, y));
  const int32_t f = static_cast<int32_t>(a[2].i);
  auto it = c.state.map.hexsides.get().find(key);
  std::vector<int32_t> before =
      it == c.state.map.hexsides.end() ? std::vector<int32_t>{} : it->second;
  std::vector<int32_t> after = before;
  auto at = std::find(after.begin(), after.end(), f);
  if (add && at == after.end()) after.push_back(f);
  if (!add && at != after.end()) after.erase(at);
  if (after == before) return Value::none();
  c.state.touch();
  if (after.empty())
    c.state.map.hexsides.mut().erase(key);
  else
    c.state.map.hexsides.mut()[key] = after;
  c.trace({}, TraceKind::Effect,
          "hexside " + c.state.map.label(key.first) + "/" + c.state.map.label(key.second),
          featureNames(c, before), featureNames(c, after));
  return Value::none();
}
Value bAddHexside(Context& c, Args a) {
  return changeHexside(c, a, "add_hexside", true);
}
Value bRemoveHexside(Context& c, Args a) {
  return changeHexside(c, a, "remove_hexside", false);
}

// A unit changes type during play (Deluxe 17.5 dismounting: a cavalry counter replaced by an
// infantry one). Only to a type of the same unit class: the new type's values replace the unit's
// fields that are not `state` (a placement's per-unit override of such a field is lost); the
// state fields (Disordered, markers, ...) are kept.
Value bSetType(Context& c, Args a) {
  const UnitState& u = needUnit(c, a[0], "set_type");
  if (a[1].tag != Tag::UnitType || a[1].i < 0 ||
      a[1].i >= static_cast<int64_t>(c.program.unitTypes.size()))
    c.fail(fmt::format("set_type() needs a unit type, found {}", kind(a[1])));
  const UnitTypeInfo& t = c.program.unitTypes[a[1].i];
  if (t.cls != u.cls)
    c.fail(fmt::format("set_type(): {} is of unit class {}, the type {} of class {}", u.id,
                       c.program.classes[u.cls].name, t.name, c.program.classes[t.cls].name));
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
  c.state.touchOther(GameState::kClock);
  return Value::none();
}
Value bSetTurn(Context& c, Args a) {
  c.state.turn = static_cast<int32_t>(needInt(c, a[0], "set_turn"));
  c.state.touchOther(GameState::kClock);
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
          r.winner >= 0 ? fmt::format("{} wins{}", c.program.sides[r.winner].name,
                                      r.level.empty() ? "" : " (" + r.level + ")")
                        : "draw");
  return Value::none();
}
Value bGameOver(Context& c, Args) {
  return Value::boolean(c.state.result.over);
}

// The implementation of each builtin, by name; ir/builtins.cpp holds the signatures (the one
// table the checker and the evaluator share). Every signature has one implementation here, and
// this table names nothing else (checked once, and by tests/unit/builtins_test.cpp).
struct Impl {
  const char* name;
  BuiltinFn fn;
};

const std::vector<BuiltinFn>& implementations() {
  static const std::vector<BuiltinFn> kFns = [] {
    static const Impl kImpls[] = {
        {"len", bLen},
        {"count", bCount},
        {"sum", bSum},
        {"all", bAll},
        {"any", bAny},
        {"filter", bFilter},
        {"map", bMap},
        {"first", bFirst},
        {"last", bLast},
        {"min", bMin},
        {"max", bMax},
        {"min_by", bMinBy},
        {"max_by", bMaxBy},
        {"sort_by", bSortBy},
        {"contains", bContains},
        {"append", bAppend},
        {"without", bWithout},
        {"concat", bConcat},
        {"reverse", bReverse},
        {"flatten", bFlatten},
        {"distinct", bDistinct},
        {"empty", bIsEmpty},
        {"abs", bAbs},
        {"div_down", bDivDown},
        {"div_up", bDivUp},
        {"div_nearest", bDivNearest},
        {"odds", bOdds},
        {"str", bStr},
        {"columns", bColumns},
        {"column", bColumn},
        {"column_odds", bColumnOdds},
        {"column_index", bColumnIndex},
        {"shift", bShift},
        {"row_count", bRowCount},
        {"level", bLevel},
        {"active_side", bActiveSide},
        {"acting_side", bActing},
        {"phase", bPhase},
        {"turn", bTurn},
        {"scenario_value", bScenarioValue},
        {"sides", bSides},
        {"enemy", bEnemy},
        {"next_side", bNextSide},
        {"units", bUnits},
        {"all_units", bAllUnits},
        {"units_at", bUnitsAt},
        {"enemies_at", bEnemiesAt},
        {"unit", bUnitById},
        {"hexes", bHexes},
        {"group", bGroup},
        {"hex", bHex},
        {"adjacent", bAdjacent},
        {"neighbors", bNeighbors},
        {"features", bFeatures},
        {"hexside", bFeatures},
        {"distance", bDistance},
        {"direction", bDirection},
        {"line_of_sight", bLineOfSight},
        {"reachable", bReachable},
        {"path_cost", bPathCost},
        {"path", bPath},
        {"reachable_from", bReachableFrom},
        {"path_cost_from", bPathCostFrom},
        {"path_from", bPathFrom},
        {"zoc", bZoc},
        {"sector_toward", bSectorToward},
        {"sector", bSector},
        {"eliminate", bEliminate},
        {"place", bPlace},
        {"exit_map", bRemove},
        {"restore", bRestore},
        {"split", bSplit},
        {"merge", bMerge},
        {"set_terrain", bSetTerrain},
        {"add_hexside", bAddHexside},
        {"remove_hexside", bRemoveHexside},
        {"set_type", bSetType},
        {"set_side", bSetSide},
        {"set_active", bSetActive},
        {"set_turn", bSetTurn},
        {"finish", bFinish},
        {"game_over", bGameOver},
    };
    std::vector<BuiltinFn> fns(static_cast<size_t>(ir::builtinCount()), nullptr);
    for (const Impl& i : kImpls) {
      int at = ir::findBuiltin(i.name);
      if (at < 0 || fns[static_cast<size_t>(at)] != nullptr) return std::vector<BuiltinFn>{};
      fns[static_cast<size_t>(at)] = i.fn;
    }
    for (BuiltinFn f : fns)
      if (f == nullptr) return std::vector<BuiltinFn>{};
    return fns;
  }();
  return kFns;
}

}  // namespace

bool builtinsComplete() {
  return static_cast<int>(implementations().size()) == ir::builtinCount();
}

BuiltinFn builtinFn(int index) {
  return implementations().at(static_cast<size_t>(index));
}

}  // namespace polemos::eval
