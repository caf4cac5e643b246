// Benchmarks of the language core: parse + check of every shipped .pol file set, Session clone,
// and a baseline (copying a plain vector of the same size as the session's units) so figures can
// be read as ratios measured in the same run.
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <fstream>

#include "check/check_files.h"
#include "check/loader.h"
#include "engine/history.h"
#include "engine/random_player.h"
#include "engine/session.h"
#include "repl/repl.h"

using namespace polemos;
namespace fs = std::filesystem;

namespace {

std::string root() {
  return POLEMOS_BENCH_DIR "/..";
}

// Every .pol file under rulesets/ and stdlib/, in the order `polemos check rulesets stdlib` takes.
std::vector<std::string> shippedFiles() {
  std::vector<std::string> files;
  for (const char* dir : {"rulesets", "stdlib"}) {
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(fs::path(root()) / dir, ec);
         !ec && it != fs::end(it); it.increment(ec))
      if (it->path().extension() == ".pol") files.push_back(it->path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Every ruleset under rulesets/ plus the stdlib modules, checked as `polemos check` would.
void BM_ParseAndCheckAll(benchmark::State& state) {
  const std::vector<std::string> files = shippedFiles();
  for (auto _ : state) {
    diag::SourceManager sm;
    diag::Diagnostics diags(sm);
    check::Loader loader(diags);
    for (const auto& f : files) loader.checkFile(f);
    benchmark::DoNotOptimize(diags.errorCount());
  }
  state.counters["files"] = static_cast<double>(files.size());
}
BENCHMARK(BM_ParseAndCheckAll)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same files checked as `polemos check --threads T` checks them (check_files.h), for T = 1 and
// 2: the second over the first, in the same run, is what checking on both cores saves.
void BM_CheckFiles(benchmark::State& state) {
  const std::vector<std::string> files = shippedFiles();
  for (auto _ : state) {
    check::FilesChecked r = check::checkFiles(files, static_cast<unsigned>(state.range(0)));
    if (r.errors > 0) return state.SkipWithError("the shipped files do not check clean");
    benchmark::DoNotOptimize(r.rendered.data());
  }
  state.counters["files"] = static_cast<double>(files.size());
}
BENCHMARK(BM_CheckFiles)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// Loads one ruleset by name with its scenario (when the shipped rulesets exist).
void BM_LoadRuleset(benchmark::State& state, const char* ruleset, const char* scenario) {
  for (auto _ : state) {
    diag::SourceManager sm;
    diag::Diagnostics diags(sm);
    check::Loader loader(diags);
    auto l = loader.load(check::LoadRequest{ruleset, scenario, {}});
    if (!l.program) {
      state.SkipWithError("ruleset not available");
      return;
    }
    benchmark::DoNotOptimize(l.program.get());
  }
}
BENCHMARK_CAPTURE(BM_LoadRuleset, standard_chalons, "standard", "chalons")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_LoadRuleset, fourbattles, "fourbattles", "")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_LoadRuleset, deluxe, "deluxe", "")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_LoadRuleset, warfare, "warfare", "")->Unit(benchmark::kMillisecond);

// A session with 100 units on a 55x27 map, built from an inline ruleset.
std::shared_ptr<const ir::Program> benchProgram() {
  fs::path dir = fs::temp_directory_path() / "polemos_bench";
  fs::create_directories(dir);
  fs::path f = dir / "bench.pol";
  std::ofstream out(f);
  out << "ruleset b { unit class C { strength: int ; state hits: int = 0 } unit type x: C { "
         "strength = 4 }\n"
         "terrain open { } side state { losses: int = 0 }\n"
         "action hit(u: unit in units()) { u.hits += 1 }\n"
         "sequence { phase play { allow hit } } }\n"
         "scenario s for b { map columns 1..55 rows 0..26 { default open } side a { } side z { }\n"
         "force a {";
  for (int i = 0; i < 50; ++i)
    out << " a" << i << " x at " << (i % 50 + 1 < 10 ? "0" : "") << (i % 50 + 1) << "05";
  out << " }\nforce z {";
  for (int i = 0; i < 50; ++i)
    out << " z" << i << " x at " << (i % 50 + 1 < 10 ? "0" : "") << (i % 50 + 1) << "20";
  out << " } }\n";
  out.close();
  static diag::SourceManager sm;
  diag::Diagnostics diags(sm);
  check::Loader loader(diags);
  auto l = loader.load(check::LoadRequest{f.string(), f.string(), {}});
  return l.program;
}

void BM_SessionClone(benchmark::State& state) {
  auto p = benchProgram();
  if (!p) {
    state.SkipWithError("bench program failed to load");
    return;
  }
  engine::SessionConfig cfg;
  cfg.tracing = false;
  engine::Session s(p, cfg);
  s.start();
  for (auto _ : state) {
    engine::Session copy = s;
    benchmark::DoNotOptimize(copy.state().units.data());
  }
}
BENCHMARK(BM_SessionClone);

// The shipped standard ruleset's Chalons battle at its first decision (null when not available).
std::unique_ptr<engine::Session> chalonsSession() {
  static diag::SourceManager sm;
  diag::Diagnostics diags(sm);
  check::Loader loader(diags);
  auto l = loader.load(check::LoadRequest{"standard", "chalons", {}});
  if (!l.program) return nullptr;
  engine::SessionConfig cfg;
  cfg.seed = 2;
  auto s = std::make_unique<engine::Session>(l.program, cfg);
  if (s->start().kind != engine::Outcome::Ok) return nullptr;
  return s;
}

// A clone of Chalons at its first decision, and what one clone holds on the heap (KiB, from the
// allocator's count over 200 clones kept at once).
void BM_CloneChalons(benchmark::State& state) {
  auto s = chalonsSession();
  if (!s) return state.SkipWithError("chalons not available");
  for (auto _ : state) {
    engine::Session copy = *s;
    benchmark::DoNotOptimize(copy.state().units.data());
  }
  size_t before = mallinfo2().uordblks;
  {
    std::vector<engine::Session> kept(200, *s);
    state.counters["KiB"] = static_cast<double>(mallinfo2().uordblks - before) / 200.0 / 1024.0;
  }
}
BENCHMARK(BM_CloneChalons);

// The undo history of a whole Chalons game (seed 3; the random player's moves, pushed before each
// as the REPL does, the last History::kMaxUndo kept): the heap it holds (MiB, from the allocator's
// count when it is let go), per entry against one clone of the game at its end (x_one_game).
// /0 keeps whole copies of the game, as undo did before engine/history kept differences: the
// baseline, measured in the same run.
void BM_UndoHistoryChalonsGame(benchmark::State& state) {
  const bool copies = state.range(0) == 0;
  auto start = chalonsSession();
  if (!start) return state.SkipWithError("chalons not available");
  double mib = 0, perEntry = 0, clone = 0, entries = 0;
  for (auto _ : state) {
    engine::Session s = *start;
    engine::RandomPlayer player(3);
    std::vector<std::string> log;
    auto history = std::make_unique<engine::History>();
    std::deque<engine::Session> whole;
    size_t pushed = 0;
    for (int m = 0; m < 5000 && !s.over(); ++m) {
      if (copies) {
        whole.push_back(s);
        if (whole.size() > engine::History::kMaxUndo) whole.pop_front();
      } else {
        history->push(s, log);
      }
      ++pushed;
      if (player.play(s).kind == engine::RandomPlayer::Move::None) break;
      log.push_back("move " + std::to_string(m));
    }
    size_t held = mallinfo2().uordblks;
    history.reset();
    whole.clear();
    whole.shrink_to_fit();
    held -= mallinfo2().uordblks;
    size_t beforeClone = mallinfo2().uordblks;
    {
      engine::Session copy = s;
      clone = static_cast<double>(mallinfo2().uordblks - beforeClone);
      benchmark::DoNotOptimize(copy.state().units.data());
    }
    entries = static_cast<double>(std::min(pushed, engine::History::kMaxUndo));
    mib = static_cast<double>(held) / (1 << 20);
    perEntry = static_cast<double>(held) / entries;
  }
  state.counters["MiB"] = mib;
  state.counters["entries"] = entries;
  state.counters["KiB_per_entry"] = perEntry / 1024;
  state.counters["x_one_game"] = clone > 0 ? perEntry / clone : 0;
}
BENCHMARK(BM_UndoHistoryChalonsGame)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(1);

// Listing every legal option at Chalons' first movement window (a move per unit and reachable
// hex, each checked by the action's requirements) on a game the memo has not seen: what the
// random player pays before each of its moves.
void BM_ChalonsLegalMoves(benchmark::State& state) {
  auto s = chalonsSession();
  if (!s) {
    state.SkipWithError("standard chalons not available");
    return;
  }
  size_t n = 0;
  for (auto _ : state) {
    s->forgetMemo();  // the memo of pure calls starts empty
    n = s->legal().size();
  }
  state.counters["options"] = static_cast<double>(n);
}
BENCHMARK(BM_ChalonsLegalMoves)->Unit(benchmark::kMillisecond);

// Forty seeded random decisions from the start of Chalons (listing, choosing, applying).
void BM_ChalonsRandomPlayout(benchmark::State& state) {
  auto start = chalonsSession();
  if (!start) {
    state.SkipWithError("standard chalons not available");
    return;
  }
  for (auto _ : state) {
    engine::Session s = *start;
    engine::RandomPlayer player(7);
    for (int i = 0; i < 40 && !s.over(); ++i)
      if (player.play(s).kind == engine::RandomPlayer::Move::None) break;
    benchmark::DoNotOptimize(s.state().units.data());
  }
}
BENCHMARK(BM_ChalonsRandomPlayout)->Unit(benchmark::kMillisecond);

// Baseline: copying 100 small structs with a vector each (the shape of the unit table).
void BM_BaselineVectorCopy(benchmark::State& state) {
  struct U {
    int a, b, c;
    std::vector<ir::Value> f;
  };
  std::vector<U> units(100, U{1, 2, 3, std::vector<ir::Value>(2, ir::Value::integer(1))});
  for (auto _ : state) {
    auto copy = units;
    benchmark::DoNotOptimize(copy.data());
  }
}
BENCHMARK(BM_BaselineVectorCopy);

}  // namespace
