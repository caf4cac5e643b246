// The memo of pure calls (eval/memo.h) on its own: answers are found in the version they were
// made in and not after a change; a new cache carries no answer of a dropped one (each game of a
// `sim` run makes one); growth keeps every answer; a kept search is mended call by call; an
// answer that read many things (kept as one group of reads) is carried exactly while none of them
// changed, also when it is read inside another answer and across a rollback; a value worked out of
// a kept search's list is kept with the search; a kept search gives the answers of its hook calls;
// the dense tables of functions of units, sides, hexes and steps hold exactly what the hash table
// would.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <vector>

#include "eval/memo.h"
#include "small_map.h"

namespace polemos::eval {
namespace {

using ir::Value;

MemoCache::Key key(int32_t fn, int64_t a, int64_t b) {
  return MemoCache::Key{fn, {Value::integer(a), Value::integer(b)}};
}

TEST(MemoCache, AnAnswerIsFoundInItsVersionOnly) {
  GameState st;
  MemoCache m;
  m.store(st, key(1, 2, 3), Value::integer(5));
  const Value* hit = m.find(st, key(1, 2, 3));
  ASSERT_NE(hit, nullptr);
  EXPECT_EQ(hit->i, 5);
  EXPECT_EQ(m.find(st, key(1, 3, 2)), nullptr);
  EXPECT_EQ(m.find(st, key(2, 2, 3)), nullptr);
  st.touch();
  EXPECT_EQ(m.find(st, key(1, 2, 3)), nullptr);
}

TEST(MemoCache, GrowingKeepsEveryAnswer) {
  GameState st;
  MemoCache m;
  for (int i = 0; i < 5000; ++i) m.store(st, key(7, i, i * 3), Value::integer(i + 1));
  for (int i = 0; i < 5000; ++i) {
    const Value* hit = m.find(st, key(7, i, i * 3));
    ASSERT_NE(hit, nullptr) << i;
    EXPECT_EQ(hit->i, i + 1);
  }
}

TEST(MemoCache, ANewCacheCarriesNoAnswerOfADroppedOne) {
  // Both fill a table of the same size in version 0 (a new game's versions start again from 0):
  // the second never finds an answer of the first, however its memory was used before.
  {
    GameState st;
    MemoCache first;
    for (int i = 0; i < 20000; ++i) first.store(st, key(3, i, 0), Value::integer(-i));
  }
  GameState st;
  MemoCache second;
  for (int i = 0; i < 20000; ++i) second.store(st, key(3, i, 1), Value::integer(i));
  for (int i = 0; i < 20000; ++i) ASSERT_EQ(second.find(st, key(3, i, 0)), nullptr) << i;
  for (int i = 0; i < 20000; ++i) {
    const Value* hit = second.find(st, key(3, i, 1));
    ASSERT_NE(hit, nullptr) << i;
    EXPECT_EQ(hit->i, i);
  }
  st.touch();
  for (int i = 0; i < 3000; ++i) EXPECT_EQ(second.find(st, key(3, i, 1)), nullptr) << i;
  // A third cache made while the second still lives takes nothing from it.
  GameState st3;
  MemoCache third;
  for (int i = 0; i < 3000; ++i) EXPECT_EQ(third.find(st3, key(3, i, 1)), nullptr) << i;
}

// A kept search: its hook calls are made again when what they read changes, with their own
// arguments; the search holds while their answers are the same (what they read may change, and
// then only the new reads count), and is dropped when one differs.
TEST(MemoCache, AKeptSearchMakesAgainOnlyTheCallsWhoseReadsChanged) {
  GameState st;
  MemoCache m;
  MemoCache::Key k{-100000, {Value::of(ir::Tag::Unit, 0)}};
  MemoCache::Recording rec;
  size_t at = m.beginLog();
  m.readHex(5);
  Value a[2] = {Value::integer(1), Value::integer(2)};
  m.record(rec, at, 10, a, Value::integer(3));
  at = m.beginLog();
  m.readHex(6);
  m.readHex(7);
  Value b[1] = {Value::integer(4)};
  m.record(rec, at, 11, b, Value::integer(1));
  m.keep(st, k, Value::integer(99), {}, std::move(rec));

  std::vector<std::pair<int32_t, std::vector<int64_t>>> recalled;
  std::vector<int64_t> readsNow = {5};
  int64_t answerOf11 = 1;
  auto recall = [&](int32_t fn, std::span<const Value> args) {
    std::vector<int64_t> got;
    for (const Value& v : args) got.push_back(v.i);
    recalled.emplace_back(fn, got);
    if (fn == 11) {
      m.readHex(6);
      return Value::integer(answerOf11);
    }
    for (int64_t h : readsNow) m.readHex(h);
    return Value::integer(3);
  };
  ASSERT_NE(m.kept(st, k, recall), nullptr);
  EXPECT_TRUE(recalled.empty());  // nothing changed: nothing made again

  // Hex 5 changes: call 10 alone is made again, with its arguments; it now reads more.
  readsNow = {5, 8, 9};
  st.touchHex(5);
  const MemoCache::Kept* e = m.kept(st, k, recall);
  ASSERT_NE(e, nullptr);
  ASSERT_EQ(recalled.size(), 1u);
  EXPECT_EQ(recalled[0].first, 10);
  EXPECT_EQ(recalled[0].second, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(e->value.i, 99);

  // Hex 9, which it read the second time: made again, now reading hex 5 alone.
  recalled.clear();
  readsNow = {5};
  st.touchHex(9);
  ASSERT_NE(m.kept(st, k, recall), nullptr);
  ASSERT_EQ(recalled.size(), 1u);
  EXPECT_EQ(recalled[0].first, 10);

  // Hex 8 is read by nobody now: nothing is made again.
  recalled.clear();
  st.touchHex(8);
  ASSERT_NE(m.kept(st, k, recall), nullptr);
  EXPECT_TRUE(recalled.empty());

  // Hex 7 (read by call 11): made again with its own argument; the same answer holds.
  st.touchHex(7);
  ASSERT_NE(m.kept(st, k, recall), nullptr);
  ASSERT_EQ(recalled.size(), 1u);
  EXPECT_EQ(recalled[0].first, 11);
  EXPECT_EQ(recalled[0].second, (std::vector<int64_t>{4}));

  // Hex 6 changes and call 11 answers otherwise: the search no longer holds, and is gone.
  answerOf11 = 2;
  st.touchHex(6);
  EXPECT_EQ(m.kept(st, k, recall), nullptr);
  answerOf11 = 1;
  EXPECT_EQ(m.kept(st, k, recall), nullptr);
}

// An answer made with its reads logged, reading hexes `hexes` (and, inside, the answer `inner`
// if it is given: its reads count with it).
void storeLogged(MemoCache& m, const GameState& st, const MemoCache::Key& k, int64_t answer,
                 const std::vector<int64_t>& hexes, const MemoCache::Key* inner = nullptr) {
  size_t at = m.beginLog();
  for (int64_t h : hexes) m.readHex(h);
  if (inner) {
    ASSERT_NE(m.find(st, *inner), nullptr);
  }
  std::vector<int32_t> reads = m.endLog(at, false);
  m.store(st, k, Value::integer(answer), &reads);
}

// The answer under k is carried past a change of hex `unrelated` with its value, and gone after a
// change of hex `read`.
void expectCarriedUntil(MemoCache& m, GameState& st, const MemoCache::Key& k, int64_t answer,
                        size_t unrelated, size_t read) {
  st.touchHex(unrelated);
  const Value* hit = m.find(st, k);
  ASSERT_NE(hit, nullptr);
  EXPECT_EQ(hit->i, answer);
  st.touchHex(read);
  EXPECT_EQ(m.find(st, k), nullptr);
}

std::vector<int64_t> hexesFrom(int64_t first, int64_t n) {
  std::vector<int64_t> out;
  for (int64_t h = first; h < first + n; ++h) out.push_back(h);
  return out;
}

// Twelve reads are kept as one group: a change of any one of them, the first, one in the middle
// or the last, is seen; a change of anything else is not.
TEST(MemoCache, AnAnswerThatReadManyThingsHoldsExactlyWhileNoneChanged) {
  for (int64_t changed : {10, 15, 21}) {
    GameState st;
    MemoCache m;
    storeLogged(m, st, key(4, 1, 2), 7, hexesFrom(10, 12));
    st.touchHex(40);
    st.touchField(3, 0);
    const Value* hit = m.find(st, key(4, 1, 2));
    ASSERT_NE(hit, nullptr) << changed;
    EXPECT_EQ(hit->i, 7);
    st.touchHex(static_cast<size_t>(changed));
    EXPECT_EQ(m.find(st, key(4, 1, 2)), nullptr) << changed;
  }
}

// An answer that took, inside, an answer of many reads: it holds while those hold, and not after
// one of them changes (though it read none of them itself), also when the inner answer was made
// in an earlier version and carried.
TEST(MemoCache, AnAnswerReadInsideAnotherCountsWithAllItRead) {
  GameState st;
  MemoCache m;
  MemoCache::Key inner = key(5, 0, 0), outer = key(6, 0, 0), later = key(7, 0, 0);
  storeLogged(m, st, inner, 1, hexesFrom(100, 30));
  storeLogged(m, st, outer, 2, {3}, &inner);
  st.touchHex(4);
  storeLogged(m, st, later, 3, {5}, &inner);  // the inner answer carried into this version
  st.touchHex(6);
  ASSERT_NE(m.find(st, outer), nullptr);
  ASSERT_NE(m.find(st, later), nullptr);
  st.touchHex(117);
  EXPECT_EQ(m.find(st, inner), nullptr);
  EXPECT_EQ(m.find(st, outer), nullptr);
  EXPECT_EQ(m.find(st, later), nullptr);
}

// A rollback (Session::replaceState) puts back an earlier state under a new version: an answer
// made before the change that was rolled back holds again; one made after it does not.
TEST(MemoCache, ARollbackPutsBackTheAnswersOfTheStateItRestores) {
  GameState st;
  MemoCache m;
  MemoCache::Key before = key(8, 0, 0), after = key(9, 0, 0);
  storeLogged(m, st, before, 1, hexesFrom(200, 10));
  GameState earlier = st;
  st.touchHex(205);
  EXPECT_EQ(m.find(st, before), nullptr);
  storeLogged(m, st, after, 2, hexesFrom(200, 10));
  uint64_t now = st.version;
  st = earlier;
  st.version = std::max(now, st.version) + 1;
  ASSERT_NE(m.find(st, before), nullptr);
  EXPECT_EQ(m.find(st, after), nullptr);
  // And the same change made again (another version) is a change again.
  st.touchHex(205);
  EXPECT_EQ(m.find(st, before), nullptr);
  EXPECT_EQ(m.find(st, after), nullptr);
}

// An answer of many reads of every kind (a unit's field, a whole unit, hexes, the roster) kept as
// one group: after the group's stamp has been worked out in a later version, a change is seen
// exactly when it renews one of its reads: another field of the same unit, a unit's own stamp
// alone (not its fields), another hex or the clock are not; a field of the unit read whole is.
// The first and the last read of a kind are seen, the reads just past them not (a change is
// looked for among the reads of its kind, by their range). Also after more changes than the game
// holds (the group worked out from every read).
TEST(MemoCache, AGroupsStampFollowsEveryKindOfChangeToItsReads) {
  struct Case {
    const char* what;
    std::function<void(GameState&)> change;
    bool holds;
  };
  const std::vector<Case> cases = {
      {"another field of the unit", [](GameState& s) { s.touchField(2, 1); }, true},
      {"the field read", [](GameState& s) { s.touchField(2, 0); }, false},
      {"the unit's own stamp alone", [](GameState& s) { s.touchField(2, GameState::kWholeUnit); },
       true},
      {"a field of the unit read whole", [](GameState& s) { s.touchField(5, 3); }, false},
      {"the unit read whole, alone", [](GameState& s) { s.touchField(5, GameState::kWholeUnit); },
       false},
      {"another unit", [](GameState& s) { s.touchField(6, 0); }, true},
      {"a hex read", [](GameState& s) { s.touchHex(32); }, false},
      {"the first hex read", [](GameState& s) { s.touchHex(30); }, false},
      {"the last hex read", [](GameState& s) { s.touchHex(35); }, false},
      {"the hex before the first", [](GameState& s) { s.touchHex(29); }, true},
      {"the hex after the last", [](GameState& s) { s.touchHex(36); }, true},
      {"a unit before the first read", [](GameState& s) { s.touchField(1, 0); }, true},
      {"a unit past the last read", [](GameState& s) { s.touchField(7, 2); }, true},
      {"another hex", [](GameState& s) { s.touchHex(99); }, true},
      {"the roster", [](GameState& s) { s.touchOther(GameState::kRoster); }, false},
      {"the clock", [](GameState& s) { s.touchOther(GameState::kClock); }, true},
  };
  for (int many : {0, 1}) {
    for (const Case& c : cases) {
      GameState st;
      MemoCache m;
      size_t at = m.beginLog();
      m.readField(2, 0);
      m.readUnit(5);
      for (int64_t h = 30; h < 36; ++h) m.readHex(h);
      m.readOther(GameState::kRoster);
      std::vector<int32_t> reads = m.endLog(at, false);
      m.store(st, key(12, 0, 0), Value::integer(4), &reads);
      st.touchHex(98);
      ASSERT_NE(m.find(st, key(12, 0, 0)), nullptr) << c.what;  // worked out in this version
      for (int i = 0; i < (many ? 200 : 2); ++i) st.touchHex(100 + static_cast<size_t>(i));
      c.change(st);
      st.touchHex(97);
      const Value* hit = m.find(st, key(12, 0, 0));
      EXPECT_EQ(hit != nullptr, c.holds) << c.what << (many ? " after many changes" : "");
      if (hit) {
        EXPECT_EQ(hit->i, 4);
      }
    }
  }
}

// A new epoch takes nothing of the last; answers of many reads made in it are carried as before.
TEST(MemoCache, ANewEpochStartsItsOwnGroups) {
  GameState st;
  MemoCache m;
  storeLogged(m, st, key(10, 0, 0), 1, hexesFrom(0, 20));
  st.touch();
  EXPECT_EQ(m.find(st, key(10, 0, 0)), nullptr);
  storeLogged(m, st, key(11, 0, 0), 2, hexesFrom(50, 20));
  expectCarriedUntil(m, st, key(11, 0, 0), 2, 3, 69);
}

// A long epoch's groups are bounded: past about four million reads in groups, the answers and
// groups of the epoch are dropped together (here after the memo's own bound of answers has
// emptied it several times). Every answer found after that is the one stored under its key, and
// answers made after the drop are carried as before.
TEST(MemoCache, AnEpochOfVeryManyGroupsDropsThemWithTheirAnswers) {
  GameState st;
  MemoCache m;
  const int64_t n = (int64_t{1} << 22) / 12 + 2000;
  for (int64_t i = 0; i < n; ++i) {
    storeLogged(m, st, key(12, i, 0), i, hexesFrom(1000 + i % 50, 12));
    st.touchHex(5);  // a new version; hex 5 is read by none of them
  }
  size_t found = 0, asked = 0;
  for (int64_t i = 0; i < n; i += 97, ++asked) {
    if (const Value* hit = m.find(st, key(12, i, 0))) {
      EXPECT_EQ(hit->i, i);
      ++found;
    }
  }
  EXPECT_GT(found, 0u);     // those made since the drop
  EXPECT_LT(found, asked);  // the drops took the others
  storeLogged(m, st, key(13, 0, 0), 77, hexesFrom(2000, 12));
  expectCarriedUntil(m, st, key(13, 0, 0), 77, 6, 2011);
}

// A value worked out of a kept search's list is worked out once for that search, and again for
// another kind, for a list that is not the kept search's own (an equal list made anew is another
// list), once the search is kept anew, or in another epoch.
TEST(MemoCache, AValueWorkedOutOfAKeptSearchIsKeptWithIt) {
  GameState st;
  MemoCache m;
  int made = 0;
  auto make = [&](int64_t v) {
    return [&made, v] {
      ++made;
      return Value::integer(v);
    };
  };
  MemoCache::Key k{-100000, {Value::of(ir::Tag::Unit, 0)}};
  Value list = Value::makeList({Value::integer(1), Value::integer(2)});
  EXPECT_EQ(m.derived(st, k, list, 0, make(5)).i, 5);  // no search kept: worked out
  EXPECT_EQ(m.derived(st, k, list, 0, make(6)).i, 6);
  EXPECT_EQ(made, 2);
  m.keep(st, k, list, {}, MemoCache::Recording{});
  Value same = list;
  EXPECT_EQ(m.derived(st, k, list, 0, make(10)).i, 10);
  EXPECT_EQ(m.derived(st, k, same, 0, make(11)).i, 10);  // the same list: kept
  EXPECT_EQ(made, 3);
  EXPECT_EQ(m.derived(st, k, list, 1, make(20)).i, 20);  // another kind
  EXPECT_EQ(m.derived(st, k, list, 1, make(21)).i, 20);
  Value equal = Value::makeList({Value::integer(1), Value::integer(2)});
  EXPECT_EQ(m.derived(st, k, equal, 0, make(30)).i, 30);  // not the kept search's list
  MemoCache::Key other{-100000, {Value::of(ir::Tag::Unit, 1)}};
  EXPECT_EQ(m.derived(st, other, list, 0, make(31)).i, 31);  // another search's key
  m.keep(st, k, equal, {}, MemoCache::Recording{});          // kept anew: worked out anew
  EXPECT_EQ(m.derived(st, k, equal, 0, make(40)).i, 40);
  EXPECT_EQ(m.derived(st, k, list, 0, make(41)).i, 41);  // the old list is no longer the search's
  st.touch();                                            // a new epoch
  EXPECT_EQ(m.derived(st, k, equal, 0, make(50)).i, 50);
}

// The answers of a kept search's hook calls, by function and arguments, for the search that made
// the list found now; none for a list that is not the kept search's, or in another epoch.
TEST(MemoCache, AKeptSearchGivesTheAnswersOfItsCalls) {
  GameState st;
  MemoCache m;
  MemoCache::Key k{-100000, {Value::of(ir::Tag::Unit, 0)}};
  MemoCache::Recording rec;
  for (int64_t to = 0; to < 40; ++to) {
    size_t at = m.beginLog();
    m.readHex(to);
    Value args[3] = {Value::of(ir::Tag::Unit, 0), Value::of(ir::Tag::Hex, to),
                     Value::of(ir::Tag::Hex, to + 1)};
    m.record(rec, at, 10, args, Value::integer(to % 3));
  }
  size_t at = m.beginLog();
  Value one[2] = {Value::of(ir::Tag::Unit, 0), Value::of(ir::Tag::Hex, 7)};
  m.record(rec, at, 11, one, Value::boolean(true));
  Value list = Value::makeList({Value::integer(5)});
  m.keep(st, k, list, {}, std::move(rec));

  EXPECT_EQ(m.keptOf(st, k, Value::makeList({Value::integer(5)})), nullptr);  // another list
  const MemoCache::Kept* kept = m.keptOf(st, k, list);
  ASSERT_NE(kept, nullptr);
  MemoCache::Answers answers(m, *kept);
  for (int64_t to = 0; to < 40; ++to) {
    Value args[3] = {Value::of(ir::Tag::Unit, 0), Value::of(ir::Tag::Hex, to),
                     Value::of(ir::Tag::Hex, to + 1)};
    const Value* v = answers.find(10, args);
    ASSERT_NE(v, nullptr) << to;
    EXPECT_EQ(v->i, to % 3);
    EXPECT_EQ(answers.find(11, args), nullptr);  // another function
  }
  Value reversed[3] = {Value::of(ir::Tag::Unit, 0), Value::of(ir::Tag::Hex, 2),
                       Value::of(ir::Tag::Hex, 1)};
  EXPECT_EQ(answers.find(10, reversed), nullptr);  // a call it did not make
  Value otherUnit[3] = {Value::of(ir::Tag::Unit, 1), Value::of(ir::Tag::Hex, 1),
                        Value::of(ir::Tag::Hex, 2)};
  EXPECT_EQ(answers.find(10, otherUnit), nullptr);
  const Value* stops = answers.find(11, one);
  ASSERT_NE(stops, nullptr);
  EXPECT_TRUE(stops->truthy());

  st.touch();  // a new epoch
  EXPECT_EQ(m.keptOf(st, k, list), nullptr);
}

// A search's record taken from the memo (spareRecording) starts empty, also when it is the room
// of a record kept before; the search kept from it keeps its own calls, and a second search kept
// from the same room keeps only its own.
TEST(MemoCache, ASpareRecordStartsEmptyAndEachKeptSearchKeepsItsOwnCalls) {
  GameState st;
  MemoCache m;
  auto search = [&](int64_t unit, int64_t calls) {
    MemoCache::Recording rec = m.spareRecording();
    EXPECT_TRUE(rec.calls.empty() && rec.args.empty() && rec.results.empty() && rec.reads.empty() &&
                rec.shared.empty())
        << unit;
    for (int64_t to = 0; to < calls; ++to) {
      size_t at = m.beginLog();
      m.readHex(to);
      Value args[2] = {Value::of(ir::Tag::Unit, unit), Value::of(ir::Tag::Hex, to)};
      m.record(rec, at, 10, args, Value::integer(unit * 100 + to));
    }
    rec.shared.push_back(0);
    MemoCache::Key k{-100000, {Value::of(ir::Tag::Unit, unit)}};
    Value list = Value::makeList({Value::integer(unit)});
    m.keep(st, k, list, {}, std::move(rec));
    return std::make_pair(k, list);
  };
  auto [k1, l1] = search(1, 50);
  auto [k2, l2] = search(2, 3);  // in the room the first left
  const MemoCache::Kept* first = m.keptOf(st, k1, l1);
  const MemoCache::Kept* second = m.keptOf(st, k2, l2);
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(first->made.calls.size(), 50u);
  ASSERT_EQ(second->made.calls.size(), 3u);
  EXPECT_EQ(second->made.args.size(), 6u);
  EXPECT_EQ(second->made.reads.size(), 3u);
  EXPECT_EQ(second->made.shared.size(), 1u);
  MemoCache::Answers answers(m, *second);
  for (int64_t to = 0; to < 3; ++to) {
    Value args[2] = {Value::of(ir::Tag::Unit, 2), Value::of(ir::Tag::Hex, to)};
    const Value* v = answers.find(10, args);
    ASSERT_NE(v, nullptr) << to;
    EXPECT_EQ(v->i, 200 + to);
  }
  Value firsts[2] = {Value::of(ir::Tag::Unit, 1), Value::of(ir::Tag::Hex, 0)};
  EXPECT_EQ(answers.find(10, firsts), nullptr);
  EXPECT_EQ(MemoCache::Answers(m, *first).find(10, firsts)->i, 100);
}

// A game of two sides on a map of 8 x 6 hexes (for the dense tables, which index its hexes).
using test_helpers::smallMap;
Value side(int64_t s) {
  return Value::of(ir::Tag::Side, s);
}
Value hexv(int64_t h) {
  return Value::of(ir::Tag::Hex, h);
}
MemoCache::Key step(int32_t fn, int64_t s, int64_t from, int64_t to) {
  return MemoCache::Key{fn, {side(s), hexv(from), hexv(to)}};
}
int64_t answerOf(int64_t s, int64_t from, int64_t to) {
  return s * 10000 + from * 100 + to;
}
// The answer found under k, or kMissing.
constexpr int64_t kMissing = -999999;
int64_t found(MemoCache& m, const GameState& st, const MemoCache::Key& k) {
  const Value* v = m.find(st, k);
  return v ? v->i : kMissing;
}

// A function of a side and a step (side_move_cost(s, from, to)), stored past kDenseAfter times:
// its answers move to a dense table, and every key still finds its own answer and no other's,
// whether it fits the table (a hex and a neighbour of it) or not (two hexes apart, a number
// instead of a side: those stay in the hash table).
TEST(MemoCache, ADenseTableGivesEachKeyItsOwnAnswer) {
  GameState st = smallMap();
  const hex::Grid& g = *st.map.grid;
  MemoCache m;
  std::vector<MemoCache::Key> keys;
  for (int64_t s = 0; s < 2; ++s)
    for (int32_t from = 0; from < g.size(); ++from) {
      for (int32_t to : g.neighbourIndices(from))
        if (to >= 0) keys.push_back(step(5, s, from, to));
      if (from + 12 < g.size()) keys.push_back(step(5, s, from, from + 12));  // not a step
    }
  ASSERT_GT(keys.size(), MemoCache::kDenseAfter);
  for (const MemoCache::Key& k : keys)
    m.store(st, k, Value::integer(answerOf(k.args[0].i, k.args[1].i, k.args[2].i)));
  EXPECT_TRUE(m.dense(5));
  // A number where the side was, stored after the table is made: the hash table's.
  MemoCache::Key odd{5, {Value::integer(1), hexv(3), hexv(4)}};
  m.store(st, odd, Value::integer(-1));
  for (const MemoCache::Key& k : keys) {
    const Value* hit = m.find(st, k);
    ASSERT_NE(hit, nullptr) << k.args[0].i << " " << k.args[1].i << " " << k.args[2].i;
    EXPECT_EQ(hit->i, answerOf(k.args[0].i, k.args[1].i, k.args[2].i));
  }
  const Value* oddHit = m.find(st, odd);
  ASSERT_NE(oddHit, nullptr);
  EXPECT_EQ(oddHit->i, -1);
  EXPECT_EQ(found(m, st, MemoCache::Key{5, {side(1), hexv(3), hexv(4)}}), answerOf(1, 3, 4));
  EXPECT_EQ(m.find(st, step(6, 0, 3, 4)), nullptr);  // another function
  // The same step of the other side, a hex off the map, the reversed step: each its own.
  EXPECT_EQ(found(m, st, step(5, 0, 3, 4)), answerOf(0, 3, 4));
  EXPECT_EQ(found(m, st, step(5, 0, 4, 3)), answerOf(0, 4, 3));
  EXPECT_EQ(m.find(st, step(5, 0, g.size(), g.size() + 1)), nullptr);
  EXPECT_EQ(m.find(st, step(5, 2, 3, 4)), nullptr);  // a side past the game's
  // Answers made outside a search hold for their version only.
  st.touch();
  for (const MemoCache::Key& k : keys) ASSERT_EQ(m.find(st, k), nullptr);
}

// In a dense table as in the hash table: an answer made logged is carried while what it read
// keeps its stamps (also past a compaction of the table) and is gone once one changes; the
// first answer of a version stays.
TEST(MemoCache, ADenseAnswerIsCarriedExactlyWhileItsReadsHold) {
  GameState st = smallMap();
  const hex::Grid& g = *st.map.grid;
  MemoCache m;
  // Each step's answer reads the hex it enters (as terrain and units would be).
  for (int64_t s = 0; s < 2; ++s)
    for (int32_t from = 0; from < g.size(); ++from)
      for (int32_t to : g.neighbourIndices(from))
        if (to >= 0) storeLogged(m, st, step(7, s, from, to), answerOf(s, from, to), {to});
  ASSERT_TRUE(m.dense(7));
  const int32_t from = 20, to = g.neighbourIndices(20)[2];
  m.store(st, step(7, 1, from, to), Value::integer(0));  // a second answer: the first stays
  EXPECT_EQ(found(m, st, step(7, 1, from, to)), answerOf(1, from, to));
  st.touchHex(static_cast<size_t>(from));  // read by the answers that enter `from` only
  for (int32_t h = 0; h < g.size(); ++h)
    for (int32_t n : g.neighbourIndices(h)) {
      if (n < 0) continue;
      const Value* hit = m.find(st, step(7, 0, h, n));
      if (n == from) {
        EXPECT_EQ(hit, nullptr) << h;
      } else {
        ASSERT_NE(hit, nullptr) << h << " " << n;
        EXPECT_EQ(hit->i, answerOf(0, h, n));
      }
    }
  // Many answers of another function made outside a search fill the hash table until it is
  // compacted: the carried dense answers stay, the one that no longer holds does not come back.
  for (int i = 0; i < 60000; ++i) m.store(st, key(9, i, 0), Value::integer(i));
  EXPECT_EQ(found(m, st, step(7, 1, from, to)), answerOf(1, from, to));
  EXPECT_EQ(m.find(st, step(7, 1, g.neighbourIndices(from)[0], from)), nullptr);
  st.touchHex(static_cast<size_t>(to));
  EXPECT_EQ(m.find(st, step(7, 1, from, to)), nullptr);
  EXPECT_EQ(m.find(st, step(7, 0, from, to)), nullptr);
  EXPECT_EQ(m.find(st, step(7, 0, to, from)), nullptr);  // entered `from`, changed before
}

// A function of one unit and a function of many arguments: a unit's table is made (counting
// the answers stored, not those stored again in the same version); a key too large for a table
// (a unit and two hexes apart) never makes one, and its answers are found.
TEST(MemoCache, ATableIsMadeOnlyWhenItIsSmall) {
  GameState st = smallMap();
  st.units.resize(40);
  MemoCache m;
  for (int round = 0; round < 10; ++round) {  // ten versions: each answer stored anew
    st.touch();
    for (int64_t u = 0; u < 40; ++u)
      m.store(st, MemoCache::Key{3, {Value::of(ir::Tag::Unit, u)}}, Value::integer(u * 2));
  }
  EXPECT_TRUE(m.dense(3));
  for (int64_t u = 0; u < 40; ++u)
    EXPECT_EQ(found(m, st, MemoCache::Key{3, {Value::of(ir::Tag::Unit, u)}}), u * 2);
  EXPECT_EQ(m.find(st, MemoCache::Key{3, {Value::of(ir::Tag::Unit, 40)}}), nullptr);
  st.units.resize(2000);
  for (int64_t i = 0; i < 600; ++i)
    m.store(st, MemoCache::Key{4, {Value::of(ir::Tag::Unit, i), hexv(i % 48), hexv(47 - i % 48)}},
            Value::integer(i));
  EXPECT_FALSE(m.dense(4));
  for (int64_t i = 0; i < 600; ++i)
    EXPECT_EQ(
        found(m, st,
              MemoCache::Key{4, {Value::of(ir::Tag::Unit, i), hexv(i % 48), hexv(47 - i % 48)}}),
        i);
}

// Answers of one to five reads (kept as they are, the first in the slot itself, more on the
// heap): each holds past changes of what it did not read and through the table's growth (which
// moves every slot), and is gone after a change of any one of its reads.
TEST(MemoCache, AnAnswerOfAFewReadsHoldsExactlyWhileNoneChanged) {
  for (int64_t n = 1; n <= 5; ++n)
    for (int64_t changed = 0; changed < n; ++changed) {
      GameState st;
      MemoCache m;
      storeLogged(m, st, key(4, n, changed), n * 10 + changed, hexesFrom(100, n));
      st.touchHex(99);
      st.touchHex(static_cast<size_t>(100 + n));
      for (int i = 0; i < 3000; ++i)  // the table grows: the slot moves
        storeLogged(m, st, key(5, i, 0), i, {static_cast<int64_t>(i % 7)});
      EXPECT_EQ(found(m, st, key(4, n, changed)), n * 10 + changed) << n << " " << changed;
      st.touchHex(static_cast<size_t>(100 + changed));
      EXPECT_EQ(found(m, st, key(4, n, changed)), kMissing) << n << " " << changed;
      EXPECT_EQ(found(m, st, key(5, 8, 0)), 8);  // read hex 1 only
      st.touchHex(1);
      EXPECT_EQ(found(m, st, key(5, 8, 0)), kMissing);
    }
}

// A step with a facing and a truth value after it (Deluxe's side_move_cost(s, from, to, facing,
// began_in_ezoc)): a table of side, hex, step, number and truth; a number past the table's (9)
// goes to the hash table. Every key finds its own answer.
TEST(MemoCache, ADenseTableIndexesFacingsAndTruthValues) {
  GameState st = smallMap();
  const hex::Grid& g = *st.map.grid;
  MemoCache m;
  std::vector<MemoCache::Key> keys;
  for (int32_t from = 0; from < g.size(); ++from)
    for (int32_t to : g.neighbourIndices(from))
      for (int64_t facing : {0, 3, 5, 9})
        for (bool b : {false, true})
          if (to >= 0)
            keys.push_back(MemoCache::Key{
                8,
                {side(from % 2), hexv(from), hexv(to), Value::integer(facing), Value::boolean(b)}});
  auto answer = [](const MemoCache::Key& k) {
    return ((k.args[0].i * 100 + k.args[1].i) * 100 + k.args[2].i) * 100 + k.args[3].i * 2 +
           k.args[4].i;
  };
  for (const MemoCache::Key& k : keys) m.store(st, k, Value::integer(answer(k)));
  EXPECT_TRUE(m.dense(8));
  for (const MemoCache::Key& k : keys) ASSERT_EQ(found(m, st, k), answer(k)) << answer(k);
  EXPECT_EQ(found(m, st,
                  MemoCache::Key{
                      8, {side(0), hexv(2), hexv(3), Value::integer(1), Value::boolean(true)}}),
            kMissing);  // a facing never stored
}

}  // namespace
}  // namespace polemos::eval
