// The map's grid: bounds, printed labels in both schemes, dense indices and neighbour tables.
#include "hex/grid.h"

#include <fmt/format.h>

#include <algorithm>

namespace polemos::hex {
namespace {

// Floor division, so that conversions stay correct for columns left of zero (off-map hexes that
// messages and line traces may still mention).
int floorDiv(int a, int b) {
  int q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int decimalDigits(int v) {
  int n = 1;
  while (v >= 10) {
    v /= 10;
    ++n;
  }
  return n;
}

bool isDigit(char c) {
  return c >= '0' && c <= '9';
}
bool isLetter(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

// Letters beyond three (column 18278) and rows beyond six digits cannot name a real map's hex;
// the caps keep the arithmetic far from overflow.
constexpr size_t kMaxLetters = 3;
constexpr size_t kMaxRowDigits = 6;

[[noreturn]] void malformed(std::string_view text, LabelStyle style, int digits) {
  if (style == LabelStyle::Numeric) {
    throw HexError(
        fmt::format("malformed hex label '{}': expected {} digits, column then row (e.g. {})", text,
                    2 * digits, formatLabel(Offset{27, 25}, LabelStyle::Numeric, digits)));
  }
  throw HexError(fmt::format(
      "malformed hex label '{}': expected column letters then a row number (e.g. L9)", text));
}

}  // namespace

std::string columnLetters(int col) {
  std::string out;
  // Bijective base 26: there is no zero digit, so Z is followed by AA.
  while (col > 0) {
    int rem = (col - 1) % 26;
    out.insert(out.begin(), static_cast<char>('A' + rem));
    col = (col - 1) / 26;
  }
  return out;
}

std::string formatLabel(Offset o, LabelStyle style, int digits) {
  if (style == LabelStyle::Numeric) {
    int limit = 1;
    for (int i = 0; i < digits; ++i) limit *= 10;
    if (o.col >= 0 && o.col < limit && o.row >= 0 && o.row < limit) {
      return fmt::format("{:0{}}{:0{}}", o.col, digits, o.row, digits);
    }
  } else if (o.col >= 1 && o.row >= 0) {
    return fmt::format("{}{}", columnLetters(o.col), o.row);
  }
  return fmt::format("column {} row {}", o.col, o.row);
}

Offset parseLabel(std::string_view text, LabelStyle style, int digits) {
  if (style == LabelStyle::Numeric) {
    if (text.size() != static_cast<size_t>(2 * digits)) malformed(text, style, digits);
    for (char c : text) {
      if (!isDigit(c)) malformed(text, style, digits);
    }
    Offset o;
    for (int i = 0; i < digits; ++i) o.col = o.col * 10 + (text[static_cast<size_t>(i)] - '0');
    for (int i = digits; i < 2 * digits; ++i) {
      o.row = o.row * 10 + (text[static_cast<size_t>(i)] - '0');
    }
    return o;
  }
  size_t letters = 0;
  while (letters < text.size() && isLetter(text[letters])) ++letters;
  size_t rowDigits = text.size() - letters;
  if (letters == 0 || letters > kMaxLetters || rowDigits == 0 || rowDigits > kMaxRowDigits) {
    malformed(text, style, digits);
  }
  Offset o;
  for (size_t i = 0; i < letters; ++i) {
    char c = text[i];
    int v = (c >= 'a' ? c - 'a' : c - 'A') + 1;
    o.col = o.col * 26 + v;
  }
  for (size_t i = letters; i < text.size(); ++i) {
    if (!isDigit(text[i])) malformed(text, style, digits);
    o.row = o.row * 10 + (text[i] - '0');
  }
  return o;
}

Grid::Grid(const GridSpec& spec) : spec_(spec) {
  if (spec.columns < 1 || spec.rows < 1 || spec.columns > kMaxGridSide ||
      spec.rows > kMaxGridSide) {
    throw HexError(fmt::format("a map must have 1 to {} columns and rows, not {} x {}",
                               kMaxGridSide, spec.columns, spec.rows));
  }
  if (spec.firstRow < 0 || spec.firstColumn < (spec.labels == LabelStyle::Letters ? 1 : 0)) {
    throw HexError(fmt::format("a map numbered {} cannot start at column {} row {}",
                               spec.labels == LabelStyle::Letters ? "with column letters" : "xxyy",
                               spec.firstColumn, spec.firstRow));
  }
  int lastCol = spec.firstColumn + spec.columns - 1;
  int lastRow = spec.firstRow + spec.rows - 1;
  digits_ = std::max({2, decimalDigits(lastCol), decimalDigits(lastRow)});

  hexes_.reserve(static_cast<size_t>(spec.columns) * static_cast<size_t>(spec.rows));
  for (int c = 0; c < spec.columns; ++c) {
    for (int r = 0; r < spec.rows; ++r) {
      hexes_.push_back(toHex(Offset{spec.firstColumn + c, spec.firstRow + r}));
    }
  }
  neighbours_.resize(hexes_.size());
  for (size_t i = 0; i < hexes_.size(); ++i) {
    for (Direction d : kAllDirections) {
      neighbours_[i][static_cast<size_t>(d)] = indexOf(neighbour(hexes_[i], d));
    }
  }
}

Hex Grid::toHex(Offset o) const {
  int adjust = spec_.shift == ColumnShift::EvenDown ? 1 : 0;
  return Hex{o.col, o.row - floorDiv(o.col + adjust, 2)};
}

Offset Grid::toOffset(Hex h) const {
  int adjust = spec_.shift == ColumnShift::EvenDown ? 1 : 0;
  return Offset{h.q, h.r + floorDiv(h.q + adjust, 2)};
}

bool Grid::contains(Hex h) const {
  return indexOf(h) != kNoIndex;
}

int32_t Grid::indexOf(Hex h) const {
  Offset o = toOffset(h);
  int c = o.col - spec_.firstColumn;
  int r = o.row - spec_.firstRow;
  if (c < 0 || c >= spec_.columns || r < 0 || r >= spec_.rows) return kNoIndex;
  return c * spec_.rows + r;
}

int32_t Grid::requireIndex(Hex h) const {
  int32_t i = indexOf(h);
  if (i == kNoIndex) {
    throw HexError(fmt::format("hex {} is off the map ({})", label(h), boundsText()));
  }
  return i;
}

std::vector<Hex> Grid::neighbours(Hex h) const {
  std::vector<Hex> out;
  for (Direction d : kAllDirections) {
    Hex n = neighbour(h, d);
    if (contains(n)) out.push_back(n);
  }
  return out;
}

Direction Grid::requireDirection(Hex a, Hex b) const {
  auto d = directionBetween(a, b);
  if (!d) throw HexError(fmt::format("hexes {} and {} are not adjacent", label(a), label(b)));
  return *d;
}

Hexside Grid::requireHexside(Hex a, Hex b) const {
  return Hexside::of(a, requireDirection(a, b));
}

std::string Grid::label(Hex h) const {
  return formatLabel(toOffset(h), spec_.labels, digits_);
}

Offset Grid::parseOffset(std::string_view text) const {
  return parseLabel(text, spec_.labels, digits_);
}

Hex Grid::parse(std::string_view text) const {
  Hex h = toHex(parseOffset(text));
  require(h);
  return h;
}

std::string Grid::boundsText() const {
  int lastCol = spec_.firstColumn + spec_.columns - 1;
  int lastRow = spec_.firstRow + spec_.rows - 1;
  if (spec_.labels == LabelStyle::Letters) {
    return fmt::format("columns {}-{}, rows {}-{}", columnLetters(spec_.firstColumn),
                       columnLetters(lastCol), spec_.firstRow, lastRow);
  }
  return fmt::format("columns {}-{}, rows {}-{}", spec_.firstColumn, lastCol, spec_.firstRow,
                     lastRow);
}

}  // namespace polemos::hex
