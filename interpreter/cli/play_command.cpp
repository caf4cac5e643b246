// `polemos play` and `polemos run`: the REPL, interactively or over a script.
#include <editline/readline.h>
#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <set>

#include "analysis/coverage.h"
#include "analysis/diff.h"
#include "check/loader.h"
#include "cli/commands.h"
#include "diag/diagnostics.h"
#include "eval/coverage.h"
#include "repl/repl.h"

namespace polemos::cli {
namespace {

const char* kPlayUsage =
    "usage: polemos play RULESET [SCENARIO] [--seed N] [--house FILE]... [--level L] [--option "
    "K=V]...\n"
    "                    [--fair] [--sandbox]\n"
    "\n"
    "Plays a battle at the prompt. Type `help` for the commands and the ruleset's actions.\n"
    "`polemos` alone is `polemos play standard chalons`. Without --seed a game gets a fresh seed\n"
    "(shown in the banner and saved). --fair: a game between two players, where `undo` never\n"
    "takes back a move whose dice were rolled and `dice` cannot force them. A ruleset named\n"
    "alone opens its scenario (the first by name); --sandbox opens an empty map instead.\n";

const char* kRunUsage =
    "usage: polemos run SCRIPT [RULESET [SCENARIO]] [--seed N] [--house FILE]... [--level L]\n"
    "                   [--option K=V]... [--json] [--strict] [--coverage]\n"
    "\n"
    "Runs REPL commands from SCRIPT, echoing each as `> command` followed by its output. The game\n"
    "is RULESET and SCENARIO, or those named on the script's first lines as `# ruleset: NAME` and\n"
    "`# scenario: NAME` (also `# seed: N`, `# level: L`, `# option: K=V`, `# house: FILE`,\n"
    "`# json: on`). Exit status 1 if any `expect` failed or any command was refused with an\n"
    "error (with --strict: stops at the first). --coverage prints, at the end, which cited rules "
    "of the\n"
    "ruleset ran, by rule number, and which never did.\n";

// Parses the options shared by play, run and odds; returns 0 to go on, -1 after --help, or an exit
// code. `line` is the command line as readCommandLine read it (the game options, --json and
// --strict declared).
int parseOptions(const CommandLine& line, repl::ReplOptions& o,
                 std::vector<std::string>& positional, bool& strict, const char* usage) {
  if (auto rc = helpOrUnknown(line, "polemos", usage)) return *rc == 0 ? -1 : *rc;
  if (applyGameArgs(line,
                    GameArgs{&o.session.seed, &o.houses, &o.session.level, &o.session.options},
                    "polemos") == 2)
    return 2;
  if (line.flag("--json")) o.json = true;
  if (line.flag("--strict")) strict = true;
  positional = line.positionals;
  return 0;
}
int parseOptions(const std::vector<std::string>& args, repl::ReplOptions& o,
                 std::vector<std::string>& positional, bool& strict, const char* usage) {
  return parseOptions(readCommandLine(args, kGameOptions, {"--json", "--strict"}), o, positional,
                      strict, usage);
}

// Tab completion through libedit's readline interface: commands, actions and unit ids from the
// REPL, plus hex labels of the map.
repl::Repl* gRepl = nullptr;
std::string gLineBefore;

char* completionGenerator(const char* text, int state) {
  static std::vector<std::string> matches;
  static size_t next = 0;
  if (state == 0) {
    matches = gRepl ? gRepl->completions(gLineBefore, text) : std::vector<std::string>{};
    next = 0;
  }
  if (next >= matches.size()) return nullptr;
  return strdup(matches[next++].c_str());
}

char** complete(const char* text, int start, int) {
  rl_attempted_completion_over = 1;
  // The words before the one completed: what that argument takes depends on them.
  gLineBefore = rl_line_buffer
                    ? std::string(rl_line_buffer, static_cast<size_t>(std::max(start, 0)))
                    : std::string();
  return rl_completion_matches(text, completionGenerator);
}

std::string historyPath() {
  const char* home = std::getenv("HOME");
  return home ? std::string(home) + "/.polemos_history" : std::string();
}

// Reads a script's lines and the game its header comments name (`# ruleset:`, `# scenario:`,
// `# seed:`, `# level:`, `# option:`, `# house:`, `# json: on`). Returns whether a ruleset was
// named.
bool readScript(std::istream& in, const std::string& script, repl::ReplOptions& o,
                std::vector<std::string>& lines) {
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  // The script may name its game in header comments. A file named there (not a ruleset or scenario
  // named by name) is relative to the script's folder, wherever the script is run from.
  std::string dir =
      script.find('/') == std::string::npos ? "" : script.substr(0, script.rfind('/') + 1);
  auto relative = [&](const std::string& v) {
    bool file = v.find('/') != std::string::npos ||
                (v.size() > 4 && v.compare(v.size() - 4, 4, ".pol") == 0);
    return !file || v.empty() || v[0] == '/' ? v : dir + v;
  };
  o.scenario.clear();
  bool named = false;
  for (const auto& l : lines) {
    if (l.rfind("# ruleset:", 0) == 0) {
      o.ruleset = l.substr(10);
      o.ruleset.erase(0, o.ruleset.find_first_not_of(' '));
      o.ruleset = relative(o.ruleset);
      named = true;
    } else if (l.rfind("# scenario:", 0) == 0) {
      o.scenario = l.substr(11);
      o.scenario.erase(0, o.scenario.find_first_not_of(' '));
      o.scenario = relative(o.scenario);
    } else if (l.rfind("# json: on", 0) == 0) {
      o.json = true;
    } else if (l.rfind("# option:", 0) == 0 || l.rfind("# level:", 0) == 0 ||
               l.rfind("# house:", 0) == 0) {
      std::string v = l.substr(l.find(':') + 1);
      v.erase(0, v.find_first_not_of(' '));
      if (l.rfind("# level:", 0) == 0) {
        o.session.level = v;
      } else if (l.rfind("# house:", 0) == 0) {
        o.houses.push_back(v.empty() || v[0] == '/' ? v : dir + v);
      } else if (v.find('=') != std::string::npos) {
        o.session.options.emplace_back(v.substr(0, v.find('=')), v.substr(v.find('=') + 1));
      }
    } else if (l.rfind("# seed:", 0) == 0) {
      try {
        o.session.seed = std::stoull(l.substr(7));
      } catch (...) {
      }
    }
  }
  return named;
}

}  // namespace

// Ctrl-C at the prompt clears the line and asks again; it never ends the program. While a command
// runs it is ignored: the command runs to its end, so the game is never left half-changed.
volatile std::sig_atomic_t gInterrupted = 0;
extern "C" void onInterrupt(int) {
  gInterrupted = 1;
}
void catchInterrupts() {
  struct sigaction sa {};
  sa.sa_handler = onInterrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: the terminal read returns, and readline with it
  sigaction(SIGINT, &sa, nullptr);
}

int playCommand(const std::vector<std::string>& args) {
  repl::ReplOptions o;
  std::vector<std::string> pos;
  bool strict = false;
  CommandLine cl =
      readCommandLine(args, kGameOptions, {"--json", "--strict", "--fair", "--sandbox"});
  int rc = parseOptions(cl, o, pos, strict, kPlayUsage);
  if (rc != 0) return rc < 0 ? 0 : rc;
  // A game started without --seed gets a fresh one, said in the banner and kept in its save, so
  // that it replays; the same seed and commands give the same game.
  if (!cl.has("--seed")) o.session.seed = freshSeed();
  o.fair = cl.flag("--fair");
  if (pos.size() > 2) {
    std::fputs(kPlayUsage, stderr);
    return 2;
  }
  chooseGame(o, pos, cl.flag("--sandbox"), "play");
  // A player reads the results of the rules (`trace on` shows every rule that fired).
  o.traceResults = true;
  // A game replaced by a new one is kept: at a terminal in ~/.polemos_autosave.json.
  if (const char* a = std::getenv("POLEMOS_AUTOSAVE"))
    o.autosave = a;
  else if (isatty(0) && isatty(1) && std::getenv("HOME"))
    o.autosave = std::string(std::getenv("HOME")) + "/.polemos_autosave.json";
  repl::Repl r(o);
  std::string out;
  bool ok = r.start(out);
  std::fputs(out.c_str(), stdout);
  if (!ok) return 1;
  if (isatty(0) && isatty(1)) {
    // A person at a terminal: line editing, history kept between sessions, tab completion.
    gRepl = &r;
    rl_attempted_completion_function = complete;
    std::string hist = historyPath();
    if (!hist.empty()) read_history(hist.c_str());
    catchInterrupts();
    for (;;) {
      gInterrupted = 0;
      char* raw = readline("> ");
      if (!raw && gInterrupted) {
        // Ctrl-C: the line is dropped; a fresh prompt.
        std::fputs("\n", stdout);
        std::fflush(stdout);
        continue;
      }
      if (!raw) {
        // Ctrl-D (end of input): leave on a line of its own.
        std::fputs("\n", stdout);
        break;
      }
      std::string line = raw;
      std::free(raw);
      if (gInterrupted) continue;
      if (line.find_first_not_of(" \t") != std::string::npos) {
        add_history(line.c_str());
        // Written as it grows: a session killed from outside keeps what was typed.
        if (!hist.empty()) write_history(hist.c_str());
      }
      out.clear();
      // Maps are cut to the window, as it is now.
      struct winsize ws {};
      if (ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) r.setWidth(ws.ws_col);
      bool more = r.execute(line, out);
      std::fputs(out.c_str(), stdout);
      std::fflush(stdout);
      if (!more) break;
    }
    if (!hist.empty()) write_history(hist.c_str());
    gRepl = nullptr;
    return 0;
  }
  // Plain line reading when stdin is not a terminal.
  std::string line;
  while (std::getline(std::cin, line)) {
    out.clear();
    bool more = r.execute(line, out);
    std::fputs(out.c_str(), stdout);
    std::fflush(stdout);
    if (!more) break;
  }
  return 0;
}

// Rule coverage over a script, which may start several games (sandbox, ruleset, level ...): the
// rules of each game are added up when it is replaced, and at the end.
struct CoverageAccumulator {
  analysis::RuleTally tally;
  std::vector<uint8_t> functions, requirements;
  const ir::Program* program = nullptr;
  uint64_t seenSeq = 0;  // trace events up to this one are counted

  CoverageAccumulator() {
    // Large enough for any program until the first one is known (it is loaded inside start()).
    functions.assign(1 << 16, 0);
    requirements.assign(1 << 16, 0);
    eval::g_coverage = &functions;
    eval::g_requireCoverage = &requirements;
  }
  ~CoverageAccumulator() {
    eval::g_coverage = nullptr;
    eval::g_requireCoverage = nullptr;
  }
  // A new game (or the first): count from its start.
  void attach(const engine::Session* s) {
    program = s ? &s->program() : nullptr;
    functions.resize(program ? program->functions.size() : 0);
    requirements.resize(program ? program->requirements.size() : 0);
    seenSeq = 0;
  }
  // Adds what ran since the last flush (functions entered, requirements checked, trace events).
  void flush(const engine::Session* s) {
    if (!s || !program || &s->program() != program) return;
    std::vector<eval::TraceEvent> fresh;
    for (const auto& e : s->state().trace)
      if (e.seq > seenSeq) fresh.push_back(e);
    if (!s->state().trace.empty()) seenSeq = std::max(seenSeq, s->state().trace.back().seq);
    tally.add(analysis::ruleCoverage(*program, functions, requirements, fresh));
    std::fill(functions.begin(), functions.end(), 0);
    std::fill(requirements.begin(), requirements.end(), 0);
  }
  std::string report() const { return tally.render(); }
};

int runCommand(const std::vector<std::string>& argsIn) {
  repl::ReplOptions o;
  std::vector<std::string> pos;
  bool strict = false;
  bool coverage = false;
  std::vector<std::string> args;
  for (const auto& a : argsIn) {
    if (a == "--coverage")
      coverage = true;
    else
      args.push_back(a);
  }
  int rc = parseOptions(args, o, pos, strict, kRunUsage);
  if (rc != 0) return rc < 0 ? 0 : rc;
  if (pos.empty() || pos.size() > 3) {
    std::fputs(kRunUsage, stderr);
    return 2;
  }
  std::ifstream in(pos[0]);
  if (!in) {
    fmt::print(stderr, "polemos run: cannot read {}\n", pos[0]);
    return 1;
  }
  std::vector<std::string> lines;
  bool named = readScript(in, pos[0], o, lines);
  if (pos.size() > 1) {
    o.ruleset = pos[1];
    o.scenario = pos.size() > 2 ? pos[2] : "";
    named = true;
  }
  if (!named) {
    fmt::print(stderr,
               "polemos run: name the game: `polemos run SCRIPT RULESET [SCENARIO]` or a `# "
               "ruleset: NAME` line\n");
    return 2;
  }
  std::optional<CoverageAccumulator> cov;
  if (coverage) cov.emplace();
  if (const char* a = std::getenv("POLEMOS_AUTOSAVE")) o.autosave = a;
  repl::Repl r(o);
  std::string out;
  bool ok = r.start(out);
  if (cov) cov->attach(r.session());
  std::fputs(out.c_str(), stdout);
  if (!ok) return 1;
  for (const auto& l : lines) {
    std::string t = l;
    t.erase(0, t.find_first_not_of(" \t"));
    if (t.empty() || t[0] == '#') continue;
    out.clear();
    int errorsBefore = r.errors();
    const ir::Program* before = r.session() ? &r.session()->program() : nullptr;
    if (cov) cov->flush(r.session());  // in case this command replaces the game
    std::fputs(("> " + t + "\n").c_str(), stdout);
    bool more = r.execute(t, out);
    std::fputs(out.c_str(), stdout);
    if (cov && (r.session() ? &r.session()->program() : nullptr) != before)
      cov->attach(r.session());
    if (!more) break;
    if (strict && (r.errors() > errorsBefore || r.failedExpects() > 0)) return 1;
  }
  if (cov) {
    cov->flush(r.session());
    std::fputs(cov->report().c_str(), stdout);
  }
  // A script fails on a failed expectation and on any command refused with an error (an expect that
  // does not compile, a typo, a bad argument): a script that cannot say what it meant is not a
  // pass.
  // (`illegal:` refusals are the game's answers, not errors of the script.)
  if (r.failedExpects() > 0)
    fmt::print("{} expectation{} failed\n", r.failedExpects(), r.failedExpects() == 1 ? "" : "s");
  if (r.errors() > 0)
    fmt::print("{} command{} refused with an error\n", r.errors(),
               r.errors() == 1 ? " was" : "s were");
  return r.failedExpects() > 0 || r.errors() > 0 ? 1 : 0;
}

namespace {

const char* kOddsUsage =
    "usage: polemos odds SCRIPT [ACTION ARGS...] [--policy first|last|random] [--split] [--picks "
    "N,N...]\n"
    "                    [--json] [--seed N] [--house FILE]... [--level L] [--option K=V]...\n"
    "\n"
    "Sets the game up with the REPL commands of SCRIPT (its header names the game, as for "
    "`polemos\n"
    "run`), then prints the exact probability of every outcome of ACTION (without one: of the "
    "action\n"
    "under way where the script stopped): the REPL's `odds` command. Exit status 1 if the script\n"
    "fails (its output is then printed) or the question cannot be answered.\n";

}  // namespace

int oddsCommand(const std::vector<std::string>& argsIn) {
  // The odds options go to the REPL command; the others set the game up as for `run`.
  std::vector<std::string> valued = kGameOptions;
  valued.push_back("--policy");
  valued.push_back("--picks");
  CommandLine line = readCommandLine(argsIn, valued, {"--split", "--json", "--strict"});
  if (line.missingValue == "--policy" || line.missingValue == "--picks")
    return fmt::print(stderr, "polemos odds: {} needs a value\n", line.missingValue), 2;
  std::vector<std::string> oddsArgs;
  if (line.flag("--split")) oddsArgs.push_back("--split");
  if (line.flag("--json")) oddsArgs.push_back("--json");
  for (const char* option : {"--policy", "--picks"})
    for (const std::string& v : line.values.at(option)) {
      oddsArgs.push_back(option);
      oddsArgs.push_back(v);
    }
  line.flags["--json"] = false;  // the script's own output is not JSON
  repl::ReplOptions o;
  std::vector<std::string> pos;
  bool strict = false;
  int rc = parseOptions(line, o, pos, strict, kOddsUsage);
  if (rc != 0) return rc < 0 ? 0 : rc;
  if (pos.empty()) {
    std::fputs(kOddsUsage, stderr);
    return 2;
  }
  std::ifstream in(pos[0]);
  if (!in) {
    fmt::print(stderr, "polemos odds: cannot read {}\n", pos[0]);
    return 1;
  }
  std::vector<std::string> lines;
  if (!readScript(in, pos[0], o, lines)) {
    fmt::print(stderr,
               "polemos odds: the script must name its game with a `# ruleset: NAME` line\n");
    return 2;
  }
  o.json = false;  // the script's own output is not shown
  repl::Repl r(o);
  std::string transcript;
  if (!r.start(transcript)) {
    std::fputs(transcript.c_str(), stderr);
    return 1;
  }
  for (const auto& l : lines) {
    std::string t = l;
    t.erase(0, t.find_first_not_of(" \t"));
    if (t.empty() || t[0] == '#') continue;
    transcript += "> " + t + "\n";
    bool more = r.execute(t, transcript);
    if (!more) break;
    if (r.errors() > 0 || r.failedExpects() > 0) {
      std::fputs(transcript.c_str(), stderr);
      fmt::print(stderr, "polemos odds: the script {} failed at `{}`\n", pos[0], t);
      return 1;
    }
  }
  std::string cmd = "odds";
  for (size_t i = 1; i < pos.size(); ++i) cmd += " " + pos[i];
  for (const auto& a : oddsArgs) cmd += " " + a;
  std::string out;
  r.execute(cmd, out);
  std::fputs(out.c_str(), stdout);
  return r.errors() > 0 ? 1 : 0;
}

}  // namespace polemos::cli
