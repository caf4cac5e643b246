// The map's grid: which hexes exist, how they are numbered, and a dense index for each of them.
//
// A Grid is a rectangle of columns of flat-topped hexes, numbered in one of the two printed
// schemes: `xxyy` (Ancient Battles and Four Battles maps: `2725` is column 27, row 25) or a column
// letter and a row number (Deluxe maps: `L9`, with A = column 1, then Z, AA, AB ...). Every hex on
// the grid has a dense index 0..size()-1 in column-major order (the order of the printed numbers),
// which the rest of the module uses for arrays. The grid holds no terrain (see map.h) and knows no
// rules.
//
// Off-map hexes and malformed labels are reported with HexError and a message naming the hex and
// the map's bounds, e.g. "hex 5630 is off the map (columns 1-55, rows 0-27)".
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hex/coord.h"

namespace polemos::hex {

// The printed numbering of a map.
enum class LabelStyle : uint8_t {
  Numeric,  // column digits then row digits, each zero-padded to the same width: 2725, 0304
  Letters,  // column letters (A = 1, Z = 26, AA = 27) then the row number: L9, AB12
};

// Which columns sit half a hex lower. The two board-game families both shift odd columns down: an
// odd column's neighbours in the next and previous columns are rows r and r+1, an even column's
// are rows r-1 and r.
enum class ColumnShift : uint8_t { OddDown, EvenDown };

// A printed position: column and row numbers as on the map.
struct Offset {
  int col = 0;
  int row = 0;
  friend bool operator==(const Offset&, const Offset&) = default;
  friend auto operator<=>(const Offset&, const Offset&) = default;
};

struct GridSpec {
  int firstColumn = 1;
  int columns = 0;
  int firstRow = 1;
  int rows = 0;
  LabelStyle labels = LabelStyle::Numeric;
  ColumnShift shift = ColumnShift::OddDown;
};

// The largest grid accepted, in columns and rows. It bounds memory (a facing-aware path search
// keeps twelve states per hex) and keeps every count in 32 bits; real maps are far smaller (60 x
// 40).
inline constexpr int kMaxGridSide = 1000;

// Marks "no hex" in neighbour tables.
inline constexpr int32_t kNoIndex = -1;

class Grid {
 public:
  // Throws HexError if the spec is empty, too large, or cannot be labelled in its style (negative
  // numbers, or a column below 1 with letter labels).
  explicit Grid(const GridSpec& spec);

  const GridSpec& spec() const { return spec_; }
  int size() const { return static_cast<int>(hexes_.size()); }

  // Conversions between printed positions and axial hexes. They work for any position, on the map
  // or not.
  Hex toHex(Offset o) const;
  Offset toOffset(Hex h) const;

  bool contains(Hex h) const;
  // The dense index of an on-map hex, or kNoIndex if it is off the map.
  int32_t indexOf(Hex h) const;
  // The dense index of an on-map hex; throws HexError naming the hex and the map's bounds.
  int32_t requireIndex(Hex h) const;
  // Throws the same HexError as requireIndex if h is off the map.
  void require(Hex h) const { (void)requireIndex(h); }
  Hex hexAt(int32_t index) const { return hexes_[static_cast<size_t>(index)]; }
  // All hexes in index order (column by column, north to south).
  std::span<const Hex> hexes() const { return hexes_; }

  // The on-map neighbour index of `index` across each direction, kNoIndex where it is off the map.
  const std::array<int32_t, kDirectionCount>& neighbourIndices(int32_t index) const {
    return neighbours_[static_cast<size_t>(index)];
  }
  // The on-map neighbours of h, in direction order N, NE, SE, S, SW, NW.
  std::vector<Hex> neighbours(Hex h) const;
  // The direction from a to an adjacent b; throws HexError if they are not adjacent.
  Direction requireDirection(Hex a, Hex b) const;
  // The hexside between two adjacent hexes; throws HexError if they are not adjacent.
  Hexside requireHexside(Hex a, Hex b) const;

  // Labels in the grid's style. label() works for off-map hexes too (for messages); positions
  // that cannot be written in the style fall back to "column C row R".
  std::string label(Hex h) const;
  // Parses a label in the grid's style; throws HexError if it is malformed or off the map.
  Hex parse(std::string_view text) const;
  // Parses a label without the bounds check; throws HexError only if it is malformed.
  Offset parseOffset(std::string_view text) const;

  // "columns 1-55, rows 0-27", used in messages.
  std::string boundsText() const;

 private:
  GridSpec spec_;
  int digits_ = 2;  // zero-padded width of each half of a numeric label
  std::vector<Hex> hexes_;
  std::vector<std::array<int32_t, kDirectionCount>> neighbours_;
};

// Label helpers usable without a grid. `digits` is the width of each half of a numeric label.
std::string formatLabel(Offset o, LabelStyle style, int digits = 2);
// Throws HexError for a malformed label, with a message quoting it and showing the expected form.
Offset parseLabel(std::string_view text, LabelStyle style, int digits = 2);
// Column letters for a column number >= 1: 1 -> "A", 26 -> "Z", 27 -> "AA".
std::string columnLetters(int col);

}  // namespace polemos::hex
