// The game behind `polemos serve`: one REPL, shared by every browser tab, behind a lock. The
// page plays through it exactly as a player at the prompt does (the same command lines, the same
// refusals, the same trace), so the board has no rules of its own.
//
// It keeps what a board needs besides the REPL's answers: a version that grows with every
// command (tabs wait on it to refresh), and the log of commands and their output (the page's
// trace). It validates every request as REPL input is validated; it does no HTTP (serve/server
// does) and renders nothing (the page does).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>

#include "repl/repl.h"

namespace polemos::serve {

struct Reply {
  bool ok = true;        // no error and nothing illegal
  std::string output;    // what the REPL printed
  uint64_t version = 0;  // the game's version after it
};

class GameHost {
 public:
  explicit GameHost(repl::ReplOptions options);
  // A host over a copy of a REPL already started (`out`: what its start printed), as if start()
  // had been called: the fuzz target starts each game once and serves each input a copy.
  GameHost(const repl::Repl& started, const std::string& out);

  // Starts the game; false, with the errors in `out`, if it cannot.
  bool start(std::string& out);

  // One command line, as typed at the prompt. Refused without running: more than one line, a
  // control character, more than kMaxLine bytes, `quit` (the server stops with Ctrl-C).
  Reply command(const std::string& line);
  // A command that only reads the game (show, reach, status, legal, help, why, ...), answered
  // without entering the log; any other is refused.
  Reply ask(const std::string& line);
  // A click on the board: unit UNIT chosen, hex HEX clicked (engine/board says what it means).
  Reply click(const std::string& unit, const std::string& hex);
  // A saved game's text, loaded as `load` loads a file.
  Reply load(const std::string& text);
  std::string save();

  // The state a page draws, as JSON: version, title, status text, the options of the decision,
  // the log entries after `since`, whether the game is over.
  std::string stateJson(uint64_t since);
  // The map as SVG, with the reachable hexes (and their cost) and the zone of control of the units
  // given, when not empty; an error text if it cannot be drawn so.
  Reply svg(const std::string& reachUnit, const std::string& zocUnit = "");
  // The exact odds of an option (its text), as `odds --json` gives them.
  Reply odds(const std::string& option);

  // Waits until the version passes `seen` or `ms` milliseconds pass; the version then.
  uint64_t waitForChange(uint64_t seen, int ms);
  uint64_t version();

  static constexpr size_t kMaxLine = 4096;
  static constexpr size_t kMaxLog = 2000;  // log entries kept for pages that join late

 private:
  Reply run(const std::string& line, bool logged);  // with the lock held
  Reply execute(const std::string& line);           // the REPL's answer, nothing else (locked)
  void changed();                                   // a new version; waiting pages are woken
  bool readOnly(const std::string& line) const;
  repl::Repl repl_;
  std::mutex mutex_;
  std::condition_variable changed_;
  uint64_t version_ = 1;
  struct Entry {
    uint64_t seq;
    std::string command, output;
    bool ok;
  };
  std::deque<Entry> log_;
  uint64_t nextSeq_ = 1;
  std::string banner_;
};

// Whether `line` is acceptable as one command line: no line break or other control character
// (tabs excepted), at most GameHost::kMaxLine bytes, valid UTF-8. `why` says what is wrong.
bool validLine(const std::string& line, std::string& why);
// One word of a valid line (a unit id, a hex label): not empty, no space.
bool oneWord(const std::string& word);

}  // namespace polemos::serve
