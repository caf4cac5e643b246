// Benchmarks of exact odds: a Standard 3:1 attack (two attackers, 9 to 3) with retreat choices,
// enumerated under the `first` policy (6 die faces, one branch each) and under `random` (every
// decision split: the lost unit, the retreat hex, the advance). The baseline, in the same run, is
// the same attack played once on a copy of the game with a seeded die and first options: the
// ratio says how many single plays an exact answer costs.
#include <benchmark/benchmark.h>

#include "analysis/odds.h"
#include "check/loader.h"
#include "engine/reading.h"
#include "engine/setup.h"

using namespace polemos;

namespace {

struct Situation {
  std::unique_ptr<engine::Session> game;
  int32_t attack = -1;
  std::vector<ir::Value> args;
};

// The situation is set up through the engine's typed edits: a 12x10 sandbox of Standard, three
// infantry units, the blue combat phase.
Situation& situation() {
  static Situation s = [] {
    Situation x;
    diag::SourceManager sm;
    diag::Diagnostics diags(sm);
    auto loaded = check::Loader(diags).load(check::LoadRequest{"standard", "", {}});
    if (!loaded.program) return x;
    std::string why;
    auto game = engine::openSandbox(*loaded.program, check::SandboxSpec{1, 12, 1, 10, {}},
                                    engine::SessionConfig{}, why);
    if (!game) return x;
    const ir::Program& P = game->program();
    int32_t blue = engine::findSide(P, "blue"), red = engine::findSide(P, "red");
    int32_t inf = engine::findUnitType(P, "inf");
    const ir::Schema& cls = P.classes[P.unitTypes[inf].cls];
    int32_t strength = -1;
    for (size_t f = 0; f < cls.fields.size(); ++f)
      if (cls.fields[f].name == "strength") strength = static_cast<int32_t>(f);
    auto place = [&](int32_t side, const char* hex, const char* id, int64_t str) {
      return engine::applyEdit(*game, engine::edit::Place{side,
                                                          inf,
                                                          game->state().map.parse(hex),
                                                          -1,
                                                          id,
                                                          {{strength, ir::Value::integer(str)}}})
                 .kind == engine::Outcome::Ok;
    };
    if (!place(blue, "0505", "a", 5) || !place(blue, "0606", "b", 4) || !place(red, "0506", "d", 3))
      return x;
    if (engine::gotoPhase(*game, engine::findPhase(P, "combat"), blue, false, nullptr).kind !=
        engine::Outcome::Ok)
      return x;
    x.attack = engine::findAction(P, "attack");
    x.args = {ir::Value::of(ir::Tag::Hex, game->state().map.parse("0506"))};
    x.game = std::move(game);
    return x;
  }();
  return s;
}

void BM_AttackPlayedOnce(benchmark::State& state) {
  Situation& s = situation();
  if (s.attack < 0) return state.SkipWithError("standard not available");
  engine::Session base = *s.game;
  base.restartTrace();
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
