// Command-line subcommands of `polemos`. Exit codes: 0 ok, 1 failure, 2 bad usage.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/options.h"
#include "repl/repl.h"

namespace polemos::cli {

int dispatch(const std::vector<std::string>& args);

// `polemos check PATH...`
int checkCommand(const std::vector<std::string>& args);
// `polemos diff RULESET|FILE [RULESET|FILE] [--json]`
int diffCommand(const std::vector<std::string>& args);
// `polemos play RULESET [SCENARIO] ...` (and `polemos` alone: standard chalons)
int playCommand(const std::vector<std::string>& args);
// `polemos rules RULESET [RULE]`
int rulesCommand(const std::vector<std::string>& args);
// `polemos run SCRIPT ...`
int runCommand(const std::vector<std::string>& args);
// `polemos sim RULESET [SCENARIO] --games N ...`, `polemos sim --merge FILES...`
int simCommand(const std::vector<std::string>& args);
// `polemos serve [RULESET [SCENARIO]] [--port N] [--host H] ...`: the battle on a web page
int serveCommand(const std::vector<std::string>& args);
// `polemos odds SCRIPT [ACTION ARGS...] ...`: the REPL's `odds` after a set-up script
int oddsCommand(const std::vector<std::string>& args);

// The options that name the game, shared by play, run, odds and sim: --seed N, --house FILE
// (repeatable), --level L, --option NAME=VALUE (repeatable), written where each command keeps them.
struct GameArgs {
  uint64_t* seed;
  std::vector<std::string>* houses;
  std::string* level;
  std::vector<std::pair<std::string, std::string>>* options;
};
// Those options, for readCommandLine; and their values written where GameArgs says: 0 done, 2 bad
// usage (the message printed on standard error, after `who`).
extern const std::vector<std::string> kGameOptions;
// --help (the usage on standard output: exit 0) or an unknown option ("WHO: unknown option 'X'"
// and the usage on standard error: exit 2); nothing when the command goes on.
std::optional<int> helpOrUnknown(const CommandLine& line, const char* who, const char* usage);
int applyGameArgs(const CommandLine& line, const GameArgs& into, const char* who);
// A seed nobody chose (the system's entropy, 9 digits at most), for a game started without --seed.
uint64_t freshSeed();
// The game `polemos COMMAND [RULESET [SCENARIO]]` opens: nothing named, Chalons; a ruleset alone,
// its first scenario by name (the others said), or its sandbox with --sandbox.
void chooseGame(repl::ReplOptions& o, const std::vector<std::string>& positional, bool sandbox,
                const char* command);
// A whole number written in full ("12", not "12x" or "-1").
bool parseWholeNumber(const std::string& text, uint64_t& out);
// `--threads T` as given to sim and check (a valued option of `line`): every value 1 to 256, the
// last counting; false when one is not, or when the option comes last with no value (the command
// then says "--threads needs 1 to 256"). `threads` is left as it is when none is given.
bool readThreads(const CommandLine& line, unsigned& threads);

}  // namespace polemos::cli
