// Every limit the interpreter puts on a ruleset, a game or an input, named once with its reason.
// Each is enforced where its concern lives (the parser, the checker, the evaluator, the REPL) by
// reading it from here, and each has a test at its edge. It knows nothing of what uses it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace polemos::limits {

// A source file's size: a ruleset is tens of KiB; this keeps a wrong file (a binary, a log) from
// being read whole.
inline constexpr size_t kMaxSourceBytes = 16u << 20;
// A list made by joining lists (`l + l`), and a string made by joining strings: rulesets hold
// lists of units and hexes (a few thousand) and short texts; a list or string doubled in a loop
// stops here with an error instead of filling memory.
inline constexpr size_t kMaxListItems = 1'000'000;
inline constexpr size_t kMaxStringBytes = 1u << 20;
// A saved game's file: a whole Chalons game saves in well under a MiB; this keeps a wrong file
// (/dev/zero, a log) from being read whole.
inline constexpr size_t kMaxSaveBytes = 64u << 20;
// Brackets and blocks nested in a source file: rulesets nest a dozen deep; the parser's own stack
// would be at risk some thousands deep.
inline constexpr int kMaxNesting = 200;
// Levels of one expression's tree: the passes over expressions recurse, and a flat chain
// (`1+1+...+1`, `f(1)(1)...(1)`) nests one level per link although no bracket shows it; real
// expressions are a dozen deep.
inline constexpr int kMaxExprDepth = 1000;
// Steps of the evaluator in one command (every run and pure call made for it, the listing of the
// options included): an instruction is a step, and work done inside builtins is charged in steps
// too (kStepsPerItem). The standard, four-battles and deluxe rules take under 10 million steps
// per command; past the budget the ruleset is taken to be looping, and stopped: a runaway loop
// at the default budget stops in well under a second. A ruleset whose commands need more (the
// warfare events phase searches every detachment's moves step by step, measured at 143 million
// steps) says so with the constant `step_budget`, between kMinStepBudget and kMaxStepBudget.
// The fuzz build (POLEMOS_FUZZ=ON) sets a tenth of the default and of the largest, so that a
// looping input is a quick error there rather than a timeout.
#ifdef POLEMOS_STEP_BUDGET
inline constexpr int64_t kStepBudget = POLEMOS_STEP_BUDGET;
#else
inline constexpr int64_t kStepBudget = 100'000'000;
#endif
inline constexpr int64_t kMinStepBudget = 1'000'000;
inline constexpr int64_t kMaxStepBudget = 2'000'000'000;
// The budget a ruleset's `step_budget` gives at most in this build: twenty times the default
// (kMaxStepBudget; a tenth of it in the fuzz build).
inline constexpr int64_t kMaxRunStepBudget = 20 * kStepBudget;
// Steps charged for work inside builtins, so that it stops within the time a bare loop does (an
// instruction of a bare loop takes about 6 ns here): a step for each item of a list a builtin is
// given or makes (going through one is cheaper than an instruction); five for each number of a
// range made (a million-number range takes some 30 ns a number, most of it new memory); six for
// each comparison of a sort or of `distinct` (values compared by content).
inline constexpr int64_t kStepsPerItem = 1;
inline constexpr int64_t kStepsPerRangeNumber = 5;
inline constexpr int64_t kStepsPerComparison = 6;
// Bytes of a string a builtin makes per step charged (`str` of a long list writes some 7 MB: a
// byte costs about 2.5 ns).
inline constexpr int64_t kStringBytesPerStep = 2;
// Steps charged for each stop a command passes through (a roll made, a pause gone past): the
// engine's work between two runs of the rules is some 250 ns, about fifty instructions.
inline constexpr int64_t kStepsPerStop = 50;
// Trace events one command may write, and their text: a warfare events phase writes under 10,000
// events; a flood of `note` in a loop stops here with an error instead of filling memory.
inline constexpr int64_t kMaxTraceEventsPerCommand = 100'000;
inline constexpr int64_t kMaxTraceBytesPerCommand = 32 << 20;
// Trace events a game keeps: the oldest are let go past it, so that a long game's memory and its
// save stay bounded (a whole Chalons game writes about 12,000; a save of this many is some
// 20 MiB, well within kMaxSaveBytes). Twice the events of one command, so that a command's own
// events are all kept (the REPL shows them from where the command began).
inline constexpr size_t kMaxTraceEvents = 200'000;
// Calls in progress at once: rulesets recurse rarely and shallowly; this stops runaway recursion
// long before the C++ stack or memory is at risk.
inline constexpr size_t kMaxCallDepth = 2000;
// Pure calls in progress at once (functions, quantities, lambdas): the memo of pure calls nests
// with them, and no rule needs more.
inline constexpr int kMaxPureDepth = 200;
// Dice in one roll (`roll 20d6`): no rule book rolls more; the exact odds enumerate every face.
inline constexpr int kMaxDicePerRoll = 20;
// Numbers in one range (`for i in a..b`): a game never counts further.
inline constexpr int64_t kMaxRange = 1'000'000;
// The highest column or row number of a map (a scenario's or a sandbox's; numbers start at 0 or
// more): real maps are 60 x 40 or less; this bounds memory (a facing-aware path search keeps
// twelve states per hex).
inline constexpr int kMaxMapSide = 200;
// Moves `auto` makes in one command when told to play to the end: a game that never ends stops.
inline constexpr int64_t kMaxAutoMoves = 1'000'000;
// Units in a saved game: a real battle has a few hundred; a larger number is a corrupt save.
inline constexpr size_t kMaxSavedUnits = 100'000;

struct Limit {
  const char* name;
  int64_t value;
  const char* what;
};
// The table above, for the documentation and its test.
const std::vector<Limit>& all();

}  // namespace polemos::limits
