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
ExprPtr AstBuilder::primary(P::PrimaryContext* ctx) {
  return bounded(primaryUnmeasured(ctx));
}

ExprPtr AstBuilder::exprUnmeasured(P::ExprContext* ctx) {
  if (ctx == nullptr) return nullptr;
  if (auto* p = as<P::PlainExprContext>(ctx)) return opExpr(p->opExpr());
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

namespace {
BinaryOp comparison(P::CmpOpContext* op) {
  if (op->NOT() != nullptr) return BinaryOp::NotIn;
  if (op->IN() != nullptr) return BinaryOp::In;
  const std::string t = op->start->getText();
  return t == "!="   ? BinaryOp::Ne
         : t == "<"  ? BinaryOp::Lt
         : t == "<=" ? BinaryOp::Le
         : t == ">"  ? BinaryOp::Gt
         : t == ">=" ? BinaryOp::Ge
                     : BinaryOp::Eq;
}

// Whether a node is an operator whose left operand is the node below it in the rule (a postfix,
// a binary operator), and that operand (null in a node error recovery left half built); an
// operand or a prefix operator ends such a chain.
bool leftOperand(P::OpExprContext* ctx, P::OpExprContext*& left) {
  if (auto* c = as<P::PostfixOpContext>(ctx)) return left = c->opExpr(), true;
  if (auto* c = as<P::MulOpContext>(ctx)) return left = c->opExpr(0), true;
  if (auto* c = as<P::AddOpContext>(ctx)) return left = c->opExpr(0), true;
  if (auto* c = as<P::RangeOpContext>(ctx)) return left = c->opExpr(0), true;
  if (auto* c = as<P::CmpOpExprContext>(ctx)) return left = c->opExpr(0), true;
  if (auto* c = as<P::AndOpContext>(ctx)) return left = c->opExpr(0), true;
  if (auto* c = as<P::OrOpContext>(ctx)) return left = c->opExpr(0), true;
  return false;
}
}  // namespace

// The operators. A chain such as `1+1+...+1` or `x.y.y...` nests to the left in the parse tree,
// as deep as it is long: its spine is walked in a loop, from the innermost operand out, so the
// builder's own stack stays flat; operands to the right are built as they come (left before
// right, as before). Every node made is bounded (its depth checked).
ExprPtr AstBuilder::opExpr(P::OpExprContext* ctx) {
  if (ctx == nullptr) return nullptr;
  std::vector<P::OpExprContext*> spine;
  P::OpExprContext* bottom = ctx;
  for (P::OpExprContext* left = nullptr; bottom != nullptr && leftOperand(bottom, left);
       bottom = left)
    spine.push_back(bottom);
  ExprPtr e = operand(bottom);
  for (auto it = spine.rbegin(); it != spine.rend(); ++it) {
    P::OpExprContext* node = *it;
    if (auto* c = as<P::PostfixOpContext>(node)) {
      e = postfix(std::move(e), c->postfix());
    } else if (auto* c = as<P::MulOpContext>(node)) {
      const std::string op = c->op != nullptr ? c->op->getText() : "*";
      const BinaryOp b = op == "/" ? BinaryOp::Div : op == "%" ? BinaryOp::Mod : BinaryOp::Mul;
      e = bounded(binary(b, std::move(e), opExpr(c->opExpr(1))));
    } else if (auto* c = as<P::AddOpContext>(node)) {
      const bool minus = c->op != nullptr && c->op->getText() == "-";
      e = bounded(
          binary(minus ? BinaryOp::Sub : BinaryOp::Add, std::move(e), opExpr(c->opExpr(1))));
    } else if (auto* c = as<P::RangeOpContext>(node)) {
      if (as<P::RangeOpContext>(c->opExpr(0)) != nullptr) {
        diags_.error(range(c), "ranges do not chain (`1..2..3`): write one range `a..b`");
      }
      auto r = makeExpr(ExprKind::Range, range(c));
      r->operands.push_back(std::move(e));
      r->operands.push_back(opExpr(c->opExpr(1)));
      e = bounded(std::move(r));
    } else if (auto* c = as<P::CmpOpExprContext>(node)) {
      if (as<P::CmpOpExprContext>(c->opExpr(0)) != nullptr) {
        diags_.error(range(c),
                     "comparisons do not chain (`a < b < c`): join two with `and`, or put the "
                     "first in parentheses");
      }
      P::CmpOpContext* op = c->cmpOp();
      if (op == nullptr || op->start == nullptr) continue;
      e = bounded(binary(comparison(op), std::move(e), opExpr(c->opExpr(1))));
    } else if (auto* c = as<P::AndOpContext>(node)) {
      e = bounded(binary(BinaryOp::And, std::move(e), opExpr(c->opExpr(1))));
    } else if (auto* c = as<P::OrOpContext>(node)) {
      e = bounded(binary(BinaryOp::Or, std::move(e), opExpr(c->opExpr(1))));
    }
  }
  return e;
}

// The end of a chain: an operand, or a prefix operator with its own operand.
ExprPtr AstBuilder::operand(P::OpExprContext* ctx) {
  if (ctx == nullptr) return nullptr;
  if (auto* c = as<P::AtomOpContext>(ctx)) return primary(c->primary());
  if (auto* c = as<P::NegOpContext>(ctx)) {
    auto e = makeExpr(ExprKind::Unary, range(ctx));
    e->unaryOp = UnaryOp::Neg;
    e->operands.push_back(opExpr(c->opExpr()));
    return bounded(std::move(e));
  }
  if (auto* c = as<P::NotOpContext>(ctx)) {
    auto e = makeExpr(ExprKind::Unary, range(ctx));
    e->unaryOp = UnaryOp::Not;
    e->operands.push_back(opExpr(c->opExpr()));
    return bounded(std::move(e));
  }
  return nullptr;  // a node that error recovery left half built
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
  for (P::PostfixContext* p : ops) e = postfix(std::move(e), p);
  return e;
}

ExprPtr AstBuilder::postfix(ExprPtr e, P::PostfixContext* p) {
  if (p != nullptr) {
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
