// The memo of pure calls: hashing of arguments, the open-addressing table and its growth, and the
// per-hex lists of units (eval/memo.h says what is cached and when it is dropped).
#include "eval/memo.h"

#include <algorithm>
#include <cstdio>

namespace polemos::eval {

using namespace polemos::ir;

namespace {
// The kind, subkind and number of a value, mixed: the whole hash of a plain value.
[[gnu::always_inline]] inline size_t headHash(const Value& v) {
  size_t h = static_cast<size_t>(v.tag) * 1000003u ^ static_cast<size_t>(v.sub) * 7919u;
  h ^= std::hash<int64_t>()(v.i) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}
// A value with no second term and no payload (a unit, a hex, a number: nearly every argument).
constexpr bool headOnly(Tag t) {
  constexpr uint32_t kRest =
      1u << static_cast<unsigned>(Tag::Odds) | 1u << static_cast<unsigned>(Tag::Str) |
      1u << static_cast<unsigned>(Tag::List) | 1u << static_cast<unsigned>(Tag::Func) |
      1u << static_cast<unsigned>(Tag::Packed);
  return static_cast<unsigned>(t) >= 32 || !(kRest >> static_cast<unsigned>(t) & 1u);
}
// Such a value's hash: the same as hashValue's, without looking for the rest, and made in line.
[[gnu::always_inline]] inline size_t plainHash(const Value& v) {
  size_t h = headHash(v);
  return h ^ (h << 6);
}
size_t hashValue(const Value& v) {
  if (headOnly(v.tag)) return plainHash(v);
  size_t h = headHash(v);
  h ^= std::hash<int64_t>()(v.j()) + (h << 6);
  if (v.tag == Tag::Str) h ^= std::hash<std::string>()(v.text());
  for (const Value& e : v.items()) h = h * 31 + hashValue(e);
  for (int32_t n : v.cells()) h = h * 31 + static_cast<size_t>(static_cast<uint32_t>(n));
  return h;
}
}  // namespace

size_t MemoCache::hash(int32_t fn, std::span<const Value> args) {
  // A multiply and a rotation per argument (nearly every one a unit, a hex, a side or a number:
  // its kind, subkind and number in one word), then one final mix: the table indexes by the low
  // bits, which small unit and hex numbers would otherwise leave poorly spread.
  constexpr uint64_t kMul = 0x9e3779b97f4a7c15ull;
  uint64_t h = static_cast<uint64_t>(static_cast<uint32_t>(fn)) * kMul;
  for (const Value& v : args) {
    uint64_t x = headOnly(v.tag) ? static_cast<uint64_t>(v.i) * 0xff51afd7ed558ccdull ^
                                       (static_cast<uint64_t>(v.tag) << 56) ^
                                       (static_cast<uint64_t>(static_cast<uint32_t>(v.sub)) << 24)
                                 : hashValue(v);
    h = (h ^ x) * kMul;
    h = (h << 29) | (h >> 35);
  }
  h ^= h >> 32;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 29;
  return static_cast<size_t>(h);
}

void MemoCache::verifyFailed(const char* what) {
  std::fprintf(stderr,
               "polemos: POLEMOS_VERIFY_KEPT: %s kept across a change differs from a new one\n",
               what);
  std::_Exit(3);
}

void MemoCache::store(const GameState& st, int32_t fn, std::span<const Value> args, Value v,
                      const std::vector<int32_t>* reads) {
  if (st.version != version_) advance(st);
  if (Answer* d = denseSlot(st, fn, args)) {
    if (d->gen == denseGen_ && keepsFirst(st, *d, v, reads, denseLogged_)) return;
    put(st, *d, std::move(v), reads, denseGen_, denseUsed_, denseLogged_);
    return;
  }
  // Bounded: a pathological ruleset cannot grow the cache without limit.
  if (used_ >= kMaxEntries) compact(st);
  if ((used_ + 1) * 2 > slots_.size()) {
    // Mostly answers of earlier versions made outside a search (which can never be taken
    // again): drop those rather than grow.
    if (logged_ * 2 < used_ && version_ != compactedAt_) compact(st);
    if ((used_ + 1) * 2 > slots_.size()) grow();
  }
  const size_t h = hash(fn, args);
  size_t i = h & mask_;
  for (; slots_[i].gen == gen_; i = (i + 1) & mask_) {
    Slot& s = slots_[i];
    if (s.hash == static_cast<uint32_t>(h) && s.fn == fn &&
        std::equal(args.begin(), args.end(), s.args.begin(), s.args.end())) {
      if (keepsFirst(st, s, v, reads, logged_)) return;
      break;  // an answer of an earlier version that no longer holds: made anew here
    }
  }
  Slot& s = slots_[i];
  put(st, s, std::move(v), reads, gen_, used_, logged_);
  s.hash = static_cast<uint32_t>(h);
  s.fn = fn;
  s.args.assign(args.begin(), args.end());
  countDense(st, s.fn, s.args);  // after the answer is in, so that a new table takes it too
}

bool MemoCache::keepsFirst(const GameState& st, Answer& s, const Value& v,
                           const std::vector<int32_t>* reads, size_t& logged) {
  if (s.verifying) {
    s.verifying = false;
    if (!(s.value == v)) verifyFailed("an answer");
  }
  if (s.version != version_) return false;
  // Already there (the first answer stays); an answer made logged gives it its reads.
  if (reads && !s.logged) {
    ++logged;
    s.logged = true;
    s.epoch = st.epoch;
    setReads(s.reads, *reads);
    stampReads(st, s);
  }
  return true;
}

void MemoCache::put(const GameState& st, Answer& s, Value v, const std::vector<int32_t>* reads,
                    uint32_t gen, size_t& used, size_t& logged) {
  if (s.gen != gen)
    ++used;
  else if (s.logged)
    --logged;
  if (reads) ++logged;
  s.logged = reads != nullptr;
  s.verifying = false;
  s.version = version_;
  s.epoch = st.epoch;
  if (reads)
    setReads(s.reads, *reads);
  else
    s.reads.clear();
  stampReads(st, s);
  s.gen = gen;
  s.value = std::move(v);
}

void MemoCache::countDense(const GameState& st, int32_t fn, std::span<const Value> args) {
  if (fn < 0) return;
  const size_t f = static_cast<size_t>(fn);
  if (f >= denseOf_.size()) {
    denseOf_.resize(f + 1, 0);
    denseStores_.resize(f + 1, 0);
  }
  if (denseOf_[f] != 0 || ++denseStores_[f] < kDenseAfter) return;
  denseOf_[f] = -1;  // unless a layout fits below
  const hex::Grid* grid = st.map.grid.get();
  Dense t;
  t.grid = grid;
  size_t total = 1;
  for (size_t k = 0; k < args.size(); ++k) {
    const Value& v = args[k];
    DenseDim dim;
    dim.tag = v.tag;
    // The call that makes the layout need not fit it where it is a number (a facing of 9 is
    // the hash table's; the facings from 0 to 7 the table's).
    if (v.sub != 0 || (v.i < 0 && v.tag != Tag::Int)) return;
    if (v.tag == Tag::Hex) {
      if (!grid || v.i >= grid->size()) return;
      // A step: a hex next to the hex just before it (that one not a step itself).
      const bool after = k > 0 && args[k - 1].tag == Tag::Hex && !t.dims[k - 1].step;
      const auto next = after ? grid->neighbourIndices(static_cast<int32_t>(args[k - 1].i))
                              : std::array<int32_t, hex::kDirectionCount>{};
      dim.step = after && std::find(next.begin(), next.end(), v.i) != next.end();
      dim.size = dim.step ? static_cast<uint32_t>(hex::kDirectionCount)
                          : static_cast<uint32_t>(grid->size());
    } else if (v.tag == Tag::Unit) {
      dim.size = static_cast<uint32_t>(st.units.size());
    } else if (v.tag == Tag::Side) {
      dim.size = static_cast<uint32_t>(st.sides.size());
    } else if (v.tag == Tag::Bool) {
      dim.size = 2;
    } else if (v.tag == Tag::Int) {
      dim.size = kDenseInts;  // a facing, a direction, a small price; others go to the hash table
    } else {
      return;
    }
    if (dim.size == 0 || (!dim.step && v.tag != Tag::Int && v.i >= dim.size)) return;
    total *= dim.size;
    if (total > kMaxDense) return;
    t.dims.push_back(dim);
  }
  if (t.dims.empty() || denseSlots_ + total > kMaxDenseTotal) return;
  t.slots.resize(total);
  denseSlots_ += total;
  dense_.push_back(std::move(t));
  denseOf_[f] = static_cast<int32_t>(dense_.size());
  // The answers made before: copied in, so that each key is found where it is now asked for
  // (those left in the hash table are never asked for again, and go with it).
  for (const Slot& o : slots_) {
    if (o.gen != gen_ || o.fn != fn) continue;
    Answer* d = denseSlot(st, fn, o.args);
    if (!d) continue;
    *d = o;  // the answer, not the key
    d->gen = denseGen_;
    ++denseUsed_;
    if (o.logged) ++denseLogged_;
  }
}

bool MemoCache::denseRoute(int32_t fn, const hex::Grid* grid, std::span<const DenseKind> kinds,
                           DenseRoute& out) const {
  if (fn < 0 || static_cast<size_t>(fn) >= denseOf_.size() ||
      denseOf_[static_cast<size_t>(fn)] <= 0)
    return false;
  const int32_t table = denseOf_[static_cast<size_t>(fn)] - 1;
  const Dense& t = dense_[static_cast<size_t>(table)];
  if (t.grid != grid || t.dims.size() != kinds.size() || kinds.size() > DenseRoute::kMaxArgs)
    return false;
  for (size_t k = 0; k < kinds.size(); ++k)
    if (t.dims[k].tag != kinds[k].tag || t.dims[k].step != kinds[k].step) return false;
  // As denseSlot numbers a slot: the last argument counts by one.
  uint32_t stride = 1;
  for (size_t k = kinds.size(); k-- > 0;) {
    out.stride[k] = stride;
    out.size[k] = t.dims[k].size;
    stride *= t.dims[k].size;
  }
  out.table = table;
  return true;
}

std::span<const Value> MemoCache::denseArgs(int32_t fn, uint32_t slot,
                                            std::array<Value, DenseRoute::kMaxArgs>& out) const {
  const Dense& t = dense_[static_cast<size_t>(denseOf_[static_cast<size_t>(fn)] - 1)];
  const size_t n = t.dims.size();
  std::array<uint32_t, DenseRoute::kMaxArgs> x{};
  for (size_t k = n; k-- > 0;) {  // as denseSlot numbers a slot: the last argument counts by one
    x[k] = slot % t.dims[k].size;
    slot /= t.dims[k].size;
  }
  for (size_t k = 0; k < n; ++k) {
    int64_t v = x[k];
    if (t.dims[k].step) v = t.grid->neighbourIndices(static_cast<int32_t>(out[k - 1].i))[x[k]];
    out[k] = Value::of(t.dims[k].tag, v);
  }
  return {out.data(), n};
}

// In place: the answers that still hold are taken out, the table emptied (a new generation) and
// they are put back; no table is allocated.
void MemoCache::compact(const GameState& st) {
  std::vector<Slot> keep;
  for (Slot& o : slots_)
    if (o.gen == gen_ && (o.version == version_ || carried(st, o))) keep.push_back(std::move(o));
  clearHash();  // the dense tables, bounded by their size, keep theirs
  compactedAt_ = version_;
  // Most still hold: start afresh rather than compact again at the next few stores.
  if (keep.size() * 2 >= kMaxEntries) return;
  for (Slot& o : keep) {
    size_t i = o.hash & mask_;
    while (slots_[i].gen == gen_) i = (i + 1) & mask_;
    o.gen = gen_;
    if (o.logged) ++logged_;
    slots_[i] = std::move(o);
    ++used_;
  }
}

static_assert(MemoCache::kOtherBase == GameState::kOtherChange,
              "a change to another stamp has the code of its read");

int32_t MemoCache::makeGroup(const std::vector<int32_t>& reads) {
  Group g;
  g.reads.reserve(reads.size());
  for (int32_t r : reads) {
    if (r <= kGroupBase)
      g.nested.push_back(static_cast<uint32_t>(kGroupBase - r));
    else
      g.reads.push_back(r);
  }
  std::sort(g.reads.begin(), g.reads.end());
  g.hexesFrom = static_cast<uint32_t>(std::upper_bound(g.reads.begin(), g.reads.end(), kOtherBase) -
                                      g.reads.begin());
  g.unitsFrom = static_cast<uint32_t>(
      std::lower_bound(g.reads.begin() + g.hexesFrom, g.reads.end(), 0) - g.reads.begin());
  groupReads_ += reads.size();
  groups_.push_back(std::move(g));
  return kGroupBase - static_cast<int32_t>(groups_.size() - 1);
}

bool MemoCache::Group::has(int32_t read) const {
  const auto first = reads.begin() + (read >= 0 ? unitsFrom : read > kOtherBase ? hexesFrom : 0);
  const auto last = reads.begin() + (read >= 0           ? reads.size()
                                     : read > kOtherBase ? unitsFrom
                                                         : hexesFrom);
  if (first == last || read < *first || read > *(last - 1)) return false;
  return std::binary_search(first, last, read);
}

bool MemoCache::Group::renews(int32_t change) const {
  if (change == GameState::kEpochChange) return true;
  if (has(change)) return true;
  // A unit's field renews the unit's own stamp too (a read of the whole unit).
  if (change >= 0 && change % 256 != static_cast<int32_t>(GameState::kWholeUnit))
    return has(change - change % 256 + static_cast<int32_t>(GameState::kWholeUnit));
  return false;
}

uint64_t MemoCache::groupStamp(const GameState& s, size_t g) {
  if (g >= groups_.size()) return ~0ull;  // dropped: never the stamp it was taken with
  Group& gr = groups_[g];                 // groups_ does not grow meanwhile: the reference holds
  if (gr.at == s.version) return gr.stamp;
  uint64_t most = gr.stamp;
  // From the changes since, when they are all held and fewer than a look at every read costs;
  // an epoch's change counts as renewing every read.
  bool known = gr.at != ~0ull && gr.at < s.version &&
               s.version - gr.at <= 4 + gr.reads.size() / 4 &&
               s.changesSince(gr.at, [&](uint64_t v, int32_t change) {
                 if (change == GameState::kEpochChange) return false;
                 if (gr.renews(change)) most = std::max(most, v);
                 return true;
               });
  if (!known) {
    most = 0;
    for (int32_t r : gr.reads) most = std::max(most, stampOf(s, r));
  }
  for (uint32_t h : gr.nested) most = std::max(most, groupStamp(s, h));
  if (verify_ && known) {
    uint64_t all = 0;
    for (int32_t r : gr.reads) all = std::max(all, stampOf(s, r));
    for (uint32_t h : gr.nested) all = std::max(all, groupStamp(s, h));
    if (all != most) verifyFailed("a group's stamp kept from the changes since");
  }
  gr.at = s.version;
  gr.stamp = most;
  return most;
}

void MemoCache::dropGroups(const GameState& st) {
  if (st.epoch == groupsEpoch_) {
    // Too many in one epoch: every answer and search that may name one goes with them.
    clear();
    kept_.clear();
  }
  groups_.clear();
  groupReads_ = 0;
  groupsEpoch_ = st.epoch;
}

std::vector<int32_t> MemoCache::readsAsOne(Kept& e) {
  if (e.all.size() < kGroupFrom) return e.allReads();
  if (e.group == 0) e.group = makeGroup(e.allReads());
  return {e.group};
}

void MemoCache::grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.clear();
  slots_.resize(old.empty() ? 256 : old.size() * 2);
  mask_ = slots_.size() - 1;
  for (Slot& o : old) {
    if (o.gen != gen_) continue;
    size_t i = o.hash & mask_;
    while (slots_[i].gen == gen_) i = (i + 1) & mask_;
    slots_[i] = std::move(o);
  }
}

size_t MemoCache::beginLog() {
  if (logs_.size() <= logTop_) {
    logs_.emplace_back();
    tokens_.push_back(0);
  }
  logs_[logTop_].clear();
  if (++nextToken_ == 0) {  // the tokens went round: no mark may look like a new log's
    std::fill(marks_.begin(), marks_.end(), 0);
    nextToken_ = 1;
  }
  tokens_[logTop_] = nextToken_;
  return logTop_++;
}

std::vector<int32_t> MemoCache::endLog(size_t at, bool intoOuter) {
  if (at >= logTop_) return {};
  // A copy: the log keeps its capacity for the next one opened at this depth (a hook call of a
  // search opens one, thousands of times a search).
  std::vector<int32_t> reads;
  endLogInto(at, reads);
  if (intoOuter && logTop_ > 0) logReads(reads);
  return reads;
}

void MemoCache::endLogInto(size_t at, std::vector<int32_t>& out) {
  if (at >= logTop_) return;
  // A log holds each read once (note); logs left open by a call that failed are added, and only
  // then can a read repeat.
  const size_t from = out.size();
  out.insert(out.end(), logs_[at].begin(), logs_[at].end());
  if (at + 1 < logTop_) {
    for (size_t i = at + 1; i < logTop_; ++i)
      out.insert(out.end(), logs_[i].begin(), logs_[i].end());
    std::sort(out.begin() + static_cast<std::ptrdiff_t>(from), out.end());
    out.erase(std::unique(out.begin() + static_cast<std::ptrdiff_t>(from), out.end()), out.end());
  }
  logTop_ = at;
}

void MemoCache::record(Recording& r, size_t at, int32_t fn, std::span<const Value> args,
                       const Value& result) {
  HookCall call;
  call.fn = fn;
  call.argsAt = static_cast<uint32_t>(r.args.size());
  call.argCount = static_cast<uint32_t>(args.size());
  r.args.append(args);
  call.readsAt = static_cast<uint32_t>(r.reads.size());
  endLogInto(at, r.reads);
  call.readCount = static_cast<uint32_t>(r.reads.size() - call.readsAt);
  r.calls.push_back(call);
  r.results.push_back(result);
}

// Linear in the reads: each distinct read is taken once, the first time it is seen (slotMark_,
// marked with a token of its own), with its stamp now.
void MemoCache::index(const GameState& s, Kept& e) {
  const uint32_t token = nextIndexToken();
  e.all.clear();
  e.group = 0;
  auto take = [&](int32_t r) {
    size_t i = readIndex(r);
    if (i >= slotMark_.size()) slotMark_.resize(i + 1024, 0);
    if (slotMark_[i] != token) {
      slotMark_[i] = token;
      e.all.emplace_back(r, stampOf(s, r));
    }
  };
  // The pool of reads first loses what calls made again left behind (see kept).
  size_t live = 0;
  for (const HookCall& call : e.made.calls) live += call.readCount;
  if (e.made.reads.size() > 2 * live + 64) {
    std::vector<int32_t> pool;
    pool.reserve(live);
    for (HookCall& call : e.made.calls) {
      auto rs = e.readsOf(call);
      call.readsAt = static_cast<uint32_t>(pool.size());
      pool.insert(pool.end(), rs.begin(), rs.end());
    }
    e.made.reads = std::move(pool);
  }
  for (int32_t r : e.base) take(r);
  for (int32_t r : e.made.reads) take(r);
}

std::vector<int32_t> MemoCache::Kept::allReads() const {
  std::vector<int32_t> out;
  out.reserve(all.size());
  for (const auto& r : all) out.push_back(r.first);
  return out;
}

MemoCache::Answers::Answers(const MemoCache& memo, const Kept& k) : memo_(memo), kept_(k) {
  size_t n = 16;
  while (n < 2 * k.made.calls.size()) n *= 2;
  table_.assign(n, 0);
  mask_ = n - 1;
  CallArgs buf;
  for (size_t c = 0; c < k.made.calls.size(); ++c) {
    const HookCall& call = k.made.calls[c];
    for (size_t i = hash(call.fn, memo.argsOf(k.made, call, buf)) & mask_;; i = (i + 1) & mask_)
      if (table_[i] == 0) {
        table_[i] = static_cast<uint32_t>(c + 1);
        break;
      }
  }
}

const ir::Value* MemoCache::Answers::find(int32_t fn, std::span<const ir::Value> args) const {
  CallArgs buf;
  for (size_t i = hash(fn, args) & mask_; table_[i] != 0; i = (i + 1) & mask_) {
    const HookCall& call = kept_.made.calls[table_[i] - 1];
    if (call.fn != fn) continue;
    auto was = memo_.argsOf(kept_.made, call, buf);
    if (std::equal(args.begin(), args.end(), was.begin(), was.end()))
      return &kept_.made.results[table_[i] - 1];
  }
  return nullptr;
}

MemoCache::Kept* MemoCache::kept(const GameState& s, const Key& k, const Recall& recall) {
  auto it = kept_.find(k);
  if (it == kept_.end()) return nullptr;
  Kept& e = it->second;
  if (e.epoch != s.epoch) return nullptr;
  // The reads that changed, and the calls that made them: the search itself reading one that
  // changed means searching again.
  std::vector<size_t> changed;
  for (size_t i = 0; i < e.all.size(); ++i)
    if (stampOf(s, e.all[i].first) != e.all[i].second) changed.push_back(i);
  if (!changed.empty()) {
    // The calls that read a changed read, found by a look at every call's reads (a search is
    // mended far less often than it is made: no index of readers is kept).
    const uint32_t token = nextIndexToken();
    for (size_t i : changed) slotMark_[readIndex(e.all[i].first)] = token;
    auto changedRead = [&](int32_t r) { return slotMark_[readIndex(r)] == token; };
    if (std::any_of(e.base.begin(), e.base.end(), changedRead)) return nullptr;
    std::vector<uint32_t> stale;
    for (size_t c = 0; c < e.made.calls.size(); ++c) {
      auto rs = e.readsOf(e.made.calls[c]);
      if (std::any_of(rs.begin(), rs.end(), changedRead)) stale.push_back(static_cast<uint32_t>(c));
    }
    // A call made again may search for another unit (a hook that asks reachable()): the table
    // may grow meanwhile (references to its entries stay good) but is not emptied (busy_).
    ++busy_;
    struct Busy {
      int& n;
      ~Busy() { --n; }
    } busy{busy_};
    bool sameReads = true;
    std::vector<int32_t> now;
    for (uint32_t c : stale) {
      HookCall& call = e.made.calls[c];
      size_t at = beginLog();
      bool same = false;
      try {
        CallArgs buf;
        same = recall(call.fn, argsOf(e.made, call, buf)) == e.made.results[c];
      } catch (const std::exception&) {
        same = false;  // an error now where there was an answer: search again
      }
      now.clear();
      endLogInto(at, now);
      if (!same) {
        kept_.erase(k);
        return nullptr;
      }
      auto was = e.readsOf(call);
      if (!std::equal(now.begin(), now.end(), was.begin(), was.end())) {
        sameReads = false;
        // In place when they fit, else at the end of the pool (index drops what is left).
        if (now.size() > call.readCount) {
          call.readsAt = static_cast<uint32_t>(e.made.reads.size());
          e.made.reads.insert(e.made.reads.end(), now.begin(), now.end());
        } else {
          std::copy(now.begin(), now.end(), e.made.reads.begin() + call.readsAt);
        }
        call.readCount = static_cast<uint32_t>(now.size());
      }
    }
    // Every answer is the same: the search holds, with the stamps of now.
    if (sameReads) {
      for (size_t i : changed) e.all[i].second = stampOf(s, e.all[i].first);
    } else {
      index(s, e);
    }
  }
  return &e;
}

MemoCache::Kept& MemoCache::keep(const GameState& s, const Key& k, const Value& v,
                                 std::vector<int32_t> base, Recording&& calls) {
  // Bounded like the memo: a search per unit and kind is what play needs.
  if (kept_.size() > 20000 && busy_ == 0) kept_.clear();
  Kept& e = kept_[k];
  e.epoch = s.epoch;
  e.base = std::move(base);
  // Kept for long, thousands of them: copied at their own size; the record goes back, emptied,
  // for the next search (spareRecording).
  std::vector<HookCall>(calls.calls.begin(), calls.calls.end()).swap(e.made.calls);
  e.made.args = ir::ValuePool(calls.args);
  e.made.results = ir::ValuePool(calls.results);
  std::vector<int32_t>(calls.reads.begin(), calls.reads.end()).swap(e.made.reads);
  std::vector<uint32_t>(calls.shared.begin(), calls.shared.end()).swap(e.made.shared);
  calls.calls.clear();
  calls.args.clear();
  calls.results.clear();
  calls.reads.clear();
  calls.shared.clear();
  if (spare_.size() < 4) spare_.push_back(std::move(calls));
  e.value = v;
  for (ir::Value& d : e.derived) d = ir::Value::none();
  index(s, e);
  return e;
}

const Value& MemoCache::unitsAt(const GameState& s, int32_t h) {
  if (s.version != version_) advance(s);
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
