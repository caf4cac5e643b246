// A dense slot found by its arguments' numbers (MemoCache::denseRoute, findRecordedAt, which a
// movement search's planned hook calls take): the route is given only for the layout the table
// has, and through it every step finds the answer and writes the record that the look-up by key
// (findRecorded) finds and writes, or finds none where that finds none (an answer of another
// version that no longer holds, one made outside a search, a slot never filled).
#include <gtest/gtest.h>

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

// The two records hold the same calls, arguments, answers and reads.
void expectSameRecord(const MemoCache::Recording& a, const MemoCache::Recording& b) {
  ASSERT_EQ(a.calls.size(), b.calls.size());
  for (size_t i = 0; i < a.calls.size(); ++i) {
    EXPECT_EQ(a.calls[i].fn, b.calls[i].fn);
    EXPECT_EQ(a.calls[i].argCount, b.calls[i].argCount);
    EXPECT_EQ(a.calls[i].readCount, b.calls[i].readCount);
  }
  ASSERT_EQ(a.args.size(), b.args.size());
  for (size_t i = 0; i < a.args.size(); ++i) EXPECT_TRUE(a.args[i] == b.args[i]) << i;
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
  expectSameRecord(byKey, byNumber);
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

}  // namespace
}  // namespace polemos::eval
