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
// Instructions in one run of the evaluator (one command): most turns run well under a million, but
// a warfare events phase (four quarter turns of every unit's moves, searched step by step) with
// many detachments on the map has been measured past 50 million; past this the ruleset is taken
// to be looping. The fuzz build (POLEMOS_FUZZ=ON) sets a tenth of it, so that a looping input is
// a quick error there rather than a timeout.
#ifdef POLEMOS_STEP_BUDGET
inline constexpr int64_t kStepBudget = POLEMOS_STEP_BUDGET;
#else
inline constexpr int64_t kStepBudget = 200'000'000;
#endif
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
