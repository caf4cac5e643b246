// A fair game (`polemos play --fair`): `undo` takes back a move that rolled no dice, refuses one
// whose dice were rolled (leaving the game exactly as it was), and `dice` cannot force rolls.
#include <gtest/gtest.h>

#include "repl/repl.h"

using namespace polemos;

namespace {

std::string run(repl::Repl& r, const std::string& line) {
  std::string out;
  r.execute(line, out);
  return out;
}

repl::ReplOptions fairStandard() {
  repl::ReplOptions o;
  o.ruleset = "standard";
  o.fair = true;
  return o;
}

TEST(ReplFair, UndoesAMoveWithoutDice) {
  repl::Repl r(fairStandard());
  std::string out;
  ASSERT_TRUE(r.start(out)) << out;
  run(r, "place blue inf 0303 as b1");
  std::string moved = run(r, "move b1 0302");
  ASSERT_NE(moved.find("move b1: 0303 → 0302"), std::string::npos) << moved;
  std::string undone = run(r, "undo");
  EXPECT_EQ(undone.find("illegal"), std::string::npos) << undone;
  EXPECT_NE(run(r, "eval unit(\"b1\").hex").find("0303"), std::string::npos);
}

TEST(ReplFair, RefusesToUndoARollAndKeepsTheGame) {
  repl::Repl r(fairStandard());
  std::string out;
  ASSERT_TRUE(r.start(out)) << out;
  run(r, "place blue inf 0303 as b1");
  run(r, "place red inf 0304 as r1");
  run(r, "goto combat");
  std::string attacked = run(r, "attack 0304");
  ASSERT_NE(attacked.find("roll combat_die"), std::string::npos) << attacked;
  std::string before = run(r, "units") + run(r, "status");
  std::string undone = run(r, "undo");
  EXPECT_NE(undone.find("illegal: in a fair game (--fair) a move whose dice were rolled cannot "
                        "be undone"),
            std::string::npos)
      << undone;
  EXPECT_EQ(run(r, "units") + run(r, "status"), before);
  EXPECT_NE(run(r, "eval unit(\"b1\").attacked").find("true"), std::string::npos);
}

TEST(ReplFair, DiceCannotBeForced) {
  repl::Repl r(fairStandard());
  std::string out;
  ASSERT_TRUE(r.start(out)) << out;
  EXPECT_EQ(run(r, "dice 6 6").rfind("error: a fair game (--fair)", 0), 0u);
  EXPECT_NE(run(r, "dice").find("no dice forced"), std::string::npos);
}

TEST(ReplFair, AnUnfairGameUndoesRolls) {
  repl::ReplOptions o = fairStandard();
  o.fair = false;
  repl::Repl r(o);
  std::string out;
  ASSERT_TRUE(r.start(out)) << out;
  run(r, "place blue inf 0303 as b1");
  run(r, "place red inf 0304 as r1");
  run(r, "goto combat");
  run(r, "attack 0304");
  EXPECT_EQ(run(r, "undo").find("illegal"), std::string::npos);
  EXPECT_NE(run(r, "eval unit(\"b1\").attacked").find("false"), std::string::npos);
}

}  // namespace
