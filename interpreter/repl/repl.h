// The REPL: one command line in, text out, over a Session. Used by `polemos play` (interactive),
// `polemos run SCRIPT` and the tests, so all three behave the same.
//
// It exposes what the Session can do and nothing more: it never changes the game except through
// the Session's own operations, and a command that fails (an illegal action, a bad argument)
// leaves the game exactly as it was. It does no terminal handling. The commands are one table
// (commands.cpp); their handlers are grouped by concern, one file each (see commands.cpp).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/odds.h"
#include "check/loader.h"
#include "engine/display.h"
#include "engine/history.h"
#include "engine/random_player.h"
#include "engine/save.h"
#include "engine/session.h"
#include "engine/setup.h"

namespace polemos::repl {

struct ReplOptions {
  std::string ruleset = "standard";
  std::string scenario;
  std::vector<std::string> houses;
  engine::SessionConfig session;
  bool json = false;  // trace events and results as JSON lines
  // The trace level a game starts with: `polemos play` says the results, `polemos run` every
  // rule (an auditor's script reads them all).
  bool traceResults = false;
  // A game between two players (`polemos play --fair`): `undo` never takes back a move whose dice
  // were rolled (a player would see the next die), and `dice` cannot force them.
  bool fair = false;
  // The terminal's width in characters, for maps cut to the window (0: no limit, as in scripts).
  int width = 0;
  // Where the game being replaced by a new one (sandbox, scenario, ruleset, level, house) is kept,
  // for `load --autosave`; empty: not kept. `polemos play` at a terminal keeps it in
  // ~/.polemos_autosave.json (or $POLEMOS_AUTOSAVE, which also serves scripts).
  std::string autosave;
};

class Repl {
 public:
  explicit Repl(ReplOptions options);
  // Another REPL with a copy of everything this one holds: the game, its undo history, the games
  // kept, the settings. The fuzz targets start each game once and play each input on a copy.
  Repl(const Repl& other);
  Repl& operator=(const Repl&) = delete;

  // Loads the ruleset and starts the game; on failure `out` holds the errors. Given `program`
  // (the very program these options load, already loaded: a scenario's, not a sandbox's), it is
  // used instead of loading the files again, and the start says no provenance line.
  bool start(std::string& out, std::shared_ptr<const ir::Program> program = nullptr);

  // Runs one command line, appending what it prints to `out`. Returns false after `quit`.
  bool execute(const std::string& line, std::string& out);
  bool executeText(const std::string& line, std::string& out);  // the same, as plain text

  // The game as `save` writes it, and a saved game's text loaded as `load` loads a file (`name`
  // says where it came from); a bad save is refused with an error and the game left as it was.
  std::string saveText() const;
  // A saved game's text, checked by making the game again from its commands (refused, with the
  // first difference named, if its state is not that game's) unless `trust`, which loads it as
  // it is and marks it edited.
  bool loadText(const std::string& text, const std::string& name, std::string& out,
                bool trust = false);

  // The options of the decision in front of the game, each with its text as a player types it
  // (what `legal` lists); and the command a click on the board means (engine/board): unit UNIT
  // chosen, hex HEX clicked. Neither changes the game.
  std::vector<engine::Option> legalOptions();
  std::optional<std::string> clickCommand(const std::string& unit, const std::string& hex,
                                          std::string& why);

  int failedExpects() const { return failedExpects_; }
  void setWidth(int columns) { options_.width = columns; }
  int errors() const { return errors_; }
  bool started() const { return session_ != nullptr; }
  const engine::Session* session() const { return session_.get(); }
  std::vector<std::string> completions(const std::string& prefix) const;
  // The same for a word after `before` (the line up to it): what that argument takes.
  std::vector<std::string> completions(const std::string& before, const std::string& prefix);

  // The odds of ACTION ARGS (or, with no words, of the action under way); nothing, with `why`,
  // when the question is malformed.
  std::optional<analysis::OddsReport> computeOdds(const std::vector<std::string>& words,
                                                  const analysis::OddsRequest& req,
                                                  std::string& why);

 private:
  // One command line: its words (the command first) and the text after the command word.
  struct Line {
    std::vector<std::string> args;
    std::string rest;
  };
  // A row of the command table (commands.cpp): what `help` prints and what runs the command.
  struct Command {
    const char* name;
    const char* usage;
    const char* text;
    void (*run)(Repl&, const Line&, std::string&);  // null: handled before the table (quit)
    int maxArgs = -1;  // the most arguments it takes (-1: any); more is an error, not ignored
  };
  static const std::vector<Command>& commands();

  void cmdStatus(std::string& out);      // the one line said after every move
  void cmdStatusFull(std::string& out);  // `status`: that line with the turns, then the standing
  int64_t lastTurn() const;
  void cmdPick(const std::vector<std::string>& args, std::string& out);
  void cmdEnd(const std::vector<std::string>& args, std::string& out);
  void cmdTrace(const std::vector<std::string>& args, std::string& out);
  void cmdWhy(std::string& out);
  void cmdDice(const std::vector<std::string>& args, std::string& out);
  void cmdUndo(const std::vector<std::string>& args, std::string& out);
  void cmdRedo(std::string& out);
  void cmdNext(std::string& out);
  void cmdStep(const std::vector<std::string>& args, std::string& out);
  void cmdExpect(const std::vector<std::string>& args, const std::string& rest, std::string& out);
  void cmdHouse(const std::vector<std::string>& args, std::string& out);
  void cmdNewGame(const std::vector<std::string>& args, std::string& out);
  void cmdLoad(const std::vector<std::string>& args, std::string& out);
  void cmdLegal(const std::vector<std::string>& args, std::string& out);
  void cmdTables(const std::vector<std::string>& args, std::string& out);
  void cmdHelp(const std::vector<std::string>& args, std::string& out);
  void cmdLog(const std::vector<std::string>& args, std::string& out);
  void cmdEval(const std::string& text, bool expect, std::string& out);
  void cmdUnits(const std::vector<std::string>& args, std::string& out);
  void cmdShow(const std::vector<std::string>& args, std::string& out);
  void showFields(const std::vector<engine::ShownField>& fields, bool all, const std::string& what,
                  std::string& out) const;
  // Where a unit is: its hex label, or eliminated, exited, merged, off map.
  std::string whereText(int32_t unit) const;
  void cmdAuto(const std::vector<std::string>& args, std::string& out);
  void cmdMap(const std::vector<std::string>& args, std::string& out);
  void renderMap(int c0, int c1, int r0, int r1, const std::map<int32_t, std::string>& overlay,
                 std::string& out);
  void cmdReach(const std::vector<std::string>& args, std::string& out);
  void cmdRestart(std::string& out);
  std::string movementReason(int32_t action, const std::vector<ir::Value>& args);
  bool keptScenario_ = false;  // the sandbox in play kept its scenario's rules (--keep-scenario)
  static constexpr size_t kLegalScreen = 40;  // more options than this are summarised at a terminal
  void cmdMapSvg(const std::vector<std::string>& args, std::string& out);
  // The fields of hex h's hex state that differ from the ruleset's defaults ("fort 200, afire
  // true"), empty if none (`map`, `map --svg`, `show HEX`).
  std::string hexStateText(int32_t h) const;
  // The audit sandbox.
  void cmdTerrain(const std::vector<std::string>& args, std::string& out);
  void cmdElevation(const std::vector<std::string>& args, std::string& out);
  void cmdHexside(const std::vector<std::string>& args, std::string& out);
  void cmdPlace(const std::vector<std::string>& args, std::string& out);
  void cmdRemove(const std::vector<std::string>& args, std::string& out);
  void cmdSet(const std::vector<std::string>& args, bool side, std::string& out);
  void cmdSetHex(const std::vector<std::string>& args, std::string& out);
  void cmdSetGame(const std::vector<std::string>& args, std::string& out);
  std::optional<std::vector<engine::edit::Field>> readFieldPairs(
      const std::vector<std::string>& args, size_t from, const ir::Schema& schema,
      int32_t (*slotOf)(const ir::Program&, const std::string&, std::string&),
      const std::string& owner, std::string& report, std::string& out);
  void cmdSandbox(const std::vector<std::string>& args, std::string& out);
  void cmdGoto(const std::vector<std::string>& args, std::string& out);
  // Compares rules; loads files of its own and never touches the game.
  void cmdDiff(const std::vector<std::string>& args, std::string& out);
  void cmdRule(const std::vector<std::string>& args, std::string& out);
  // Exact odds of an action or of the action under way; works on copies and never touches the game.
  void cmdOdds(const std::vector<std::string>& args, std::string& out);
  // A new game under options_ (`ruleset`, `scenario`, `level`, `house`); not the `restart` command,
  // which runs the same game's sequence again.
  bool startNewGame(std::string& out);
  static std::string replayable(const Repl& game, const std::string& command);
  // How the current game was made (its ruleset, scenario, house files, seed, level, options).
  engine::GameOrigin origin() const {
    return engine::GameOrigin{options_.ruleset, options_.scenario, options_.houses,
                              options_.session};
  }
  // A typed set-up edit as one step of undo and of the log; false, with the error said, if refused.
  bool applyEdit(const engine::Edit& e, std::string& out);
  // Parses, compiles and evaluates an expression of the language on the current game. On a
  // syntax or check error, `diagnostics` holds them rendered; on a runtime error, `error`.
  std::optional<ir::Value> evaluate(const std::string& text, const char* origin,
                                    std::string& diagnostics, std::string& error,
                                    std::string* shown = nullptr);
  bool cmdAction(int32_t action, const std::vector<std::string>& args, std::string& out);
  void afterMove(const engine::Outcome& o, size_t traceBefore, std::string& out);
  void printTrace(size_t from, std::string& out);
  void pushHistory();
  void error(std::string& out, const std::string& msg);
  std::string formatEvent(const eval::TraceEvent& e) const;
  void cmdExpectFired(const std::vector<std::string>& args, std::string& out);
  void cmdCompare(const std::vector<std::string>& args, std::string& out);

  ReplOptions options_;
  std::unique_ptr<engine::Session> session_;
  // Undo and redo: each entry is the game and the commands that made it.
  engine::History history_;
  std::vector<std::string> log_;  // the commands that changed the game since it started
  // The games that new ones replaced (sandbox, scenario, ruleset, level, house, load --autosave),
  // the latest last, each with its undo history: `undo` with nothing left to undo in the game in
  // play goes back to the one before. At most kKeptGames.
  // The game a save's record makes: a fresh REPL of its origin with its commands replayed (null,
  // with `why`, if one is refused or is not a move of the game). Given `program` (the program of
  // the game in play, known to be the one the origin loads), the files are not loaded again.
  std::unique_ptr<Repl> makeFromRecord(const engine::SaveRecord& record, std::string& why,
                                       std::string* log = nullptr,
                                       std::shared_ptr<const ir::Program> program = nullptr) const;
  engine::SaveRecord saveRecord() const;  // this game's, for a save
  bool edited_ = false;  // loaded with --trust: not known to be a game the rules can reach
  struct KeptGame {
    std::unique_ptr<engine::Session> session;
    engine::History history;
    std::vector<std::string> log;
    ReplOptions options;
    bool keptScenario = false;
    std::string replacedBy;  // the command that replaced it
    bool edited = false;
  };
  static constexpr size_t kKeptGames = 8;
  std::vector<KeptGame> before_;
  void keepGame();      // the game in play, before a new one replaces it
  void dropKeptGame();  // the new game did not start: the one kept is the one in play
  bool undoNewGame(std::string& out);
  std::string currentLine_;
  void record() { log_.push_back(currentLine_); }
  // Dice forced in the game being replaced, to be forced in the new one before it starts (an
  // auditor forces turn 1's dice, then opens the sandbox or scenario); shown and logged by
  // noteCarriedDice once it has started.
  std::vector<int64_t> carriedDice_;
  void takeForcedDice();
  // Writes the current game to options_.autosave before a new game replaces it.
  void autosave(std::string& out);
  void loadAutosave(std::string& out);
  ReplOptions optionsOf(const engine::GameOrigin& origin) const;
  void noteCarriedDice(std::string& out);
  void cmdReplay(const std::vector<std::string>& args, std::string& out);
  void cmdSave(const std::vector<std::string>& args, std::string& out);
  // Trace levels: off; results (rolls, tables, choices, the ruleset's notes, moves and
  // eliminations, changes of what a player sees); on (every rule, without a new phase's
  // bookkeeping); all (with phases and that bookkeeping).
  enum class TraceMode { Off, Results, On, All } trace_ = TraceMode::On;
  bool shownAt(size_t event, bool inAction) const;
  int failedExpects_ = 0;
  int errors_ = 0;
  uint64_t firedStart_ = 0;    // `expect fired` looks at trace events from this seq on
  uint64_t firedPending_ = 0;  // the end of the stretch the last `expect fired` looked at
  std::string firedMark_;      // the last event of that stretch, to tell the same game from another
  // A new game (sandbox, ruleset, load, replay): `expect fired` looks at all of its trace, whatever
  // the events at its old mark happen to be.
  void newGameForExpect() {
    firedPending_ = 0;
    firedMark_.clear();
  }
  size_t lastActionTrace_ = 0;       // first trace event of the last command that moved the game
  engine::RandomPlayer autoPlayer_;  // `auto`: seeded with the game's seed
};

}  // namespace polemos::repl
