// eval/state.h on its own: the changes a game holds (one a version, until a gap) and a copy of
// the game brought up to date with them (GameState::catchUp: only the units and the hex stamps
// that changed, or the whole state when the changes since are not all held).
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "eval/state.h"
#include "small_map.h"

namespace polemos::eval {
namespace {

using ir::Value;

// The game holds its latest changes, one a version, oldest first, with the codes of the reads
// they renew; a version taken otherwise (a rollback's) is a gap, and after one only the changes
// made since are held; past the number held, the oldest go.
TEST(GameStateChanges, TheLatestChangesAreHeldInOrderUntilAGap) {
  GameState st;
  auto since = [&](uint64_t v) {
    std::vector<std::pair<uint64_t, int32_t>> out;
    bool all = st.changesSince(v, [&](uint64_t at, int32_t c) {
      out.emplace_back(at, c);
      return true;
    });
    if (!all) out.clear();
    return std::make_pair(all, out);
  };
  EXPECT_FALSE(since(0).first) << "nothing held yet";
  st.touchHex(7);
  const uint64_t v0 = st.version - 1;
  st.touchField(3, 2);
  st.touchField(4, GameState::kWholeUnit);
  st.touchOther(GameState::kRoster);
  st.touch();
  auto [all, got] = since(v0);
  ASSERT_TRUE(all);
  ASSERT_EQ(got.size(), 5u);
  EXPECT_EQ(got[0], std::make_pair(v0 + 1, int32_t{-8}));
  EXPECT_EQ(got[1], std::make_pair(v0 + 2, int32_t{3 * 256 + 2}));
  EXPECT_EQ(got[2], std::make_pair(v0 + 3, int32_t{4 * 256 + 255}));
  EXPECT_EQ(got[3].second, GameState::kOtherChange - static_cast<int32_t>(GameState::kRoster));
  EXPECT_EQ(got[4].second, GameState::kEpochChange);
  EXPECT_TRUE(since(st.version).first) << "none since now";
  EXPECT_TRUE(since(st.version).second.empty());
  EXPECT_FALSE(since(st.version + 1).first) << "a version not reached";
  // A stop as soon as the caller says so.
  EXPECT_FALSE(st.changesSince(v0, [](uint64_t, int32_t) { return false; }));
  // A gap: the version taken as a rollback takes it.
  const uint64_t before = st.version;
  st.version += 1;
  EXPECT_FALSE(since(before).first);
  EXPECT_FALSE(since(v0).first);
  st.touchHex(9);
  EXPECT_FALSE(since(before).first) << "the gap is not held";
  auto after = since(st.version - 1);
  ASSERT_TRUE(after.first);
  ASSERT_EQ(after.second.size(), 1u);
  EXPECT_EQ(after.second[0].second, -10);
  // Past the number held: the oldest go, the latest stay.
  const uint64_t start = st.version;
  for (size_t i = 0; i < GameState::kChangesKept + 10; ++i) st.touchHex(i);
  EXPECT_FALSE(since(start).first);
  auto last = since(st.version - GameState::kChangesKept);
  ASSERT_TRUE(last.first);
  ASSERT_EQ(last.second.size(), GameState::kChangesKept);
  EXPECT_EQ(last.second.back().second, -1 - static_cast<int32_t>(GameState::kChangesKept + 9));
  EXPECT_FALSE(since(st.version - GameState::kChangesKept - 1).first);
}

// A game of five units, each with two fields.
GameState game() {
  GameState st;
  for (int i = 0; i < 5; ++i) {
    UnitState u;
    u.id = "u" + std::to_string(i);
    u.type = u.cls = 0;
    u.side = i % 2;
    u.hex = 10 + i;
    u.status = UnitStatus::OnMap;
    u.fields = {Value::integer(i), Value::boolean(false)};
    st.units.push_back(u);
  }
  st.game = {Value::integer(0)};
  st.touch();
  return st;
}

// A unit's field set as the evaluator sets it: the value, then its stamp.
void setField(GameState& st, size_t u, size_t slot, Value v) {
  st.units[u].fields[slot] = std::move(v);
  st.touchField(u, slot);
}
void moveUnit(GameState& st, size_t u, int32_t to) {
  const int32_t from = st.units[u].hex;
  st.units[u].hex = to;
  st.touchWhere(u, from, to, false);
}

// A copy brought up to date is the game now: the units that changed (a field, a move), the
// game's own fields, the version and the stamps; the game it was brought up to is as it was.
TEST(GameStateCatchUp, ACopyTakesTheUnitsThatChangedAndEverythingElse) {
  GameState now = game();
  GameState copy = now;
  setField(now, 2, 0, Value::integer(40));
  moveUnit(now, 3, 30);
  now.game[0] = Value::integer(7);
  now.touchOther(GameState::gameField(0));
  const GameState before = now;
  copy.catchUp(now);
  EXPECT_TRUE(sameUnits(copy, now));
  EXPECT_EQ(copy.units[2].fields[0].i, 40);
  EXPECT_EQ(copy.units[3].hex, 30);
  EXPECT_EQ(copy.game[0].i, 7);
  EXPECT_EQ(copy.version, now.version);
  EXPECT_EQ(copy.unitStamps, now.unitStamps);
  EXPECT_EQ(copy.hexStamps, now.hexStamps);
  EXPECT_EQ(copy.otherStamps, now.otherStamps);
  EXPECT_TRUE(sameUnits(now, before)) << "the game lent its units and has them back";
  // And again from there: the copy follows the next changes too.
  setField(now, 0, 1, Value::boolean(true));
  copy.catchUp(now);
  EXPECT_TRUE(sameUnits(copy, now));
  EXPECT_TRUE(copy.units[0].fields[1].truthy());
}

// On a map, a move also renews its side's stamps of the hexes it left and entered, hexes past
// the map's (GameState::sideHex), so the game's hex stamps grow past the copy's: the copy takes
// exactly the stamps that changed and grows to the game's size; a hex stamp changed on its own
// (touchHex) is taken too.
TEST(GameStateCatchUp, ACopyTakesTheHexStampsThatChangedAndGrowsWithThem) {
  GameState now = game();
  const GameState board = test_helpers::smallMap();
  now.sides = board.sides;
  now.map = board.map;
  now.touchHex(2);
  GameState copy = now;
  const size_t before = copy.hexStamps.size();
  moveUnit(now, 1, 20);  // unit 1 is of side 1: hexes 11 and 20, and side 1's codes of them
  now.touchHex(3);
  ASSERT_GT(now.hexStamps.size(), before);
  copy.catchUp(now);
  EXPECT_EQ(copy.hexStamps, now.hexStamps);
  EXPECT_TRUE(sameUnits(copy, now));
  EXPECT_EQ(copy.hexStamp(static_cast<size_t>(now.sideHex(1, 20))), now.version - 1);
  EXPECT_EQ(copy.hexStamp(static_cast<size_t>(now.sideHex(0, 20))), 0u);
  moveUnit(now, 0, 21);
  copy.catchUp(now);
  EXPECT_EQ(copy.hexStamps, now.hexStamps);
}

// When the changes since are not all held, the whole game is copied: after more changes than
// the game holds, after a rollback (a version taken without a change), in another epoch, with
// another number of units.
TEST(GameStateCatchUp, WithoutEveryChangeSinceTheWholeGameIsCopied) {
  {
    GameState now = game();
    GameState copy = now;
    for (size_t i = 0; i < GameState::kChangesKept + 5; ++i)
      setField(now, i % 5, 0, Value::integer(static_cast<int64_t>(i)));
    copy.catchUp(now);
    EXPECT_TRUE(sameUnits(copy, now)) << "many changes";
  }
  {
    // The copy was taken on a line of the game that was then rolled back: the game now is an
    // earlier state under a later version; a change made on the lost line must not stay.
    GameState now = game();
    GameState earlier = now;
    setField(now, 1, 0, Value::integer(11));
    GameState copy = now;  // taken on the line rolled back
    const uint64_t v = now.version;
    now = earlier;
    now.version = std::max(v, now.version) + 1;
    setField(now, 4, 0, Value::integer(44));
    copy.catchUp(now);
    EXPECT_TRUE(sameUnits(copy, now)) << "a rollback";
    EXPECT_EQ(copy.units[1].fields[0].i, 1);
  }
  {
    GameState now = game();
    GameState copy = now;
    now.units[2].side = 0;  // a change of side is a new epoch
    now.touch();
    copy.catchUp(now);
    EXPECT_TRUE(sameUnits(copy, now)) << "a new epoch";
  }
  {
    GameState now = game();
    GameState copy = now;
    now.units.push_back(now.units[0]);
    now.units.back().id = "u5";
    now.touchWhere(5, -1, 12, true);
    copy.catchUp(now);
    EXPECT_TRUE(sameUnits(copy, now)) << "another unit";
  }
}

}  // namespace
}  // namespace polemos::eval
