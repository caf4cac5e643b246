// What the AST builder's files share (internal to syntax/): small helpers over the generated
// parser's contexts and tokens. The builder is one class (ast_builder.h) whose members are
// defined by construct: ast_builder.cpp (leaves, files and blocks), build_decls.cpp
// (declarations), build_tables.cpp (tables, modifiers, results, scenarios), build_stmts.cpp
// (statements) and build_exprs.cpp (expressions).
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>
#include <typeinfo>

#include "syntax/ast_builder.h"
#include "syntax/text.h"

namespace polemos::syntax::building {

using namespace polemos::ast;
using antlr4::tree::TerminalNode;
using P = PolemosParser;

// A token that is really in the source: not absent, not conjured by error recovery (conjured
// tokens have no index in the stream).
inline bool isReal(TerminalNode* n) {
  return n != nullptr && n->getSymbol() != nullptr &&
         n->getSymbol()->getTokenIndex() != kInvalidIndex;
}

// The labeled alternatives of the generated parser are leaf classes, so an exact type test is the
// same test as dynamic_cast, and much cheaper on the hot paths of a large file.
template <class T, class B>
T* as(B* ctx) {
  if (ctx == nullptr || typeid(*ctx) != typeid(T)) return nullptr;
  return static_cast<T*>(ctx);
}

inline std::string text(TerminalNode* n) {
  return isReal(n) ? n->getSymbol()->getText() : std::string();
}

// A labeled token's text (`lo=INT`): empty when error recovery left the label unset.
inline std::string text(const antlr4::Token* t) {
  return t != nullptr ? t->getText() : std::string();
}

inline ExprPtr makeExpr(ExprKind kind, diag::SourceRange r) {
  auto e = std::make_unique<Expr>(kind);
  e->range = r;
  return e;
}

// Sets e.depth from its direct children (whose depths are already set).
inline void measure(Expr& e) {
  uint32_t d = 0;
  for (const auto& o : e.operands)
    if (o) d = std::max(d, o->depth);
  for (const auto& a : e.args)
    if (a.value) d = std::max(d, a.value->depth);
  if (e.rollCount) d = std::max(d, e.rollCount->depth);
  e.depth = d + 1;
}

inline ExprPtr binary(BinaryOp op, ExprPtr lhs, ExprPtr rhs) {
  diag::SourceRange r =
      spanRanges(lhs ? lhs->range : diag::SourceRange{}, rhs ? rhs->range : diag::SourceRange{});
  auto e = makeExpr(ExprKind::Binary, r);
  e->binaryOp = op;
  e->operands.push_back(std::move(lhs));
  e->operands.push_back(std::move(rhs));
  measure(*e);
  return e;
}

// The first terminal child of a context with the given text (for literal tokens, which get no
// accessor in the generated code).
inline TerminalNode* childToken(antlr4::ParserRuleContext* ctx, std::string_view lit) {
  if (ctx == nullptr) return nullptr;
  for (antlr4::tree::ParseTree* c : ctx->children) {
    auto* t = dynamic_cast<TerminalNode*>(c);
    if (isReal(t) && t->getSymbol()->getText() == lit) return t;
  }
  return nullptr;
}

}  // namespace polemos::syntax::building
