// Rule citations: a rule number as the rule books write it (`§7.43`, `§4.A`, `§6.1.1.m30`), read
// from text, ordered as a rule book orders its rules, and written back. A citation may name the
// document it cites (`§chalons:6.1`: rule 6.1 of scenario Chalons's exclusive rules, not of the
// ruleset's rule book); without one it cites the ruleset's own rules. It is the one owner of
// what a rule number is; it knows nothing of where a citation is written or what it covers (the
// citation index, the coverage table and the trace are built on it).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace polemos::cite {

class Citation {
 public:
  // A rule number as written: "§7.43", "7.43", "§7.43." or "7.43," in a sentence (punctuation
  // after the number is not part of it). A number is digits and dots, perhaps followed by letters
  // and digits (4.A, 6.1.1.m30), perhaps after a document and a colon (chalons:6.1; the document
  // is a lower-case name). Nothing if the text is not one.
  static std::optional<Citation> parse(std::string_view written);
  // Every citation in a space-separated list (as the IR keeps them); words that are not rule
  // numbers are skipped.
  static std::vector<Citation> parseList(std::string_view spaced);

  // The rule as written without the sign: "7.43", "chalons:6.1". It identifies the rule (the
  // citation index, saves and the trace's data use it).
  const std::string& number() const { return number_; }
  std::string text() const { return "§" + number_; }  // "§7.43", "§chalons:6.1"
  std::string document() const;                       // "" (the ruleset's rules) or "chalons"
  std::string section() const;                        // the number in its document: "6.1"

  friend bool operator==(const Citation&, const Citation&) = default;
  // Rule-book order: 7.41 before 7.5 before 7.52 before 7.6; 9 before 10; numbered parts before
  // lettered ones (4.0 before 4.A); the ruleset's rules before another document's, documents by
  // name.
  friend bool operator<(const Citation& a, const Citation& b) {
    return before(a.number_, b.number_);
  }

  static bool before(std::string_view a, std::string_view b);

 private:
  explicit Citation(std::string number) : number_(std::move(number)) {}
  std::string number_;
};

// "§7.41 §7.42" (empty for none).
std::string formatList(const std::vector<Citation>& cs);
// "7.41 7.42": the numbers alone, space-separated (as saves and JSON lines write them).
std::string numberList(const std::vector<Citation>& cs);

}  // namespace polemos::cite
