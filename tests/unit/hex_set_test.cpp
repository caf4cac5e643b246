// `h in list` by a long list's bitmap (eval/hex_set.h): the first question about a list is left
// to the scan, every later one answers exactly as the scan would (a hex of that index among the
// elements; a unit or a number of the same index is not that hex), a list with a hex past the
// bitmap's range is always scanned, and each list, known by its payload, has its own bitmap.
#include "eval/hex_set.h"

#include <gtest/gtest.h>

#include <optional>
#include <vector>

namespace polemos::eval {
namespace {

using ir::Tag;
using ir::Value;

Value hexes(const std::vector<int64_t>& at, std::vector<Value> more = {}) {
  std::vector<Value> items;
  for (int64_t h : at) items.push_back(Value::of(Tag::Hex, h));
  items.insert(items.end(), more.begin(), more.end());
  return Value::makeList(std::move(items));
}
bool scan(const Value& list, int64_t h) {
  for (const Value& e : list.items())
    if (e.tag == Tag::Hex && e.i == h) return true;
  return false;
}

TEST(HexSet, AnswersAsTheScanFromTheSecondQuestionOn) {
  std::vector<int64_t> at;
  for (int64_t h = 3; h < 400; h += 7) at.push_back(h);
  // A unit and a number of an index that no hex of the list has.
  Value list = hexes(at, {Value::of(Tag::Unit, 5), Value::integer(6)});
  ASSERT_GE(list.items().size(), HexSet::kMinItems);
  HexSet set;
  EXPECT_EQ(set.contains(list, 3), std::nullopt);  // the first question: scanned
  for (int64_t h = -2; h < 520; ++h) {
    std::optional<bool> in = set.contains(list, h);
    if (h < 0) {
      EXPECT_EQ(in, std::nullopt);
      continue;
    }
    ASSERT_TRUE(in.has_value()) << h;
    EXPECT_EQ(*in, scan(list, h)) << h;
  }
  EXPECT_EQ(set.contains(list, 5), std::optional<bool>(false));  // the unit is not hex 5
  EXPECT_EQ(set.contains(list, 6), std::optional<bool>(false));
  EXPECT_EQ(set.contains(list, 10), std::optional<bool>(true));
}

TEST(HexSet, AListWithAHexPastTheRangeIsScanned) {
  std::vector<int64_t> at;
  for (int64_t h = 0; h < 40; ++h) at.push_back(h);
  at.push_back(int64_t{1} << 20);
  Value list = hexes(at);
  HexSet set;
  EXPECT_EQ(set.contains(list, 1), std::nullopt);
  EXPECT_EQ(set.contains(list, 1), std::nullopt);
  EXPECT_EQ(set.contains(list, int64_t{1} << 20), std::nullopt);
}

TEST(HexSet, EachListHasItsOwnBitmap) {
  std::vector<int64_t> evens, odds;
  for (int64_t h = 0; h < 100; h += 2) {
    evens.push_back(h);
    odds.push_back(h + 1);
  }
  Value a = hexes(evens), b = hexes(odds), sameAsA = hexes(evens);
  HexSet set;
  set.contains(a, 0);
  EXPECT_EQ(set.contains(a, 4), std::optional<bool>(true));
  EXPECT_EQ(set.contains(b, 4), std::nullopt);  // another list: its first question
  EXPECT_EQ(set.contains(b, 4), std::optional<bool>(false));
  EXPECT_EQ(set.contains(b, 5), std::optional<bool>(true));
  EXPECT_EQ(set.contains(sameAsA, 4), std::nullopt);  // equal, but another list
  EXPECT_EQ(set.contains(a, 5), std::optional<bool>(false));
  // Four more lists take every entry: `a` is asked about as a new list again.
  std::vector<Value> others;
  for (int i = 0; i < 4; ++i) {
    others.push_back(hexes(odds));
    set.contains(others.back(), 1);
  }
  EXPECT_EQ(set.contains(a, 4), std::nullopt);
  EXPECT_EQ(set.contains(a, 4), std::optional<bool>(true));
}

TEST(HexSet, AListKeptByItsEntryIsNeverTakenForAnother) {
  HexSet set;
  std::vector<int64_t> at;
  for (int64_t h = 0; h < 64; ++h) at.push_back(h);
  {
    Value gone = hexes(at);
    set.contains(gone, 0);
    set.contains(gone, 0);
  }  // the caller's copy is gone; the entry's keeps the payload from being reused
  std::vector<int64_t> none;
  for (int64_t h = 100; h < 164; ++h) none.push_back(h);
  Value fresh = hexes(none);
  EXPECT_EQ(set.contains(fresh, 0), std::nullopt);
  EXPECT_EQ(set.contains(fresh, 0), std::optional<bool>(false));
}

}  // namespace
}  // namespace polemos::eval
