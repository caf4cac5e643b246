// engine/setup and engine/history: typed set-up edits are all or nothing (a refused edit leaves the
// saved game byte for byte as it was), values are checked against their field's type, going to a
// phase either gets there or changes nothing, and undo/redo return exactly the earlier games.
#include "engine/setup.h"

#include <gtest/gtest.h>

#include "check/loader.h"
#include "diag/diagnostics.h"
#include "engine/history.h"
#include "engine/reading.h"
#include "engine/save.h"

namespace polemos {
namespace {

using engine::Outcome;
namespace edit = engine::edit;

std::unique_ptr<engine::Session> sandbox(const char* ruleset = "standard") {
  diag::SourceManager sources;
  diag::Diagnostics diags(sources);
  auto p = check::Loader(diags).load(check::LoadRequest{ruleset, "", {}}).program;
  if (!p) return nullptr;
  std::string why;
  return engine::openSandbox(*p, check::SandboxSpec{1, 12, 1, 10, {}}, engine::SessionConfig{},
                             why);
}

int32_t field(const engine::Session& s, const char* name) {
  const auto& P = s.program();
  const auto& cls = P.classes[P.unitTypes[engine::findUnitType(P, "inf")].cls];
  for (size_t f = 0; f < cls.fields.size(); ++f)
    if (cls.fields[f].name == name) return static_cast<int32_t>(f);
  return -1;
}

edit::Place inf(const engine::Session& s, const char* side, const char* hex, const char* id) {
  const auto& P = s.program();
  return edit::Place{engine::findSide(P, side),
                     engine::findUnitType(P, "inf"),
                     s.state().map.parse(hex),
                     -1,
                     id,
                     {}};
}

TEST(Setup, PlaceAddsAUnitWithItsTypesValuesAndTheGivenFields) {
  auto s = sandbox();
  ASSERT_TRUE(s);
  edit::Place e = inf(*s, "blue", "0505", "a");
  e.fields.push_back({field(*s, "strength"), ir::Value::integer(5)});
  ASSERT_EQ(engine::applyEdit(*s, e).kind, Outcome::Ok);
  int32_t u = engine::findUnit(s->state(), "a");
  ASSERT_GE(u, 0);
  EXPECT_EQ(s->state().units[u].hex, s->state().map.parse("0505"));
  EXPECT_EQ(s->state().units[u].fields[field(*s, "strength")], ir::Value::integer(5));
}

TEST(Setup, ARefusedEditChangesNothing) {
  auto s = sandbox();
  ASSERT_TRUE(s);
  ASSERT_EQ(engine::applyEdit(*s, inf(*s, "blue", "0505", "a")).kind, Outcome::Ok);
  std::string before = engine::saveSession(*s);
  // The same id twice, an id not starting with a letter, a hex off the map, a side and a type
  // that do not exist.
  EXPECT_EQ(engine::applyEdit(*s, inf(*s, "red", "0606", "a")).message,
            "unit id 'a' is already used");
  EXPECT_EQ(engine::applyEdit(*s, inf(*s, "red", "0606", "9x")).message,
            "a unit id starts with a letter, not '9x'");
  edit::Place off = inf(*s, "red", "0606", "b");
  off.hex = 10000;
  EXPECT_EQ(engine::applyEdit(*s, off).kind, Outcome::Error);
  off.hex = 3;
  off.side = 7;
  EXPECT_EQ(engine::applyEdit(*s, off).kind, Outcome::Error);
  // A set whose first change is good and whose second is not: neither is made.
  int32_t a = engine::findUnit(s->state(), "a");
  using Change = edit::SetUnit::Change;
  edit::SetUnit set{a,
                    {{Change::FieldValue, field(*s, "strength"), ir::Value::integer(2)},
                     {Change::FieldValue, field(*s, "strength"), ir::Value::string("six")}}};
  Outcome o = engine::applyEdit(*s, set);
  EXPECT_EQ(o.kind, Outcome::Error);
  EXPECT_NE(o.message.find("strength"), std::string::npos) << o.message;
  // A facing out of range, a hexside between hexes that are not adjacent.
  EXPECT_EQ(
      engine::applyEdit(*s, edit::SetUnit{a, {{Change::Facing, -1, ir::Value::integer(6)}}}).kind,
      Outcome::Error);
  const auto& m = s->state().map;
  EXPECT_EQ(engine::applyEdit(*s, edit::Hexside{m.parse("0101"), m.parse("0505"), 0}).message,
            "hexes 0101 and 0505 are not adjacent");
  // Removing a unit twice: the second is refused.
  ASSERT_EQ(engine::applyEdit(*s, edit::Remove{a}).kind, Outcome::Ok);
  std::string removed = engine::saveSession(*s);
  EXPECT_EQ(engine::applyEdit(*s, edit::Remove{a}).message, "a is not on the map");
  EXPECT_EQ(engine::saveSession(*s), removed);
  EXPECT_NE(before, removed);
}

TEST(Setup, SideFieldsAreCheckedAgainstTheirTypes) {
  auto s = sandbox();
  ASSERT_TRUE(s);
  const auto& P = s->program();
  ASSERT_FALSE(P.sideState.fields.empty());
  int32_t slot = -1;
  for (size_t f = 0; f < P.sideState.fields.size(); ++f)
    if (P.sideState.fields[f].derived < 0 && P.sideState.fields[f].type.kind == ir::TypeKind::Int)
      slot = static_cast<int32_t>(f);
  ASSERT_GE(slot, 0);
  std::string before = engine::saveSession(*s);
  EXPECT_EQ(engine::applyEdit(*s, edit::SetSide{0, {{slot, ir::Value::boolean(true)}}}).kind,
            Outcome::Error);
  EXPECT_EQ(engine::applyEdit(*s, edit::SetSide{5, {{slot, ir::Value::integer(1)}}}).kind,
            Outcome::Error);
  EXPECT_EQ(engine::saveSession(*s), before);
  ASSERT_EQ(engine::applyEdit(*s, edit::SetSide{0, {{slot, ir::Value::integer(40)}}}).kind,
            Outcome::Ok);
  EXPECT_EQ(s->state().sides[0].fields[slot], ir::Value::integer(40));
}

TEST(Setup, GotoGetsThereOrChangesNothing) {
  auto s = sandbox();
  ASSERT_TRUE(s);
  const auto& P = s->program();
  size_t from = 99;
  Outcome o = engine::gotoPhase(*s, engine::findPhase(P, "combat"), engine::findSide(P, "red"),
                                false, &from);
  ASSERT_EQ(o.kind, Outcome::Ok) << o.message;
  EXPECT_EQ(s->phaseName(), "combat");
  EXPECT_EQ(s->stop().player, engine::findSide(P, "red"));
  EXPECT_LE(from, s->state().trace.size());
}

TEST(Setup, GotoRefusedLeavesTheGameAsItWas) {
  auto s = sandbox();
  ASSERT_TRUE(s);
  // Two enemy units side by side: in Standard the movement phase cannot end with units in enemy
  // zones of control without attacking, or the goto is refused for another reason; either way
  // the game must be unchanged when it is refused.
  ASSERT_EQ(engine::applyEdit(*s, inf(*s, "blue", "0505", "a")).kind, Outcome::Ok);
  ASSERT_EQ(engine::applyEdit(*s, inf(*s, "red", "0506", "b")).kind, Outcome::Ok);
  std::string before = engine::saveSession(*s);
  const auto& P = s->program();
  int refused = 0;
  for (const auto& ph : P.phases)
    for (int32_t side = 0; side < 2; ++side) {
      engine::Session copy = *s;
      Outcome o = engine::gotoPhase(copy, engine::findPhase(P, ph.name), side, false, nullptr);
      if (o.kind == Outcome::Ok) continue;
      ++refused;
      EXPECT_EQ(o.message.rfind("cannot go to " + ph.name, 0), 0u) << o.message;
      EXPECT_EQ(engine::saveSession(copy), before) << ph.name;
    }
  EXPECT_GT(refused, 0);
}

TEST(History, UndoAndRedoReturnTheEarlierGames) {
  auto s = sandbox();
  ASSERT_TRUE(s);
  engine::History h;
  std::vector<std::string> log = {"sandbox 12x10"};
  std::string empty = engine::saveSession(*s);
  h.push(*s, log);
  ASSERT_EQ(engine::applyEdit(*s, inf(*s, "blue", "0505", "a")).kind, Outcome::Ok);
  log.push_back("place blue inf 0505 as a");
  std::string placed = engine::saveSession(*s);
  // A change that did not happen is dropped and cannot be undone.
  h.push(*s, log);
  h.dropLast();
  ASSERT_TRUE(h.undo(*s, log));
  EXPECT_EQ(engine::saveSession(*s), empty);
  EXPECT_EQ(log.size(), 1u);
  EXPECT_FALSE(h.undo(*s, log));
  ASSERT_TRUE(h.redo(*s, log));
  EXPECT_EQ(engine::saveSession(*s), placed);
  EXPECT_EQ(log.size(), 2u);
  EXPECT_FALSE(h.redo(*s, log));
  // A new change clears what could be redone.
  ASSERT_TRUE(h.undo(*s, log));
  h.push(*s, log);
  EXPECT_FALSE(h.canRedo());
}

TEST(History, IsBounded) {
  auto s = sandbox();
  ASSERT_TRUE(s);
  engine::History h;
  std::vector<std::string> log;
  for (size_t i = 0; i < engine::History::kMaxUndo + 10; ++i) h.push(*s, log);
  size_t n = 0;
  while (h.undo(*s, log)) ++n;
  EXPECT_EQ(n, engine::History::kMaxUndo);
}

}  // namespace
}  // namespace polemos
