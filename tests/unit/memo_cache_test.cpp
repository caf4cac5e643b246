// The memo of pure calls (eval/memo.h) on its own: answers are found in the version they were
// made in and not after a change; a table handed on from a dropped cache (to the next cache made
// on the same thread) carries none of its answers into the new one; growth keeps every answer.
#include <gtest/gtest.h>

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

TEST(MemoCache, ATableHandedOnCarriesNoAnswerOfTheCacheThatDroppedIt) {
  // The first cache grows a large table and is dropped; the next one on this thread takes that
  // table. Its slots hold the old answers, of a generation the new cache never counts as its own,
  // in any version (the new game's versions start again from 0, as the old one's did).
  // Both fill a table of the same size in version 0, the second into the table of the first:
  // the slots it reaches as it grows into that table hold the first's answers, of version 0 too,
  // which it must never count as its own.
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

}  // namespace
}  // namespace polemos::eval
