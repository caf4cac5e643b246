// A situation captured from a game, in names rather than indices, so that another ruleset (or the
// same one under house rules) can be set up the same way: the map's shape, terrain and elevation,
// hexside features, the units on the map with their fields, the side fields and the phase reached.
//
// Values are kept as the trace shows them ("6", "true", "3:1", "roman", "2725") and read back in
// the other ruleset's own types (engine/reading). What a field holds by default is said, so that a
// reader can leave the other ruleset's own defaults in place. This module only captures: mapping
// the situation onto another ruleset is analysis/compare's, and changing a game is engine/setup's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/session.h"

namespace polemos::engine {

struct Situation {
  // The map: its size, its first column and row, and the label of its first hex.
  int32_t columns = 0, rows = 0, firstColumn = 1, firstRow = 1;
  std::string firstHex;
  std::vector<std::string> sides;
  std::string openTerrain;  // the terrain of a new sandbox of this ruleset
  struct Terrain {
    std::string hex, kind;
  };
  std::vector<Terrain> terrain;  // every hex not of the open terrain
  struct Elevation {
    std::string hex;
    int32_t level = 0;
  };
  std::vector<Elevation> elevations;  // every hex not at elevation 0
  struct Hexside {
    std::string a, b, kind;
  };
  std::vector<Hexside> hexsides;
  struct Field {
    std::string name, value;
    bool typeDefault = false;  // the value the unit's type gives it
  };
  struct Unit {
    std::string id, side, type, cls, hex;
    int32_t facing = -1;
    std::vector<Field> fields;  // every field that can be set, in the class's order
  };
  std::vector<Unit> units;  // those on the map
  struct SideField {
    std::string side, name, value;
  };
  std::vector<SideField> sideFields;  // those not at their declared constant default
  // The phase window the game stands at, and whose; empty at any other stop.
  std::string phase, phaseSide;
};

// Nothing, with `why`, when the game has no map or its map is larger than a sandbox can be.
std::optional<Situation> captureSituation(const Session& s, std::string& why);

}  // namespace polemos::engine
