// Session: the game as a value. Cloning, saving and loading, replay from (seed, decisions),
// determinism, and refusal of corrupt saves without losing the game.
#include "engine/session.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <malloc.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "check/loader.h"
#include "engine/save.h"
#include "eval/trace.h"

using namespace polemos;
namespace fs = std::filesystem;

namespace {

// A small game with every kind of stop: phase windows, rolls inside an action, a choice, and an
// alternation; two sides and units.
const char* kGame = R"(
ruleset duel "A duel" {
  unit class C { strength: int ; state hits: int = 0 }
  unit type fighter: C { strength = 3 }
  side state { score: int = 0 }
  terrain open { }
  action strike(u: unit in units(acting_side())) §7.0 {
    require u.hits < 3 §7.3
    let r = roll d6 §7.6
    let target = choose units(enemy(acting_side())) by acting_side() "target" §7.2
    target.hits += 1
    acting_side().score += r
  }
  sequence §4.0 {
    for t in 1..3 {
      set_turn(t)
      for s in sides() {
        set_active(s)
        phase combat §4.C { allow strike }
      }
    }
    finish(if sides()[0].score > sides()[1].score then sides()[0] else sides()[1], "marginal", "points")
  }
}
scenario field for duel {
  map columns 1..4 rows 1..4 { default open }
  side red { } side blue { }
  force red { r1 fighter at 0101 ; r2 fighter at 0102 }
  force blue { b1 fighter at 0404 ; b2 fighter at 0403 }
}
)";

std::shared_ptr<const ir::Program> loadGame() {
  // One folder per process: ctest runs tests in parallel processes, which must not share files.
  fs::path dir = fs::temp_directory_path() / ("polemos_session_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path file = dir / "duel.pol";
  std::ofstream(file) << kGame;
  static diag::SourceManager sm;
  diag::Diagnostics diags(sm);
  check::Loader loader(diags);
  check::LoadRequest req;
  req.ruleset = file.string();
  req.scenario = file.string();
  auto loaded = loader.load(req);
  EXPECT_TRUE(loaded.program) << diags.render();
  return loaded.program;
}

std::string traceText(const engine::Session& s) {
  std::string out;
  for (const auto& e : s.state().trace)
    out += fmt::format("{} {} {} {} {} {}\n", e.seq, cite::numberList(e.citations),
                       eval::traceKindName(e.kind), e.subject, e.inputs, e.output);
  return out;
}

// Plays `moves` decisions, always taking the first (or last) legal option.
void playFirst(engine::Session& s, int moves, bool last = false) {
  for (int i = 0; i < moves && !s.over(); ++i) {
    auto opts = s.legal();
    ASSERT_FALSE(opts.empty());
    auto o = s.apply(last ? opts.back() : opts[0]);
    ASSERT_EQ(o.kind, engine::Outcome::Ok) << o.message;
  }
}

TEST(Session, StartsAtTheFirstDecision) {
  engine::Session s(loadGame(), engine::SessionConfig{});
  ASSERT_EQ(s.start().kind, engine::Outcome::Ok);
  EXPECT_EQ(s.stop().kind, eval::Stop::Window);
  EXPECT_EQ(s.describeStop(), "red to act: combat phase (§4.C)");
  auto opts = s.legal();
  ASSERT_EQ(opts.size(), 3u);
  EXPECT_EQ(opts[0].text, "strike r1");
  EXPECT_EQ(opts[1].text, "strike r2");
  EXPECT_EQ(opts[2].text, "end");
}

TEST(Session, ActionSuspendsAtAChoiceInTheMiddle) {
  engine::Session s(loadGame(), engine::SessionConfig{});
  s.start();
  s.forceDice({4});
  auto o = s.act(0, {ir::Value::of(ir::Tag::Unit, 0)});
  ASSERT_EQ(o.kind, engine::Outcome::Ok);
  ASSERT_EQ(s.stop().kind, eval::Stop::Choose);
  EXPECT_EQ(s.describeStop(), "red to choose: target (§7.2)");
  ASSERT_EQ(s.pick(1).kind, engine::Outcome::Ok);
  EXPECT_EQ(s.state().units[3].fields[1].i, 1);  // b2 was hit
  EXPECT_EQ(s.state().sides[0].fields[0].i, 4);
}

// The snapshot an action keeps, and the buffers kept for the next action's once it is complete,
// are the Session's own: a copy made after an action (a clone, an undo entry, a branch of the
// odds) holds no more than a copy made before any.
TEST(Session, ACopyAfterAnActionHoldsNoMoreThanOneBefore) {
  engine::Session s(loadGame(), engine::SessionConfig{});
  s.start();
  auto heapOf50Copies = [](const engine::Session& from) {
    size_t before = mallinfo2().uordblks;
    std::vector<engine::Session> copies(50, from);
    return mallinfo2().uordblks - before;
  };
  heapOf50Copies(s);  // anything made once, on a first copy, is made now
  size_t fresh = heapOf50Copies(s);
  if (fresh == 0) GTEST_SKIP() << "the allocator does not count (a sanitizer's)";
  // Dice rolled by the session, not forced: a forced die keeps the command's start as well (for
  // a refused command), which is another matter.
  ASSERT_EQ(s.act(0, {ir::Value::of(ir::Tag::Unit, 0)}).kind, engine::Outcome::Ok);
  ASSERT_EQ(s.pick(1).kind, engine::Outcome::Ok);
  ASSERT_EQ(s.stop().kind, eval::Stop::Window);  // the action is complete
  size_t after = heapOf50Copies(s);
  EXPECT_LE(after, fresh + fresh / 4) << "fresh " << fresh << " after " << after;
}

TEST(Session, CopiesAreIndependent) {
  engine::Session a(loadGame(), engine::SessionConfig{});
  a.start();
  engine::Session b = a;
  playFirst(b, 3);
  EXPECT_EQ(a.stop().kind, eval::Stop::Window);
  EXPECT_NE(traceText(a), traceText(b));
  playFirst(a, 3);
  EXPECT_EQ(traceText(a), traceText(b));  // same seed, same decisions, same game
}

TEST(Session, SameSeedSameDecisionsSameTrace) {
  engine::SessionConfig cfg;
  cfg.seed = 99;
  engine::Session a(loadGame(), cfg), b(loadGame(), cfg);
  a.start();
  b.start();
  playFirst(a, 12);
  playFirst(b, 12);
  EXPECT_EQ(traceText(a), traceText(b));
}

TEST(Session, SaveAndLoadResumesMidAction) {
  auto program = loadGame();
  engine::Session a(program, engine::SessionConfig{});
  a.start();
  a.act(0, {ir::Value::of(ir::Tag::Unit, 0)});
  ASSERT_EQ(a.stop().kind, eval::Stop::Choose);  // suspended inside the action
  std::string saved = engine::saveSession(a);
  engine::Session b(program, engine::SessionConfig{});
  b.start();
  auto err = engine::loadSession(saved, b);
  ASSERT_FALSE(err) << *err;
  EXPECT_EQ(engine::saveSession(b), saved);
  playFirst(a, 10);
  playFirst(b, 10);
  EXPECT_EQ(traceText(a), traceText(b));
}

TEST(Session, PlaysToTheEnd) {
  engine::Session s(loadGame(), engine::SessionConfig{});
  s.start();
  playFirst(s, 3);
  playFirst(s, 200, true);
  ASSERT_TRUE(s.over());
  EXPECT_TRUE(s.state().result.over);
  EXPECT_NE(s.describeStop().find("wins (marginal), points"), std::string::npos)
      << s.describeStop();
}

TEST(Session, CorruptSavesAreRefusedAndTheGameIsKept) {
  auto program = loadGame();
  engine::Session s(program, engine::SessionConfig{});
  s.start();
  playFirst(s, 2);
  std::string before = engine::saveSession(s);
  std::string good = before;
  std::vector<std::pair<std::string, std::string>> bad = {
      {"", "malformed"},
      {"{", "malformed"},
      {"[1,2,3]", "not a Polemos save file"},
      {R"({"format": "polemos-save", "version": 99})", "format version 99"},
  };
  // A flipped frame index, a unit on a hex off the map, a wrong fingerprint, a truncated file.
  std::string frame = good;
  auto pos = frame.find("\"frames\"");
  ASSERT_NE(pos, std::string::npos);
  auto digit = frame.find_first_of("0123456789", pos);
  frame.replace(digit, 1, "9999");
  bad.push_back({frame, "corrupt"});
  std::string finger = good;
  auto fp = finger.find("\"program\": \"");
  finger[fp + 12] = finger[fp + 12] == '0' ? '1' : '0';
  bad.push_back({finger, "another build"});  // the same rule files, another program
  bad.push_back({good.substr(0, good.size() / 2), "malformed"});
  // Sides and turns the rules could not reach: a result naming side 999 once loaded and made
  // `status` read past the list of sides.
  auto tampered = [&](const std::function<void(nlohmann::json&)>& edit) {
    auto j = nlohmann::json::parse(good);
    edit(j);
    return j.dump(1);
  };
  bad.push_back({tampered([](auto& j) { j["result"]["winner"] = 999; }), "no side of the game"});
  bad.push_back({tampered([](auto& j) { j["result"]["winner"] = -2; }), "no side of the game"});
  bad.push_back({tampered([](auto& j) { j["acting"] = 999; }), "no side of the game"});
  bad.push_back({tampered([](auto& j) { j["active_side"] = -7; }), "no side of the game"});
  bad.push_back({tampered([](auto& j) { j["turn"] = -5; }), "turn is negative"});
  bad.push_back({tampered([](auto& j) { j["stop"]["player"] = 999; }), "pending decision"});
  for (const auto& [text, why] : bad) {
    auto err = engine::loadSession(text, s);
    ASSERT_TRUE(err) << "accepted: " << text.substr(0, 80);
    EXPECT_NE(err->find(why), std::string::npos) << *err;
    EXPECT_EQ(engine::saveSession(s), before);
  }
}

}  // namespace

namespace {

std::shared_ptr<const ir::Program> loadText(const std::string& name, const std::string& text) {
  // One folder per process: ctest runs tests in parallel processes, which must not share files.
  fs::path dir = fs::temp_directory_path() / ("polemos_session_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path file = dir / (name + ".pol");
  std::ofstream(file) << text;
  static diag::SourceManager sm;
  diag::Diagnostics diags(sm);
  check::Loader loader(diags);
  check::LoadRequest req;
  req.ruleset = file.string();
  auto loaded = loader.load(req);
  EXPECT_TRUE(loaded.program) << diags.render();
  return loaded.program;
}

// §7.41 and the architecture's example: every modifier application is an event with its rule,
// its inputs and its output.
TEST(Trace, ModifierApplicationsCiteTheirRule) {
  auto p = loadText("trace_mod", R"(
ruleset tm {
  quantity melee.defense(d: int, terrain: string): int = d
  modifier terrain_defense on melee.defense(d, t) §7.41 { when t == "woods": * 2 because t, "DD" }
  sequence { note melee.defense(5, "woods") }
})");
  engine::Session s(p, engine::SessionConfig{});
  s.start();
  const eval::TraceEvent* mod = nullptr;
  for (const auto& e : s.state().trace)
    if (e.kind == eval::TraceKind::Modifier) mod = &e;
  ASSERT_NE(mod, nullptr);
  EXPECT_EQ(cite::numberList(mod->citations), "7.41");
  EXPECT_EQ(mod->subject, "terrain_defense");
  EXPECT_EQ(mod->inputs, "melee.defense 5");
  EXPECT_EQ(mod->output, "10 (x2, woods, DD)");
}

TEST(Trace, RollsTablesPhasesAndActionsAreEvents) {
  auto p = loadText("trace_all", R"(
ruleset ta {
  table crt §7.6 { rows d6 ; row 1-3: 1 ; row 4-6: 2 }
  action go() §5.0 { note crt[roll d6 §7.0] }
  sequence { phase movement §4.A { allow go } }
})");
  engine::Session s(p, engine::SessionConfig{});
  s.start();
  s.forceDice({5});
  ASSERT_EQ(s.act(0, {}).kind, engine::Outcome::Ok);
  std::vector<std::string> kinds;
  for (const auto& e : s.state().trace)
    kinds.push_back(std::string(eval::traceKindName(e.kind)) + " " + cite::numberList(e.citations) +
                    " " + e.output);
  std::vector<std::string> want = {"phase 4.A start", "action 5.0 ", "roll 7.0 5", "table 7.6 2",
                                   "note  "};
  EXPECT_EQ(kinds, want);
}

TEST(Rules, ActionsCanBeGatedByOptions) {
  auto p = loadText("gate_action", R"(
ruleset ga {
  option charges = false §14.0
  action charge() §14.0 if charges { }
  action move() §5.0 { }
  sequence { phase movement §4.A { allow charge, move } }
})");
  engine::Session off(p, engine::SessionConfig{});
  off.start();
  std::vector<std::string> texts;
  for (const auto& o : off.legal()) texts.push_back(o.text);
  EXPECT_EQ(texts, (std::vector<std::string>{"move", "end"}));
  auto o = off.act(0, {});
  EXPECT_EQ(o.kind, engine::Outcome::Illegal);
  engine::SessionConfig on;
  on.options = {{"charges", "on"}};
  engine::Session s(p, on);
  s.start();
  EXPECT_EQ(s.legal().size(), 3u);
}

}  // namespace
