// A game state of two sides on a map of 8 x 6 hexes and nothing else, for unit tests of what
// indexes the map's hexes (the memo's dense tables).
#pragma once

#include <memory>

#include "eval/state.h"
#include "hex/grid.h"

namespace polemos::test_helpers {

inline eval::GameState smallMap() {
  eval::GameState st;
  st.sides.resize(2);
  hex::GridSpec spec;
  spec.columns = 8;
  spec.rows = 6;
  st.map.grid = std::make_shared<hex::Grid>(spec);
  st.map.col0 = 1;
  st.map.col1 = 8;
  st.map.row0 = 1;
  st.map.row1 = 6;
  return st;
}

}  // namespace polemos::test_helpers
