#include "engine/hex_adapter.h"

#include <fmt/format.h>

#include <cctype>

namespace polemos::labels {

std::optional<std::pair<int, int>> parse(const std::string& text, Scheme scheme) {
  if (text.empty() || text.size() > 8) return std::nullopt;
  if (scheme == Scheme::Numeric) {
    // xxyy: the last two digits are the row, the rest the column.
    if (text.size() < 3) return std::nullopt;
    for (char c : text)
      if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    int col = std::stoi(text.substr(0, text.size() - 2));
    int row = std::stoi(text.substr(text.size() - 2));
    return std::make_pair(col, row);
  }
  size_t i = 0;
  int col = 0;
  while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]))) {
    col = col * 26 + (std::toupper(static_cast<unsigned char>(text[i])) - 'A' + 1);
    ++i;
  }
  if (i == 0 || i > 2 || i == text.size()) return std::nullopt;
  for (size_t k = i; k < text.size(); ++k)
    if (!std::isdigit(static_cast<unsigned char>(text[k]))) return std::nullopt;
  return std::make_pair(col, std::stoi(text.substr(i)));
}

std::string format(int col, int row, Scheme scheme) {
  if (scheme == Scheme::Numeric) return fmt::format("{:02d}{:02d}", col, row);
  std::string letters;
  int c = col;
  while (c > 0) {
    letters.insert(letters.begin(), static_cast<char>('A' + (c - 1) % 26));
    c = (c - 1) / 26;
  }
  return fmt::format("{}{}", letters, row);
}

bool adjacent(int c1, int r1, int c2, int r2) {
  if (c1 == c2) return r1 - r2 == 1 || r2 - r1 == 1;
  if (c1 - c2 != 1 && c2 - c1 != 1) return false;
  // An odd column touches rows r and r+1 of its neighbour columns; an even one rows r-1 and r.
  if (c1 % 2 != 0) return r2 == r1 || r2 == r1 + 1;
  return r2 == r1 - 1 || r2 == r1;
}

std::optional<int> parseDirection(const std::string& text) {
  static const char* kNames[] = {"N", "NE", "SE", "S", "SW", "NW"};
  std::string up;
  for (char c : text) up += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (int d = 0; d < 6; ++d)
    if (up == kNames[d]) return d;
  return std::nullopt;
}

const char* directionName(int d) {
  static const char* kNames[] = {"N", "NE", "SE", "S", "SW", "NW"};
  return d >= 0 && d < 6 ? kNames[d] : "?";
}

}  // namespace polemos::labels
