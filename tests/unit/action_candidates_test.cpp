// An action parameter's candidates (`u: unit in EXPR`) are asked when the options are listed
// (Session::candidates) and again when one is taken (Session::checkAction); both ask through the
// memo (Interpreter::tryCallRemembered), so the second is the first's answer while nothing it
// read has changed, and a new one after. These tests hold the answers to what the rules say at
// each point, whatever was asked before; a candidate list that fails says so as it did.
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

namespace polemos {
namespace {

constexpr const char* kRules = R"(
ruleset t {
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
  // 3. Candidates that fail to be worked out.
  action broken(n: int in (if 10 / zero() > 0 then [1] else [2])) { }
  sequence {
    phase move { allow go, tire, broken }
  }
}
scenario s for t {
  map columns 1..3 rows 1..1 { default open }
  side a { }
  force a { a inf at 0101 ; b inf at 0201 ; c inf at 0301 }
}
)";

struct Game {
  std::filesystem::path dir;
  std::shared_ptr<const ir::Program> program;
  std::unique_ptr<engine::Session> session;
  Game() {
    dir = std::filesystem::temp_directory_path() /
          ("polemos_action_candidates_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "t.pol").string();
    std::ofstream(path) << kRules;
    diag::SourceManager sources;
    diag::Diagnostics diags(sources);
    program = check::Loader(diags).load(check::LoadRequest{path, path, {}}).program;
    if (!program) return;
    engine::SessionConfig config;
    config.tracing = false;
    session = std::make_unique<engine::Session>(program, config);
    session->start();
  }
  ~Game() { std::filesystem::remove_all(dir); }
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

}  // namespace
}  // namespace polemos
