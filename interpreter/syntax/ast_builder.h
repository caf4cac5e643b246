// The AstBuilder: walks an ANTLR parse tree and builds the hand-written AST (ast/ast.h), with a
// SourceRange on every node. It works on trees that error recovery left half-built (missing
// children, conjured tokens, alternatives that never got their label): whatever is there is
// built, whatever is missing stays empty, and it never crashes.
//
// It reports the few errors that only show once a token is read closely (an unknown escape in a
// string; a scenario with two maps, which the AST cannot hold). It does not resolve names or
// check anything else: that is the checker's job. Internal to syntax/ (includes ANTLR).
#pragma once

#include <memory>

#include "ast/ast.h"
#include "diag/diagnostics.h"
#include "syntax/parse_internal.h"

namespace polemos::syntax {

class AstBuilder {
 public:
  AstBuilder(diag::Diagnostics& diags, diag::FileId file, antlr4::CharStream* chars)
      : diags_(diags), file_(file), chars_(chars) {}

  // Fills `out` (its `file` is already set) from a `file` parse tree (which may be null).
  void buildFile(PolemosParser::FileContext* ctx, ast::File& out);
  // The expression of a `replExpr` parse tree; null if there is none.
  ast::ExprPtr buildReplExpr(PolemosParser::ReplExprContext* ctx);

 private:
  using P = PolemosParser;

  // Blocks and declarations
  std::unique_ptr<ast::Block> rulesetBlock(P::RulesetBlockContext* ctx);
  std::unique_ptr<ast::Block> houseBlock(P::HouseBlockContext* ctx);
  std::unique_ptr<ast::Block> moduleBlock(P::ModuleBlockContext* ctx);
  std::unique_ptr<ast::Block> scenarioBlock(P::ScenarioBlockContext* ctx);
  void declarations(const std::vector<P::DeclarationContext*>& ctxs,
                    std::vector<ast::DeclPtr>& out);
  ast::DeclPtr declaration(P::DeclarationContext* ctx);
  ast::DeclPtr declBody(P::DeclBodyContext* ctx);
  ast::EnumMember enumMember(P::EnumMemberContext* ctx);
  void fieldDecl(P::FieldDeclContext* ctx, std::vector<ast::FieldDecl>& out);
  void fieldDisplay(P::FieldDisplayContext* ctx, ast::FieldDecl& f);
  ast::FieldInit fieldInit(P::FieldInitContext* ctx);
  std::vector<ast::FieldInit> fieldInits(const std::vector<P::FieldInitContext*>& ctxs);
  std::vector<ast::FieldDecl> fieldDecls(const std::vector<P::FieldDeclContext*>& ctxs);
  ast::Gate gate(P::GateContext* ctx);
  std::vector<ast::Gate> gates(const std::vector<P::GateContext*>& ctxs);
  std::vector<ast::Param> params(P::ParamsContext* ctx);
  std::vector<ast::Param> actionParams(P::ActionParamsContext* ctx);
  std::vector<ast::Ident> identList(P::IdentListContext* ctx);

  // Tables, modifiers, results
  void tableBody(P::TableBodyContext* ctx, ast::TableSpec& out);
  ast::Ident keyKind(P::KeyKindContext* ctx);
  ast::TableKey tableKey(P::TableKeyContext* ctx);
  ast::TableRow tableRow(P::TableRowContext* ctx);
  ast::ModClause modClause(P::ModClauseContext* ctx);
  void modOp(P::ModOpContext* ctx, ast::ModClause& out);
  ast::ResultCase resultCase(P::ResultCaseContext* ctx);

  // Scenarios
  void scenarioItem(P::ScenarioItemContext* ctx, ast::Scenario& out);
  ast::MapSpec mapSpec(P::MapItem_Context* ctx);
  ast::MapItem mapItem(P::MapItemContext* ctx);
  std::vector<ast::HexRef> hexRefs(const std::vector<P::HexRefContext*>& ctxs);
  ast::Ident hexLabel(P::HexLabelContext* ctx);
  ast::UnitPlacement unitPlacement(P::UnitPlacementContext* ctx);

  // Statements
  std::vector<ast::StmtPtr> block(P::BlockContext* ctx);
  ast::StmtPtr statement(P::StatementContext* ctx);
  template <typename IfCtx>
  ast::StmtPtr ifStatement(IfCtx* ctx);
  ast::PhaseItem phaseItem(P::PhaseItemContext* ctx);
  std::vector<ast::PhaseItem> phaseItems(const std::vector<P::PhaseItemContext*>& ctxs);

  // Expressions
  ast::ExprPtr expr(P::ExprContext* ctx);
  ast::ExprPtr exprUnmeasured(P::ExprContext* ctx);
  ast::ExprPtr primaryUnmeasured(P::PrimaryContext* ctx);
  // Sets e's depth; nothing, with the error said once, past limits::kMaxExprDepth.
  ast::ExprPtr bounded(ast::ExprPtr e);
  bool tooDeepSaid_ = false;
  // e with each call, index and field access of ops applied in turn.
  ast::ExprPtr postfixes(ast::ExprPtr e, const std::vector<P::PostfixContext*>& ops);
  ast::ExprPtr postfix(ast::ExprPtr e, P::PostfixContext* p);
  // A name as an expression (the head of a statement).
  ast::ExprPtr nameExpr(P::StmtNameContext* ctx);
  ast::ExprPtr primary(P::PrimaryContext* ctx);
  // The operators (one rule, precedence climbing), and the operand or prefix operator that ends
  // a chain of them.
  ast::ExprPtr opExpr(P::OpExprContext* ctx);
  ast::ExprPtr operand(P::OpExprContext* ctx);
  std::vector<ast::Arg> args(P::ArgsContext* ctx);
  std::vector<ast::ExprPtr> exprs(const std::vector<P::ExprContext*>& ctxs);

  // Leaves
  ast::Ident ident(P::IdentContext* ctx);
  ast::Ident tokenIdent(antlr4::tree::TerminalNode* node);
  ast::QualifiedName qualifiedName(P::QualifiedNameContext* ctx);
  std::optional<ast::TypeRef> typeRef(P::TypeRefContext* ctx);
  ast::TypeRef typeRefValue(P::TypeRefContext* ctx);
  std::vector<ast::Citation> citations(const std::vector<P::CitationContext*>& ctxs);
  ast::Citation citationToken(antlr4::Token* t);
  std::string stringValue(antlr4::tree::TerminalNode* node);
  std::string sourceText(antlr4::ParserRuleContext* ctx);

  diag::SourceRange range(const antlr4::ParserRuleContext* ctx) const {
    return contextRange(file_, ctx);
  }
  diag::SourceRange range(const antlr4::Token* t) const { return tokenRange(file_, t); }
  diag::SourceRange range(antlr4::tree::TerminalNode* n) const {
    return n != nullptr ? tokenRange(file_, n->getSymbol()) : diag::SourceRange{};
  }

  diag::Diagnostics& diags_;
  diag::FileId file_;
  antlr4::CharStream* chars_;
};

}  // namespace polemos::syntax
