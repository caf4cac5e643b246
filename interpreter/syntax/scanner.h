// The scanner's public face, for tests: the tokens of a source text as the hand-written scanner
// gives them and as the lexer generated from grammar/Polemos.g4 gives them, to compare. The
// parser reads the scanner's tokens (scanner.cpp); the generated lexer is the reference that says
// what the tokens must be. No ANTLR type shows here.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace polemos::syntax {

// One token: its type (the generated lexer's numbering), channel, first and last code point,
// line (from 1) and column (code points from 0), and text.
struct TokenSummary {
  size_t type = 0;
  size_t channel = 0;
  size_t start = 0;
  size_t stop = 0;
  size_t line = 0;
  size_t column = 0;
  std::string text;
  bool operator==(const TokenSummary&) const = default;
};

enum class Lexer { Scanner, Generated };

// Every token of a UTF-8 source up to and including EOF, skipped ones (white space, line comments)
// left out, as the parser would receive them before any error handling.
std::vector<TokenSummary> scanTokens(std::string_view utf8, Lexer which);

// A token as one line: "TYPE 'text' line:column [start,stop] channel".
std::string describeToken(const TokenSummary& t);

}  // namespace polemos::syntax
