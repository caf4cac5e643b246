// The AST builder: expressions.
#include <fmt/format.h>

#include "limits/limits.h"
#include "syntax/ast_builder_internal.h"

namespace polemos::syntax {

using namespace building;

std::vector<ExprPtr> AstBuilder::exprs(const std::vector<P::ExprContext*>& ctxs) {
  std::vector<ExprPtr> out;
  out.reserve(ctxs.size());
  for (P::ExprContext* e : ctxs) {
    if (ExprPtr x = expr(e)) out.push_back(std::move(x));
  }
  return out;
}

// An expression whose tree is deeper than the limit is refused here, once per file, and dropped
// (its subtrees are within the limit, so dropping it is safe): a chain such as `1+1+...+1` or
// `f(1)(1)...(1)` is flat in the parse but nests in the tree.
ExprPtr AstBuilder::bounded(ExprPtr e) {
  if (!e) return e;
  measure(*e);
  if (e->depth <= static_cast<uint32_t>(limits::kMaxExprDepth)) return e;
  if (!tooDeepSaid_) {
    tooDeepSaid_ = true;
    diags_.error(e->range, fmt::format("expression nested too deeply (more than {} levels in its "
                                       "tree: split it with `let` or a function)",
                                       limits::kMaxExprDepth));
  }
  return nullptr;
}

ExprPtr AstBuilder::expr(P::ExprContext* ctx) {
  return bounded(exprUnmeasured(ctx));
}
ExprPtr AstBuilder::notExpr(P::NotExprContext* ctx) {
  return bounded(notExprUnmeasured(ctx));
}
ExprPtr AstBuilder::unaryExpr(P::UnaryExprContext* ctx) {
  return bounded(unaryExprUnmeasured(ctx));
}
ExprPtr AstBuilder::primary(P::PrimaryContext* ctx) {
  return bounded(primaryUnmeasured(ctx));
}

ExprPtr AstBuilder::exprUnmeasured(P::ExprContext* ctx) {
  if (ctx == nullptr) return nullptr;
  if (auto* p = as<P::PlainExprContext>(ctx)) return orExpr(p->orExpr());
  if (auto* l = as<P::LambdaExprContext>(ctx)) {
    auto e = makeExpr(ExprKind::Lambda, range(ctx));
    e->params.push_back(ident(l->ident()));
    e->operands.push_back(expr(l->expr()));
    return e;
  }
  if (auto* l = as<P::LambdaMultiExprContext>(ctx)) {
    auto e = makeExpr(ExprKind::Lambda, range(ctx));
    e->params = identList(l->identList());
    e->operands.push_back(expr(l->expr()));
    return e;
  }
  if (auto* c = as<P::CondExprContext>(ctx)) {
    auto e = makeExpr(ExprKind::Cond, range(ctx));
    std::vector<P::ExprContext*> parts = c->expr();
    for (size_t i = 0; i < 3; ++i)
      e->operands.push_back(i < parts.size() ? expr(parts[i]) : nullptr);
    return e;
  }
  return nullptr;
}

ExprPtr AstBuilder::orExpr(P::OrExprContext* ctx) {
  if (ctx == nullptr) return nullptr;
  if (auto* only = onlyChild<P::AndExprContext>(ctx)) return andExpr(only);
  std::vector<P::AndExprContext*> parts = ctx->andExpr();
  if (parts.empty()) return nullptr;
  ExprPtr e = andExpr(parts[0]);
  for (size_t i = 1; i < parts.size(); ++i)
    e = bounded(binary(BinaryOp::Or, std::move(e), andExpr(parts[i])));
  return e;
}

ExprPtr AstBuilder::andExpr(P::AndExprContext* ctx) {
  if (ctx == nullptr) return nullptr;
  if (auto* only = onlyChild<P::NotExprContext>(ctx)) return notExpr(only);
  std::vector<P::NotExprContext*> parts = ctx->notExpr();
  if (parts.empty()) return nullptr;
  ExprPtr e = notExpr(parts[0]);
  for (size_t i = 1; i < parts.size(); ++i)
    e = bounded(binary(BinaryOp::And, std::move(e), notExpr(parts[i])));
  return e;
}

ExprPtr AstBuilder::notExprUnmeasured(P::NotExprContext* ctx) {
  if (ctx == nullptr) return nullptr;
  if (auto* only = onlyChild<P::CmpExprContext>(ctx)) return cmpExpr(only);
  if (ctx->NOT() != nullptr) {
    auto e = makeExpr(ExprKind::Unary, range(ctx));
    e->unaryOp = UnaryOp::Not;
    e->operands.push_back(notExpr(ctx->notExpr()));
    return e;
  }
  return cmpExpr(ctx->cmpExpr());
}

ExprPtr AstBuilder::cmpExpr(P::CmpExprContext* ctx) {
  if (ctx == nullptr) return nullptr;
  if (auto* only = onlyChild<P::RangeExprContext>(ctx)) return rangeExpr(only);
  std::vector<P::RangeExprContext*> parts = ctx->rangeExpr();
  if (parts.empty()) return nullptr;
  ExprPtr lhs = rangeExpr(parts[0]);
  P::CmpOpContext* op = ctx->cmpOp();
  if (op == nullptr || op->start == nullptr) return lhs;
  ExprPtr rhs = parts.size() > 1 ? rangeExpr(parts[1]) : nullptr;
  BinaryOp b = BinaryOp::Eq;
  const std::string t = op->start->getText();
  if (op->NOT() != nullptr)
    b = BinaryOp::NotIn;
  else if (op->IN() != nullptr)
    b = BinaryOp::In;
  else if (t == "!=")
    b = BinaryOp::Ne;
  else if (t == "<")
    b = BinaryOp::Lt;
  else if (t == "<=")
    b = BinaryOp::Le;
  else if (t == ">")
    b = BinaryOp::Gt;
  else if (t == ">=")
    b = BinaryOp::Ge;
  return binary(b, std::move(lhs), std::move(rhs));
}

ExprPtr AstBuilder::rangeExpr(P::RangeExprContext* ctx) {
  if (ctx == nullptr) return nullptr;
  if (auto* only = onlyChild<P::AddExprContext>(ctx)) return addExpr(only);
  std::vector<P::AddExprContext*> parts = ctx->addExpr();
  if (parts.empty()) return nullptr;
  ExprPtr lhs = addExpr(parts[0]);
  if (parts.size() < 2) return lhs;
  ExprPtr rhs = addExpr(parts[1]);
  auto e = makeExpr(ExprKind::Range, range(ctx));
  e->operands.push_back(std::move(lhs));
  e->operands.push_back(std::move(rhs));
  return e;
}

ExprPtr AstBuilder::addExpr(P::AddExprContext* ctx) {
  if (ctx == nullptr) return nullptr;
  if (auto* only = onlyChild<P::MulExprContext>(ctx)) return mulExpr(only);
  std::vector<P::MulExprContext*> parts = ctx->mulExpr();
  if (parts.empty()) return nullptr;
  ExprPtr e = mulExpr(parts[0]);
  for (size_t i = 1; i < parts.size(); ++i) {
    const bool minus =
        i - 1 < ctx->op.size() && ctx->op[i - 1] != nullptr && ctx->op[i - 1]->getText() == "-";
    e = bounded(binary(minus ? BinaryOp::Sub : BinaryOp::Add, std::move(e), mulExpr(parts[i])));
  }
  return e;
}

ExprPtr AstBuilder::mulExpr(P::MulExprContext* ctx) {
  if (ctx == nullptr) return nullptr;
  if (auto* only = onlyChild<P::UnaryExprContext>(ctx)) return unaryExpr(only);
  std::vector<P::UnaryExprContext*> parts = ctx->unaryExpr();
  if (parts.empty()) return nullptr;
  ExprPtr e = unaryExpr(parts[0]);
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string op =
        i - 1 < ctx->op.size() && ctx->op[i - 1] != nullptr ? ctx->op[i - 1]->getText() : "*";
    BinaryOp b = op == "/" ? BinaryOp::Div : op == "%" ? BinaryOp::Mod : BinaryOp::Mul;
    e = bounded(binary(b, std::move(e), unaryExpr(parts[i])));
  }
  return e;
}

ExprPtr AstBuilder::unaryExprUnmeasured(P::UnaryExprContext* ctx) {
  if (ctx == nullptr) return nullptr;
  if (auto* only = onlyChild<P::PostfixExprContext>(ctx)) return postfixExpr(only);
  if (P::UnaryExprContext* inner = ctx->unaryExpr()) {
    auto e = makeExpr(ExprKind::Unary, range(ctx));
    e->unaryOp = UnaryOp::Neg;
    e->operands.push_back(unaryExpr(inner));
    return e;
  }
  return postfixExpr(ctx->postfixExpr());
}

ExprPtr AstBuilder::postfixExpr(P::PostfixExprContext* ctx) {
  if (ctx == nullptr) return nullptr;
  if (ctx->children.size() == 1) return primary(dynamic_cast<P::PrimaryContext*>(ctx->children[0]));
  return postfixes(primary(ctx->primary()), ctx->postfix());
}

ExprPtr AstBuilder::nameExpr(P::StmtNameContext* ctx) {
  if (ctx == nullptr) return nullptr;
  auto e = makeExpr(ExprKind::Name, range(ctx));
  // One token, really matched, as in ident().
  antlr4::Token* t = ctx->start;
  if (t != nullptr && ctx->stop == t && ctx->exception == nullptr &&
      t->getTokenIndex() != kInvalidIndex && ctx->children.size() == 1) {
    e->text = t->getText();
  }
  return bounded(std::move(e));
}

ExprPtr AstBuilder::postfixes(ExprPtr e, const std::vector<P::PostfixContext*>& ops) {
  for (P::PostfixContext* p : ops) {
    if (p == nullptr) continue;
    diag::SourceRange r = spanRanges(e ? e->range : diag::SourceRange{}, range(p));
    if (auto* call = as<P::CallPostfixContext>(p)) {
      auto c = makeExpr(ExprKind::Call, r);
      c->operands.push_back(std::move(e));
      c->args = args(call->args());
      e = bounded(std::move(c));
    } else if (auto* index = as<P::IndexPostfixContext>(p)) {
      auto c = makeExpr(ExprKind::Index, r);
      c->operands.push_back(std::move(e));
      for (ExprPtr& x : exprs(index->expr())) c->operands.push_back(std::move(x));
      e = bounded(std::move(c));
    } else if (auto* member = as<P::MemberPostfixContext>(p)) {
      auto c = makeExpr(ExprKind::Member, r);
      c->operands.push_back(std::move(e));
      // `h.row`: `row` is a keyword (it starts a table row) but a fine member name.
      c->member = member->ROW() ? tokenIdent(member->ROW()) : ident(member->ident());
      e = bounded(std::move(c));
    }
  }
  return e;
}

std::vector<Arg> AstBuilder::args(P::ArgsContext* ctx) {
  std::vector<Arg> out;
  if (ctx == nullptr) return out;
  for (P::ArgContext* a : ctx->arg()) {
    if (a == nullptr) continue;
    Arg arg;
    if (P::IdentContext* name = a->ident()) arg.name = ident(name);
    arg.value = expr(a->expr());
    out.push_back(std::move(arg));
  }
  return out;
}

ExprPtr AstBuilder::primaryUnmeasured(P::PrimaryContext* ctx) {
  if (ctx == nullptr) return nullptr;
  const diag::SourceRange r = range(ctx);
  if (auto* c = as<P::NameExprContext>(ctx)) {
    auto e = makeExpr(ExprKind::Name, r);
    e->text = ident(c->ident()).name;
    return e;
  }
  if (auto* c = as<P::IntLitContext>(ctx)) {
    auto e = makeExpr(ExprKind::Int, r);
    IntValue v = parseInt(text(c->INT()));
    e->intValue = v.value;
    e->overflow = v.overflow;
    e->text = text(c->INT());
    return e;
  }
  if (auto* c = as<P::OddsLitContext>(ctx)) {
    auto e = makeExpr(ExprKind::Odds, r);
    OddsValue v = parseOdds(text(c->ODDS()));
    e->oddsA = v.a;
    e->oddsB = v.b;
    e->overflow = v.overflow;
    return e;
  }
  if (auto* c = as<P::StringLitContext>(ctx)) {
    auto e = makeExpr(ExprKind::String, r);
    e->text = stringValue(c->STRING());
    return e;
  }
  if (as<P::TrueLitContext>(ctx) != nullptr) {
    auto e = makeExpr(ExprKind::Bool, r);
    e->boolValue = true;
    return e;
  }
  if (as<P::FalseLitContext>(ctx) != nullptr) {
    auto e = makeExpr(ExprKind::Bool, r);
    e->boolValue = false;
    return e;
  }
  if (as<P::NoneLitContext>(ctx) != nullptr) return makeExpr(ExprKind::None, r);
  if (auto* c = as<P::CitationLitContext>(ctx)) {
    auto e = makeExpr(ExprKind::CitationLit, r);
    if (isReal(c->CITATION())) e->text = citationToken(c->CITATION()->getSymbol()).text;
    return e;
  }
  if (auto* c = as<P::ParenExprContext>(ctx)) {
    ExprPtr inner = expr(c->expr());
    if (inner) inner->range = r;  // the parentheses belong to the expression
    return inner;
  }
  if (auto* c = as<P::ListLitContext>(ctx)) {
    auto e = makeExpr(ExprKind::List, r);
    e->operands = exprs(c->expr());
    return e;
  }
  if (auto* c = as<P::MapLitContext>(ctx)) {
    auto e = makeExpr(ExprKind::Map, r);
    for (P::MapEntryContext* m : c->mapEntry()) {
      if (m == nullptr) continue;
      e->mapKeys.push_back(ident(m->ident()));
      e->operands.push_back(expr(m->expr()));
    }
    return e;
  }
  if (auto* c = as<P::RollExprContext>(ctx)) {
    auto e = makeExpr(ExprKind::Roll, r);
    if (P::RollCountContext* rc = c->rollCount()) {
      if (P::ExprContext* x = rc->expr()) {
        e->rollCount = expr(x);
        if (e->rollCount) e->rollCount->range = range(rc);  // with its parentheses
      } else if (isReal(rc->INT())) {
        auto n = makeExpr(ExprKind::Int, range(rc));
        IntValue v = parseInt(text(rc->INT()));
        n->intValue = v.value;
        n->overflow = v.overflow;
        n->text = text(rc->INT());
        e->rollCount = std::move(n);
      }
    }
    if (P::DieRefContext* d = c->dieRef()) {
      if (P::IdentContext* id = d->ident()) {
        e->dieName = ident(id);
      } else if (isReal(d->DICE())) {
        DiceValue v = parseDice(text(d->DICE()));
        e->diceCount = v.count;
        e->overflow = v.overflow;
        e->dieName.name = std::move(v.die);
        e->dieName.range = range(d->DICE());
      }
    }
    if (c->rollMode != nullptr) {
      switch (c->rollMode->getType()) {
        case P::HIGHEST:
          e->rollMode = RollMode::Highest;
          break;
        case P::LOWEST:
          e->rollMode = RollMode::Lowest;
          break;
        case P::EACH:
          e->rollMode = RollMode::Each;
          break;
        default:
          break;
      }
    }
    e->citations = citations(c->citation());
    return e;
  }
  if (auto* c = as<P::ChooseExprContext>(ctx)) {
    auto e = makeExpr(ExprKind::Choose, r);
    std::vector<P::ExprContext*> parts = c->expr();
    e->operands.push_back(parts.size() > 0 ? expr(parts[0]) : nullptr);
    e->operands.push_back(parts.size() > 1 ? expr(parts[1]) : nullptr);
    e->prompt = stringValue(c->STRING());
    e->citations = citations(c->citation());
    return e;
  }
  return nullptr;
}

}  // namespace polemos::syntax
