// The front door of the front end: source text in, AST out.
//
// Wraps the hand-written parser, which reads a correct file, and the ANTLR-generated lexer and
// parser (the only module that sees them), which read the rest; validates the input first (size,
// UTF-8, nesting depth) so that no input can crash, hang or exhaust the stack, reports every
// lexical and syntax error into the diagnostics engine with the whole offending token
// underlined, and builds the hand-written AST. It does not resolve names or check types.
#pragma once

#include <memory>

#include "ast/ast.h"
#include "diag/diagnostics.h"
#include "limits/limits.h"

namespace polemos::syntax {

// Which parser reads a file. Auto: the hand-written one (syntax/descent.cpp) for a correct file,
// the generated one (with its error recovery and messages) for anything the hand-written one
// declines. The other two are for tests that hold the two to the same AST.
enum class ParserChoice { Auto, Generated, HandWritten };

struct ParseLimits {
  // Larger files are refused with a clear error rather than parsed: a real ruleset is a few
  // hundred kilobytes; 16 MiB leaves two orders of magnitude of room.
  size_t maxBytes = limits::kMaxSourceBytes;
  // Brackets ((, [, {) nested deeper than this are refused before parsing, so that a recursive
  // descent parser and the AST passes can never run out of stack. Real rules nest under 20.
  int maxNesting = limits::kMaxNesting;
  // Generated: always the generated parser. HandWritten: only the hand-written one; a file it
  // declines gets one error ("declined by the hand-written parser") and an empty AST.
  ParserChoice parser = ParserChoice::Auto;
};

// Parses a whole file (ruleset, house file, module, scenario or `part of` fragment). Returns the
// AST even when there were errors (as much as could be built); errors are in `diags`.
std::unique_ptr<ast::File> parseFile(diag::Diagnostics& diags, diag::FileId file,
                                     const ParseLimits& limits = {});

// Parses a single expression (the REPL's `eval` and `expect`). Returns null on error.
ast::ExprPtr parseExpression(diag::Diagnostics& diags, diag::FileId file,
                             const ParseLimits& limits = {});

}  // namespace polemos::syntax
