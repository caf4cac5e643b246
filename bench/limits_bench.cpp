// Benchmarks of the stops of limits/limits.h: how long a hostile one-line ruleset runs before it is
// stopped with its error (a runaway loop at the step budget, work inside builtins, ranges made in
// a loop, a sort and `distinct` of a million values, strings and lists grown in a loop, a flood
// of `note`, rolls for ever). Each game is loaded and started per iteration, so the figure is
// what a user waits for; BM_Stop_EmptySequence (the same load, no work) is the baseline to read
// the others against.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "repl/repl.h"

using namespace polemos;
namespace fs = std::filesystem;

namespace {

const std::vector<std::pair<const char*, const char*>>& programs() {
  static const std::vector<std::pair<const char*, const char*>> all = {
      {"EmptySequence", "sequence { }"},
      {"RunawayLoop", "sequence { while true { } }"},
      {"BuiltinWork", "sequence { note sum(map(1..1000, x -> sum(1..1000000))) }"},
      {"NestedRanges", "sequence { for i in 1..1000000 { for j in 1..1000000 { } } }"},
      {"SortBig", "sequence { note sum(map(1..1000, x -> len(sort_by(1..1000000, y -> 0 - y)))) }"},
      {"DistinctStrings", "sequence { note len(distinct(map(1..1000000, y -> str(y)))) }"},
      {"StringAppend", "sequence { let s = \"\"\n while true { s = s + \"x\" } }"},
      {"ListAppend",
       "sequence { let l = []\n let i = 0\n while true { l = l + [i]\n i = i + 1 } }"},
      {"NoteFlood", "sequence { while true { note \"x\" } }"},
      {"EndlessRolls", "sequence { while true { let r = roll d6 } }"},
  };
  return all;
}

void BM_Stop(benchmark::State& state, const char* body) {
  fs::path dir = fs::temp_directory_path() / ("polemos_limits_bench_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path file = dir / "t.pol";
  std::ofstream(file) << "ruleset t {\n  " << body << "\n}\n";
  bool stopped = false;
  for (auto _ : state) {
    repl::ReplOptions o;
    o.ruleset = file.string();
    repl::Repl r(o);
    std::string out;
    r.start(out);
    stopped = out.find("error:") != std::string::npos;
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["stopped"] = stopped ? 1 : 0;
  fs::remove_all(dir);
}

const bool registered = [] {
  for (const auto& [name, body] : programs())
    benchmark::RegisterBenchmark((std::string("BM_Stop_") + name).c_str(), BM_Stop, body)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(3);
  return true;
}();

}  // namespace
