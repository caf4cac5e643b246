// Shared by the fuzz targets (tests/fuzz/*_fuzz.cpp): the shipped games, each started once per
// process and copied for every input; the filter that keeps a REPL line from touching files or
// running unbounded work; an input cut into bounded lines; an invariant check that aborts.
//
// Nothing here writes a file. A refusal printed by the program is a normal answer, never a
// finding: only crashes, sanitizer reports, aborts (failed invariants) and timeouts are.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "repl/repl.h"

namespace polemos::fuzz {

struct Game {
  const char* ruleset;
  const char* scenario;  // "": the ruleset's sandbox
};

// Every shipped scenario, then the sandboxes of the rulesets.
inline const std::vector<Game>& games() {
  static const std::vector<Game> all = {{"standard", "chalons"}, {"fourbattles", "cannae"},
                                        {"deluxe", "phalanx"},   {"warfare", "pydna"},
                                        {"warfare", "drill"},    {"warfare", "cicero"},
                                        {"standard", ""},        {"fourbattles", ""},
                                        {"deluxe", ""},          {"warfare", ""}};
  return all;
}

// The options a game is played with (seed 1, as the tests use).
inline repl::ReplOptions optionsOf(const Game& g) {
  repl::ReplOptions o;
  o.ruleset = g.ruleset;
  o.scenario = g.scenario;
  o.session.seed = 1;
  return o;
}

// The REPL of game `i`, started once (loading a ruleset takes long; a copy takes little), and
// what its start printed. Aborts if a shipped game does not start: that is a broken tree.
struct Started {
  std::unique_ptr<repl::Repl> repl;
  std::string output;
};
inline const Started& started(size_t i) {
  static std::map<size_t, Started> cache;
  auto it = cache.find(i);
  if (it != cache.end()) return it->second;
  Started s;
  s.repl = std::make_unique<repl::Repl>(optionsOf(games()[i]));
  if (!s.repl->start(s.output)) {
    std::fprintf(stderr, "fuzz: %s %s does not start:\n%s", games()[i].ruleset, games()[i].scenario,
                 s.output.c_str());
    std::abort();
  }
  return cache.emplace(i, std::move(s)).first->second;
}

// The words of a line, as the REPL splits them.
inline std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

// The command a line runs: its first word, or the command that `expect illegal|error` wraps.
inline std::string command(const std::string& line) {
  std::vector<std::string> w = words(line);
  size_t at = 0;
  while (w.size() >= at + 2 && w[at] == "expect" &&
         (w[at + 1] == "illegal" || w[at + 1] == "error"))
    at += 2;
  return at < w.size() ? w[at] : "";
}

// Which REPL lines an input may run. Refused: whatever reads or writes a file named by the input
// (save, load, replay, house FILE, `map --svg FILE`, a ruleset or scenario named by a path, a
// diff or compare against a path), and work that is long by design (`auto` past a few moves, more
// than one new game or rule comparison per input: each loads a ruleset).
class LineFilter {
 public:
  bool allows(const std::string& line) {
    std::vector<std::string> w = words(line);
    // `expect illegal|error COMMAND` runs COMMAND.
    size_t at = 0;
    while (w.size() >= at + 2 && w[at] == "expect" &&
           (w[at + 1] == "illegal" || w[at + 1] == "error"))
      at += 2;
    if (at >= w.size()) return true;
    const std::string& cmd = w[at];
    auto pathLike = [&] {
      for (size_t i = at + 1; i < w.size(); ++i)
        if (w[i].find_first_of("/\\.") != std::string::npos || w[i][0] == '~') return true;
      return false;
    };
    static const std::set<std::string> kFiles = {"save", "load", "replay", "house"};
    if (kFiles.count(cmd)) return false;
    if (cmd == "map" && w.size() > at + 1 && w[at + 1] == "--svg")
      return w.size() > at + 2 && w[at + 2] == "-";
    static const std::set<std::string> kLoads = {"ruleset", "scenario", "level", "diff", "compare"};
    if (kLoads.count(cmd)) {
      if (cmd == "level" && w.size() == at + 1) return true;  // says the level, loads nothing
      if (cmd == "diff" && w.size() == at + 1) return true;   // the house rules in play
      if (pathLike() || loads_ >= 1) return false;
      ++loads_;
      return true;
    }
    if (cmd == "auto") {
      if (w.size() != at + 2 || w[at + 1].size() > 2) return false;
      return std::atoi(w[at + 1].c_str()) <= 20;
    }
    return true;
  }

 private:
  int loads_ = 0;
};

// The input cut at line breaks: at most `maxLines` lines of at most `maxLength` bytes (longer
// ones are cut).
inline std::vector<std::string> lines(const uint8_t* data, size_t size, size_t maxLines,
                                      size_t maxLength) {
  std::vector<std::string> out;
  std::string text(reinterpret_cast<const char*>(data), size);
  size_t at = 0;
  while (at <= text.size() && out.size() < maxLines) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    out.push_back(text.substr(at, std::min(end - at, maxLength)));
    at = end + 1;
  }
  return out;
}

// An invariant that failed: said, then abort() (a finding, with the input saved by libFuzzer).
[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz invariant failed: %s\n", what.c_str());
  std::abort();
}

}  // namespace polemos::fuzz
