// The hand-written scanner against the lexer generated from grammar/Polemos.g4: the same tokens
// (type, channel, position, text) on every .pol file of the project, on the edge cases of each
// lexer rule, and on thousands of seeded random texts made of the characters that matter. Then
// what the lexer rules say, checked directly on the scanner.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "syntax/scanner.h"
#include "syntax/text.h"

namespace polemos::syntax {
namespace {

std::string describeAll(const std::vector<TokenSummary>& tokens) {
  std::string out;
  for (const TokenSummary& t : tokens) out += describeToken(t) + "\n";
  return out;
}

// The two lexers agree on `text`; on failure, both token lists are shown.
void expectSameTokens(const std::string& text, const std::string& label) {
  const std::vector<TokenSummary> scanned = scanTokens(text, Lexer::Scanner);
  const std::vector<TokenSummary> reference = scanTokens(text, Lexer::Generated);
  EXPECT_EQ(describeAll(scanned), describeAll(reference)) << label;
}

std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(syntax_scanner, SameTokensOnEveryPolFileOfTheProject) {
  const std::filesystem::path root = std::filesystem::path(POLEMOS_TEST_DIR).parent_path();
  size_t files = 0;
  for (const char* dir : {"rulesets", "stdlib", "tests", "examples", "docs"}) {
    if (!std::filesystem::exists(root / dir)) continue;
    for (const auto& e : std::filesystem::recursive_directory_iterator(root / dir)) {
      if (!e.is_regular_file() || e.path().extension() != ".pol") continue;
      const std::string text = readFile(e.path());
      // The parser refuses invalid UTF-8 before scanning; so does this test.
      if (validateUtf8(text).has_value()) continue;
      expectSameTokens(text, e.path().string());
      ++files;
    }
  }
  EXPECT_GT(files, 300u);
}

TEST(syntax_scanner, SameTokensOnTheEdgesOfEachRule) {
  const char* cases[] = {
      // keywords and names; soft keywords; dice against names
      "ruleset rulesets row rows _x x_1 X",
      "d d6 d6x dd6 d66 2d6 2d6x 2d 12d 0d0 d_6 D6",
      // numbers, odds and dice
      "3:1 3: 1 3 :1 12:30x 1..5 1.5 007 3:1:2 2d6:1",
      "99999999999999999999999",
      // citations
      "§7.43 §7.43. §4.A §17.2.1 §chalons:6.1 §chalons: §c_2:1 §A:1 § §. §.1 §a:b:c §7..1",
      "§x_y §x_:1 §é §7.é",
      // strings
      "\"a\" \"a\\\"b\" \"open\n\"x\" \"\\\\\" \"tab\\t\" \"end\\",
      "\"\\\n\" \"\r\"",
      // comments
      "a // line\nb /* block */ c /*/ d */ e",
      "/* open",
      "/**/x/***/",
      "a/b a/ /b //",
      "/* a\n b */ c",
      // operators, longest first
      "a->b a-b a-=b a--b a..b a...b a.b a:=b a::b a==b a=b a!=b a!b a<=b a>=b a<b a>b",
      "+= -= * / % ? , ; ( ) [ ] { } ->",
      "!",
      "=>",
      "<-",
      // white space and line counting
      "a\r\nb\rc\fd\te\n\n\nf",
      " \t\n",
      "",
      // other characters: one BAD_CHAR each
      "é € 😀 ' “Woods” # $ @ ` ~ ^ & | \\",
      "x\x01y",
      "a\u00a0b",
  };
  for (const char* c : cases) expectSameTokens(c, std::string("case: ") + c);
}

TEST(syntax_scanner, SameTokensOnRandomTexts) {
  // Pieces chosen so that random texts hit every rule and the boundaries between them.
  const std::vector<std::string> pieces = {
      "a", "d",  "x",  "Z",  "_",  "0",  "6",  "12", ":",    "§",   ".",    "-",  ">",  "=",
      "<", "!",  "/",  "*",  "\"", "\\", "\n", "\r", " ",    "\t",  "é",    "😀",  "'",  "“",
      "(", "]",  "{",  ";",  ",",  "+",  "%",  "?",  "\f",   "if",  "row",  "ch", "c:", "d6",
      "2", "3:", "§7", "/*", "*/", "//", "->", "..", "rule", "set", "none", "#"};
  std::mt19937 rng(20261127);
  std::uniform_int_distribution<size_t> piece(0, pieces.size() - 1);
  std::uniform_int_distribution<int> length(0, 40);
  for (int i = 0; i < 20000; ++i) {
    std::string text;
    const int n = length(rng);
    for (int k = 0; k < n; ++k) text += pieces[piece(rng)];
    expectSameTokens(text, "random text " + std::to_string(i) + ": " + text);
    if (HasFailure()) break;  // one counterexample is enough to read
  }
}

// What the lexer rules say, on the scanner itself (not only agreement with the reference).
std::string kinds(const std::string& text) {
  std::string out;
  for (const TokenSummary& t : scanTokens(text, Lexer::Scanner)) {
    const std::string d = describeToken(t);
    out += (out.empty() ? "" : " ") + d.substr(0, d.find(' ')) + "[" + t.text + "]";
  }
  return out;
}

TEST(syntax_scanner, WhatTheRulesSay) {
  // A word of the form d6 or 2d6 is dice, so no name may look like that; d6x is a name.
  EXPECT_EQ(kinds("d6 2d6 d6x d"), "DICE[d6] DICE[2d6] ID[d6x] ID[d] EOF[<EOF>]");
  // `3:1` is an odds ratio only without spaces.
  EXPECT_EQ(kinds("3:1 3 : 1"), "ODDS[3:1] INT[3] ':'[:] INT[1] EOF[<EOF>]");
  // A final '.' is not part of a citation; another document's rule is `§doc:6.1`.
  EXPECT_EQ(kinds("§7.43. §chalons:6.1"),
            "CITATION[§7.43] '.'[.] CITATION[§chalons:6.1] EOF[<EOF>]");
  // A string left open ends at the end of its line, as one token.
  EXPECT_EQ(kinds("\"open\nx"), "STRING[\"open] ID[x] EOF[<EOF>]");
  // A block comment is hidden, one left open runs to the end; line comments are dropped.
  EXPECT_EQ(kinds("a /* b */ c // d\n/* e"),
            "ID[a] BLOCK_COMMENT[/* b */] ID[c] BLOCK_COMMENT[/* e] EOF[<EOF>]");
  // Anything else is one bad character.
  EXPECT_EQ(kinds("a€b"), "ID[a] BAD_CHAR[€] ID[b] EOF[<EOF>]");
  // Keywords are whole words.
  EXPECT_EQ(kinds("if iffy"), "'if'[if] ID[iffy] EOF[<EOF>]");
}

TEST(syntax_scanner, PositionsCountCodePointsAndLines) {
  const std::vector<TokenSummary> t = scanTokens("é x\n  §1", Lexer::Scanner);
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[1].text, "x");
  EXPECT_EQ(t[1].start, 2u);  // é is one code point
  EXPECT_EQ(t[1].column, 2u);
  EXPECT_EQ(t[2].line, 2u);
  EXPECT_EQ(t[2].column, 2u);
  EXPECT_EQ(t[2].start, 6u);
  EXPECT_EQ(t[2].stop, 7u);
}

}  // namespace
}  // namespace polemos::syntax
