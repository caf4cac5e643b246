// The summary of a simulation (analysis/sim renderSummary): a mean's 95% interval comes from
// Student's t, so that two games give a wide interval (t = 12.706 with one degree of freedom, not
// the normal 1.96) and one game none at all; a run of random players ends with a note that random
// play decided the figures, and a run of greedy players does not.
#include <gtest/gtest.h>

#include "analysis/sim.h"

namespace polemos {
namespace {

analysis::SimGame game(uint64_t i, int64_t turns) {
  analysis::SimGame g;
  g.index = i;
  g.seed = i + 1;
  g.finished = true;
  g.winner = "a";
  g.turns = turns;
  return g;
}

TEST(SimSummary, TwoGamesGiveAWideTInterval) {
  analysis::SimSpec spec;
  spec.ruleset = "r";
  // Turns 10 and 12: mean 11, sd 1.414..., half-width 12.706 * 1.414 / 1.414 = 12.71.
  std::string out = analysis::renderSummary(spec, {"a", "b"}, {game(0, 10), game(1, 12)});
  EXPECT_NE(out.find("| turns played | 11.00 | -1.71 to 23.71 |"), std::string::npos) << out;
}

TEST(SimSummary, ManyGamesComeCloseToTheNormal) {
  analysis::SimSpec spec;
  spec.ruleset = "r";
  std::vector<analysis::SimGame> games;
  for (uint64_t i = 0; i < 200; ++i) games.push_back(game(i, i % 2 == 0 ? 10 : 12));
  // sd = 1.00251..., t(199) = 1.97196: half-width 0.1398.
  std::string out = analysis::renderSummary(spec, {"a", "b"}, games);
  EXPECT_NE(out.find("| turns played | 11.00 | 10.86 to 11.14 |"), std::string::npos) << out;
}

TEST(SimSummary, OneGameHasNoInterval) {
  analysis::SimSpec spec;
  spec.ruleset = "r";
  std::string out = analysis::renderSummary(spec, {"a", "b"}, {game(0, 10)});
  EXPECT_NE(out.find("| turns played | 10.00 | - (one game) |"), std::string::npos) << out;
}

TEST(SimSummary, RandomPlayersAreNamedAsDecidingTheResults) {
  analysis::SimSpec spec;
  spec.ruleset = "r";
  std::string random = analysis::renderSummary(spec, {"a", "b"}, {game(0, 10)});
  EXPECT_NE(random.find("random players choose among the legal moves at random"),
            std::string::npos);
  spec.players = "greedy";
  std::string greedy = analysis::renderSummary(spec, {"a", "b"}, {game(0, 10)});
  EXPECT_EQ(greedy.find("random players choose"), std::string::npos);
}

}  // namespace
}  // namespace polemos
