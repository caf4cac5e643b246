#include "ir/hooks.h"

namespace polemos::ir {

const std::vector<HookSig>& hooks() {
  using K = TypeKind;
  static const std::vector<HookSig> kHooks = {
      {"move_cost",
       {{K::Unit, K::Hex, K::Hex}, {K::Unit, K::Hex, K::Hex, K::Int}},
       K::Int,
       true,
       "cost to enter `to` from `from` (none: prohibited); the four-parameter form sees the "
       "mover's facing"},
      {"stops_movement", {{K::Unit, K::Hex}}, K::Bool, false, "entering the hex ends the move"},
      {"may_not_leave",
       {{K::Unit, K::Hex}},
       K::Bool,
       false,
       "the unit may not leave its start hex"},
      {"movement_allowance",
       {{K::Unit}},
       K::Int,
       false,
       "the movement budget (default: the unit's `ma`)"},
      {"los_blocks",
       {{K::Hex}, {K::Hex, K::Hex, K::Hex}},
       K::Bool,
       false,
       "the hex blocks line of sight; the three-parameter form sees the firer and the target"},
      {"los_blocks_side", {{K::Hex, K::Hex}}, K::Bool, false, "the hexside blocks line of sight"},
      {"exerts_zoc", {{K::Unit}}, K::Bool, false, "the unit projects a zone of control"},
      {"zoc_front_only",
       {{K::Unit}},
       K::Bool,
       false,
       "the zone of control covers the front hexes only"},
      {"zoc_into",
       {{K::Unit, K::Hex, K::Hex}},
       K::Bool,
       false,
       "the zone of control crosses from -> to"},
      {"facing_sectors", {{}}, K::Int, false, "3 or 4 sectors around a unit"},
      {"rotation_cost",
       {{K::Unit, K::Hex, K::Int, K::Int}},
       K::Int,
       true,
       "prices a change of facing in a hex (declared: movement searches hex and facing)"},
      {"move_directions",
       {{K::Unit, K::Int}},
       K::List,
       false,
       "with facing: the only directions (0-5) a step is priced in; the rest are refused"},
      {"turns_to_move", {{K::Unit}}, K::Bool, false, "a move turns the unit to face its direction"},
  };
  return kHooks;
}

const HookSig* findHook(std::string_view name) {
  for (const auto& h : hooks())
    if (name == h.name) return &h;
  return nullptr;
}

}  // namespace polemos::ir
