// The interpreter against hand-written C++ of the same rules (bench/native/standard_native.h),
// each pair measured in the same run, the native figure first; the interpreted benchmark reports
// `x_native`, its time per iteration over the native one's (docs/performance.md):
// (a) Standard melee resolution of the 3:1 attack (bench/common/situations.h), with a seeded die,
//     traced (as at the REPL) and untraced (as `sim` plays);
// (b) one movement search on the Chalons map at the start of the game, cold (the memo and kept
//     searches forgotten), unit after unit;
// (c) a random Chalons game: natively, its movement phases (15 turns, each side's) with a
//     sampling player; interpreted, the whole game with the random player of `polemos sim`.
#include <benchmark/benchmark.h>

#include <chrono>
#include <map>
#include <string>

#include "analysis/sim.h"
#include "common/situations.h"
#include "native/standard_native.h"

using namespace polemos;

namespace {

// Nanoseconds per iteration of the native half of each pair, for its interpreted half.
std::map<std::string, double>& nativeTimes() {
  static std::map<std::string, double> t;
  return t;
}

template <class Body>
void timed(benchmark::State& state, const std::string& pair, bool native, Body body) {
  auto start = std::chrono::steady_clock::now();
  for (auto _ : state) body();
  double ns =
      std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() /
      static_cast<double>(std::max<benchmark::IterationCount>(1, state.iterations()));
  if (native) {
    nativeTimes()[pair] = ns;
  } else if (auto it = nativeTimes().find(pair); it != nativeTimes().end() && it->second > 0) {
    state.counters["x_native"] = ns / it->second;
  }
}

// (a) melee
void BM_MeleeNative(benchmark::State& state) {
  bench::Situation& s = bench::situation();
  if (s.attack < 0) return state.SkipWithError("standard not available");
  const native::Board base = native::boardOf(*s.game);
  int att1 = -1, att2 = -1, def = -1;
  for (size_t i = 0; i < s.game->state().units.size(); ++i) {
    const std::string& id = s.game->state().units[i].id;
    (id == "a" ? att1 : id == "b" ? att2 : def) = static_cast<int>(i);
  }
  int die = 0;
  timed(state, "melee", true, [&] {
    native::Board b = base;
    benchmark::DoNotOptimize(native::resolveMelee(b, {att1, att2}, def, die % 6 + 1));
    ++die;
  });
}
BENCHMARK(BM_MeleeNative)->Unit(benchmark::kMicrosecond);

void BM_MeleeInterpreted(benchmark::State& state) {
  bench::Situation& s = bench::situation();
  if (s.attack < 0) return state.SkipWithError("standard not available");
  engine::Session base = *s.game;
  base.restartTrace();
  uint64_t seed = 1;
  timed(state, "melee", false, [&] {
    engine::Session copy = bench::playAttackOnce(base, s, ++seed);
    benchmark::DoNotOptimize(copy.state().units.data());
  });
}
BENCHMARK(BM_MeleeInterpreted)->Unit(benchmark::kMicrosecond);

// The same attack with the game untraced, as `polemos sim` plays it: what the trace's events
// (each modifier, table look-up and result, formatted for a reader) cost of the figure above.
void BM_MeleeInterpretedUntraced(benchmark::State& state) {
  bench::Situation& s = bench::untracedSituation();
  if (s.attack < 0) return state.SkipWithError("standard not available");
  engine::Session base = *s.game;
  uint64_t seed = 1;
  timed(state, "melee", false, [&] {
    engine::Session copy = bench::playAttackOnce(base, s, ++seed);
    benchmark::DoNotOptimize(copy.state().units.data());
  });
}
BENCHMARK(BM_MeleeInterpretedUntraced)->Unit(benchmark::kMicrosecond);

// (b) one movement search, cold
struct Searches {
  std::unique_ptr<engine::Session> game;
  int32_t move = -1;
  std::vector<int> units;  // the units on the map
};
Searches& searches() {
  static Searches s = [] {
    Searches x;
    x.game = bench::chalons();
    if (!x.game) return x;
    x.move = engine::findAction(x.game->program(), "move");
    const auto& units = x.game->state().units;
    for (size_t i = 0; i < units.size(); ++i)
      if (units[i].status == eval::UnitStatus::OnMap) x.units.push_back(static_cast<int>(i));
    return x;
  }();
  return s;
}

void BM_SearchNative(benchmark::State& state) {
  Searches& s = searches();
  if (!s.game || s.move < 0 || s.units.empty()) return state.SkipWithError("chalons not available");
  const native::Board b = native::boardOf(*s.game);
  std::vector<int> cost;
  size_t i = 0;
  timed(state, "search", true, [&] {
    int u = s.units[i++ % s.units.size()];
    native::reach(b, u, native::viewOf(b, b.units[static_cast<size_t>(u)].side), cost);
    benchmark::DoNotOptimize(cost.data());
  });
}
BENCHMARK(BM_SearchNative)->Unit(benchmark::kMicrosecond);

void BM_SearchInterpreted(benchmark::State& state) {
  Searches& s = searches();
  if (!s.game || s.move < 0 || s.units.empty()) return state.SkipWithError("chalons not available");
  engine::Session& g = *s.game;
  size_t i = 0;
  timed(state, "search", false, [&] {
    int u = s.units[i++ % s.units.size()];
    g.forgetMemo();
    std::vector<ir::Value> prefix{ir::Value::of(ir::Tag::Unit, u)};
    benchmark::DoNotOptimize(g.candidates(s.move, prefix));
  });
}
BENCHMARK(BM_SearchInterpreted)->Unit(benchmark::kMicrosecond);

// (c) a random Chalons game
void BM_GameNative(benchmark::State& state) {
  auto g = bench::chalons();
  if (!g) return state.SkipWithError("chalons not available");
  const native::Board base = native::boardOf(*g);
  uint64_t seed = 1;
  int64_t moves = 0;
  timed(state, "game", true, [&] {
    native::Board b = base;
    uint64_t rng = ++seed * 7919 + 17;
    for (int turn = 1; turn <= 15; ++turn)
      for (int side = 0; side < b.sideCount; ++side)
        moves += native::randomMovementPhase(b, side, rng);
  });
  state.counters["moves/game"] =
      static_cast<double>(moves) / static_cast<double>(std::max<int64_t>(1, state.iterations()));
}
BENCHMARK(BM_GameNative)->Unit(benchmark::kMillisecond);

void BM_GameInterpreted(benchmark::State& state) {
  auto program = bench::loadProgram("standard", "chalons");
  if (!program) return state.SkipWithError("chalons not available");
  uint64_t seed = 1;
  timed(state, "game", false, [&] {
    engine::SessionConfig cfg;
    cfg.seed = ++seed;
    cfg.tracing = false;
    benchmark::DoNotOptimize(analysis::playRandomGame(program, cfg, seed));
  });
}
BENCHMARK(BM_GameInterpreted)->Unit(benchmark::kMillisecond)->Iterations(4);

}  // namespace
