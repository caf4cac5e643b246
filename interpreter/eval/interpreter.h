// The evaluator: runs IR bytecode over a GameState and a Machine until the next point where the
// outside world must answer: a decision (a phase window or a `choose`), a chance event (a roll),
// the end of the game, or an error.
//
// It sees only the IR (no names, no parse trees). It never blocks, never does I/O, and stops a
// runaway ruleset with a clear error: every run has a step budget and the call depth is bounded.
// Pure functions (requirements, quantities, lambdas) can also be called directly, re-entrantly,
// from builtins and from the Session (to list legal actions).
#pragma once

#include <fmt/format.h>

#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>

#include "eval/hex_set.h"
#include "eval/memo.h"
#include "eval/state.h"
#include "ir/program.h"
#include "limits/limits.h"

namespace polemos::eval {

// Thrown inside the evaluator and turned into an Error stop at its boundary; never escapes it.
struct RuntimeError : std::runtime_error {
  using std::runtime_error::runtime_error;
  // Where it arose, when that is deeper than the instruction that sees it (an error in a pure
  // call made by a builtin is reported at its own line, not at the builtin's).
  diag::SourceRange at;
};

struct Stop {
  // Pause: a `pause` of the rules (index: pauses[], message: its text), which a Session passes
  // through unless it is stepping.
  enum Kind { None, Window, Choose, Roll, End, Failed, Error, Pause } kind = None;
  int32_t index = -1;                  // phase / choose / roll / require index
  int32_t player = -1;                 // who decides (Window, Choose)
  ir::Value options;                   // Choose: the option list
  int64_t count = 1;                   // Roll: number of dice
  std::string message;                 // Error / Failed
  std::vector<std::string> citations;  // Failed
  diag::SourceRange range;             // Error: where
};

class Interpreter;

// What builtins see.
class Context {
 public:
  Context(const ir::Program& p, GameState& s, Interpreter& in) : program(p), state(s), interp(in) {}
  const ir::Program& program;
  GameState& state;
  Interpreter& interp;

  ir::Value call(const ir::Value& func, std::span<const ir::Value> args);
  [[noreturn]] void fail(const std::string& msg) { throw RuntimeError(msg); }
  void emit(int32_t event, ir::ValueList args);
  void trace(const std::vector<std::string>& citations, TraceKind kind, std::string subject,
             std::string inputs, std::string output);
  bool pure() const;
  void charge(int64_t n);  // the interpreter's charge()
};

// The steps one command may take, shared by every run and pure call made for it: listing the
// options runs a guard per candidate, and their work together is what the player waits for. The
// engine starts it anew at each command (engine/session) and lends it to each interpreter it
// makes; an interpreter given none has a budget of its own per run.
struct StepBudget {
  int64_t left = 0;
  // The trace this command has written (limits::kMaxTraceEventsPerCommand, ...PerCommand bytes).
  int64_t traceEvents = 0;
  int64_t traceBytes = 0;
  void renew(int64_t steps) { *this = StepBudget{steps, 0, 0}; }
};

class Interpreter {
 public:
  // The limits of a run (limits/limits.h says why).
  static constexpr int64_t kStepBudget = limits::kStepBudget;
  static constexpr size_t kMaxFrames = limits::kMaxCallDepth;

  Interpreter(const ir::Program& program, GameState& state, Machine& machine,
              MemoCache* memo = nullptr, StepBudget* shared = nullptr)
      : program_(program),
        state_(state),
        machine_(machine),
        ctx_(program, state, *this),
        memo_(memo),
        shared_(shared) {
    budget_ = command().left;
    renewOwnBudget();
  }
  ~Interpreter() {
    if (shared_) shared_->left = budget_;
  }
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;
  // The steps a command may take: the ruleset's `step_budget` (at most limits::kMaxRunStepBudget)
  // or limits::kStepBudget; five times that for a test run that makes every kept search again to
  // compare it (POLEMOS_VERIFY_KEPT, eval/memo), which does many times the work of a game by
  // design.
  static int64_t stepBudgetFor(const ir::Program& program, const MemoCache* memo);

  // Runs until the next stop. The machine must hold at least one frame.
  Stop run();

  // Calls a pure function with arguments (and closure captures); throws RuntimeError.
  ir::Value callPure(int32_t fn, std::span<const ir::Value> args,
                     const ir::ValueList* captures = nullptr);
  // Same, for a plain function called by a builtin many times over with arguments that come
  // back (a search's step predicate): answered from the memo when it may be, and its answer
  // stored there with its reads logged, so that it holds in later versions while what it read is
  // unchanged (a predicate of the map alone, for the rest of the epoch).
  ir::Value callRemembered(int32_t fn, std::span<const ir::Value> args);
  // callRemembered for a movement search being kept (needs the memo): the call is recorded in
  // `rec` with its answer and what it read (MemoCache::record); an answer found in the memo is
  // recorded with the reads it carries, without a log of its own (MemoCache::findRecorded).
  ir::Value callRecorded(int32_t fn, std::span<const ir::Value> args, MemoCache::Recording& rec);
  // Whether fn's answers may come from the memo now (a pure function that writes no trace; none
  // while rule coverage is recorded).
  bool memoizable(int32_t fn) const;
  // Same, for a function that only reads a member of its one argument (ir::FieldRead), made
  // without a frame: the same answer, the same steps charged, the function counted as run.
  // Nothing, and the caller makes the call, when the member cannot be read so: an error (which
  // the call reports with its place), a `not` of something else than true or false, the budget
  // or the depth of calls at their end, or no run under way.
  std::optional<ir::Value> fieldRead(int32_t fn, const ir::Value& arg);
  // Same, for a lambda that only gives back a function's answer (ir::Function::lambdaForward):
  // its target called as the lambda's code would call it (callAsCode), without the lambda's
  // frame, its steps charged, the lambda counted as run. Nothing, and the caller makes the call,
  // when its argument is not a unit where the forward reads its side or hex, or for the reasons
  // fieldRead gives.
  std::optional<ir::Value> lambdaForward(int32_t fn, const ir::Value& arg);
  // Pure function fn called as an instruction of a function's code calls it: through the memo
  // when it may be, its answer stored there with its reads when a log is open.
  ir::Value callAsCode(int32_t fn, std::span<const ir::Value> args);
  // Same, catching errors: returns nothing and sets `error`.
  std::optional<ir::Value> tryCallPure(int32_t fn, std::span<const ir::Value> args,
                                       std::string& error, Stop* failed = nullptr);
  // tryCallPure through the memo when fn may be answered from it (an action parameter's
  // candidates, asked when the options are listed and again when one is taken): the answer
  // stored with its reads, or taken while they are unchanged. A call that fails is made again
  // by tryCallPure, which says how it failed.
  std::optional<ir::Value> tryCallRemembered(int32_t fn, std::span<const ir::Value> args,
                                             std::string& error, Stop* failed = nullptr);

  bool inPure() const { return pureDepth_ > 0; }
  // The citations of the procedure, action or trigger the game is running (what an effect such
  // as `finish` is done under); none between calls.
  const std::vector<std::string>& runningCitations() const;
  MemoCache* memo() { return memo_; }
  void queueEvent(int32_t event, ir::ValueList args) {
    pending_.emplace_back(event, std::move(args));
  }
  // Records a trace event (when the game is traced); `citations` as the IR keeps them.
  void trace(const std::vector<std::string>& citations, TraceKind kind, std::string subject,
             std::string inputs, std::string output, uint8_t flags = 0);

  // Counts `n` steps of work done outside the instruction loop (a builtin going through a list, a
  // range being made) against the run's budget: a builtin's work cannot escape it.
  void charge(int64_t n) {
    budget_ -= n;
    if (budget_ < 0)
      throw RuntimeError(fmt::format(
          "the ruleset ran {} steps without reaching a decision; it is probably looping (in a "
          "builtin working through large lists)",
          stepBudget()));
  }

  // Reads a member of any value (units, sides, hexes, kinds, the game state).
  ir::Value member(const ir::Value& obj, int32_t nameId);

 private:
  Stop execute(Machine& m, bool pure, size_t stopDepth);
  void pushTriggers(Machine& m);
  // Throws the trace limit's error if this command wrote more trace than limits.h allows.
  void checkTraceLimit();
  ir::Value binary(ir::Op op, const ir::Value& a, const ir::Value& b);
  ir::Value index(const ir::Value& obj, std::span<const ir::Value> keys);
  void setMember(const ir::Value& obj, int32_t nameId, const ir::Value& v, bool add);
  // Renews the stamp of a field just changed (eval/state.h).
  void touchField(const ir::Value& obj, int32_t nameId);

  const ir::Program& program_;
  GameState& state_;
  Machine& machine_;
  Context ctx_;
  int pureDepth_ = 0;
  MemoCache* memo_ = nullptr;
  // A memoized call being made: its answer is stored when its frame returns, with the machine
  // running it (nested pure calls run on machines of their own) and the frame depth. Its arguments
  // are pendingArgs_[argsAt, argsAt + argCount): the entries are pushed in order, so each one's
  // arguments come after those of every entry below it, and a return truncates the pool to its
  // own (an entry dropped from the middle leaves its arguments to the next truncation).
  struct PendingMemo {
    const Machine* machine;
    size_t depth;
    int32_t fn;
    uint32_t argsAt, argCount;
    size_t log = MemoCache::kNoLog;  // the log of its reads, inside a logged computation
  };
  std::vector<PendingMemo> pendingMemo_;
  std::vector<ir::Value> pendingArgs_;
  // fn(args) made with its reads logged and stored in the memo with them (callRemembered's and
  // callRecorded's answer when the memo has none).
  ir::Value makeRemembered(int32_t fn, std::span<const ir::Value> args);
  // The machine a pure call at the current nesting depth runs on, emptied: one per depth, kept
  // by the memo (or here, without one) so that calls reuse their stacks.
  Machine& pureMachine();
  std::vector<std::unique_ptr<Machine>> scratch_;
  // Steps left, shared by nested pure calls (a lambda called by a builtin does not get a budget of
  // its own); taken from and given back to the command's budget when there is one, else renewed
  // at each run.
  StepBudget* shared_ = nullptr;
  StepBudget own_;
  StepBudget& command() { return shared_ ? *shared_ : own_; }
  // Without a command's budget: a new run (or a top-level pure call) has a whole budget.
  void renewOwnBudget() {
    if (shared_) return;
    own_.renew(stepBudget());
    budget_ = own_.left;
  }
  int64_t budget_ = 0;
  // Runs of execute() under way: the trace limit stops a run with an error, and a trace event
  // written outside one (the engine's record of an action) is counted but never stopped.
  int executing_ = 0;
  int64_t stepBudget() const { return stepBudgetFor(program_, memo_); }
  std::vector<std::pair<int32_t, ir::ValueList>> pending_;
  HexSet hexSet_;  // `h in list` for long lists of hexes (binary)
  friend class Context;
};

// Display a value as a person reads it (`3:1`, `U12`, `2725`, `woods`, `[1, 2]`).
std::string display(const ir::Program& p, const GameState& s, const ir::Value& v);

// Arithmetic helpers shared with builtins.
int64_t floorDiv(int64_t a, int64_t b);
int compareOdds(int64_t a1, int64_t b1, int64_t a2, int64_t b2);

}  // namespace polemos::eval
