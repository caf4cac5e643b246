// `polemos sim RULESET [SCENARIO] --games N --seed S ...`: many whole games between automatic
// players, aggregated; `polemos sim --merge FILES...` combines the JSON of shards.
#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "analysis/coverage.h"
#include "analysis/diff.h"
#include "analysis/sim.h"
#include "check/loader.h"
#include "cli/commands.h"
#include "diag/diagnostics.h"
#include "eval/coverage.h"

namespace polemos::cli {
namespace {

const char* kSimUsage =
    "usage: polemos sim RULESET [SCENARIO] --games N [--seed S] [--players "
    "random|greedy|random,greedy]\n"
    "                   [--threads T]\n"
    "                   [--house FILE]... [--level L] [--option K=V]... [--shard I/N] [--json] "
    "[--coverage]\n"
    "                   [--sweep FILE]\n"
    "       polemos sim --merge FILE...\n"
    "\n"
    "Plays N whole games between automatic players (random: the REPL's `auto`; greedy: tries the\n"
    "actions and choices on copies of the game; one kind for both sides or one per side in the\n"
    "scenario's order) and aggregates the\n"
    "results: winners and victory levels with 95% confidence intervals, the mean turns played and\n"
    "the losses and victory points per side. Game i is played with seed S + i, so the results are\n"
    "the same whatever the number of threads. --shard I/N plays the I-th of N slices of the games\n"
    "(for an array job); --json prints the run as JSON, which --merge combines into the same\n"
    "aggregate as one run. --coverage adds which cited rules ran, and which never did.\n"
    "--sweep FILE plays the same games under each variant the file names, one a line: a name,\n"
    "then its own --house FILE, --option K=V and --level L on top of the command's (# starts a\n"
    "comment); one table then shows every measure with a column per variant and, after the\n"
    "first, its difference from the first with a 95% interval.\n";

// A sweep file's variants: `NAME [--house FILE]... [--option K=V]... [--level L]`, one a line.
struct Variant {
  std::string name;
  std::vector<std::string> houses;
  std::vector<std::pair<std::string, std::string>> options;
  std::string level;
};
std::optional<std::vector<Variant>> readSweep(const std::string& path, std::string& error) {
  std::ifstream in(path);
  if (!in) {
    error = "cannot read " + path;
    return std::nullopt;
  }
  std::vector<Variant> out;
  std::set<std::string> names;
  std::string text;
  for (int lineNo = 1; std::getline(in, text); ++lineNo) {
    if (auto hash = text.find('#'); hash != std::string::npos) text.erase(hash);
    std::istringstream words(text);
    std::vector<std::string> w;
    for (std::string x; words >> x;) w.push_back(x);
    if (w.empty()) continue;
    auto bad = [&](const std::string& why) {
      error = fmt::format("{}:{}: {}", path, lineNo, why);
      return std::nullopt;
    };
    Variant v;
    v.name = w[0];
    if (v.name.starts_with("-")) return bad("a variant starts with its name");
    if (!names.insert(v.name).second) return bad("two variants are named " + v.name);
    for (size_t i = 1; i < w.size(); i += 2) {
      if (i + 1 >= w.size()) return bad(w[i] + " needs a value");
      const std::string& value = w[i + 1];
      if (w[i] == "--house") {
        v.houses.push_back(value);
      } else if (w[i] == "--option") {
        auto eq = value.find('=');
        if (eq == std::string::npos || eq == 0) return bad("--option needs KEY=VALUE");
        v.options.emplace_back(value.substr(0, eq), value.substr(eq + 1));
      } else if (w[i] == "--level") {
        v.level = value;
      } else {
        return bad("a variant takes --house, --option and --level, not " + w[i]);
      }
    }
    out.push_back(std::move(v));
  }
  if (out.empty()) {
    error = path + " names no variant";
    return std::nullopt;
  }
  if (out.size() > 64) {
    error = path + " names more than 64 variants";
    return std::nullopt;
  }
  return out;
}

int mergeCommand(const std::vector<std::string>& files, bool json) {
  if (files.empty()) {
    std::fputs(kSimUsage, stderr);
    return 2;
  }
  analysis::SimSpec spec;
  std::vector<std::string> sides;
  std::vector<analysis::SimGame> all;
  std::set<uint64_t> seen;
  for (const auto& f : files) {
    std::ifstream in(f);
    if (!in) {
      fmt::print(stderr, "polemos sim: cannot read {}\n", f);
      return 1;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    analysis::SimSpec s;
    std::vector<std::string> sd;
    std::vector<analysis::SimGame> gs;
    std::string err;
    if (!analysis::fromJson(ss.str(), s, sd, gs, err)) {
      fmt::print(stderr, "polemos sim: {} is not the JSON of a sim run: {}\n", f, err);
      return 1;
    }
    if (all.empty() && seen.empty()) {
      spec = s;
      sides = sd;
    } else if (s.ruleset != spec.ruleset || s.scenario != spec.scenario || s.level != spec.level ||
               s.seed != spec.seed || s.games != spec.games || s.players != spec.players ||
               s.houses != spec.houses || s.options != spec.options || sd != sides) {
      fmt::print(stderr,
                 "polemos sim: {} is a shard of another run (ruleset, scenario, seed, games, "
                 "players, options)\n",
                 f);
      return 1;
    }
    for (auto& g : gs) {
      if (!seen.insert(g.index).second) {
        fmt::print(stderr, "polemos sim: game {} is in two shards\n", g.index);
        return 1;
      }
      all.push_back(std::move(g));
    }
  }
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.index < b.index; });
  spec.shardIndex = 1;
  spec.shardCount = 1;
  if (all.size() != spec.games)
    fmt::print(stderr, "polemos sim: the shards hold {} of the run's {} games\n", all.size(),
               spec.games);
  std::string out =
      json ? analysis::toJson(spec, sides, all) : analysis::renderSummary(spec, sides, all);
  std::fputs(out.c_str(), stdout);
  return 0;
}

}  // namespace

int simCommand(const std::vector<std::string>& args) {
  analysis::SimSpec spec;
  std::vector<std::string> pos;
  unsigned threads = 1;
  bool json = false, coverage = false, merge = false, gamesGiven = false;
  std::vector<std::string> valued = kGameOptions;
  for (const char* o : {"--games", "--threads", "--players", "--shard", "--sweep"})
    valued.push_back(o);
  CommandLine line = readCommandLine(args, valued, {"--merge", "--json", "--coverage"});
  if (auto rc = helpOrUnknown(line, "polemos sim", kSimUsage)) return *rc;
  if (applyGameArgs(line, GameArgs{&spec.seed, &spec.houses, &spec.level, &spec.options},
                    "polemos sim") == 2)
    return 2;
  // Each value is checked as given (the last one counts); an option given last with no value
  // is refused like a bad one.
  auto each = [&](const char* option, auto ok) {
    if (line.missingValue == option) return false;
    for (const std::string& v : line.values.at(option))
      if (!ok(v)) return false;
    return true;
  };
  uint64_t n = 0;
  if (!each("--games", [&](const std::string& v) {
        if (!parseWholeNumber(v, n) || n == 0) return false;
        spec.games = n;
        gamesGiven = true;
        return true;
      }))
    return fmt::print(stderr, "polemos sim: --games needs a positive number\n"), 2;
  if (!readThreads(line, threads))
    return fmt::print(stderr, "polemos sim: --threads needs 1 to 256\n"), 2;
  if (line.missingValue == "--players")
    return fmt::print(stderr, "polemos sim: --players needs a kind of player\n"), 2;
  if (!each("--players", [&](const std::string& v) {
        // One kind for both sides, or one per side in the scenario's order: random,greedy.
        std::istringstream in(v);
        std::string one;
        int kinds = 0;
        bool ok = !v.empty();
        while (std::getline(in, one, ',')) {
          ++kinds;
          if (one != "random" && one != "greedy") ok = false;
        }
        if (!ok || kinds > 2) return false;
        spec.players = v;
        return true;
      }))
    return fmt::print(stderr,
                      "polemos sim: --players takes random, greedy, or one per side as in "
                      "random,greedy\n"),
           2;
  if (!each("--shard", [&](const std::string& v) {
        uint64_t si = 0, sn = 0;
        auto slash = v.find('/');
        if (slash == std::string::npos || !parseWholeNumber(v.substr(0, slash), si) ||
            !parseWholeNumber(v.substr(slash + 1), sn) || sn == 0 || si == 0 || si > sn)
          return false;
        spec.shardIndex = static_cast<unsigned>(si);
        spec.shardCount = static_cast<unsigned>(sn);
        return true;
      }))
    return fmt::print(stderr, "polemos sim: --shard needs I/N with 1 <= I <= N\n"), 2;
  merge = line.flag("--merge");
  json = line.flag("--json");
  coverage = line.flag("--coverage");
  pos = line.positionals;
  if (merge) return mergeCommand(pos, json);
  if (pos.empty() || pos.size() > 2 || !gamesGiven) {
    std::fputs(kSimUsage, stderr);
    return 2;
  }
  spec.ruleset = pos[0];
  spec.scenario = pos.size() > 1 ? pos[1] : "";
  std::string sweepFile;
  if (line.missingValue == "--sweep")
    return fmt::print(stderr, "polemos sim: --sweep needs a file of variants\n"), 2;
  if (!line.values.at("--sweep").empty()) sweepFile = line.values.at("--sweep").back();
  // Plays the games of `run` (its shard), or says why not: 1 the rules do not load, 2 the
  // command is wrong.
  auto play = [&](const analysis::SimSpec& run, std::vector<std::string>& sides,
                  std::vector<analysis::SimGame>& results,
                  std::vector<analysis::RuleTally>& tallies) -> int {
    diag::SourceManager sm;
    diag::Diagnostics diags(sm);
    check::Loader loader(diags);
    check::Loaded loaded = loader.load(check::LoadRequest{run.ruleset, run.scenario, run.houses});
    if (!loaded.program) {
      std::fputs(diags.render(false).c_str(), stderr);
      return 1;
    }
    if (loaded.program->sides.empty()) {
      fmt::print(stderr, "polemos sim: {} has no scenario to play (name one)\n", run.ruleset);
      return 2;
    }
    std::shared_ptr<const ir::Program> program = loaded.program;
    sides.clear();
    for (const auto& s : program->sides) sides.push_back(s.name);
    std::vector<analysis::PlayerKind> kinds;
    {
      std::istringstream in(run.players);
      std::string one;
      while (std::getline(in, one, ','))
        kinds.push_back(one == "greedy" ? analysis::PlayerKind::Greedy
                                        : analysis::PlayerKind::Random);
      while (kinds.size() < sides.size())
        kinds.push_back(kinds.empty() ? analysis::PlayerKind::Random : kinds.back());
    }
    {
      // A level or an option the game refuses is a mistake in the command, not a lost game: said
      // once, before any game is played.
      engine::SessionConfig cfg;
      cfg.seed = run.seed;
      cfg.level = run.level;
      cfg.options = run.options;
      cfg.tracing = false;
      engine::Session probe(program, cfg);
      if (std::string problem = probe.configProblem(); !problem.empty()) {
        fmt::print(stderr, "polemos sim: {}\n", problem);
        return 2;
      }
    }
    // Named, not bound: clang before 16 refuses to capture a structured binding in the lambda.
    const auto range = analysis::shardRange(run.games, run.shardIndex, run.shardCount);
    const auto first = range.first, last = range.second;
    results.assign(last - first, analysis::SimGame{});
    std::atomic<uint64_t> next{first}, done{0};
    tallies.assign(threads, analysis::RuleTally{});
    bool progress = isatty(2) != 0;
    std::mutex progressMutex;
    auto worker = [&](unsigned t) {
      std::vector<uint8_t> fns, reqs;
      if (coverage) {
        fns.assign(program->functions.size(), 0);
        reqs.assign(program->requirements.size(), 0);
        eval::g_coverage = &fns;
        eval::g_requireCoverage = &reqs;
      }
      for (uint64_t i = next++; i < last; i = next++) {
        engine::SessionConfig cfg;
        cfg.seed = run.seed + i;
        cfg.level = run.level;
        cfg.options = run.options;
        cfg.tracing = coverage;  // the trace is only needed to count the rules that ran
        if (coverage) {
          std::fill(fns.begin(), fns.end(), 0);
          std::fill(reqs.begin(), reqs.end(), 0);
        }
        std::vector<eval::TraceEvent> trace;
        analysis::SimGame g =
            analysis::playGame(program, cfg, i, kinds, coverage ? &trace : nullptr);
        if (coverage) tallies[t].add(analysis::ruleCoverage(*program, fns, reqs, trace));
        results[i - first] = std::move(g);
        uint64_t d = ++done;
        if (progress) {
          std::lock_guard<std::mutex> lock(progressMutex);
          fmt::print(stderr, "\r{}/{} games", d, last - first);
          std::fflush(stderr);
        }
      }
      eval::g_coverage = nullptr;
      eval::g_requireCoverage = nullptr;
    };
    // On a terminal the count shows from the start, before the first game is over.
    if (progress) {
      fmt::print(stderr, "\r0/{} games", last - first);
      std::fflush(stderr);
    }
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker, t);
    worker(0);
    for (auto& th : pool) th.join();
    if (progress) fmt::print(stderr, "\r{:<30}\r", "");
    return 0;
  };
  if (!sweepFile.empty()) {
    if (json || coverage || spec.shardCount != 1)
      return fmt::print(stderr,
                        "polemos sim: --sweep prints one table: not with --json, --coverage or "
                        "--shard\n"),
             2;
    std::string error;
    auto variants = readSweep(sweepFile, error);
    if (!variants) return fmt::print(stderr, "polemos sim: {}\n", error), 2;
    std::vector<analysis::SweepColumn> columns;
    std::vector<std::string> sides;
    bool anyFailed = false;
    for (const Variant& v : *variants) {
      analysis::SweepColumn c;
      c.name = v.name;
      c.spec = spec;
      c.spec.houses.insert(c.spec.houses.end(), v.houses.begin(), v.houses.end());
      c.spec.options.insert(c.spec.options.end(), v.options.begin(), v.options.end());
      if (!v.level.empty()) c.spec.level = v.level;
      std::vector<std::string> theirSides;
      std::vector<analysis::RuleTally> tallies;
      if (int rc = play(c.spec, theirSides, c.games, tallies)) {
        fmt::print(stderr, "polemos sim: (in variant {})\n", v.name);
        return rc;
      }
      if (!sides.empty() && theirSides != sides)
        return fmt::print(stderr, "polemos sim: variant {} has other sides than {}\n", v.name,
                          columns.front().name),
               2;
      sides = theirSides;
      anyFailed = anyFailed || std::any_of(c.games.begin(), c.games.end(),
                                           [](const auto& g) { return !g.finished; });
      columns.push_back(std::move(c));
    }
    std::fputs(analysis::renderSweep(sides, columns).c_str(), stdout);
    return anyFailed ? 1 : 0;
  }
  std::vector<std::string> sides;
  std::vector<analysis::SimGame> results;
  std::vector<analysis::RuleTally> tallies;
  if (int rc = play(spec, sides, results, tallies)) return rc;
  std::string out =
      json ? analysis::toJson(spec, sides, results) : analysis::renderSummary(spec, sides, results);
  std::fputs(out.c_str(), stdout);
  if (coverage && !json) {
    analysis::RuleTally all;
    for (const auto& t : tallies) all.add(t);
    std::fputs(("\n" + all.render()).c_str(), stdout);
  }
  bool anyFailed =
      std::any_of(results.begin(), results.end(), [](const auto& g) { return !g.finished; });
  return anyFailed ? 1 : 0;
}

}  // namespace polemos::cli
