// Command-line subcommands of `polemos`. Exit codes: 0 ok, 1 failure, 2 bad usage.
#pragma once

#include <string>
#include <vector>

namespace polemos::cli {

int dispatch(const std::vector<std::string>& args);

// `polemos check PATH...`
int checkCommand(const std::vector<std::string>& args);
// `polemos diff RULESET|FILE [RULESET|FILE] [--json]`
int diffCommand(const std::vector<std::string>& args);
// `polemos play RULESET [SCENARIO] ...` (and `polemos` alone: standard chalons)
int playCommand(const std::vector<std::string>& args);
// `polemos run SCRIPT ...`
int runCommand(const std::vector<std::string>& args);
// `polemos sim RULESET [SCENARIO] --games N ...`, `polemos sim --merge FILES...`
int simCommand(const std::vector<std::string>& args);
// `polemos odds SCRIPT [ACTION ARGS...] ...`: the REPL's `odds` after a set-up script
int oddsCommand(const std::vector<std::string>& args);

}  // namespace polemos::cli
