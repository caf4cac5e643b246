// An action parameter's candidates (`u: unit in EXPR`) are asked when the options are listed
// (Session::candidates) and again when one is taken (Session::checkAction); both ask through the
// memo (Interpreter::tryCallRemembered), so the second is the first's answer while nothing it
// read has changed, and a new one after. These tests hold the answers to what the rules say at
// each point, whatever was asked before; a candidate list that fails says so as it did. The
// requirements of an action that come before its code reads an argument (ActionInfo::
// sharedRequires) refuse every candidate alike: one refusal by them stands for all while the
// game is unchanged (Session::sharedRefusal).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "check/loader.h"
#include "diag/diagnostics.h"
#include "engine/session.h"
#include "temp_rules.h"

namespace polemos {
namespace {

constexpr const char* kRules = R"(
ruleset t {
  side state { points: int = 2 }
  terrain open { }
  unit class C { state moved: bool = false ; state ready: bool = true }
  unit type inf: C { }
  function zero(): int = 0
  // 1. Each unit that has not moved, once.
  action go(u: unit in filter(units(acting_side()), x -> not x.moved and x.ready)) {
    u.moved = true
  }
  // 2. Tires a unit without moving it: what go's candidates read changes.
  action tire(u: unit in filter(units(acting_side()), x -> x.ready)) { u.ready = false }
  // 4. A requirement that reads no argument (shared), then one that does.
  action spend(u: unit in units(acting_side())) {
    require acting_side().points >= 1 §6.0 else "no points left"
    require not u.moved §6.1 else "that unit has moved"
    acting_side().points -= 1
  }
  // 5. A requirement after the argument is read is not shared, even if it reads none itself.
  action late(u: unit in units(acting_side())) {
    require u.ready §6.2 else "not ready"
    require acting_side().points >= 1 §6.3 else "no points for that"
  }
  // 6. Gives the points back.
  action refill() { acting_side().points = 3 }
  // 3. Candidates that fail to be worked out.
  action broken(n: int in (if 10 / zero() > 0 then [1] else [2])) { }
  sequence {
    phase move { allow go, tire, broken, spend, late, refill }
  }
}
scenario s for t {
  map columns 1..3 rows 1..1 { default open }
  side a { }
  force a { a inf at 0101 ; b inf at 0201 ; c inf at 0301 }
}
)";

struct Game {
  test_helpers::TempRules rules{kRules, "action_candidates"};
  std::shared_ptr<const ir::Program> program = rules.program;
  std::unique_ptr<engine::Session> session;
  Game() {
    if (!program) return;
    engine::SessionConfig config;
    config.tracing = false;
    session = std::make_unique<engine::Session>(program, config);
    session->start();
  }
  // The options of the listing whose text begins with `prefix`.
  std::vector<std::string> options(const std::string& prefix) {
    std::vector<std::string> out;
    for (const engine::Option& o : session->legal())
      if (o.text.rfind(prefix, 0) == 0) out.push_back(o.text);
    return out;
  }
  int32_t actionIndex(const std::string& name) const {
    for (size_t i = 0; i < program->actions.size(); ++i)
      if (program->actions[i].name == name) return static_cast<int32_t>(i);
    return -1;
  }
  engine::Outcome act(const std::string& action, const std::string& unit) {
    const int32_t a = actionIndex(action);
    const ir::Value u = ir::Value::of(ir::Tag::Unit, unitIndex(unit));
    return session->act(a, {u});
  }
  int64_t unitIndex(const std::string& id) const {
    const auto& units = session->state().units;
    for (size_t i = 0; i < units.size(); ++i)
      if (units[i].id == id) return static_cast<int64_t>(i);
    return -1;
  }
};

TEST(ActionCandidates, TakenAsListedWhileNothingTheyReadChangedAndAskedAgainAfter) {
  Game g;
  ASSERT_TRUE(g.session);
  EXPECT_EQ(g.options("go "), (std::vector<std::string>{"go a", "go b", "go c"}));
  // Taken as listed: a is a candidate.
  ASSERT_EQ(g.act("go", "a").kind, engine::Outcome::Ok);
  // a moved: it is no candidate any more, asked when listed and when taken.
  EXPECT_EQ(g.options("go "), (std::vector<std::string>{"go b", "go c"}));
  auto again = g.act("go", "a");
  EXPECT_EQ(again.kind, engine::Outcome::Illegal);
  EXPECT_NE(again.message.find("is not one of the possible u for go"), std::string::npos)
      << again.message;
  // Taken without a listing in between (the answer of the last one, a is still out).
  ASSERT_EQ(g.act("tire", "c").kind, engine::Outcome::Ok);
  auto tired = g.act("go", "c");  // c is no longer ready: not a candidate, though not moved
  EXPECT_EQ(tired.kind, engine::Outcome::Illegal) << tired.message;
  ASSERT_EQ(g.act("go", "b").kind, engine::Outcome::Ok);
  EXPECT_TRUE(g.options("go ").empty());
}

TEST(ActionCandidates, CandidatesThatFailSayHowAsBefore) {
  Game g;
  ASSERT_TRUE(g.session);
  // Listed: none of broken's options, and the listing says why.
  EXPECT_TRUE(g.options("broken").empty());
  const auto& errors = g.session->listingErrors();
  EXPECT_TRUE(std::any_of(errors.begin(), errors.end(), [](const std::string& e) {
    return e.find("division by zero") != std::string::npos;
  })) << (errors.empty() ? "no listing error" : errors.front());
  // Taken twice: the error each time (nothing was kept of the first).
  const int32_t a = g.actionIndex("broken");
  for (int i = 0; i < 2; ++i) {
    auto o = g.session->act(a, {ir::Value::integer(1)});
    EXPECT_EQ(o.kind, engine::Outcome::Error) << i;
    EXPECT_NE(o.message.find("division by zero"), std::string::npos) << o.message;
  }
}

// The requirements of a guard that come before it reads an argument are shared: one refusal by
// them stands for every candidate while the game is unchanged, and only then.
TEST(ActionCandidates, ARequirementThatReadsNoArgumentRefusesEveryCandidateAlike) {
  Game g;
  ASSERT_TRUE(g.session);
  auto requirementText = [&](const std::string& action, size_t k) {
    const auto& shared = g.program->actions[g.actionIndex(action)].sharedRequires;
    return k < shared.size() ? g.program->requirements[shared[k]].text : std::string("(none)");
  };
  EXPECT_EQ(g.program->actions[g.actionIndex("spend")].sharedRequires.size(), 1u);
  EXPECT_EQ(requirementText("spend", 0), "no points left");
  EXPECT_TRUE(g.program->actions[g.actionIndex("late")].sharedRequires.empty());
  EXPECT_TRUE(g.program->actions[g.actionIndex("go")].sharedRequires.empty());

  ASSERT_EQ(g.act("spend", "a").kind, engine::Outcome::Ok);
  ASSERT_EQ(g.act("spend", "b").kind, engine::Outcome::Ok);
  // No points left: refused for every unit, by the shared requirement, each time asked.
  EXPECT_TRUE(g.options("spend").empty());
  for (const char* u : {"a", "b", "c", "c"}) {
    auto o = g.act("spend", u);
    EXPECT_EQ(o.kind, engine::Outcome::Illegal) << u;
    EXPECT_EQ(o.message, "no points left") << u;
    ASSERT_EQ(o.citations.size(), 1u);
    EXPECT_EQ(o.citations[0], "6.0");
  }
  // `late` reads its argument first: an unready unit is refused for that, a ready one for the
  // points, not the other way round.
  ASSERT_EQ(g.act("tire", "c").kind, engine::Outcome::Ok);
  EXPECT_EQ(g.act("late", "c").message, "not ready");
  EXPECT_EQ(g.act("late", "a").message, "no points for that");
  EXPECT_EQ(g.act("late", "c").message, "not ready");
  // The game changes (a unit moves): asked again, and a unit refused for its own reason.
  ASSERT_EQ(g.act("go", "b").kind, engine::Outcome::Ok);
  EXPECT_EQ(g.act("spend", "b").message, "no points left");
}

// A refusal by a shared requirement holds only in the version it was made in: points given
// back make the action legal again at once.
TEST(ActionCandidates, ASharedRefusalEndsWhenTheGameChanges) {
  Game g;
  ASSERT_TRUE(g.session);
  ASSERT_EQ(g.act("spend", "a").kind, engine::Outcome::Ok);
  ASSERT_EQ(g.act("spend", "b").kind, engine::Outcome::Ok);
  EXPECT_EQ(g.act("spend", "c").message, "no points left");
  const int32_t refill = g.actionIndex("refill");
  ASSERT_EQ(g.session->act(refill, {}).kind, engine::Outcome::Ok);
  EXPECT_EQ(g.options("spend "), (std::vector<std::string>{"spend a", "spend b", "spend c"}));
  EXPECT_EQ(g.act("spend", "c").kind, engine::Outcome::Ok);
}

}  // namespace
}  // namespace polemos
