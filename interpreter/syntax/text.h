// Text helpers of the front end that do not need ANTLR: UTF-8 validation, decoding of integer,
// odds and dice literals, and string unescaping. The parser wrapper and the AST builder use them;
// they are separate so that unit tests can exercise them directly.
//
// Columns are counted in Unicode code points, as the ANTLR lexer counts them, so that a location
// computed here agrees with one computed from a token.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace polemos::syntax {

// The first invalid byte of a UTF-8 text: its byte offset, its value, and where it is (1-based
// line, 0-based column in code points).
struct Utf8Error {
  size_t offset = 0;
  unsigned char byte = 0;
  uint32_t line = 1;
  uint32_t col = 0;
};

// Checks that `text` is well-formed UTF-8 (no overlong forms, no surrogates, nothing above
// U+10FFFF, no truncated sequences). Returns the first offending byte, or nothing.
std::optional<Utf8Error> validateUtf8(std::string_view text);

// Decodes one code point of valid UTF-8 at `i`, advancing `i`. Returns 0xFFFD on malformed input.
char32_t decodeUtf8(std::string_view text, size_t& i);

// Appends the UTF-8 encoding of `cp` to `out`.
void appendUtf8(std::string& out, char32_t cp);

// The number of code points in a valid UTF-8 text.
size_t codePointCount(std::string_view text);

// A decimal integer literal (digits only, as the lexer produces them). `negative` folds a leading
// minus sign in, so that -9223372036854775808 fits. On overflow, `overflow` is set and the value
// is 0. Non-digit characters (a token conjured by error recovery) give 0 without overflow.
struct IntValue {
  int64_t value = 0;
  bool overflow = false;
};
IntValue parseInt(std::string_view digits, bool negative = false);

// `3:1` -> 3 and 1.
struct OddsValue {
  int64_t a = 0, b = 0;
  bool overflow = false;
};
OddsValue parseOdds(std::string_view text);

// `2d6` -> count 2, die "d6"; `d6` -> count 1, die "d6".
struct DiceValue {
  int64_t count = 1;
  std::string die;
  bool overflow = false;
};
DiceValue parseDice(std::string_view text);

// Unescapes the body of a string literal (`text` includes the quotes; a missing closing quote is
// tolerated). Known escapes: \" \\ \n \t. For an unknown escape the backslash is dropped, the
// character kept, and `badEscape` set to the code-point offset (within `text`) of the backslash.
struct Unescaped {
  std::string value;
  std::optional<size_t> badEscape;
  char32_t badEscapeChar = 0;
};
Unescaped unescapeString(std::string_view text);

// A CITATION token's text without its section sign: `§7.43` -> "7.43".
std::string citationText(std::string tokenText);

// A token or character shown in a message: quoted, truncated past `maxCodePoints`, with control
// characters written as U+XXXX.
std::string quoteForMessage(std::string_view text, size_t maxCodePoints = 32);

// `U+00A4`
std::string codePointName(char32_t cp);

}  // namespace polemos::syntax
