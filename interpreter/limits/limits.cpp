#include "limits/limits.h"

namespace polemos::limits {

const std::vector<Limit>& all() {
  static const std::vector<Limit> kAll = {
      {"source file size (bytes)", static_cast<int64_t>(kMaxSourceBytes),
       "a file larger is refused unread"},
      {"nesting in a source file", kMaxNesting, "brackets and blocks deeper are refused"},
      {"levels of one expression's tree", kMaxExprDepth, "a deeper expression is refused"},
      {"items in a list joined with +", static_cast<int64_t>(kMaxListItems),
       "a longer list is stopped with an error"},
      {"bytes in a string joined with +", static_cast<int64_t>(kMaxStringBytes),
       "a longer string is stopped with an error"},
      {"saved game file size (bytes)", static_cast<int64_t>(kMaxSaveBytes),
       "a file larger is refused after reading that much"},
      {"evaluator steps per command", kStepBudget,
       "a longer command is stopped as a loop (a ruleset's `step_budget` may set its own)"},
      {"largest step budget a ruleset may set", kMaxStepBudget,
       "a larger `step_budget` is refused by the checker"},
      {"steps charged per list item a builtin is given or makes", kStepsPerItem,
       "builtins' work counts against the step budget"},
      {"steps charged per number of a range made", kStepsPerRangeNumber,
       "ranges count against the step budget"},
      {"steps charged per comparison of a sort", kStepsPerComparison,
       "sorting counts against the step budget"},
      {"bytes of a string a builtin makes per step charged", kStringBytesPerStep,
       "making strings counts against the step budget"},
      {"steps charged per stop passed within a command", kStepsPerStop,
       "rolls and pauses count against the step budget"},
      {"trace events per command", kMaxTraceEventsPerCommand, "more are stopped as a loop"},
      {"trace text per command (bytes)", kMaxTraceBytesPerCommand, "more is stopped as a loop"},
      {"trace events a game keeps", static_cast<int64_t>(kMaxTraceEvents),
       "older events are let go"},
      {"call depth", static_cast<int64_t>(kMaxCallDepth), "deeper recursion is stopped"},
      {"pure call depth", kMaxPureDepth, "deeper nesting of pure calls is stopped"},
      {"dice per roll", kMaxDicePerRoll, "more dice in one roll are refused"},
      {"numbers in a range", kMaxRange, "a longer range is refused"},
      {"highest map column or row number", kMaxMapSide, "a larger map or sandbox is refused"},
      {"moves of one `auto`", kMaxAutoMoves, "`auto` stops there"},
      {"units in a saved game", static_cast<int64_t>(kMaxSavedUnits),
       "a save with more is refused as corrupt"},
  };
  return kAll;
}

}  // namespace polemos::limits
