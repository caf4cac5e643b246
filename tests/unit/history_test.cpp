// The undo history (engine/history) and the state differences it keeps (eval/state_delta): every
// state undone or redone is the very state that was pushed, to the bit (units, fields, stamps,
// coverage counts, trace, the machine), whichever entries were kept as differences; and a trace
// copy shares its events. Memory is measured by bench/ (BM_UndoHistoryChalonsGame), not here.
#include "engine/history.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/random_player.h"
#include "engine/save.h"
#include "eval/state_delta.h"
#include "repl/repl.h"
#include "repl_test_helpers.h"

namespace polemos {
namespace {

using eval::GameState;
using eval::identical;
using ir::Value;

bool sameValues(const std::vector<Value>& a, const std::vector<Value>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!identical(a[i], b[i])) return false;
  return true;
}

// Every part of two states, compared exactly; "" if they are the same, else the first difference.
std::string difference(const GameState& a, const GameState& b) {
  if (a.units.size() != b.units.size()) return "unit count";
  for (size_t u = 0; u < a.units.size(); ++u) {
    const auto& x = a.units[u];
    const auto& y = b.units[u];
    if (x.id != y.id || x.type != y.type || x.cls != y.cls || x.side != y.side || x.hex != y.hex ||
        x.facing != y.facing || x.status != y.status || !sameValues(x.fields, y.fields))
      return "unit " + x.id;
  }
  if (a.sides.size() != b.sides.size()) return "side count";
  for (size_t s = 0; s < a.sides.size(); ++s)
    if (!sameValues(a.sides[s].fields, b.sides[s].fields)) return "side fields";
  if (!sameValues(a.game, b.game)) return "game fields";
  if (!sameValues(a.options, b.options)) return "options";
  if (a.fieldStamps != b.fieldStamps) return "field stamps";
  if (a.unitStamps != b.unitStamps) return "unit stamps";
  if (a.hexStamps != b.hexStamps) return "hex stamps";
  if (a.otherStamps != b.otherStamps) return "other stamps";
  if (a.coverage != b.coverage) return "coverage";
  if (a.version != b.version || a.epoch != b.epoch) return "version";
  if (a.turn != b.turn || a.phase != b.phase || a.activeSide != b.activeSide ||
      a.acting != b.acting || a.level != b.level)
    return "clock";
  if (a.trace.size() != b.trace.size() || a.trace.first() != b.trace.first() ||
      a.traceSeq != b.traceSeq)
    return "trace";
  if (!a.trace.empty() && a.trace.back().output != b.trace.back().output) return "last event";
  if (a.result.over != b.result.over || a.result.winner != b.result.winner) return "result";
  return "";
}

std::string difference(const engine::Session& a, const engine::Session& b) {
  if (auto d = difference(a.state(), b.state()); !d.empty()) return d;
  if (a.machine().frames.size() != b.machine().frames.size() ||
      !sameValues(a.machine().stack.toVector(), b.machine().stack.toVector()))
    return "machine";
  if (a.rngState() != b.rngState()) return "generator";
  if (a.stop().kind != b.stop().kind || a.stop().index != b.stop().index) return "stop";
  if (engine::saveSession(a) != engine::saveSession(b)) return "save text";
  return "";
}

engine::Session chalons() {
  repl::Repl r(test_helpers::chalons(5));
  std::string out;
  EXPECT_TRUE(r.start(out)) << out;
  return *r.session();
}

TEST(StateDelta, IdenticalTellsApartValuesTheRulesCallEqual) {
  EXPECT_TRUE(Value::odds(1, 2) == Value::odds(2, 4));
  EXPECT_FALSE(identical(Value::odds(1, 2), Value::odds(2, 4)));
  EXPECT_TRUE(identical(Value::odds(1, 2), Value::odds(1, 2)));
  EXPECT_TRUE(identical(Value::string("a"), Value::string("a")));
  EXPECT_FALSE(identical(Value::string("a"), Value::string("b")));
  EXPECT_FALSE(identical(Value::integer(1), Value::boolean(true)));
  EXPECT_FALSE(
      identical(Value::makeList({Value::odds(1, 2)}), Value::makeList({Value::odds(2, 4)})));
  EXPECT_TRUE(
      identical(Value::makeList({Value::integer(3)}), Value::makeList({Value::integer(3)})));
}

TEST(StateDelta, RestoresTheEarlierStateExactly) {
  engine::Session s = chalons();
  const GameState before = s.state();
  GameState after = before;
  ASSERT_GE(after.units.size(), 3u);
  ASSERT_FALSE(after.units[0].fields.empty());
  // A field changed to a value the rules call equal, a unit moved, stamps and counts changed.
  after.units[0].fields[0] = Value::odds(2, 4);
  GameState withOdds = before;
  withOdds.units[0].fields[0] = Value::odds(1, 2);
  after.units[1].hex = after.units[1].hex + 1;
  after.touchField(1, GameState::kHexSlot);
  after.touchHex(7);
  after.coverage.resize(after.coverage.size() + 5, 3);
  after.turn += 1;
  // `after` is `withOdds` changed; the delta makes `withOdds` again out of it.
  auto d = eval::StateDelta::between(withOdds, after);
  EXPECT_EQ(difference(d.restore(after), withOdds), "");
  // And back the other way.
  auto back = eval::StateDelta::between(after, withOdds);
  EXPECT_EQ(difference(back.restore(withOdds), after), "");
}

TEST(StateDelta, RestoresAcrossAChangeInTheNumberOfUnitsAndStamps) {
  engine::Session s = chalons();
  const GameState small = s.state();
  GameState big = small;
  big.units.push_back(big.units.back());
  big.units.back().id = "extra";
  big.touchField(big.units.size() - 1, 0);
  big.hexStamps.resize(big.hexStamps.size() + 40, 9);
  EXPECT_EQ(difference(eval::StateDelta::between(small, big).restore(big), small), "");
  EXPECT_EQ(difference(eval::StateDelta::between(big, small).restore(small), big), "");
}

// A game played by the random player, the history pushed before each move as the REPL does; the
// states before and after each move kept whole to compare with.
struct Played {
  engine::History history;
  std::vector<engine::Session> before, after;
  std::vector<std::vector<std::string>> logs;
  std::unique_ptr<engine::Session> now;
  std::vector<std::string> log;
};

std::unique_ptr<Played> play(int moves, uint64_t seed) {
  auto p = std::make_unique<Played>();
  p->now = std::make_unique<engine::Session>(chalons());
  engine::RandomPlayer player(seed);
  for (int m = 0; m < moves && !p->now->over(); ++m) {
    p->history.push(*p->now, p->log);
    p->before.push_back(*p->now);
    p->logs.push_back(p->log);
    if (player.play(*p->now).kind == engine::RandomPlayer::Move::None) {
      p->history.dropLast();
      p->before.pop_back();
      p->logs.pop_back();
      break;
    }
    p->log.push_back("move " + std::to_string(m));
    p->after.push_back(*p->now);
  }
  return p;
}

TEST(History, UndoAndRedoGiveBackEveryStateExactly) {
  auto p = play(150, 11);
  const size_t n = p->before.size();
  ASSERT_GT(n, 100u);
  // Undo all the way, each state the one pushed before that move, each log its log.
  for (size_t i = n; i-- > 0;) {
    ASSERT_TRUE(p->history.undo(*p->now, p->log)) << i;
    ASSERT_EQ(difference(*p->now, p->before[i]), "") << "undo to before move " << i;
    ASSERT_EQ(p->log, p->logs[i]) << i;
  }
  EXPECT_FALSE(p->history.canUndo());
  // Redo all the way.
  for (size_t i = 0; i < n; ++i) {
    ASSERT_TRUE(p->history.redo(*p->now, p->log)) << i;
    ASSERT_EQ(difference(*p->now, p->after[i]), "") << "redo of move " << i;
  }
  EXPECT_FALSE(p->history.canRedo());
}

TEST(History, ABranchAfterUndoAndADroppedPushKeepTheRestExact) {
  auto p = play(60, 4);
  const size_t n = p->before.size();
  ASSERT_GT(n, 30u);
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(p->history.undo(*p->now, p->log));
  ASSERT_EQ(difference(*p->now, p->before[n - 10]), "");
  // A new move from here clears what could be redone; a refused one is dropped.
  engine::RandomPlayer other(99);
  p->history.push(*p->now, p->log);
  engine::Session branchStart = *p->now;
  ASSERT_NE(other.play(*p->now).kind, engine::RandomPlayer::Move::None);
  EXPECT_FALSE(p->history.canRedo());
  p->history.push(*p->now, p->log);
  p->history.dropLast();
  ASSERT_TRUE(p->history.undo(*p->now, p->log));
  ASSERT_EQ(difference(*p->now, branchStart), "");
  // The entries below the branch are still the states pushed then.
  for (size_t i = n - 10; i-- > n - 30;) {
    ASSERT_TRUE(p->history.undo(*p->now, p->log));
    ASSERT_EQ(difference(*p->now, p->before[i]), "") << i;
  }
}

TEST(History, KeepsAtMostItsBound) {
  engine::History h;
  engine::Session s = chalons();
  std::vector<std::string> log;
  for (size_t i = 0; i < engine::History::kMaxUndo + 20; ++i) {
    h.push(s, log);
    log.push_back("line " + std::to_string(i));
  }
  size_t undone = 0;
  while (h.undo(s, log)) ++undone;
  EXPECT_EQ(undone, engine::History::kMaxUndo);
  EXPECT_EQ(log.size(), 20u);  // the oldest kept entry: 20 lines were written before it
}

TEST(TraceLogSharing, ACopySharesItsEventsAndKeepsItsOwnEnd) {
  eval::TraceLog a;
  for (int i = 0; i < 70; ++i) {
    eval::TraceEvent e;
    e.output = "event " + std::to_string(i);
    a.push_back(e);
  }
  eval::TraceLog b = a;
  eval::TraceEvent extra;
  extra.output = "only in a";
  a.push_back(extra);
  EXPECT_EQ(b.size(), 70u);
  EXPECT_EQ(a.size(), 71u);
  EXPECT_EQ(b.back().output, "event 69");
  EXPECT_EQ(&a[69], &b[69]);  // the event itself, not a copy
  EXPECT_EQ(&a[3], &b[3]);
}

}  // namespace
}  // namespace polemos
