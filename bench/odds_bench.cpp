// Benchmarks of exact odds: a Standard 3:1 attack (two attackers, 9 to 3) with retreat choices,
// enumerated under the `first` policy (6 die faces, one branch each) and under `random` (every
// decision split: the lost unit, the retreat hex, the advance). The baseline, in the same run, is
// the same attack played once on a copy of the game with a seeded die and first options: the
// ratio says how many single plays an exact answer costs.
#include <benchmark/benchmark.h>

#include "analysis/odds.h"
#include "repl/repl.h"

using namespace polemos;

namespace {

struct Situation {
  std::unique_ptr<repl::Repl> repl;
  int32_t attack = -1;
  std::vector<ir::Value> args;
};

Situation& situation() {
  static Situation s = [] {
    Situation x;
    repl::ReplOptions o;
    o.ruleset = "standard";
    x.repl = std::make_unique<repl::Repl>(o);
    std::string out;
    if (!x.repl->start(out)) return x;
    for (const char* line :
         {"place blue inf 0505 as a strength=5", "place blue inf 0606 as b strength=4",
          "place red inf 0506 as d strength=3", "goto combat blue"})
      x.repl->execute(line, out);
    const auto& game = *x.repl->session();
    for (size_t i = 0; i < game.program().actions.size(); ++i)
      if (game.program().actions[i].name == "attack") x.attack = static_cast<int32_t>(i);
    x.args = {ir::Value::of(ir::Tag::Hex, game.state().map.parse("0506"))};
    return x;
  }();
  return s;
}

void BM_AttackPlayedOnce(benchmark::State& state) {
  Situation& s = situation();
  if (s.attack < 0) return state.SkipWithError("standard not available");
  engine::Session base = *s.repl->session();
  base.mutableState().trace.clear();
  uint64_t seed = 1;
  for (auto _ : state) {
    engine::Session copy = base;
    copy.setRngState(++seed);
    copy.act(s.attack, s.args);
    while (copy.stop().kind == eval::Stop::Choose) copy.pick(0);
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
    auto r = analysis::oddsOfAction(*s.repl->session(), s.attack, s.args, req);
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
