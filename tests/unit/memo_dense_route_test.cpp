// A dense slot found by its arguments' numbers (MemoCache::denseRoute, findRecordedAt, which a
// movement search's planned hook calls take): the route is given only for the layout the table
// has, and through it every step finds the answer and records the call that the look-up by key
// (findRecorded) finds and records, or finds none where that finds none (an answer of another
// version that no longer holds, one made outside a search, a slot never filled). A call taken by
// number is recorded by its slot, which names its arguments (denseArgs), and a kept search makes
// it again with them.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "eval/memo.h"
#include "small_map.h"

namespace polemos::eval {
namespace {

using ir::Tag;
using ir::Value;

using test_helpers::smallMap;
std::vector<Value> stepArgs(int64_t s, int64_t from, int64_t to) {
  return {Value::of(Tag::Side, s), Value::of(Tag::Hex, from), Value::of(Tag::Hex, to)};
}
// fn(s, from, to) stored logged for every step of both sides but those out of hex `skip`, each
// answer reading the hex it enters.
void fill(MemoCache& m, const GameState& st, int32_t fn, int32_t skip) {
  const hex::Grid& g = *st.map.grid;
  for (int64_t s = 0; s < 2; ++s)
    for (int32_t from = 0; from < g.size(); ++from) {
      if (from == skip) continue;
      for (int32_t to : g.neighbourIndices(from)) {
        if (to < 0) continue;
        size_t at = m.beginLog();
        m.readHex(to);
        std::vector<int32_t> reads = m.endLog(at, false);
        m.store(st, MemoCache::Key{fn, stepArgs(s, from, to)},
                Value::integer(s * 10000 + from * 100 + to), &reads);
      }
    }
}
const MemoCache::DenseKind kStep[] = {{Tag::Side, false}, {Tag::Hex, false}, {Tag::Hex, true}};

// The two records hold the same calls, arguments, answers and reads; the second (by number)
// keeps no arguments in its pool: each call's slot names them.
void expectSameRecord(const MemoCache& m, const MemoCache::Recording& a,
                      const MemoCache::Recording& b) {
  ASSERT_EQ(a.calls.size(), b.calls.size());
  MemoCache::CallArgs bufA, bufB;
  for (size_t i = 0; i < a.calls.size(); ++i) {
    EXPECT_EQ(a.calls[i].fn, b.calls[i].fn);
    EXPECT_FALSE(a.calls[i].dense());
    EXPECT_TRUE(b.calls[i].dense());
    EXPECT_EQ(a.calls[i].readCount, b.calls[i].readCount);
    auto argsA = m.argsOf(a, a.calls[i], bufA);
    auto argsB = m.argsOf(b, b.calls[i], bufB);
    ASSERT_EQ(argsA.size(), 3u);
    EXPECT_TRUE(std::equal(argsA.begin(), argsA.end(), argsB.begin(), argsB.end())) << i;
  }
  EXPECT_TRUE(b.args.empty());
  ASSERT_EQ(a.results.size(), b.results.size());
  for (size_t i = 0; i < a.results.size(); ++i) EXPECT_TRUE(a.results[i] == b.results[i]) << i;
  EXPECT_EQ(a.reads, b.reads);
}

// Asks every step of both sides by key and by number inside a log, as a search does; expects
// the same answer from both (or none from both) and the same records. Returns the answers found.
size_t compareAll(MemoCache& m, const GameState& st, int32_t fn,
                  const MemoCache::DenseRoute& route) {
  const hex::Grid& g = *st.map.grid;
  MemoCache::Recording byKey, byNumber;
  size_t hits = 0;
  size_t log = m.beginLog();
  for (int64_t s = 0; s < 2; ++s)
    for (int32_t from = 0; from < g.size(); ++from)
      for (int d = 0; d < hex::kDirectionCount; ++d) {
        const int32_t to = g.neighbourIndices(from)[static_cast<size_t>(d)];
        if (to < 0) continue;
        std::vector<Value> args = stepArgs(s, from, to);
        const size_t at = static_cast<size_t>(s) * route.stride[0] +
                          static_cast<size_t>(from) * route.stride[1] +
                          static_cast<size_t>(d) * route.stride[2];
        const Value* k = m.findRecorded(st, fn, args, byKey);
        const Value* n = m.findRecordedAt(st, fn, route, at, args, byNumber);
        EXPECT_EQ(k == nullptr, n == nullptr) << s << " " << from << " " << d;
        if (!k || !n) continue;
        EXPECT_EQ(k, n);  // the same slot
        ++hits;
      }
  m.endLog(log, false);
  expectSameRecord(m, byKey, byNumber);
  return hits;
}

TEST(MemoDenseRoute, IsGivenOnlyForTheLayoutTheTableHas) {
  GameState st = smallMap();
  MemoCache m;
  MemoCache::DenseRoute route;
  EXPECT_FALSE(m.denseRoute(5, st.map.grid.get(), kStep, route));  // no table yet
  fill(m, st, 5, -1);
  ASSERT_TRUE(m.dense(5));
  EXPECT_TRUE(m.denseRoute(5, st.map.grid.get(), kStep, route));
  // As the table numbers its slots: six directions, then the map's hexes, then the sides.
  EXPECT_EQ(route.stride[2], 1u);
  EXPECT_EQ(route.stride[1], 6u);
  EXPECT_EQ(route.stride[0], 6u * static_cast<uint32_t>(st.map.grid->size()));
  EXPECT_EQ(route.size[0], 2u);
  const MemoCache::DenseKind twoHexes[] = {
      {Tag::Side, false}, {Tag::Hex, false}, {Tag::Hex, false}};
  const MemoCache::DenseKind unitFirst[] = {
      {Tag::Unit, false}, {Tag::Hex, false}, {Tag::Hex, true}};
  const MemoCache::DenseKind shorter[] = {{Tag::Side, false}, {Tag::Hex, false}};
  EXPECT_FALSE(m.denseRoute(5, st.map.grid.get(), twoHexes, route));
  EXPECT_FALSE(m.denseRoute(5, st.map.grid.get(), unitFirst, route));
  EXPECT_FALSE(m.denseRoute(5, st.map.grid.get(), shorter, route));
  hex::GridSpec other;
  other.columns = 8;
  other.rows = 6;
  hex::Grid another(other);
  EXPECT_FALSE(m.denseRoute(5, &another, kStep, route));           // another map
  EXPECT_FALSE(m.denseRoute(6, st.map.grid.get(), kStep, route));  // another function
}

TEST(MemoDenseRoute, FindsWhatTheKeyFindsAndRecordsTheSame) {
  GameState st = smallMap();
  MemoCache m;
  const int32_t skip = 20;  // its steps are never stored: both find none
  fill(m, st, 5, skip);
  MemoCache::DenseRoute route;
  ASSERT_TRUE(m.denseRoute(5, st.map.grid.get(), kStep, route));
  const size_t all = compareAll(m, st, 5, route);
  EXPECT_GT(all, 300u);
  // A later version: the answers whose entered hex changed are gone by key and by number alike,
  // the rest are carried by both.
  st.touchHex(static_cast<size_t>(skip + 1));
  st.touchHex(3);
  const size_t after = compareAll(m, st, 5, route);
  EXPECT_LT(after, all);
  EXPECT_GT(after, all - 30);
}

TEST(MemoDenseRoute, FindsNoAnswerMadeOutsideASearch) {
  GameState st = smallMap();
  MemoCache m;
  const hex::Grid& g = *st.map.grid;
  for (int64_t s = 0; s < 2; ++s)
    for (int32_t from = 0; from < g.size(); ++from)
      for (int32_t to : g.neighbourIndices(from))
        if (to >= 0) m.store(st, MemoCache::Key{5, stepArgs(s, from, to)}, Value::integer(1));
  ASSERT_TRUE(m.dense(5));
  MemoCache::DenseRoute route;
  ASSERT_TRUE(m.denseRoute(5, st.map.grid.get(), kStep, route));
  EXPECT_EQ(compareAll(m, st, 5, route), 0u);  // not logged: neither way takes them in a search
}

// Every slot of a table names the arguments it was stored under (MemoCache::denseArgs): sides,
// hexes, steps, numbers and truth values, as the calls of a kept search are made again from it.
TEST(MemoDenseRoute, EverySlotNamesTheArgumentsItWasStoredUnder) {
  GameState st = smallMap();
  const hex::Grid& g = *st.map.grid;
  MemoCache m;
  std::vector<std::vector<Value>> keys;
  for (int32_t from = 0; from < g.size(); ++from)
    for (int32_t to : g.neighbourIndices(from))
      for (int64_t n : {0, 3, 7})
        for (bool b : {false, true})
          if (to >= 0)
            keys.push_back({Value::of(Tag::Side, from % 2), Value::of(Tag::Hex, from),
                            Value::of(Tag::Hex, to), Value::integer(n), Value::boolean(b)});
  for (const std::vector<Value>& k : keys) m.store(st, MemoCache::Key{8, k}, Value::integer(1));
  ASSERT_TRUE(m.dense(8));
  const MemoCache::DenseKind kinds[] = {{Tag::Side, false},
                                        {Tag::Hex, false},
                                        {Tag::Hex, true},
                                        {Tag::Int, false},
                                        {Tag::Bool, false}};
  MemoCache::DenseRoute route;
  ASSERT_TRUE(m.denseRoute(8, st.map.grid.get(), kinds, route));
  MemoCache::CallArgs buf;
  for (const std::vector<Value>& k : keys) {
    const auto& next = g.neighbourIndices(static_cast<int32_t>(k[1].i));
    const size_t dir =
        static_cast<size_t>(std::find(next.begin(), next.end(), k[2].i) - next.begin());
    const size_t slot = static_cast<size_t>(k[0].i) * route.stride[0] +
                        static_cast<size_t>(k[1].i) * route.stride[1] + dir * route.stride[2] +
                        static_cast<size_t>(k[3].i) * route.stride[3] +
                        static_cast<size_t>(k[4].i) * route.stride[4];
    auto named = m.denseArgs(8, static_cast<uint32_t>(slot), buf);
    ASSERT_EQ(named.size(), k.size());
    for (size_t i = 0; i < k.size(); ++i)
      EXPECT_TRUE(named[i] == k[i]) << k[1].i << " " << k[2].i << " argument " << i;
  }
}

// A search whose calls were all taken by number and kept: a change of the hex one call entered
// makes that call alone again, with the arguments its slot names; the search's calls are given
// by their arguments (MemoCache::Answers).
TEST(MemoDenseRoute, AKeptSearchMakesACallTakenByNumberAgainWithItsArguments) {
  GameState st = smallMap();
  const hex::Grid& g = *st.map.grid;
  MemoCache m;
  fill(m, st, 5, -1);
  MemoCache::DenseRoute route;
  ASSERT_TRUE(m.denseRoute(5, st.map.grid.get(), kStep, route));
  const int32_t start = 20;
  MemoCache::Recording rec;
  size_t log = m.beginLog();
  for (int d = 0; d < hex::kDirectionCount; ++d) {
    const int32_t to = g.neighbourIndices(start)[static_cast<size_t>(d)];
    ASSERT_GE(to, 0);
    std::vector<Value> args = stepArgs(1, start, to);
    const size_t at = route.stride[0] + static_cast<size_t>(start) * route.stride[1] +
                      static_cast<size_t>(d) * route.stride[2];
    ASSERT_NE(m.findRecordedAt(st, 5, route, at, args, rec), nullptr) << d;
  }
  std::vector<int32_t> base = m.endLog(log, false);
  MemoCache::Key k{-100000, {Value::of(Tag::Unit, 0)}};
  const Value list = Value::makeList({Value::integer(1)});
  m.keep(st, k, list, base, std::move(rec));
  const MemoCache::Kept* kept = m.keptOf(st, k, list);
  ASSERT_NE(kept, nullptr);
  EXPECT_TRUE(kept->made.args.empty());
  MemoCache::Answers answers(m, *kept);
  const int32_t entered = g.neighbourIndices(start)[4];
  const Value* given = answers.find(5, stepArgs(1, start, entered));
  ASSERT_NE(given, nullptr);
  EXPECT_EQ(given->i, 10000 + start * 100 + entered);
  EXPECT_EQ(answers.find(5, stepArgs(0, start, entered)), nullptr);  // the other side's

  std::vector<std::vector<Value>> recalled;
  auto recall = [&](int32_t fn, std::span<const Value> args) {
    recalled.emplace_back(args.begin(), args.end());
    m.readHex(args[2].i);
    return Value::integer(args[0].i * 10000 + args[1].i * 100 + args[2].i);
  };
  st.touchHex(static_cast<size_t>(entered));
  ASSERT_NE(m.kept(st, k, recall), nullptr);
  ASSERT_EQ(recalled.size(), 1u);
  const std::vector<Value> expected = stepArgs(1, start, entered);
  ASSERT_EQ(recalled[0].size(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_TRUE(recalled[0][i] == expected[i]) << i;
}

}  // namespace
}  // namespace polemos::eval
