// The hand-written parser: a recursive descent over the scanner's tokens that builds the AST of a
// correct file directly, without a parse tree. It accepts exactly what the grammar
// (grammar/Polemos.g4) and the AstBuilder accept without a word, and builds the same AST, source
// ranges included; at anything else (a syntax error, something the builder would report, nesting
// deeper than it allows itself) it declines, and the generated parser reads the file instead,
// with its error recovery and messages (syntax/parse.cpp). It reports nothing itself.
// Internal to syntax/.
#pragma once

#include <memory>
#include <vector>

#include "ast/ast.h"
#include "syntax/parse_internal.h"

namespace polemos::syntax {

// Fills `out` from `tokens` (the default channel's tokens of one file, EOF last) and returns
// true, or returns false (declined; `out` is then to be thrown away). `chars` is the file's text,
// for the source text kept with some nodes.
bool parseByDescent(const std::vector<std::unique_ptr<antlr4::Token>>& tokens, diag::FileId file,
                    antlr4::CharStream* chars, ast::File& out);

}  // namespace polemos::syntax
