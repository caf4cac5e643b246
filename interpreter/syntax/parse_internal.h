// Internals shared by the parser wrapper (parse.cpp), token helpers (tokens.cpp), the error
// reporting (syntax_errors.cpp) and the AST builder (ast_builder.cpp). Includes ANTLR: never
// include this outside syntax/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "ast/ast.h"
#include "diag/diagnostics.h"
#include "syntax/antlr.h"

namespace polemos::syntax {

using gen::PolemosLexer;
using gen::PolemosParser;

// Thrown to abandon a parse: the diagnostics engine is full, the input nests too deeply, or the
// parser would need unreasonable lookahead. It is not an ANTLR exception, so the generated rule
// functions (which catch RecognitionException only) let it through to the wrapper. Whoever throws
// has already reported the error.
struct ParseAbort {};

// The runtime's "no index" value (its INVALID_INDEX is a macro).
inline constexpr size_t kInvalidIndex = static_cast<size_t>(-1);

// The character stream the lexer reads: the UTF-8 source decoded once (fast; the runtime's own
// decoding goes through std::wstring_convert) and token text served straight from the UTF-8 bytes.
// The source must be valid UTF-8 and outlive the stream.
class SourceCharStream : public antlr4::ANTLRInputStream {
 public:
  explicit SourceCharStream(std::string_view utf8);

  // Text of the code points [interval.a, interval.b], as UTF-8.
  std::string getText(const antlr4::misc::Interval& interval) override;
  std::string_view view(size_t firstCodePoint, size_t lastCodePoint) const;
  char32_t at(size_t codePoint) const {
    return codePoint < _data.size() ? static_cast<char32_t>(_data[codePoint]) : 0;
  }
  size_t length() const { return _data.size(); }

 private:
  size_t byteOffset(size_t codePoint) const;

  std::string_view src_;
  // Code-point indices of the multi-byte characters, and the extra bytes (beyond one per code
  // point) up to and including each: enough to map a code-point index to a byte offset.
  std::vector<size_t> multi_;
  std::vector<size_t> extra_;
};

// The scanner (scanner.cpp): the lexer rules of grammar/Polemos.g4 written by hand. It gives the
// generated lexer's tokens (types, channels, positions; a test compares the two on every shipped
// file and on hostile text) without the generated lexer's locked hash-table look-up per character,
// which made scanning a fifth of loading the rules. White space and line comments are skipped, a
// block comment goes to the hidden channel, and any other character is a BAD_CHAR token, as in
// the grammar. Tokens name `source` as their source, so that error recovery can make tokens.
class Scanner {
 public:
  Scanner(SourceCharStream& chars, antlr4::TokenSource* source);
  // The next token; EOF, again and again, at the end.
  std::unique_ptr<antlr4::Token> nextToken();

 private:
  char32_t at(size_t i) const { return i < size_ ? chars_.at(i) : 0; }
  void advanceTo(size_t end);
  std::unique_ptr<antlr4::Token> make(size_t type, size_t channel, size_t start, size_t stop,
                                      size_t line, size_t column);

  SourceCharStream& chars_;
  antlr4::TokenSource* source_;
  size_t size_;
  size_t pos_ = 0;
  size_t line_ = 1;
  size_t column_ = 0;
};

// The generated lexer's vocabulary (static data of the generated code): each token type with its
// literal name ('ruleset', '{') and symbolic name (ID, CITATION).
const antlr4::dfa::Vocabulary& lexerVocabulary();

// The type of the literal token written `literal` in the grammar ("'('", "'..'"); 0 if none.
size_t literalTokenType(std::string_view literal);

// +1 for an opening bracket token ( [ {, -1 for a closing one, 0 for any other token type.
int bracketDelta(size_t tokenType);
// The token type of '-' (a literal token, without a name in the generated parser).
size_t minusTokenType();
// The closing bracket that matches an opening one ('(' -> ')'), by token type; 0 if none.
size_t matchingBracket(size_t tokenType);

// The kind of declaration a `remove` names (grammar rule `declKind`), from the type of its first
// word and, after `unit`, of its second (`unit type`: a unit type; `unit class` or `unit` alone: a
// class). Phases and steps are part of the sequence of play. Nothing for any other first word.
std::optional<ast::DeclKind> removedDeclKind(size_t first, size_t second);

// The range of one token: its first code point to just past its last (a token that spans lines,
// which only a string with an escaped newline can do, ends on its last line).
diag::SourceRange tokenRange(diag::FileId file, const antlr4::Token* t);

// The range of a parse-tree node, from its first token to the end of its last. Tolerates the
// half-built nodes that error recovery leaves (no stop token, conjured tokens).
diag::SourceRange contextRange(diag::FileId file, const antlr4::ParserRuleContext* ctx);

// The range from the start of `a` to the end of `b`.
diag::SourceRange spanRanges(const diag::SourceRange& a, const diag::SourceRange& b);

// The number of code points of a token, from its char-stream indices (0 for EOF and for tokens
// that error recovery made up).
size_t tokenLength(const antlr4::Token* t);

// Where syntax errors go. Reports into the diagnostics engine and throws ParseAbort once it is
// full, so that binary garbage cannot keep the parser busy producing errors nobody reads.
class ErrorSink {
 public:
  ErrorSink(diag::Diagnostics& diags, diag::FileId file) : diags_(diags), file_(file) {}

  // Reports and, if the engine is now full, throws ParseAbort.
  void report(diag::SourceRange range, std::string message);
  // Reports with a note (the note is attached before the abort check).
  void reportWithNote(diag::SourceRange range, std::string message, diag::SourceRange noteRange,
                      std::string note);

  diag::Diagnostics& diags() { return diags_; }
  diag::FileId file() const { return file_; }

 private:
  diag::Diagnostics& diags_;
  diag::FileId file_;
};

// What the lexing pass learnt that the parser's messages use.
struct TokenFacts {
  // Brackets still open at the end of the file, outermost first.
  std::vector<const antlr4::Token*> unclosed;
  // Closing brackets with no opening bracket before them.
  std::unordered_set<const antlr4::Token*> unmatchedClosers;
  // Where the first lexical error is (invalid if none). Syntax errors after it are not reported:
  // they are most often its consequences (a string that swallowed a brace, a comment that runs
  // to the end), and they come back on the next run if they are real.
  diag::SourceLoc firstLexError;
};

// Passed from the error strategy to the listener with one error.
struct PendingError {
  // The parser expected this closing bracket (a token type; 0 if none), perhaps after a ',':
  // the listener points a note at the bracket it would close.
  size_t closer = 0;
};

// The parser's error listener: turns ANTLR's reports into diagnostics. The error strategy below
// has already phrased the message; the listener places it, attaches notes, and drops the
// cascades that error recovery tends to produce.
class SyntaxErrorListener : public antlr4::BaseErrorListener {
 public:
  SyntaxErrorListener(ErrorSink& sink, const TokenFacts& facts, PendingError& pending)
      : sink_(sink), facts_(facts), pending_(pending) {}

  void syntaxError(antlr4::Recognizer* recognizer, antlr4::Token* offendingSymbol, size_t line,
                   size_t charPositionInLine, const std::string& msg,
                   std::exception_ptr e) override;

 private:
  ErrorSink& sink_;
  const TokenFacts& facts_;
  PendingError& pending_;
  size_t lastErrorToken_ = SIZE_MAX;
};

// Phrases ANTLR's syntax errors for people: "expected ';' or '}' but found 'foo'", "unexpected
// end of file", "unexpected 'x' in a table row", instead of "mismatched input 'foo' expecting
// {...}" with forty token names. Its recovery skips balanced brackets, so that one stray token
// inside a table row does not make the table's closing brace close the ruleset.
class SyntaxErrorStrategy : public antlr4::DefaultErrorStrategy {
 public:
  explicit SyntaxErrorStrategy(PendingError& pending) : pending_(pending) {}

 protected:
  void reportNoViableAlternative(antlr4::Parser* recognizer,
                                 const antlr4::NoViableAltException& e) override;
  void reportInputMismatch(antlr4::Parser* recognizer,
                           const antlr4::InputMismatchException& e) override;
  void reportFailedPredicate(antlr4::Parser* recognizer,
                             const antlr4::FailedPredicateException& e) override;
  void reportUnwantedToken(antlr4::Parser* recognizer) override;
  void reportMissingToken(antlr4::Parser* recognizer) override;
  void consumeUntil(antlr4::Parser* recognizer, const antlr4::misc::IntervalSet& set) override;

 private:
  void notify(antlr4::Parser* recognizer, antlr4::Token* found,
              const antlr4::misc::IntervalSet& expected, std::exception_ptr e);
  PendingError& pending_;
};

// The message for an unexpected token given the set of tokens the parser could have accepted and
// the rule it was in. Exposed for the strategy above.
std::string describeSyntaxError(antlr4::Parser* parser, antlr4::Token* found,
                                const antlr4::misc::IntervalSet& expected, size_t ruleIndex);

// The message and hint for a character the lexer could not make a token of.
std::string describeBadCharacters(const std::string& text);

}  // namespace polemos::syntax
