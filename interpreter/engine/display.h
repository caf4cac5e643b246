// What a player sees of the pieces and the standing, as the ruleset declares it.
//
// A field of a unit class, of the side state or of the game state may be declared a counter value
// (`strength: int counter "str"`: always shown, as printed on the counter or on the status line)
// or a marker (`state disrupted: bool = false marker`: shown while it is set, i.e. differs from
// its default). Everything else is
// bookkeeping, shown only on request. This module reads those fields (derived ones computed,
// writing no trace) and says them as a player reads them; it does not print, and it changes
// nothing in the game.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/session.h"
#include "ir/program.h"

namespace polemos::engine {

struct ShownField {
  std::string name;   // the field's name
  std::string label;  // as declared (`counter "str"`), else the name
  ir::Display role = ir::Display::Hidden;
  bool isState = false;
  bool derived = false;
  std::string value;  // as a player reads it (`3:1`, `r1`, `0102`), or "error: ..." for a derived
                      // value the rules could not compute
  bool set = false;   // a marker is shown: a stored field other than its default; a field
                      // without a default, or a derived one, true, non-zero, not none, not empty
};

// Every field of a unit, of a side's state, of the game state, in declaration order.
std::vector<ShownField> unitFields(Session& s, int32_t unit);
std::vector<ShownField> sideFields(Session& s, int32_t side);
std::vector<ShownField> gameFields(Session& s);

// The counter values as `str 5, ma 4`; the markers that are set as `disrupted, fatigue 2` (a
// boolean marker by its label alone, another with its value). Empty when there are none.
std::string countersText(const std::vector<ShownField>& fields);
std::string markersText(const std::vector<ShownField>& fields);

// A unit's facing as a player reads it: N, NE, SE, S, SW, NW ("" when it has none).
std::string facingText(int32_t facing);

// Whether a value counts as set for a marker.
bool isSet(const ir::Value& v);

}  // namespace polemos::engine
