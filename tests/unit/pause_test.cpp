// `pause` in the Session: a stepping game stops at each pause and goes on with resume(); a game
// that is not stepping never stops there; a game saved at a pause loads at the same pause; the
// random player goes through pauses (`next` is its only option there).
#include <gtest/gtest.h>

#include "check/loader.h"
#include "diag/diagnostics.h"
#include "engine/random_player.h"
#include "engine/save.h"

namespace polemos {
namespace {

const std::string kRules = std::string(POLEMOS_TEST_DIR) + "/golden/pause_quarters.pol";

std::shared_ptr<const ir::Program> program() {
  diag::SourceManager sources;
  diag::Diagnostics diags(sources);
  return check::Loader(diags).load(check::LoadRequest{kRules, kRules, {}}).program;
}

// A stepping game of the rules, started.
std::unique_ptr<engine::Session> stepping(const std::shared_ptr<const ir::Program>& p) {
  engine::SessionConfig config;
  config.stepping = true;
  auto s = std::make_unique<engine::Session>(p, config);
  if (s->start().kind != engine::Outcome::Ok) return nullptr;
  return s;
}

// Both sides order 2, then end their windows.
void orderBoth(engine::Session& s) {
  for (int side = 0; side < 2; ++side) {
    auto opts = s.legal();
    auto it = std::find_if(opts.begin(), opts.end(),
                           [](const engine::Option& o) { return o.text == "order 2"; });
    ASSERT_NE(it, opts.end());
    ASSERT_EQ(s.apply(*it).kind, engine::Outcome::Ok);
    ASSERT_EQ(s.endPhase().kind, engine::Outcome::Ok);
  }
}

TEST(Pause, ASteppingGameStopsAtEachPause) {
  auto p = program();
  ASSERT_TRUE(p);
  auto game = stepping(p);
  ASSERT_TRUE(game);
  engine::Session& s = *game;
  orderBoth(s);
  for (int q = 1; q <= 4; ++q) {
    ASSERT_EQ(s.stop().kind, eval::Stop::Pause) << q;
    EXPECT_EQ(s.stop().message, "quarter " + std::to_string(q));
    ASSERT_EQ(s.legal().size(), 1u);
    EXPECT_EQ(s.legal()[0].text, "next");
    ASSERT_EQ(s.resume().kind, engine::Outcome::Ok);
  }
  EXPECT_EQ(s.stop().kind, eval::Stop::Window);
  EXPECT_EQ(s.resume().kind, engine::Outcome::Error);  // not paused
}

TEST(Pause, AGameNotSteppingPassesThrough) {
  auto p = program();
  ASSERT_TRUE(p);
  engine::Session s(p, engine::SessionConfig{});
  ASSERT_EQ(s.start().kind, engine::Outcome::Ok);
  orderBoth(s);
  EXPECT_EQ(s.stop().kind, eval::Stop::Window);
  size_t pauses = 0;
  for (const auto& e : s.state().trace) pauses += e.kind == eval::TraceKind::Pause;
  EXPECT_EQ(pauses, 4u);  // traced all the same
}

TEST(Pause, ASaveAtAPauseLoadsAtThatPause) {
  auto p = program();
  ASSERT_TRUE(p);
  auto game = stepping(p);
  ASSERT_TRUE(game);
  engine::Session& s = *game;
  orderBoth(s);
  ASSERT_EQ(s.resume().kind, engine::Outcome::Ok);  // at quarter 2
  std::string saved = engine::saveSession(s);
  auto other = stepping(p);
  ASSERT_TRUE(other);
  engine::Session& t = *other;
  ASSERT_EQ(engine::loadSession(saved, t), std::nullopt);
  EXPECT_EQ(t.stop().kind, eval::Stop::Pause);
  EXPECT_EQ(t.stop().message, "quarter 2");
  ASSERT_EQ(t.resume().kind, engine::Outcome::Ok);
  ASSERT_EQ(s.resume().kind, engine::Outcome::Ok);
  EXPECT_EQ(engine::saveSession(t), engine::saveSession(s));
}

TEST(Pause, TheRandomPlayerGoesThroughPauses) {
  auto p = program();
  ASSERT_TRUE(p);
  auto game = stepping(p);
  ASSERT_TRUE(game);
  engine::Session& s = *game;
  engine::RandomPlayer player(5);
  int moves = 0;
  while (!s.over() && moves < 200) {
    auto m = player.play(s);
    ASSERT_NE(m.kind, engine::RandomPlayer::Move::Failed) << m.outcome.message;
    ASSERT_NE(m.kind, engine::RandomPlayer::Move::Stuck);
    ++moves;
  }
  EXPECT_TRUE(s.over());
}

}  // namespace
}  // namespace polemos
