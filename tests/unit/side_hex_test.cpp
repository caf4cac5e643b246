// Which units of one side are in a hex has a stamp of its own (GameState::sideHex, read by the
// builtin enemies_at): a unit moving renews it for its own side in the hexes it left and entered,
// and never for another side; an answer that read another side's units in a hex (a step's price
// for side a asks whether b holds the hex) is carried past a unit of side a moving there, alone
// or as one read of a group, and not past a unit of side b doing so.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "eval/memo.h"
#include "small_map.h"

namespace polemos::eval {
namespace {

using ir::Value;

// Two units on the small map (48 hexes): unit 0 of side 0, unit 1 of side 1.
GameState twoUnits() {
  GameState st = test_helpers::smallMap();
  st.units.resize(2);
  st.units[0].side = 0;
  st.units[1].side = 1;
  for (UnitState& u : st.units) u.status = UnitStatus::OnMap;
  return st;
}

TEST(SideHex, EachSideHasItsOwnCodePastTheMapsHexes) {
  GameState st = twoUnits();
  ASSERT_EQ(st.map.size(), 48);
  EXPECT_EQ(st.sideHex(0, 5), 48 + 5);
  EXPECT_EQ(st.sideHex(1, 5), 96 + 5);
  EXPECT_EQ(st.sideHex(0, 47), 48 + 47);
  EXPECT_EQ(st.sideHex(0, 48), -1) << "off the map";
  EXPECT_EQ(st.sideHex(0, -1), -1);
  EXPECT_EQ(st.sideHex(GameState::kMaxSideHexSides, 5), -1) << "past the sides given codes";
}

TEST(SideHex, AMoveRenewsItsOwnSidesStampInTheHexesItLeftAndEnteredOnly) {
  GameState st = twoUnits();
  st.touchWhere(0, 5, 6, false);
  const uint64_t v = st.version;
  EXPECT_GT(st.hexStamp(5), 0u);
  EXPECT_GT(st.hexStamp(6), 0u);
  EXPECT_GT(st.hexStamp(static_cast<size_t>(st.sideHex(0, 5))), 0u);
  EXPECT_EQ(st.hexStamp(static_cast<size_t>(st.sideHex(0, 6))), v);
  EXPECT_EQ(st.hexStamp(static_cast<size_t>(st.sideHex(1, 5))), 0u);
  EXPECT_EQ(st.hexStamp(static_cast<size_t>(st.sideHex(1, 6))), 0u);
  // Leaving the map (to -1): the hex left only.
  st.touchWhere(1, 6, -1, true);
  EXPECT_GT(st.hexStamp(static_cast<size_t>(st.sideHex(1, 6))), v);
  EXPECT_EQ(st.hexStamp(static_cast<size_t>(st.sideHex(0, 6))), v);
  // Each renewal is one of the changes held, with its hex's code (what a group follows).
  std::vector<int32_t> codes;
  ASSERT_TRUE(st.changesSince(v, [&](uint64_t, int32_t c) {
    codes.push_back(c);
    return true;
  }));
  EXPECT_NE(std::find(codes.begin(), codes.end(), -1 - static_cast<int32_t>(st.sideHex(1, 6))),
            codes.end());
}

// An answer whose reads are `hexes`, made logged (as inside a movement search).
void storeReading(MemoCache& m, const GameState& st, const MemoCache::Key& k,
                  const std::vector<int64_t>& hexes) {
  size_t at = m.beginLog();
  for (int64_t h : hexes) m.readHex(h);
  std::vector<int32_t> reads = m.endLog(at, false);
  m.store(st, k, Value::integer(1), &reads);
}

TEST(SideHex, AnAnswerReadingTheEnemysUnitsInAHexOutlivesAFriendMovingThere) {
  for (bool grouped : {false, true}) {
    GameState st = twoUnits();
    MemoCache m;
    const MemoCache::Key k{7, {Value::integer(0), Value::integer(9)}};
    // What side 0's price of a step into hex 9 reads: side 1's units there (and, grouped, as
    // many more reads as make a group of them).
    std::vector<int64_t> reads{st.sideHex(1, 9)};
    if (grouped)
      for (int64_t h = 20; h < 30; ++h) reads.push_back(h);
    storeReading(m, st, k, reads);
    st.touchWhere(0, 3, 9, false);  // a friend enters 9
    EXPECT_NE(m.find(st, k), nullptr) << grouped;
    st.touchWhere(0, 9, 4, false);  // and leaves
    EXPECT_NE(m.find(st, k), nullptr) << grouped;
    st.touchWhere(1, 12, 9, false);  // an enemy enters 9
    EXPECT_EQ(m.find(st, k), nullptr) << grouped;
  }
}

}  // namespace
}  // namespace polemos::eval
