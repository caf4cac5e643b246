// The memo of pure calls (eval/memo.h) on its own: answers are found in the version they were
// made in and not after a change; a new cache carries no answer of a dropped one (each game of a
// `sim` run makes one); growth keeps every answer; a kept search is mended call by call; an
// answer that read many things (kept as one group of reads) is carried exactly while none of them
// changed, also when it is read inside another answer and across a rollback; a value worked out of
// a kept search's list is kept with the search; a kept search gives the answers of its hook calls.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "eval/memo.h"

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
  MemoCache::Answers answers(*kept);
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

}  // namespace
}  // namespace polemos::eval
