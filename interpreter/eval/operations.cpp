// The evaluator's value operations: member access and assignment (unit, side, game and map
// fields, list and record members), the binary operators (arithmetic rounding down, odds compared
// as fractions, table columns), and indexing (tables, lists, records). The loop that runs code is
// interpreter.cpp; these are the operations it applies.
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "eval/builtins.h"
#include "eval/interpreter.h"
#include "limits/limits.h"

namespace polemos::eval {

using namespace polemos::ir;

// -----------------------------------------------------------------------------------------------
// Helpers
// -----------------------------------------------------------------------------------------------

int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int compareOdds(int64_t a1, int64_t b1, int64_t a2, int64_t b2) {
  __int128 l = static_cast<__int128>(a1) * b2, r = static_cast<__int128>(a2) * b1;
  return l < r ? -1 : l > r ? 1 : 0;
}

// -----------------------------------------------------------------------------------------------
// Values
// -----------------------------------------------------------------------------------------------

// A class field's slot among the stamps of a unit (eval/state.h): a field past the few slots
// stamped one by one counts as the whole unit.
static size_t fieldSlot(int32_t slot) {
  return slot >= 0 && static_cast<size_t>(slot) < GameState::kHexSlot ? static_cast<size_t>(slot)
                                                                      : GameState::kWholeUnit;
}

Value Interpreter::member(const Value& obj, int32_t nameId) {
  const std::string& name = program_.names[nameId];
  using B = BuiltinName;
  const B kind = program_.nameKinds[nameId];
  switch (obj.tag) {
    case Tag::Unit: {
      if (obj.i < 0 || obj.i >= static_cast<int64_t>(state_.units.size()))
        throw RuntimeError("no such unit");
      const UnitState& u = state_.units[obj.i];
      const Schema& cls = program_.classes[u.cls];
      int32_t slot = cls.find(nameId);
      if (slot >= 0) {
        const FieldInfo& f = cls.fields[slot];
        if (f.derived >= 0) {
          Value self = obj;
          return callPure(f.derived, std::span<const Value>(&self, 1));
        }
        if (memo_) memo_->readField(obj.i, fieldSlot(slot));
        return u.fields[slot];
      }
      // The unit's side, type and id change only with a new epoch (eval/state.h): not logged as
      // reads; its status goes with its hex slot.
      if (kind == B::Id) return Value::string(u.id);
      if (kind == B::Type) return Value::of(Tag::UnitType, u.type);
      if (kind == B::Side) return Value::of(Tag::Side, u.side);
      if (kind == B::Hex) {
        if (memo_) memo_->readField(obj.i, GameState::kHexSlot);
        return u.status == UnitStatus::OnMap && u.hex >= 0 ? Value::of(Tag::Hex, u.hex)
                                                           : Value::none();
      }
      if (kind == B::Facing) {
        if (memo_) memo_->readField(obj.i, GameState::kFacingSlot);
        return u.facing >= 0 ? Value::integer(u.facing) : Value::none();
      }
      if (kind == B::OnMap || kind == B::Eliminated || kind == B::Exited || kind == B::Merged)
        if (memo_) memo_->readField(obj.i, GameState::kHexSlot);  // the hex slot: where it is
      if (kind == B::OnMap) return Value::boolean(u.status == UnitStatus::OnMap);
      if (kind == B::Eliminated) return Value::boolean(u.status == UnitStatus::Eliminated);
      if (kind == B::Exited) return Value::boolean(u.status == UnitStatus::Exited);
      if (kind == B::Merged) return Value::boolean(u.status == UnitStatus::Merged);
      if (kind == B::Class) return Value::string(cls.name);
      throw RuntimeError(
          fmt::format("unit {} (unit class {}) has no field '{}'", u.id, cls.name, name));
    }
    case Tag::UnitType: {
      const UnitTypeInfo& t = program_.unitTypes.at(obj.i);
      if (kind == B::Name) return Value::string(t.name);
      int32_t slot = program_.classes[t.cls].find(nameId);
      if (slot < 0) throw RuntimeError(fmt::format("unit type {} has no field '{}'", t.name, name));
      return t.values[slot];
    }
    case Tag::Side: {
      if (obj.i < 0 || obj.i >= static_cast<int64_t>(state_.sides.size()))
        throw RuntimeError("no such side");
      int32_t slot = program_.sideState.find(nameId);
      if (slot >= 0) {
        const FieldInfo& f = program_.sideState.fields[slot];
        if (f.derived >= 0) {
          Value self = obj;
          return callPure(f.derived, std::span<const Value>(&self, 1));
        }
        if (memo_)
          memo_->readOther(
              GameState::sideField(static_cast<size_t>(obj.i), static_cast<size_t>(slot)));
        return state_.sides[obj.i].fields[slot];
      }
      if (kind == B::Name) return Value::string(program_.sides[obj.i].name);
      if (kind == B::Title) return Value::string(program_.sides[obj.i].title);
      if (kind == B::Index) return Value::integer(obj.i);
      if (kind == B::Units) {
        if (memo_) memo_->readOther(GameState::kRoster);
        ValueList out;
        for (size_t i = 0; i < state_.units.size(); ++i)
          if (state_.units[i].side == obj.i && state_.units[i].status == UnitStatus::OnMap)
            out.push_back(Value::of(Tag::Unit, i));
        return Value::makeList(std::move(out));
      }
      throw RuntimeError(fmt::format("the side state has no field '{}'", name));
    }
    case Tag::None: {
      // `game.x` compiles to a member of `none`: the game state.
      int32_t slot = program_.gameState.find(nameId);
      if (slot < 0) throw RuntimeError(fmt::format("none has no field '{}'", name));
      const FieldInfo& f = program_.gameState.fields[slot];
      if (f.derived >= 0) {
        Value self;
        return callPure(f.derived, std::span<const Value>(&self, 1));
      }
      if (memo_) memo_->readOther(GameState::gameField(static_cast<size_t>(slot)));
      return state_.game[slot];
    }
    case Tag::Hex: {
      int32_t h = static_cast<int32_t>(obj.i);
      if (h < 0 || h >= state_.map.size()) throw RuntimeError("no such hex");
      if (kind == B::Terrain)
        return state_.map.terrain[h] >= 0 ? Value::of(Tag::Terrain, state_.map.terrain[h])
                                          : Value::none();
      if (kind == B::Col) return Value::integer(state_.map.colOf(h));
      if (kind == B::Row) return Value::integer(state_.map.rowOf(h));
      if (kind == B::Label) return Value::string(state_.map.label(h));
      if (kind == B::Elevation) return Value::integer(state_.map.elevation[h]);
      // The hex state: a change of it is a new epoch (touchField), so its reads need no stamps.
      if (int32_t slot = program_.hexState.find(nameId); slot >= 0) {
        const FieldInfo& f = program_.hexState.fields[slot];
        if (f.derived >= 0) {
          Value self = obj;
          return callPure(f.derived, std::span<const Value>(&self, 1));
        }
        if (slot >= state_.map.hexFieldCount) throw RuntimeError("the hex state is not set up");
        return state_.map.hexField(h, slot);
      }
      if (kind == B::Units) {
        if (memo_) memo_->readHex(h);
        ValueList out;
        for (size_t i = 0; i < state_.units.size(); ++i)
          if (state_.units[i].hex == h && state_.units[i].status == UnitStatus::OnMap)
            out.push_back(Value::of(Tag::Unit, i));
        return Value::makeList(std::move(out));
      }
      throw RuntimeError(fmt::format("a hex has no property '{}'", name));
    }
    case Tag::Terrain:
    case Tag::Feature: {
      const KindInfo& k =
          obj.tag == Tag::Terrain ? program_.terrains.at(obj.i) : program_.features.at(obj.i);
      if (kind == B::Name) return Value::string(k.name);
      const Schema& s = obj.tag == Tag::Terrain ? program_.terrainAttrs : program_.hexsideAttrs;
      int32_t slot = s.find(nameId);
      if (slot < 0) throw RuntimeError(fmt::format("{} has no attribute '{}'", k.name, name));
      return k.values[slot];
    }
    case Tag::Enum:
    case Tag::Level:
    case Tag::Table:
    case Tag::Die:
    case Tag::Column:
      if (kind == B::Name) return Value::string(display(program_, state_, obj));
      if (kind == B::Index) return Value::integer(obj.i);
      break;
    default:
      break;
  }
  throw RuntimeError(fmt::format("{} has no field '{}'", tagName(obj.tag), name));
}

// A unit's field renews its stamp, a side's or the game's its own (or, past the fields stamped
// one by one, the epoch).
void Interpreter::touchField(const Value& obj, int32_t nameId) {
  if (obj.tag == Tag::Unit && obj.i >= 0 && obj.i < static_cast<int64_t>(state_.units.size())) {
    int32_t slot = program_.classes[state_.units[obj.i].cls].find(nameId);
    state_.touchField(static_cast<size_t>(obj.i),
                      slot >= 0 ? fieldSlot(slot) : GameState::kFacingSlot);
  } else if (obj.tag == Tag::Side && obj.i >= 0) {
    int32_t slot = program_.sideState.find(nameId);
    state_.touchOther(
        slot >= 0 ? GameState::sideField(static_cast<size_t>(obj.i), static_cast<size_t>(slot))
                  : -1);
  } else if (obj.tag == Tag::None) {
    int32_t slot = program_.gameState.find(nameId);
    state_.touchOther(slot >= 0 ? GameState::gameField(static_cast<size_t>(slot)) : -1);
  } else {
    state_.touch();
  }
}

void Interpreter::setMember(const Value& obj, int32_t nameId, const Value& v, bool add) {
  const std::string& name = program_.names[nameId];
  // Sets `slot` (field `field` of `who`, the subject of the trace event) to the value, or adds
  // it; a value outside the field's range is refused before anything changes.
  auto apply = [&](Value& slot, const FieldInfo& field, const std::string& who) {
    Value next = v;
    if (add) {
      if (slot.tag != Tag::Int || v.tag != Tag::Int)
        throw RuntimeError(fmt::format("'{}' += needs numbers", name));
      __int128 sum = static_cast<__int128>(slot.i) + v.i;
      if (sum > INT64_MAX || sum < INT64_MIN) throw RuntimeError("integer overflow");
      next = Value::integer(static_cast<int64_t>(sum));
    }
    if (!field.inBounds(next)) throw RuntimeError(field.outOfBounds(who, next));
    slot = std::move(next);
  };
  Value before, after;
  std::string subject;
  const FieldInfo* info = nullptr;  // the field changed (none: a unit's facing)
  bool shownSchema = true;          // its schema declares what a player sees (else all of it)
  uint8_t flags = TraceEvent::kFieldChange;
  if (obj.tag == Tag::Unit) {
    UnitState& u = state_.units.at(obj.i);
    const Schema& cls = program_.classes[u.cls];
    int32_t slot = cls.find(nameId);
    if (slot >= 0 && cls.fields[slot].isState) {
      subject = u.id + "." + name;
      before = u.fields[slot];
      apply(u.fields[slot], cls.fields[slot], subject);
      after = u.fields[slot];
      info = &cls.fields[slot];
      shownSchema = cls.declaresDisplay;
    } else if (name == "facing" && v.tag == Tag::Int) {
      before = Value::integer(u.facing);
      u.facing = static_cast<int32_t>(((v.i % 6) + 6) % 6);
      after = Value::integer(u.facing);
      subject = u.id + ".facing";
      flags |= TraceEvent::kCounter;
    } else {
      throw RuntimeError(
          fmt::format("unit {} (unit class {}) has no state field '{}'", u.id, cls.name, name));
    }
  } else if (obj.tag == Tag::Side) {
    int32_t slot = program_.sideState.find(nameId);
    if (slot < 0 || program_.sideState.fields[slot].derived >= 0)
      throw RuntimeError(fmt::format("the side state has no field '{}'", name));
    Value& f = state_.sides.at(obj.i).fields[slot];
    subject = program_.sides[obj.i].name + "." + name;
    before = f;
    apply(f, program_.sideState.fields[slot], subject);
    after = f;
    info = &program_.sideState.fields[slot];
    shownSchema = program_.sideState.declaresDisplay;
  } else if (obj.tag == Tag::None) {
    int32_t slot = program_.gameState.find(nameId);
    if (slot < 0 || program_.gameState.fields[slot].derived >= 0)
      throw RuntimeError(fmt::format("the game state has no field '{}'", name));
    subject = "game." + name;
    before = state_.game[slot];
    apply(state_.game[slot], program_.gameState.fields[slot], subject);
    after = state_.game[slot];
    info = &program_.gameState.fields[slot];
    shownSchema = program_.gameState.declaresDisplay;
  } else if (obj.tag == Tag::Hex) {
    int32_t h = static_cast<int32_t>(obj.i);
    int32_t slot = program_.hexState.find(nameId);
    if (slot < 0 || program_.hexState.fields[slot].derived >= 0)
      throw RuntimeError(fmt::format("the hex state has no field '{}'", name));
    if (h < 0 || h >= state_.map.size() || slot >= state_.map.hexFieldCount)
      throw RuntimeError("no such hex");
    subject = state_.map.label(h) + "." + name;
    before = state_.map.hexField(h, slot);
    after = before;
    apply(after, program_.hexState.fields[slot], subject);
    if (before == after) return;
    state_.map.hexFields.mut()[static_cast<size_t>(h) * state_.map.hexFieldCount + slot] = after;
    info = &program_.hexState.fields[slot];
  } else {
    throw RuntimeError(fmt::format("cannot set a field of {}", tagName(obj.tag)));
  }
  // A field set to the value it had changes nothing (no stamp is renewed: eval/state.h), and
  // would only clutter the trace.
  if (before == after) return;
  touchField(obj, nameId);
  if (info != nullptr && (info->display == Display::Counter || !shownSchema))
    flags |= TraceEvent::kCounter;
  if (info != nullptr && info->display == Display::Marker) flags |= TraceEvent::kMarker;
  if (info != nullptr && info->init >= 0 && after == info->value) flags |= TraceEvent::kToDefault;
  trace({}, TraceKind::Effect, subject, display(program_, state_, before),
        display(program_, state_, after), flags);
}

Value Interpreter::binary(Op op, const Value& a, const Value& b) {
  auto ints = [&](const char* what) {
    if (a.tag != Tag::Int || b.tag != Tag::Int)
      throw RuntimeError(
          fmt::format("{} needs numbers, found {} and {}", what, tagName(a.tag), tagName(b.tag)));
  };
  auto checked = [](__int128 r) {
    if (r > INT64_MAX || r < INT64_MIN) throw RuntimeError("integer overflow");
    return Value::integer(static_cast<int64_t>(r));
  };
  switch (op) {
    case Op::Add:
      if (a.tag == Tag::Str || b.tag == Tag::Str) {
        GameState& s = state_;
        std::string joined = display(program_, s, a) + display(program_, s, b);
        if (joined.size() > limits::kMaxStringBytes)
          throw RuntimeError(fmt::format("a string of more than {} bytes (joined with +)",
                                         limits::kMaxStringBytes));
        charge(static_cast<int64_t>(joined.size() / 16));
        return Value::string(std::move(joined));
      }
      if (a.tag == Tag::List && b.tag == Tag::List) {
        if (a.items().size() + b.items().size() > limits::kMaxListItems)
          throw RuntimeError(
              fmt::format("a list of more than {} items (joined with +)", limits::kMaxListItems));
        charge(static_cast<int64_t>(a.items().size() + b.items().size()) * limits::kStepsPerItem);
        ValueList out = a.items();
        out.insert(out.end(), b.items().begin(), b.items().end());
        return Value::makeList(std::move(out));
      }
      ints("+");
      return checked(static_cast<__int128>(a.i) + b.i);
    case Op::Sub:
      ints("-");
      return checked(static_cast<__int128>(a.i) - b.i);
    case Op::Mul:
      ints("*");
      return checked(static_cast<__int128>(a.i) * b.i);
    case Op::Div:
      ints("/");
      if (b.i == 0) throw RuntimeError("division by zero");
      if (a.i == INT64_MIN && b.i == -1) throw RuntimeError("integer overflow");
      return Value::integer(floorDiv(a.i, b.i));
    case Op::Mod:
      ints("%");
      if (b.i == 0) throw RuntimeError("division by zero");
      if (b.i == -1) return Value::integer(0);
      return Value::integer(a.i - floorDiv(a.i, b.i) * b.i);
    case Op::Eq:
    case Op::Ne: {
      bool eq = a == b;
      // A table column equals the odds it stands for (`col == 3:1`).
      if ((a.tag == Tag::Column && b.tag == Tag::Odds) ||
          (a.tag == Tag::Odds && b.tag == Tag::Column)) {
        const Value& col = a.tag == Tag::Column ? a : b;
        const Value& odds = a.tag == Tag::Odds ? a : b;
        const TableInfo& t = program_.tables.at(col.sub);
        eq = col.i >= 0 && col.i < static_cast<int64_t>(t.cols.size()) &&
             t.cols[col.i].kind == TableKeyInfo::Odds &&
             compareOdds(t.cols[col.i].lo, t.cols[col.i].hi, odds.i, odds.j()) == 0;
      }
      return Value::boolean(op == Op::Eq ? eq : !eq);
    }
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge: {
      int c = 0;
      auto colOdds = [&](const Value& col, int64_t& x, int64_t& y) -> bool {
        // A column compares as its key; below the table is below every key.
        if (col.i < 0) return false;
        const TableInfo& t = program_.tables.at(col.sub);
        if (col.i >= static_cast<int64_t>(t.cols.size())) return false;
        x = t.cols[col.i].lo;
        y = t.cols[col.i].hi;
        return t.cols[col.i].kind == TableKeyInfo::Odds;
      };
      if ((a.tag == Tag::Odds || a.tag == Tag::Column) &&
          (b.tag == Tag::Odds || b.tag == Tag::Column)) {
        if (a.tag == Tag::Column && b.tag == Tag::Column && a.sub == b.sub) {
          c = a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
        } else {
          int64_t x1 = a.i, y1 = a.j(), x2 = b.i, y2 = b.j();
          bool aBelow = a.tag == Tag::Column && !colOdds(a, x1, y1);
          bool bBelow = b.tag == Tag::Column && !colOdds(b, x2, y2);
          if (aBelow || bBelow)
            c = aBelow && bBelow ? 0 : aBelow ? -1 : 1;
          else
            c = compareOdds(x1, y1, x2, y2);
        }
      } else if (a.tag == Tag::Int && b.tag == Tag::Int) {
        c = a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
      } else if (a.tag == b.tag &&
                 (a.tag == Tag::Level || a.tag == Tag::Enum || a.tag == Tag::Str)) {
        c = compareValues(a, b);
      } else {
        throw RuntimeError(
            fmt::format("cannot compare {} with {}", tagName(a.tag), tagName(b.tag)));
      }
      switch (op) {
        case Op::Lt:
          return Value::boolean(c < 0);
        case Op::Le:
          return Value::boolean(c <= 0);
        case Op::Gt:
          return Value::boolean(c > 0);
        default:
          return Value::boolean(c >= 0);
      }
    }
    case Op::In:
    case Op::NotIn: {
      if (b.tag != Tag::List)
        throw RuntimeError(fmt::format("`in` needs a list, found {}", tagName(b.tag)));
      bool found = false;
      if (b.sub != 1 && isPlain(a.tag)) {
        // A plain value (a hex, a unit, a number) in a list (not a map): an element of its kind
        // with its index, the same test as ==, without the general comparison (Deluxe asks
        // whether a hex is in a side's enemy ZOC at every step of a search). A hex in a long list
        // asked about again: by the list's bitmap (eval/hex_set.h), the same answer.
        if (a.tag == Tag::Hex && b.items().size() >= HexSet::kMinItems)
          if (std::optional<bool> in = hexSet_.contains(b, a.i))
            return Value::boolean(op == Op::In ? *in : !*in);
        for (const Value& e : b.items())
          if (e.tag == a.tag && e.i == a.i) {
            found = true;
            break;
          }
      } else {
        for (const Value& e : b.items()) {
          const Value& k =
              b.sub == 1 && e.tag == Tag::List && e.items().size() == 2 ? e.items()[0] : e;
          if (k == a) {
            found = true;
            break;
          }
        }
      }
      return Value::boolean(op == Op::In ? found : !found);
    }
    default:
      break;
  }
  throw RuntimeError("bad operator");
}

Value Interpreter::index(const Value& obj, std::span<const Value> keys) {
  if (obj.tag == Tag::List) {
    if (keys.size() != 1) throw RuntimeError("a list takes one index");
    if (obj.sub == 1) {  // a map
      for (const Value& e : obj.items())
        if (e.items().size() == 2 && e.items()[0] == keys[0]) return e.items()[1];
      throw RuntimeError(fmt::format("no entry for {}", display(program_, state_, keys[0])));
    }
    if (keys[0].tag != Tag::Int) throw RuntimeError("a list index must be a number");
    int64_t i = keys[0].i;
    const auto& items = obj.items();
    if (i < 0 || i >= static_cast<int64_t>(items.size()))
      throw RuntimeError(fmt::format("index {} is outside the list (size {})", i, items.size()));
    return items[i];
  }
  if (obj.tag != Tag::Table)
    throw RuntimeError(fmt::format("{} cannot be indexed", tagName(obj.tag)));
  const TableInfo& t = program_.tables.at(obj.i);
  size_t want = t.cols.empty() ? 1 : 2;
  if (keys.size() != want)
    throw RuntimeError(fmt::format("table {} takes {} key(s)", t.name, want));
  auto find = [&](const std::vector<TableKeyInfo>& ks, TableInfo::KeyKind kind, const Value& k,
                  const char* what) -> size_t {
    if (k.tag == Tag::Column) {
      if (k.sub != obj.i)
        throw RuntimeError(fmt::format("a column of table {} used with table {}",
                                       program_.tables.at(k.sub).name, t.name));
      if (k.i < 0)
        throw RuntimeError(fmt::format("table {}: the odds are below its first column", t.name));
      return static_cast<size_t>(k.i);
    }
    for (size_t i = 0; i < ks.size(); ++i) {
      const TableKeyInfo& key = ks[i];
      if (kind == TableInfo::OddsKeys && k.tag == Tag::Odds &&
          compareOdds(k.i, k.j(), key.lo, key.hi) == 0)
        return i;
      if (kind == TableInfo::EnumKeys && k.tag == Tag::Enum && k.i == key.lo) return i;
      if (kind == TableInfo::IntKeys && k.tag == Tag::Int && key.matches(k.i)) return i;
    }
    throw RuntimeError(
        fmt::format("table {} has no {} for {}", t.name, what, display(program_, state_, k)));
  };
  size_t r = find(t.rows, t.rowKind, keys[0], "row");
  size_t c = want == 2 ? find(t.cols, t.colKind, keys[1], "column") : 0;
  const Value& v = t.cells[r * std::max<size_t>(1, t.cols.size()) + c];
  if (state_.tracing) {
    trace(t.citations, TraceKind::Table, t.name,
          want == 2 ? fmt::format("row {}, column {}", t.rows[r].text, t.cols[c].text)
                    : fmt::format("row {}", t.rows[r].text),
          display(program_, state_, v));
  }
  return v;
}

}  // namespace polemos::eval
