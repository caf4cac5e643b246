// ir::ValuePool: a growable array of values that frees itself without visiting its elements when
// none has a payload. What it must keep: every value it was given, in order, through growth,
// copies, moves and shrinking; a payload (a list, a string) alive exactly as long as some value
// holds it (the sanitizer build sees a leak or a use after free).
#include "ir/value_pool.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace polemos::ir {
namespace {

std::vector<int64_t> numbers(const ValuePool& p) {
  std::vector<int64_t> out;
  for (const Value& v : p) out.push_back(v.i);
  return out;
}

TEST(ValuePool, KeepsEveryValueInOrderThroughGrowth) {
  ValuePool p;
  EXPECT_TRUE(p.empty());
  std::vector<int64_t> want;
  for (int64_t i = 0; i < 1000; ++i) {
    p.push_back(i % 3 == 0 ? Value::of(Tag::Hex, i) : Value::integer(i));
    want.push_back(i);
  }
  Value tail[3] = {Value::of(Tag::Unit, 7), Value::of(Tag::Side, 1), Value::boolean(true)};
  p.append(tail);
  want.insert(want.end(), {7, 1, 1});
  ASSERT_EQ(p.size(), 1003u);
  EXPECT_EQ(numbers(p), want);
  EXPECT_EQ(p[3].tag, Tag::Hex);
  EXPECT_EQ(p[1001].tag, Tag::Side);
  EXPECT_EQ(p.span().size(), p.size());
  EXPECT_EQ(p.data(), &p[0]);
  p.shrink_to_fit();
  EXPECT_EQ(numbers(p), want);
  p.clear();
  EXPECT_TRUE(p.empty());
  p.push_back(Value::integer(5));
  EXPECT_EQ(numbers(p), std::vector<int64_t>{5});
}

// Values with payloads among plain ones: each payload is held by the pool, its copies and what
// they were moved into, and outlives the value it was copied from.
TEST(ValuePool, HoldsPayloadsThroughCopiesAndMoves) {
  ValuePool p;
  {
    Value list = Value::makeList({Value::integer(1), Value::integer(2)});
    Value text = Value::string("stream");
    p.push_back(Value::integer(0));
    p.push_back(list);
    Value two[2] = {text, Value::of(Tag::Hex, 4)};
    p.append(two);
  }  // the originals are gone: the pool's copies hold the payloads
  for (int i = 0; i < 100; ++i) p.push_back(Value::integer(i));  // grows: payloads move
  ASSERT_EQ(p[1].items().size(), 2u);
  EXPECT_EQ(p[1].items()[1].i, 2);
  EXPECT_EQ(p[2].text(), "stream");

  ValuePool copy = p;
  ValuePool moved = std::move(p);
  EXPECT_TRUE(p.empty());  // NOLINT(bugprone-use-after-move): a moved-from pool is empty
  EXPECT_EQ(copy[1].payloadId(), moved[1].payloadId());  // one list, held twice
  copy = ValuePool();  // the copy's hold released, the moved pool's kept
  EXPECT_EQ(moved[2].text(), "stream");
  ValuePool assigned;
  assigned.push_back(Value::string("replaced"));
  assigned = moved;  // what it held is released, the other's taken
  moved.shrink_to_fit();
  moved.clear();
  EXPECT_EQ(assigned[1].items()[0].i, 1);
  EXPECT_EQ(assigned[2].text(), "stream");
  EXPECT_EQ(assigned.size(), 104u);
}

}  // namespace
}  // namespace polemos::ir
