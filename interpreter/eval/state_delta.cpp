#include "eval/state_delta.h"

#include <algorithm>

namespace polemos::eval {

bool identical(const ir::Value& a, const ir::Value& b) {
  if (a.tag != b.tag || a.sub != b.sub || a.i != b.i || a.j() != b.j()) return false;
  if (a.payloadId() == b.payloadId()) return true;
  if (a.tag == ir::Tag::Str) return a.text() == b.text();
  if (a.listPtr() && b.listPtr()) {
    const auto& x = a.items();
    const auto& y = b.items();
    return std::equal(x.begin(), x.end(), y.begin(), y.end(), identical);
  }
  return a.hasPayload() == b.hasPayload();  // no payload a player could see
}

namespace {

bool same(const UnitState& a, const UnitState& b) {
  return a.id == b.id && a.type == b.type && a.cls == b.cls && a.side == b.side && a.hex == b.hex &&
         a.facing == b.facing && a.status == b.status &&
         std::equal(a.fields.begin(), a.fields.end(), b.fields.begin(), b.fields.end(), identical);
}
template <class T>
bool same(const T& a, const T& b) {
  return a == b;
}

// The entries of `from` that `to` does not hold the same, moved out of `from`, which is left
// empty (its memory given back: the delta keeps only what changed).
template <class T>
auto differences(std::vector<T>& from, const std::vector<T>& to) {
  std::vector<std::pair<uint32_t, T>> changed;
  for (size_t i = 0; i < from.size(); ++i)
    if (i >= to.size() || !same(from[i], to[i]))
      changed.emplace_back(static_cast<uint32_t>(i), std::move(from[i]));
  std::vector<T>().swap(from);
  return changed;
}

// `to`'s entries, as many as `from` had, with the ones that differed put back.
template <class T, class Table>
std::vector<T> rebuilt(const Table& t, const std::vector<T>& to) {
  std::vector<T> v(to.begin(),
                   to.begin() + static_cast<std::ptrdiff_t>(std::min(t.size, to.size())));
  v.resize(t.size);
  for (const auto& [i, x] : t.changed) v[i] = x;
  return v;
}

}  // namespace

StateDelta StateDelta::between(GameState from, const GameState& to) {
  StateDelta d;
  const auto table = [](auto& mine, auto& from, const auto& to) {
    mine.size = from.size();
    mine.changed = differences(from, to);
  };
  table(d.units_, from.units, to.units);
  table(d.fieldStamps_, from.fieldStamps, to.fieldStamps);
  table(d.unitStamps_, from.unitStamps, to.unitStamps);
  table(d.hexStamps_, from.hexStamps, to.hexStamps);
  table(d.otherStamps_, from.otherStamps, to.otherStamps);
  table(d.coverage_, from.coverage, to.coverage);
  d.rest_ = std::move(from);
  return d;
}

GameState StateDelta::restore(const GameState& to) const {
  GameState s = rest_;
  s.units = rebuilt(units_, to.units);
  s.fieldStamps = rebuilt(fieldStamps_, to.fieldStamps);
  s.unitStamps = rebuilt(unitStamps_, to.unitStamps);
  s.hexStamps = rebuilt(hexStamps_, to.hexStamps);
  s.otherStamps = rebuilt(otherStamps_, to.otherStamps);
  s.coverage = rebuilt(coverage_, to.coverage);
  return s;
}

}  // namespace polemos::eval
