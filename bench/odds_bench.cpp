// Benchmarks of exact odds: a Standard 3:1 attack (two attackers, 9 to 3) with retreat choices,
// enumerated under the `first` policy (6 die faces, one branch each) and under `random` (every
// decision split: the lost unit, the retreat hex, the advance). The baseline, in the same run, is
// the same attack played once on a copy of the game with a seeded die and first options: the
// ratio says how many single plays an exact answer costs.
#include <benchmark/benchmark.h>

#include "analysis/odds.h"
#include "common/situations.h"

using namespace polemos;

namespace {

using bench::Situation;
using bench::situation;

void BM_AttackPlayedOnce(benchmark::State& state) {
  Situation& s = situation();
  if (s.attack < 0) return state.SkipWithError("standard not available");
  engine::Session base = *s.game;
  base.restartTrace();
  uint64_t seed = 1;
  for (auto _ : state) {
    engine::Session copy = bench::playAttackOnce(base, s, ++seed);
    benchmark::DoNotOptimize(copy.state().units.data());
  }
}
BENCHMARK(BM_AttackPlayedOnce)->Unit(benchmark::kMicrosecond);

void BM_OddsThreeToOne(benchmark::State& state, analysis::OddsPolicy policy) {
  Situation& s = situation();
  if (s.attack < 0) return state.SkipWithError("standard not available");
  analysis::OddsRequest req;
  req.policy = policy;
  uint64_t branches = 0;
  for (auto _ : state) {
    auto r = analysis::oddsOfAction(*s.game, s.attack, s.args, req);
    branches = r.branches;
    benchmark::DoNotOptimize(r.outcomes.data());
  }
  state.counters["branches"] = static_cast<double>(branches);
}
BENCHMARK_CAPTURE(BM_OddsThreeToOne, first, analysis::OddsPolicy::First)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_OddsThreeToOne, random, analysis::OddsPolicy::Random)
    ->Unit(benchmark::kMicrosecond);

}  // namespace
