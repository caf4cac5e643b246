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
      {"evaluator steps per command", kStepBudget, "a longer run is stopped as a loop"},
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
