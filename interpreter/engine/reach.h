// Where a unit can move, and why it cannot move somewhere: the movement hooks of the ruleset
// (`move_cost`, `movement_allowance`, `stops_movement`, `may_not_leave`: docs/language.md 11) asked
// through the language's own `reachable`, `path_cost` and `path_cost_from` builtins, so that the
// answer is exactly what a move would be held to. It changes nothing in the game and writes no
// trace; it does not print.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/session.h"

namespace polemos::engine {

struct ReachHex {
  int32_t hex = -1;
  int64_t cost = 0;  // the cheapest legal cost of moving there now
};

struct Reach {
  std::optional<int64_t> allowance;  // the budget of a move (`movement_allowance`, else `ma`)
  std::vector<ReachHex> hexes;       // by hex index
  std::string error;                 // the rules could not answer (no such unit, an error)
};

// The hexes unit `unit` can move to now, each with its cheapest cost.
Reach reach(const Session& s, int32_t unit);

// Why `unit` cannot move to hex `to`, in numbers, or "" if it can: the cheapest way's cost
// against the allowance ("the cheapest way to 2621 costs 6 against an allowance of 4"), or, when
// no way leads there at any cost, the step that is prohibited next to it ("entering 2621 from
// 2622 is prohibited: woods, hexside river") or that every way is blocked on the way. Nothing for
// a unit whose allowance is spent (the refusal says why: it has moved).
std::string whyUnreachable(const Session& s, int32_t unit, int32_t to);

}  // namespace polemos::engine
