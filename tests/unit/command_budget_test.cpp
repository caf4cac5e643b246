// The step budget is one command's (eval::StepBudget, engine/session): every guard of a listing,
// every run of an action shares it, and the next command has a budget of its own. A game keeps a
// bounded trace (eval::TraceLog's `keep`), positions in it staying those of the same events.
// The time a stop takes is measured by bench/, not here.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "engine/save.h"
#include "eval/trace_log.h"
#include "limits/limits.h"
#include "repl/repl.h"
#include "repl_test_helpers.h"

namespace polemos {
namespace {

using test_helpers::run;

// A game of one phase whose actions cost what their names say: each `poke n` is guarded by a
// requirement that makes (and measures) a range of 100,000 numbers, some million steps; `spend`
// runs 60% of the default budget's worth of loop.
constexpr const char* kRules = R"(
ruleset t {
  terrain open { }
  function heavy(n: int): bool = len(1..100000) + n > 0
  action poke(n: int in 1..1000) §1.0 {
    require heavy(n) §1.1
    note n
  }
  action spend() §2.0 {
    let i = 0
    while i < 6000000 { i = i + 1 }
    note i
  }
  sequence {
    phase work §4.0 { allow poke, spend }
  }
}
scenario s for t {
  map columns 1..2 rows 1..2 { default open }
  side a { }
}
)";

struct Game {
  std::filesystem::path dir;
  std::unique_ptr<repl::Repl> repl;
  Game() {
    dir = std::filesystem::temp_directory_path() /
          ("polemos_command_budget_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "t.pol") << kRules;
    repl::ReplOptions o;
    o.ruleset = (dir / "t.pol").string();
    o.scenario = o.ruleset;
    repl = std::make_unique<repl::Repl>(o);
    std::string out;
    EXPECT_TRUE(repl->start(out)) << out;
  }
  ~Game() { std::filesystem::remove_all(dir); }
};

TEST(CommandBudget, TheGuardsOfAListingShareOneBudget) {
  Game g;
  std::string before = engine::saveSession(*g.repl->session());
  // A thousand guards of some million steps each: together ten times the budget. Each guard
  // once had a budget of its own, and the listing ran for a minute.
  std::string out = run(*g.repl, "legal");
  EXPECT_NE(out.find("the rules failed while listing the options"), std::string::npos) << out;
  EXPECT_NE(out.find("steps without reaching a decision; it is probably looping"),
            std::string::npos)
      << out;
  EXPECT_EQ(engine::saveSession(*g.repl->session()), before);
  // The next command has a budget of its own: one poke is checked and made.
  out = run(*g.repl, "poke 7");
  EXPECT_EQ(out.find("error"), std::string::npos) << out;
  EXPECT_NE(out.find("7"), std::string::npos) << out;
}

TEST(CommandBudget, EachCommandHasABudgetOfItsOwn) {
  Game g;
  // Each spend takes 60% of the budget (two steps a turn of the loop, and more): twice over,
  // each within its own command.
  std::string out = run(*g.repl, "spend");
  EXPECT_EQ(out.find("error"), std::string::npos) << out;
  EXPECT_NE(out.find("6000000"), std::string::npos) << out;
  out = run(*g.repl, "spend");
  EXPECT_EQ(out.find("error"), std::string::npos) << out;
}

eval::TraceEvent event(uint64_t seq) {
  eval::TraceEvent e;
  e.seq = seq;
  e.subject = std::to_string(seq);
  return e;
}

TEST(TraceLog, KeepsTheLastEventsAndTheirPositions) {
  eval::TraceLog log;
  const size_t keep = 4 * eval::TraceLog::kChunk;
  for (uint64_t i = 0; i < 1000; ++i) log.push_back(event(i), keep);
  // Whole chunks are let go: between `keep` and a chunk more are kept.
  EXPECT_EQ(log.size(), 1000u);
  EXPECT_EQ(log.first() % eval::TraceLog::kChunk, 0u);
  EXPECT_GE(log.size() - log.first(), keep);
  EXPECT_LT(log.size() - log.first(), keep + eval::TraceLog::kChunk);
  // Positions are the game's: event i is at i.
  for (size_t i = log.first(); i < log.size(); ++i) EXPECT_EQ(log[i].seq, i);
  size_t n = 0;
  for (const auto& e : log) EXPECT_EQ(e.seq, log.first() + n++);
  EXPECT_EQ(n, log.size() - log.first());
  EXPECT_EQ(log.back().seq, 999u);
  EXPECT_EQ(log.at(0) - log.begin(), 0);  // a position let go is the first kept
  EXPECT_EQ(log.rbegin()->seq, 999u);
  // A copy shares the chunks and goes on apart.
  eval::TraceLog copy = log;
  copy.push_back(event(1000), keep);
  EXPECT_EQ(log.size(), 1000u);
  EXPECT_EQ(copy.back().seq, 1000u);
  EXPECT_GE(copy.sharedChunks(log), 2u);
}

TEST(TraceLog, AGameKeepsABoundedTrace) {
  EXPECT_EQ(limits::kMaxTraceEvents, 200'000u);
  eval::TraceLog log;
  for (uint64_t i = 0; i < limits::kMaxTraceEvents + 1000; ++i)
    log.push_back(event(i), limits::kMaxTraceEvents);
  EXPECT_GT(log.first(), 0u);
  EXPECT_LE(log.size() - log.first(), limits::kMaxTraceEvents + eval::TraceLog::kChunk);
  EXPECT_EQ(log[log.first()].seq, log.first());
}

}  // namespace
}  // namespace polemos

namespace polemos {
namespace {

// The answer of starting a one-sequence ruleset (its sandbox): what a user sees.
std::string startWith(const std::string& body) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("polemos_command_budget_seq_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "t.pol") << "ruleset t {\n  " << body << "\n}\n";
  repl::ReplOptions o;
  o.ruleset = (dir / "t.pol").string();
  repl::Repl r(o);
  std::string out;
  r.start(out);
  std::filesystem::remove_all(dir);
  return out;
}

TEST(TraceLimit, ANoteInAnEndlessLoopStops) {
  // Once it filled gigabytes before the step budget stopped it.
  std::string out = startWith("sequence { while true { note \"x\" } }");
  EXPECT_NE(out.find("error: the rules wrote more than 100000 trace events in one command; they "
                     "are probably looping"),
            std::string::npos)
      << out.substr(0, 300);
}

TEST(TraceLimit, LongNotesStopAtTheTextLimit) {
  // 32 KiB a note: the 32 MiB of text come long before the count of events.
  std::string out = startWith(
      "sequence { let s = \"x\"\n for i in 1..15 { s = s + s }\n while true { note s } }");
  EXPECT_NE(out.find("error: the rules wrote more than 32 MiB of trace in one command; they are "
                     "probably looping"),
            std::string::npos)
      << out.substr(0, 300);
}

}  // namespace
}  // namespace polemos
