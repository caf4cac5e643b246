// The memo of pure calls: hashing of arguments, the open-addressing table and its growth, and the
// per-hex lists of units (eval/memo.h says what is cached and when it is dropped).
#include "eval/memo.h"

#include <algorithm>

namespace polemos::eval {

using namespace polemos::ir;

namespace {
size_t hashValue(const Value& v) {
  size_t h = static_cast<size_t>(v.tag) * 1000003u ^ static_cast<size_t>(v.sub) * 7919u;
  h ^= std::hash<int64_t>()(v.i) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  h ^= std::hash<int64_t>()(v.j) + (h << 6);
  if (v.tag == Tag::Str) h ^= std::hash<std::string>()(v.text());
  for (const Value& e : v.items()) h = h * 31 + hashValue(e);
  return h;
}
}  // namespace

size_t MemoCache::hash(int32_t fn, std::span<const Value> args) {
  uint64_t h = std::hash<int32_t>()(fn);
  for (const Value& v : args) h = h * 1000003u ^ hashValue(v);
  // The table indexes by the low bits, which the products above leave poorly mixed (unit and hex
  // indices are small numbers): a final avalanche (MurmurHash3's fmix64) spreads them.
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return static_cast<size_t>(h);
}

void MemoCache::store(uint64_t version, Key k, Value v) {
  if (version != version_) {
    clear();
    version_ = version;
  }
  // Bounded: a pathological ruleset cannot grow the cache without limit.
  if (used_ > 200000) clear();
  if ((used_ + 1) * 2 > slots_.size()) grow();
  size_t h = hash(k.fn, k.args);
  size_t i = h & mask_;
  for (; slots_[i].gen == gen_; i = (i + 1) & mask_) {
    const Slot& s = slots_[i];
    if (s.hash == h && s.key == k) return;  // already there (the first answer stays)
  }
  Slot& s = slots_[i];
  s.gen = gen_;
  s.hash = h;
  s.key.fn = k.fn;
  s.key.args.assign(std::make_move_iterator(k.args.begin()), std::make_move_iterator(k.args.end()));
  s.value = std::move(v);
  ++used_;
}

void MemoCache::grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.clear();
  slots_.resize(old.empty() ? 1024 : old.size() * 2);
  mask_ = slots_.size() - 1;
  for (Slot& o : old) {
    if (o.gen != gen_) continue;
    size_t i = o.hash & mask_;
    while (slots_[i].gen == gen_) i = (i + 1) & mask_;
    slots_[i] = std::move(o);
  }
}

const Value& MemoCache::unitsAt(const GameState& s, int32_t h) {
  if (s.version != version_) {
    clear();
    version_ = s.version;
  }
  size_t n = static_cast<size_t>(s.map.size());
  if (firstAt_.empty()) {
    firstAt_.assign(n, -1);
    nextAt_.assign(s.units.size(), -1);
    if (unitsAt_.size() != n) {
      unitsAt_.assign(n, Value::none());
      unitsAtMade_.assign(n, 0);
    }
    // Backwards, so that each hex's chain runs in unit order.
    for (size_t i = s.units.size(); i-- > 0;) {
      const UnitState& u = s.units[i];
      if (u.status != UnitStatus::OnMap || u.hex < 0 || static_cast<size_t>(u.hex) >= n) continue;
      nextAt_[i] = firstAt_[u.hex];
      firstAt_[u.hex] = static_cast<int32_t>(i);
    }
  }
  Value& v = unitsAt_[static_cast<size_t>(h)];
  if (unitsAtMade_[h] != unitsAtGen_) {
    unitsAtMade_[h] = unitsAtGen_;
    static const Value kNone = Value::makeList({});
    if (firstAt_[h] < 0) {
      v = kNone;
    } else {
      ValueList out;
      for (int32_t i = firstAt_[h]; i >= 0; i = nextAt_[i]) out.push_back(Value::of(Tag::Unit, i));
      v = Value::makeList(std::move(out));
    }
  }
  return v;
}

}  // namespace polemos::eval
