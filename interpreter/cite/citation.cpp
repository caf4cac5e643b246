#include "cite/citation.h"

#include <cctype>

namespace polemos::cite {

namespace {
bool alnum(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0;
}
}  // namespace

std::optional<Citation> Citation::parse(std::string_view written) {
  std::string_view s = written;
  constexpr std::string_view kSign = "§";
  if (s.substr(0, kSign.size()) == kSign) s.remove_prefix(kSign.size());
  while (!s.empty() && !alnum(s.back())) s.remove_suffix(1);
  std::string_view number = s;
  if (size_t colon = s.find(':'); colon != std::string_view::npos) {
    std::string_view doc = s.substr(0, colon);
    if (doc.empty() || !std::islower(static_cast<unsigned char>(doc.front()))) return std::nullopt;
    for (char c : doc)
      if (!(std::islower(static_cast<unsigned char>(c)) ||
            std::isdigit(static_cast<unsigned char>(c)) || c == '_'))
        return std::nullopt;
    number = s.substr(colon + 1);
  }
  if (number.empty() || !std::isdigit(static_cast<unsigned char>(number.front())))
    return std::nullopt;
  for (char c : number)
    if (!alnum(c) && c != '.') return std::nullopt;
  return Citation(std::string(s));
}

std::string Citation::document() const {
  size_t colon = number_.find(':');
  return colon == std::string::npos ? "" : number_.substr(0, colon);
}

std::string Citation::section() const {
  size_t colon = number_.find(':');
  return colon == std::string::npos ? number_ : number_.substr(colon + 1);
}

std::vector<Citation> Citation::parseList(std::string_view spaced) {
  std::vector<Citation> out;
  size_t i = 0;
  while (i < spaced.size()) {
    size_t j = spaced.find(' ', i);
    if (j == std::string_view::npos) j = spaced.size();
    if (auto c = parse(spaced.substr(i, j - i))) out.push_back(*c);
    i = j + 1;
  }
  return out;
}

bool Citation::before(std::string_view a, std::string_view b) {
  // The document first: none (the ruleset's own rules) before any, then by name.
  size_t ca = a.find(':'), cb = b.find(':');
  std::string_view da = ca == std::string_view::npos ? "" : a.substr(0, ca);
  std::string_view db = cb == std::string_view::npos ? "" : b.substr(0, cb);
  if (da != db) return da < db;
  if (ca != std::string_view::npos) a.remove_prefix(ca + 1);
  if (cb != std::string_view::npos) b.remove_prefix(cb + 1);
  size_t i = 0, j = 0;
  bool section = true;
  while (i < a.size() && j < b.size()) {
    size_t ei = a.find('.', i), ej = b.find('.', j);
    if (ei == std::string_view::npos) ei = a.size();
    if (ej == std::string_view::npos) ej = b.size();
    std::string_view pa = a.substr(i, ei - i), pb = b.substr(j, ej - j);
    bool na = !pa.empty() && pa.find_first_not_of("0123456789") == std::string_view::npos;
    bool nb = !pb.empty() && pb.find_first_not_of("0123456789") == std::string_view::npos;
    // The first part is a section number: 9 comes before 10. After it, parts are decimals
    // (7.41 before 7.5).
    if (section && na && nb && pa.size() != pb.size()) return pa.size() < pb.size();
    section = false;
    if (na != nb) return na;  // numbered parts before lettered ones
    if (pa != pb) return pa < pb;
    i = ei + 1;
    j = ej + 1;
  }
  return a.size() - std::min(a.size(), i) < b.size() - std::min(b.size(), j);
}

std::string formatList(const std::vector<Citation>& cs) {
  std::string s;
  for (const auto& c : cs) s += (s.empty() ? "" : " ") + c.text();
  return s;
}

std::string numberList(const std::vector<Citation>& cs) {
  std::string s;
  for (const auto& c : cs) s += (s.empty() ? "" : " ") + c.number();
  return s;
}

}  // namespace polemos::cite
