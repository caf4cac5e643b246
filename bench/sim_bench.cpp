// Simulation throughput: whole seeded random games per second, with 1 and 2 threads, on the
// Deluxe phalanx battle (short games) and on Chalons (long ones). The baseline in the same run is
// the 1-thread figure: the 2-thread one should come close to twice it on two idle cores.
#include <benchmark/benchmark.h>

#include <atomic>
#include <thread>
#include <vector>

#include "analysis/sim.h"
#include "check/loader.h"
#include "diag/diagnostics.h"

using namespace polemos;

namespace {

std::shared_ptr<const ir::Program> load(const char* ruleset, const char* scenario) {
  diag::SourceManager sm;
  diag::Diagnostics diags(sm);
  check::Loader loader(diags);
  return loader.load(check::LoadRequest{ruleset, scenario, {}}).program;
}

void BM_SimGames(benchmark::State& state, const char* ruleset, const char* scenario, int games) {
  auto program = load(ruleset, scenario);
  if (!program) {
    state.SkipWithError("cannot load the scenario");
    return;
  }
  unsigned threads = static_cast<unsigned>(state.range(0));
  uint64_t seed = 1;
  for (auto _ : state) {
    std::atomic<int> next{0};
    auto worker = [&] {
      for (int i = next++; i < games; i = next++) {
        engine::SessionConfig cfg;
        cfg.seed = seed + static_cast<uint64_t>(i);
        cfg.tracing = false;
        benchmark::DoNotOptimize(analysis::playRandomGame(program, cfg, static_cast<uint64_t>(i)));
      }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
    worker();
    for (auto& th : pool) th.join();
  }
  state.counters["games/s"] =
      benchmark::Counter(static_cast<double>(games) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
}

}  // namespace

BENCHMARK_CAPTURE(BM_SimGames, deluxe_phalanx, "deluxe", "phalanx", 8)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kSecond)
    ->UseRealTime()
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_SimGames, standard_chalons, "standard", "chalons", 2)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kSecond)
    ->UseRealTime()
    ->Iterations(1);
