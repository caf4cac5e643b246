// Hex labels as the checker and the engine need them: parse `2725` / `L9` into (column, row),
// format them back, test adjacency, name directions. A thin layer so that the checker does not
// depend on the full battlefield library's types.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace polemos::labels {

enum class Scheme { Numeric, Letters };

// (column, row) of a label, or nothing if it is not a label in that scheme.
std::optional<std::pair<int, int>> parse(const std::string& text, Scheme scheme);
std::string format(int col, int row, Scheme scheme);
// Adjacent under the maps' convention (docs/rulesets/standard.md, "Hex numbering").
bool adjacent(int c1, int r1, int c2, int r2);
// N, NE, SE, S, SW, NW -> 0..5
std::optional<int> parseDirection(const std::string& text);
const char* directionName(int d);

}  // namespace polemos::labels
