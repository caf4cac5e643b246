#pragma once
// Simulations: many whole games of one ruleset and scenario between automatic players, with the
// results aggregated. Game i of a run with seed S is played with seed S + i, whatever the number
// of threads or the shard that plays it, so a run's results never depend on how it was split.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/session.h"
#include "ir/program.h"

namespace polemos::analysis {

// One finished (or failed) game.
struct SimGame {
  uint64_t index = 0;  // game number in the run (0-based)
  uint64_t seed = 0;
  bool finished = false;  // reached the end of the game
  std::string error;      // why not: an error of the rules, or a stuck decision
  std::string winner;     // a side's name, or "" for a draw
  std::string level;      // the victory level
  int64_t turns = 0;      // the game turn it ended on
  std::vector<int64_t>
      losses;               // per side (side state field `losses`; empty if the ruleset has none)
  std::vector<int64_t> vp;  // per side (side state field `vp`; empty if none)
  uint64_t decisions = 0;
};

// The random player of the REPL's `auto`: seeded with the game's seed, it picks uniformly among
// the legal options and tries another when one is refused. Returns the game's result.
// With `trace`, the game's trace is handed over at the end (for rule coverage).
SimGame playRandomGame(std::shared_ptr<const ir::Program> program, engine::SessionConfig config,
                       uint64_t index, std::vector<eval::TraceEvent>* trace = nullptr,
                       uint64_t maxDecisions = 2'000'000);

// The automatic players: `random` (above) and `greedy`: it finishes each action's own decisions by
// trying every option a few times on copies of the game and keeping the one that leaves its side
// best placed (victory points, then strength on the map); among several actions of a phase it
// tries the few non-movement ones the same way, and moves its units toward the enemy unless the
// hex is next to more enemy strength than the unit's own. `players[s]` is side s's player.
enum class PlayerKind { Random, Greedy };
SimGame playGame(std::shared_ptr<const ir::Program> program, engine::SessionConfig config,
                 uint64_t index, const std::vector<PlayerKind>& players,
                 std::vector<eval::TraceEvent>* trace = nullptr, uint64_t maxDecisions = 2'000'000);

struct SimSpec {
  std::string ruleset, scenario, level;
  std::vector<std::string> houses;
  std::vector<std::pair<std::string, std::string>> options;
  uint64_t seed = 1;
  uint64_t games = 1;
  std::string players = "random";
  unsigned shardIndex = 1, shardCount = 1;  // --shard I/N: this run plays slice I of N
};

// The games of a shard: [first, last).
std::pair<uint64_t, uint64_t> shardRange(uint64_t games, unsigned index, unsigned count);

// Aggregates: the winner and victory level counts with 95% confidence intervals (Wilson), and the
// mean turns and losses per side with 95% intervals (Student's t: wide from a few games, none from
// one), and a note when random players decided them.
std::string renderSummary(const SimSpec& spec, const std::vector<std::string>& sides,
                          const std::vector<SimGame>& games);
// A sweep: the same games (the same seeds) under several variants of the rules, side by side.
struct SweepColumn {
  std::string name;
  SimSpec spec;
  std::vector<SimGame> games;
};
// One table: per measure (each side's wins, draws, the mean turns, each side's losses and victory
// points), a column per variant; every variant after the first also shows its difference from
// the first with a 95% interval (normal approximation, the two variants' games taken as
// independent samples). Games that failed are left out of the measures, and counted.
std::string renderSweep(const std::vector<std::string>& sides,
                        const std::vector<SweepColumn>& columns);

// The whole run as one JSON document: the spec, the side names and every game; `--merge` reads
// these back.
std::string toJson(const SimSpec& spec, const std::vector<std::string>& sides,
                   const std::vector<SimGame>& games);
bool fromJson(const std::string& text, SimSpec& spec, std::vector<std::string>& sides,
              std::vector<SimGame>& games, std::string& error);

}  // namespace polemos::analysis
