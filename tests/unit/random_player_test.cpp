// engine/random_player: the one random player (the REPL's `auto`, `polemos sim`, the conformance
// test and the benchmarks use it): seeded, uniform, and it never leaves a refused option applied.
#include "engine/random_player.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <string>

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

// At a window the player draws candidates and checks only the one drawn: what it plays is
// always one of the options `legal` lists, at a choice too.
TEST(RandomPlayer, PlaysOnlyListedOptions) {
  auto program = load("standard", "chalons");
  ASSERT_TRUE(program);
  engine::Session s(program, engine::SessionConfig{});
  ASSERT_EQ(s.start().kind, engine::Outcome::Ok);
  engine::RandomPlayer player(11);
  int played = 0;
  for (int i = 0; i < 40; ++i) {
    auto listed = s.legal();
    auto m = player.play(s);
    if (m.kind != engine::RandomPlayer::Move::Played) continue;
    ++played;
    bool found = false;
    for (const auto& o : listed) found = found || o.text == m.option.text;
    EXPECT_TRUE(found) << m.option.text;
  }
  EXPECT_GT(played, 30);
}

// Uniform over the legal options, as if they had been listed: from one position, many players
// each play once, and every option's count stays near the mean (a chi-square statistic within
// six standard deviations of its mean). The drill's first window has candidates that its
// requirements refuse, so draws are set aside on the way.
TEST(RandomPlayer, DrawsUniformlyAmongTheLegalOptions) {
  auto program = load("warfare", "drill");
  ASSERT_TRUE(program);
  engine::Session s(program, engine::SessionConfig{});
  ASSERT_EQ(s.start().kind, engine::Outcome::Ok);
  auto listed = s.legal();
  const size_t n = listed.size();
  ASSERT_GT(n, 10u);
  // More candidates than legal options: some draws are set aside.
  std::function<size_t(int32_t, std::vector<ir::Value>&)> leaves = [&](int32_t a,
                                                                       std::vector<ir::Value>& p) {
    if (p.size() == s.program().actions[a].params.size()) return size_t{1};
    size_t total = 0;
    const ir::Value list = s.candidates(a, p);
    for (const auto& v : list.items()) {
      p.push_back(v);
      total += leaves(a, p);
      p.pop_back();
    }
    return total;
  };
  size_t candidates = s.mayEnd() ? 1 : 0;
  for (int32_t a : s.openActions()) {
    std::vector<ir::Value> p;
    candidates += leaves(a, p);
  }
  EXPECT_GT(candidates, n);
  std::map<std::string, int> counts;
  for (const auto& o : listed) counts[o.text] = 0;
  const int k = static_cast<int>(n) * 60;
  for (int i = 0; i < k; ++i) {
    engine::Session copy = s;
    engine::RandomPlayer player = engine::RandomPlayer::forSeed(static_cast<uint64_t>(i) + 1);
    auto m = player.play(copy);
    ASSERT_EQ(m.kind, engine::RandomPlayer::Move::Played) << m.outcome.message;
    ASSERT_TRUE(counts.count(m.option.text)) << m.option.text << " is not a legal option";
    ++counts[m.option.text];
  }
  double mean = static_cast<double>(k) / static_cast<double>(n), chi2 = 0;
  for (const auto& [text, c] : counts) chi2 += (c - mean) * (c - mean) / mean;
  double df = static_cast<double>(n - 1);
  EXPECT_LT(chi2, df + 6 * std::sqrt(2 * df));
  for (const auto& [text, c] : counts) EXPECT_GT(c, 0) << text << " was never drawn";
}

// `end` is a candidate like the others, its requirement asked only when it is drawn: while the
// phase may not end the player never ends it and draws uniformly among the actions; once it may,
// ending is as likely as each action.
TEST(RandomPlayer, EndsAPhaseOnlyWhenItMayEndAndThenAsOftenAsEachOtherOption) {
  const std::string path = testing::TempDir() + "/random_player_end_requires.pol";
  {
    std::ofstream out(path);
    out << "ruleset t {\n"
           "  game state { marks: int = 0 }\n"
           "  action mark(n: int in [1, 2, 3]) \"mark\" { game.marks = game.marks + 1 }\n"
           "  sequence {\n"
           "    phase p {\n"
           "      allow mark\n"
           "      end requires game.marks >= 1 else \"mark first\"\n"
           "    }\n"
           "    note \"done\"\n"
           "  }\n"
           "}\n";
  }
  diag::SourceManager sources;
  diag::Diagnostics diags(sources);
  auto program = check::Loader(diags).load(check::LoadRequest{path, "", {}}).program;
  ASSERT_TRUE(program) << diags.render(false);
  engine::Session s(program, engine::SessionConfig{});
  ASSERT_EQ(s.start().kind, engine::Outcome::Ok);
  ASSERT_FALSE(s.mayEnd());
  auto tally = [&](const engine::Session& from, int k) {
    std::map<std::string, int> counts;
    for (int i = 0; i < k; ++i) {
      engine::Session copy = from;
      engine::RandomPlayer player = engine::RandomPlayer::forSeed(static_cast<uint64_t>(i) + 7);
      auto m = player.play(copy);
      EXPECT_EQ(m.kind, engine::RandomPlayer::Move::Played) << m.outcome.message;
      ++counts[m.option.text];
    }
    return counts;
  };
  auto before = tally(s, 3000);
  EXPECT_EQ(before.size(), 3u) << "three marks, never the end";
  EXPECT_EQ(before.count("end"), 0u);
  for (const auto& [text, c] : before) {
    EXPECT_GT(c, 850) << text;
    EXPECT_LT(c, 1150) << text;
  }
  engine::RandomPlayer first = engine::RandomPlayer::forSeed(1);
  ASSERT_EQ(first.play(s).kind, engine::RandomPlayer::Move::Played);
  ASSERT_TRUE(s.mayEnd());
  auto after = tally(s, 4000);
  EXPECT_EQ(after.size(), 4u);
  ASSERT_EQ(after.count("end"), 1u);
  for (const auto& [text, c] : after) {
    EXPECT_GT(c, 850) << text;
    EXPECT_LT(c, 1150) << text;
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
