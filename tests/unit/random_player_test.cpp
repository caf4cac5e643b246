// engine/random_player: the one random player (the REPL's `auto`, `polemos sim`, the conformance
// test and the benchmarks use it): seeded, uniform, and it never leaves a refused option applied.
#include "engine/random_player.h"

#include <gtest/gtest.h>

#include <set>

#include "check/loader.h"
#include "diag/diagnostics.h"
#include "engine/save.h"

namespace polemos {
namespace {

std::shared_ptr<const ir::Program> load(const std::string& ruleset, const std::string& scenario) {
  diag::SourceManager sources;
  diag::Diagnostics diags(sources);
  check::Loader loader(diags);
  return loader.load(check::LoadRequest{ruleset, scenario, {}}).program;
}

TEST(RandomPlayer, TheSameSeedPlaysTheSameGame) {
  auto program = load("standard", "chalons");
  ASSERT_TRUE(program);
  engine::SessionConfig config;
  config.seed = 3;
  std::string saves[2];
  for (auto& save : saves) {
    engine::Session s(program, config);
    ASSERT_EQ(s.start().kind, engine::Outcome::Ok);
    engine::RandomPlayer player = engine::RandomPlayer::forSeed(3);
    for (int i = 0; i < 30 && !s.over(); ++i) {
      auto m = player.play(s);
      ASSERT_NE(m.kind, engine::RandomPlayer::Move::Failed) << m.outcome.message;
      ASSERT_NE(m.kind, engine::RandomPlayer::Move::None);
    }
    save = engine::saveSession(s);
  }
  EXPECT_EQ(saves[0], saves[1]);
}

TEST(RandomPlayer, PlayedOptionIsTheOneAtItsIndex) {
  auto program = load("standard", "chalons");
  ASSERT_TRUE(program);
  engine::Session s(program, engine::SessionConfig{});
  ASSERT_EQ(s.start().kind, engine::Outcome::Ok);
  engine::RandomPlayer player(11);
  for (int i = 0; i < 10; ++i) {
    auto listed = s.legal();
    auto m = player.play(s);
    if (m.kind != engine::RandomPlayer::Move::Played) continue;
    ASSERT_LT(m.index, listed.size());
    EXPECT_EQ(listed[m.index].text, m.option.text);
  }
}

TEST(RandomPlayer, DrawsEveryOptionUniformly) {
  engine::RandomPlayer player(1);
  std::vector<int> counts(6, 0);
  for (int i = 0; i < 6000; ++i) ++counts[player.draw(6)];
  for (int c : counts) {
    EXPECT_GT(c, 850);
    EXPECT_LT(c, 1150);
  }
}

}  // namespace
}  // namespace polemos
