// The same situation under other rules: a game's situation (engine/situation) set up again under
// each target (another ruleset, or a house-rule file over the game's own rules), and the same
// question (the odds of an action) asked of every one.
//
// A target plays the game's scenario if it can (Chalons under Four Battles keeps Chalons's unit
// types, sides and special rules), else its rules alone; either way the situation is laid out on
// a sandbox map of the same shape. What a target lacks is never dropped in silence: a unit type it
// lacks is re-created as one of its types of the same class with the unit's values (listed), a
// field or a hexside feature it lacks is left out (listed), and a side, terrain, unit type or
// phase it lacks stops that target's comparison (said). Each step is listed in the REPL's own
// notation (`place roman legion 2725 as l1`), so a user can make it by hand. It never changes the
// game it is given, and it prints nothing: the REPL renders the result.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "analysis/odds.h"
#include "engine/save.h"
#include "engine/session.h"

namespace polemos::analysis {

struct CompareRequest {
  std::vector<std::string> targets;   // ruleset names, or house-rule files
  std::vector<std::string> question;  // an action and its arguments, as typed
  OddsRequest odds;
  std::string level;                           // the level of a target ruleset (empty: its first)
  std::map<std::string, std::string> mapping;  // a unit type or terrain by another name
};

struct CompareColumn {
  std::string name;
  std::map<std::string, long double> p;  // result -> probability
  std::string problem;                   // why it could not be compared
  std::string dropped;                   // fields it has no place for
  std::string droppedSides;              // hexside features it does not have
  std::vector<std::string> substituted;  // "hun_cav → inf": unit types re-created as another
  std::vector<std::string> beforeRoll;   // what its rules worked out before the dice
};

struct CompareResult {
  std::string error;                   // the situation cannot be compared at all
  std::vector<std::string> mapped;     // "unit type X → Y", "terrain X → Y" (from the mapping)
  std::vector<CompareColumn> columns;  // this game first, then each target
};

// `origin` says how `game` was made (its ruleset, scenario and house files, its configuration).
CompareResult compareOdds(const engine::Session& game, const engine::GameOrigin& origin,
                          const CompareRequest& request);

}  // namespace polemos::analysis
