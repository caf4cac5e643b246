// A compact, deterministic text form of the AST (S-expressions), for tests and debugging: unit
// tests compare `dumpExpr(parse("1 + 2 * 3"))` with "(+ 1 (* 2 3))" instead of walking nodes by
// hand. Not a pretty-printer: it does not print Polemos source back, and locations are left out.
#pragma once

#include <string>

#include "ast/ast.h"

namespace polemos::syntax {

std::string dumpExpr(const ast::Expr* e);
std::string dumpStmt(const ast::Stmt* s);
std::string dumpTypeRef(const ast::TypeRef& t);
std::string dumpDecl(const ast::Decl* d);
// One line per declaration, block and scenario item, indented by nesting.
std::string dumpFile(const ast::File& f);

}  // namespace polemos::syntax
