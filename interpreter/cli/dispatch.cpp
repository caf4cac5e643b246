#include <fmt/format.h>

#include <cstdio>

#include "cli/commands.h"

namespace polemos::cli {
namespace {

const char* kUsage =
    "usage: polemos <command> [options]\n"
    "\n"
    "commands:\n"
    "  play RULESET [SCENARIO]   play a battle at the prompt (alone: standard chalons)\n"
    "  run SCRIPT                run REPL commands from a file\n"
    "  check PATH...             check rulesets, scenarios, house files and stdlib modules\n"
    "  diff A [B]                the declarations that differ between two rulesets or house files\n"
    "  rules RULESET [RULE]      the rules a ruleset cites, with the declarations and tests citing "
    "each\n"
    "  sim RULESET [SCENARIO]    play many games between automatic players and aggregate the "
    "results\n"
    "  odds SCRIPT [ACTION ...]  exact odds of every outcome of an action, after a set-up script\n"
    "  serve [RULESET [SCENARIO]]  the battle on a board in the browser (http://127.0.0.1:8080/)\n"
    "  help                      this message\n"
    "\n"
    "Run `polemos <command> --help` for a command's options.\n";

}  // namespace

int dispatch(const std::vector<std::string>& args) {
  if (args.empty()) return playCommand({});
  const std::string& cmd = args[0];
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if (cmd == "check") return checkCommand(rest);
  if (cmd == "diff") return diffCommand(rest);
  if (cmd == "rules") return rulesCommand(rest);
  if (cmd == "play") return playCommand(rest);
  if (cmd == "run") return runCommand(rest);
  if (cmd == "sim") return simCommand(rest);
  if (cmd == "odds") return oddsCommand(rest);
  if (cmd == "serve") return serveCommand(rest);
  if (cmd == "help" || cmd == "--help" || cmd == "-h") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  fmt::print(stderr, "polemos: unknown command '{}'\n{}", cmd, kUsage);
  return 2;
}

}  // namespace polemos::cli
