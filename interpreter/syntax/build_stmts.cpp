// The AST builder: statements.
#include "syntax/ast_builder_internal.h"

namespace polemos::syntax {

using namespace building;

std::vector<StmtPtr> AstBuilder::block(P::BlockContext* ctx) {
  std::vector<StmtPtr> out;
  if (ctx == nullptr) return out;
  std::vector<P::StatementContext*> stmts = ctx->statement();
  out.reserve(stmts.size());
  for (P::StatementContext* s : stmts) {
    if (StmtPtr st = statement(s)) out.push_back(std::move(st));
  }
  if (P::FinalReturnContext* r = ctx->finalReturn()) {
    auto st = std::make_unique<Stmt>(StmtKind::Return);
    st->range = range(r);
    out.push_back(std::move(st));
  }
  return out;
}

template <typename IfCtx>
StmtPtr AstBuilder::ifStatement(IfCtx* ctx) {
  auto s = std::make_unique<Stmt>(StmtKind::If);
  s->range = range(ctx);
  s->cond = expr(ctx->expr());
  std::vector<P::BlockContext*> blocks = ctx->block();
  if (!blocks.empty()) s->body = block(blocks[0]);
  if (ctx->ELSE() != nullptr) {
    s->hasElse = true;
    if (P::IfStmtTailContext* tail = ctx->ifStmtTail()) {
      s->elseBody.push_back(ifStatement(tail));
    } else if (blocks.size() > 1) {
      s->elseBody = block(blocks[1]);
    }
  }
  return s;
}

StmtPtr AstBuilder::statement(P::StatementContext* ctx) {
  if (ctx == nullptr) return nullptr;
  auto make = [&](StmtKind k) {
    auto s = std::make_unique<Stmt>(k);
    s->range = range(ctx);
    return s;
  };
  if (auto* c = as<P::LetStmtContext>(ctx)) {
    auto s = make(StmtKind::Let);
    s->name = ident(c->ident());
    s->typeRef = typeRef(c->typeRef());
    s->value = expr(c->expr());
    return s;
  }
  if (auto* c = as<P::SimpleStmtContext>(ctx)) {
    // A name with its calls, fields and indexes: assigned to when an operator follows, else
    // a call made for what it does.
    ExprPtr target = postfixes(nameExpr(c->stmtName()), c->postfix());
    if (c->op == nullptr) {
      auto s = make(StmtKind::ExprStmt);
      s->value = std::move(target);
      return s;
    }
    auto s = make(StmtKind::Assign);
    s->target = std::move(target);
    const std::string op = c->op->getText();
    s->assignOp = op == "+=" ? AssignOp::Add : op == "-=" ? AssignOp::Sub : AssignOp::Set;
    s->value = expr(c->expr());
    return s;
  }
  if (auto* c = as<P::IfStmtContext>(ctx)) return ifStatement(c);
  if (auto* c = as<P::ForStmtContext>(ctx)) {
    auto s = make(StmtKind::For);
    s->name = ident(c->ident());
    s->value = expr(c->expr());
    s->body = block(c->block());
    return s;
  }
  if (auto* c = as<P::WhileStmtContext>(ctx)) {
    auto s = make(StmtKind::While);
    s->cond = expr(c->expr());
    s->body = block(c->block());
    return s;
  }
  if (auto* c = as<P::RequireStmtContext>(ctx)) {
    auto s = make(StmtKind::Require);
    s->cond = expr(c->expr());
    s->condText = sourceText(c->expr());
    s->citations = citations(c->citation());
    s->message = stringValue(c->STRING());
    return s;
  }
  if (auto* c = as<P::ReturnStmtContext>(ctx)) {
    auto s = make(StmtKind::Return);
    s->value = expr(c->expr());
    return s;
  }
  if (auto* c = as<P::PhaseStmtContext>(ctx)) {
    auto s = make(StmtKind::Phase);
    s->name = ident(c->ident());
    s->citations = citations(c->citation());
    s->gates = gates(c->gate());
    if (c->FOR() != nullptr) s->forPlayer = expr(c->expr());
    s->items = phaseItems(c->phaseItem());
    return s;
  }
  if (auto* c = as<P::StepStmtContext>(ctx)) {
    auto s = make(StmtKind::Step);
    s->name = ident(c->ident());
    s->citations = citations(c->citation());
    s->gates = gates(c->gate());
    s->body = block(c->block());
    return s;
  }
  if (auto* c = as<P::AlternateStmtContext>(ctx)) {
    auto s = make(StmtKind::Alternate);
    s->value = expr(c->expr());
    IntValue passes = parseInt(text(c->INT()));
    s->passes = passes.value;
    s->citations = citations(c->citation());
    s->gates = gates(c->gate());
    s->items = phaseItems(c->phaseItem());
    return s;
  }
  if (auto* c = as<P::EmitStmtContext>(ctx)) {
    auto s = make(StmtKind::Emit);
    s->name = ident(c->ident());
    s->args = args(c->args());
    return s;
  }
  if (auto* c = as<P::ApplyStmtContext>(ctx)) {
    auto s = make(StmtKind::Apply);
    s->value = expr(c->expr());
    return s;
  }
  if (auto* c = as<P::NoteStmtContext>(ctx)) {
    auto s = make(StmtKind::Note);
    s->citations = citations(c->citation());
    s->noteArgs = exprs(c->expr());
    return s;
  }
  if (auto* c = as<P::PauseStmtContext>(ctx)) {
    auto s = make(StmtKind::Pause);
    s->citations = citations(c->citation());
    s->value = expr(c->expr());
    return s;
  }
  if (auto* c = as<P::BlockStmtContext>(ctx)) {
    auto s = make(StmtKind::Block);
    s->body = block(c->block());
    return s;
  }
  return nullptr;
}

PhaseItem AstBuilder::phaseItem(P::PhaseItemContext* ctx) {
  PhaseItem item;
  item.range = range(ctx);
  if (auto* a = as<P::AllowItemContext>(ctx)) {
    item.kind = PhaseItem::Allow;
    item.actions = identList(a->identList());
  } else if (auto* e = as<P::EndRequiresItemContext>(ctx)) {
    item.kind = PhaseItem::EndRequires;
    item.cond = expr(e->expr());
    item.condText = sourceText(e->expr());
    item.citations = citations(e->citation());
    item.message = stringValue(e->STRING());
  } else if (auto* s = as<P::OnStartItemContext>(ctx)) {
    item.kind = PhaseItem::OnStart;
    item.body = block(s->block());
  } else if (auto* n = as<P::OnEndItemContext>(ctx)) {
    item.kind = PhaseItem::OnEnd;
    item.body = block(n->block());
  }
  return item;
}

std::vector<PhaseItem> AstBuilder::phaseItems(const std::vector<P::PhaseItemContext*>& ctxs) {
  std::vector<PhaseItem> out;
  for (P::PhaseItemContext* p : ctxs) {
    if (as<P::AllowItemContext>(p) != nullptr || as<P::EndRequiresItemContext>(p) != nullptr ||
        as<P::OnStartItemContext>(p) != nullptr || as<P::OnEndItemContext>(p) != nullptr) {
      out.push_back(phaseItem(p));
    }
  }
  return out;
}

}  // namespace polemos::syntax
