// A Session: one game in progress, as a value.
//
// It holds the game state, the interpreter's continuation and the dice generator, and always
// knows where it stands: at a decision (who must act, what kind, the legal options), at a chance
// event (resolved at once from forced dice or the seeded generator unless the caller asks to see
// it), or at the end. A Session can be copied (undo, what-if, Monte Carlo, exact enumeration),
// and its behaviour depends only on (program, seed, options, decisions): the same inputs give the
// same trace byte for byte. It does no I/O.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "eval/interpreter.h"
#include "eval/state.h"
#include "ir/program.h"

namespace polemos::engine {

struct SessionConfig {
  uint64_t seed = 1;
  std::string level;                                         // empty: the first level
  std::vector<std::pair<std::string, std::string>> options;  // name=value as typed
  bool tracing = true;
  bool stepping = false;  // stop at each `pause` of the rules (see Session::setStepping)
};

// One legal (or, with a reason, illegal) thing the deciding player can do.
struct Option {
  enum Kind { Action, End, Pass, Pick, Next } kind = Action;  // Next: go on from a pause
  int32_t action = -1;
  std::vector<ir::Value> args;
  std::string text;  // as the player types it: "move h12 2725", "end", "pick 2", "next"
};

// What came of an attempt to act.
struct Outcome {
  enum Kind { Ok, Illegal, Error } kind = Ok;
  std::string message;                 // Illegal: "§5.13 not leaving an EZOC"; Error: the error
  std::vector<std::string> citations;  // Illegal
  // Illegal: the refusal took back the whole action an earlier command began (a pick or a roll
  // deep in it failed a requirement), so the game did change: back to before that action.
  bool takenBack = false;
};

class Session {
 public:
  Session(std::shared_ptr<const ir::Program> program, const SessionConfig& config);

  // Sets the game up from the program's scenario and runs to the first decision. Returns an
  // error outcome if the configuration is bad (unknown level or option) or the ruleset fails.
  Outcome start();
  // What is wrong with the configuration's level or options ("" if nothing), without starting.
  std::string configProblem();

  const ir::Program& program() const { return *program_; }
  std::shared_ptr<const ir::Program> programPtr() const { return program_; }
  const eval::GameState& state() const { return state_; }
  // Forgets what the memo of pure calls remembers, as after a change of the game (a benchmark
  // measures a cold game with it). Nothing of the game changes.
  void forgetMemo() { state_.touch(); }
  // Drops the trace so far and turns tracing on (a working copy for enumeration reads results from
  // a trace of its own). Nothing of the game changes.
  void restartTrace() {
    state_.trace.clear();
    state_.tracing = true;
  }
  const eval::Stop& stop() const { return stop_; }
  bool over() const { return stop_.kind == eval::Stop::End; }
  const std::string& lastError() const { return lastError_; }

  // Where we stand, in words: "Roman to act: movement phase (§4.A)".
  std::string describeStop() const;
  std::string phaseName() const;

  // The options at the current decision (actions with their arguments, end or pass, picks).
  std::vector<Option> legal();
  // Errors of the rules met by the last legal() (at most a few, each once): an option they hid
  // may be missing from the list. Empty when the rules listed cleanly.
  const std::vector<std::string>& listingErrors() const { return listingErrors_; }
  // The errors met since the last legal() or take (a random player's draws, which list nothing
  // whole), and from now none: each is said once.
  std::vector<std::string> takeListingErrors() { return std::exchange(listingErrors_, {}); }
  // The parts of `legal()`, for a player that draws one option instead of listing them all
  // (engine/random_player): the actions open at the current window (those of the phase in use at
  // this level and with these options); the candidates for parameter `prefix.size()` of an action
  // given the arguments before it (its domain, or every value of its type; none for a number
  // without a domain), as a list value (the domain's own answer, shared, not copied); whether the
  // action's requirements hold for these arguments; whether the phase may end (or the player pass)
  // now; and an option with the text a player types.
  std::vector<int32_t> openActions();
  ir::Value candidates(int32_t action, std::span<const ir::Value> prefix);
  bool guardHolds(int32_t action, const std::vector<ir::Value>& args);
  bool mayEnd();
  Option actionOption(int32_t action, std::vector<ir::Value> args) const;
  Option endOption() const;
  // Why an action with these arguments is illegal; nothing when it is legal.
  std::optional<Outcome> checkAction(int32_t action, const std::vector<ir::Value>& args);

  // Runs the rules' sequence again from its start on the game as it stands (its units, map, side
  // and game state kept; the turn, the phase and the result cleared), to the first stop: a
  // situation set up by hand begins its first turn as a scenario's would.
  Outcome restart();

  Outcome act(int32_t action, const std::vector<ir::Value>& args);
  Outcome endPhase();          // `end` in a phase, `pass` in an alternation
  Outcome pick(size_t index);  // at a choose
  // Stepping: the game stops at each `pause` of the rules (an auditor reads the state between the
  // quarter turns of an events phase); otherwise pauses are passed through (sim, odds, auto).
  void setStepping(bool on) { stepping_ = on; }
  bool stepping() const { return stepping_; }
  Outcome resume();  // at a pause: go on to the next stop
  Outcome apply(const Option& o);

  // Dice: forced values are used first, in order, one die at a time.
  void forceDice(const std::vector<int64_t>& faces) {
    forced_.insert(forced_.end(), faces.begin(), faces.end());
  }
  const std::deque<int64_t>& forcedDice() const { return forced_; }
  void clearForcedDice() { forced_.clear(); }
  // When false, the session stops at chance events (for exact enumeration) instead of rolling.
  void setAutoRoll(bool on) { autoRoll_ = on; }
  // At a Roll stop: the possible results with their probabilities (exact, as fractions of total).
  std::vector<std::pair<ir::Value, uint64_t>> rollDistribution(uint64_t& total) const;
  Outcome resolveRoll(const ir::Value& result);

  // Evaluates a pure function (for `eval`) on the current state.
  std::optional<ir::Value> callPure(int32_t fn, std::vector<ir::Value> args, std::string& error);
  // A derived field's value (function `fn`) on its owner `self` (a unit, a side, a hex, or none
  // for the game), writing no trace events: what a view shows did not happen in the game.
  std::optional<ir::Value> derivedValue(int32_t fn, const ir::Value& self, std::string& error);

  uint64_t rngState() const { return rng_; }
  void setRngState(uint64_t s) { rng_ = s; }
  void setSeed(uint64_t seed) { config_.seed = seed; }  // a loaded game's own
  const SessionConfig& config() const { return config_; }
  eval::Machine& machine() { return machine_; }
  const eval::Machine& machine() const { return machine_; }
  void setStop(const eval::Stop& s) { stop_ = s; }

  std::string display(const ir::Value& v) const { return eval::display(*program_, state_, v); }

  // An expression of the rule language evaluated on this game, as a pure function (nothing in the
  // game changes). The one way to do it: the REPL's eval and expect, and its pictures, use it.
  struct Evaluation {
    std::optional<ir::Value> value;  // nothing: see diagnostics (syntax, names, types) or error
    std::string diagnostics;         // rendered, with `origin` as the file name
    std::string error;               // a runtime error (a division by zero, a missing unit)
    std::string shown;               // the value as the trace would show it
  };
  Evaluation evaluate(const std::string& text, const std::string& origin = "<eval>") const;

  // For loading a saved game: replaces the whole state at once.
  void restore(eval::GameState state, eval::Machine machine, eval::Stop stop, uint64_t rng,
               std::deque<int64_t> forced) {
    uint64_t v = state_.version;
    state_ = std::move(state);
    state_.version = std::max(v, state_.version);
    state_.touch();
    machine_ = std::move(machine);
    stop_ = std::move(stop);
    rng_ = rng;
    forced_ = std::move(forced);
  }

 private:
  // engine/setup's typed edits change the state; nothing else outside the Session does.
  friend struct SetupAccess;
  // engine/history keeps the state of an undo entry as a difference from the next one's.
  friend class History;
  Outcome run();  // runs the machine to the next stop, rolling dice when autoRoll_
  void replaceState(eval::GameState&& earlier);
  std::string applyConfig();
  int64_t rollDie(int32_t die);
  ir::Value combine(const ir::RollInfo& r, const std::vector<int64_t>& dice) const;
  void enumerate(int32_t action, size_t i, std::vector<ir::Value>& args, std::vector<Option>& out);
  std::string optionText(int32_t action, const std::vector<ir::Value>& args) const;

  std::shared_ptr<const ir::Program> program_;
  SessionConfig config_;
  eval::GameState state_;
  eval::Machine machine_;
  eval::Stop stop_;
  uint64_t rng_ = 0;
  std::deque<int64_t> forced_;
  bool autoRoll_ = true;
  bool stepping_ = false;
  std::string lastError_;
  // The game as it was before the action under way, restored if a requirement fails (or the rules
  // err) anywhere in it, even after it stopped for a roll or a choice.
  struct Snapshot {
    eval::GameState state;
    eval::Machine machine;
    eval::Stop stop;
    uint64_t rng = 0;
    std::deque<int64_t> forced;
  };
  std::optional<Snapshot> actionStart_;
  // The last action's snapshot once the action is complete, kept for the next one: copying the
  // game into it reuses its allocations (a unit's fields, its stamps), where a new copy would make
  // them all again (an action's snapshot is taken about a thousand times in a Chalons game).
  // Buffers only: a copy of the Session (a clone, a branch of the odds) starts without them.
  struct Spare {
    std::optional<Snapshot> snapshot;
    Spare() = default;
    Spare(const Spare&) {}
    Spare& operator=(const Spare&) {
      snapshot.reset();
      return *this;
    }
    Spare(Spare&&) = default;
    Spare& operator=(Spare&&) = default;
  };
  Spare spareStart_;
  // Takes the snapshot of the game before an action (in spareStart_'s buffers when there are some).
  void keepActionStart();
  // The action is complete: its snapshot is no longer needed, and its buffers are kept.
  void dropActionStart();
  bool actionBegun_ = false;  // act() is running the action it has just begun
  // Errors of the rules met while the options were listed (a guard, a parameter's domain, a
  // gate or a phase's end condition that failed with an error, not with a requirement unmet).
  std::vector<std::string> listingErrors_;
  // The last refusal of an action by one of its shared requirements (ActionInfo::
  // sharedRequires), in the version of the game it was made in: every candidate of the action
  // is refused alike until the game changes (sharedRefusal).
  struct SharedRefusal {
    int32_t action = -1;
    uint64_t version = 0;
    eval::Stop failed;
  } refused_;
  // The refusal that stands for every candidate of `action` now, or null.
  const eval::Stop* sharedRefusal(int32_t action) const;
  // Notes the guard's refusal `failed` of `action` if it is by a shared requirement.
  void noteRefusal(int32_t action, const eval::Stop& failed);
  static constexpr size_t kMaxListingErrors = 5;
  void listingError(const std::string& what, const std::string& err);
  // The game as it was when the current command (action, pick, end) began: a forced die that is
  // not a face of the die rolled puts it back.
  std::optional<Snapshot> commandStart_;
  eval::MemoCache memo_;
  // The steps of the command under way, shared by every interpreter made for it (a listing of
  // options runs a guard per candidate; an `end` may run many battles): renewed when a public call
  // begins that no other is running. Each public call that runs rules opens a Command.
  eval::StepBudget steps_;
  int commandDepth_ = 0;
  struct Command {
    Session& s;
    explicit Command(Session& session);
    ~Command();
    Command(const Command&) = delete;
    Command& operator=(const Command&) = delete;
  };
  // The budget an interpreter made now shares (a fresh one outside any Command).
  eval::StepBudget* steps();
  // Runs pure rule code on the current state without writing trace events (listing the legal
  // options or checking a requirement is not something that happened in the game).
  struct QuietTrace {
    eval::GameState& s;
    bool was;
    explicit QuietTrace(eval::GameState& st) : s(st), was(st.tracing) { s.tracing = false; }
    ~QuietTrace() { s.tracing = was; }
  };
};

}  // namespace polemos::engine
