// Test support: a deep comparison of two ASTs (interpreter/ast/ast.h), for the tests that hold the
// hand-written parser (syntax/descent.cpp) to the generated parser's AST
// (tests/unit/syntax_handwritten_test.cpp).
//
// It compares every member of every AST struct, every SourceRange to the file, line and column of
// both ends, null against non-null pointers, absent against present optionals and the sizes of
// vectors, and names the first difference by its path from the file. It does not compare
// anything outside the AST (diagnostics, source text), and it does not say whether an AST is
// right: only whether two are the same.
#pragma once

#include <string>

#include "ast/ast.h"

namespace polemos::test_helpers {

// "" when `a` and `b` are the same in every member; else the path to the first difference and
// the two values, e.g. "blocks[0].decls[3].body[1].value.operands[0].range: 12:5-12:9 vs
// 12:5-12:10".
std::string firstAstDifference(const ast::File& a, const ast::File& b);

}  // namespace polemos::test_helpers
