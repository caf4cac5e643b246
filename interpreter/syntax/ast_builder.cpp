// The AST builder: leaves (names, types, citations, documentation comments), files and blocks.
#include "syntax/ast_builder.h"

#include "syntax/ast_builder_internal.h"

namespace polemos::syntax {

using namespace building;

Ident AstBuilder::ident(P::IdentContext* ctx) {
  Ident id;
  if (ctx == nullptr) return id;
  id.range = range(ctx);
  // One token, really matched (a failed `ident` has no stop token, or one before its start).
  antlr4::Token* t = ctx->start;
  if (t != nullptr && ctx->stop == t && ctx->exception == nullptr &&
      t->getTokenIndex() != kInvalidIndex && ctx->children.size() == 1) {
    id.name = t->getText();
  }
  return id;
}

Ident AstBuilder::tokenIdent(TerminalNode* node) {
  Ident id;
  if (!isReal(node)) return id;
  id.name = node->getSymbol()->getText();
  id.range = range(node);
  return id;
}

QualifiedName AstBuilder::qualifiedName(P::QualifiedNameContext* ctx) {
  QualifiedName q;
  if (ctx == nullptr) return q;
  q.range = range(ctx);
  for (P::IdentContext* i : ctx->ident()) q.parts.push_back(ident(i));
  return q;
}

TypeRef AstBuilder::typeRefValue(P::TypeRefContext* ctx) {
  TypeRef t;
  if (ctx == nullptr) return t;
  t.range = range(ctx);
  t.name = ident(ctx->ident());
  for (P::TypeRefContext* a : ctx->typeRef()) t.args.push_back(typeRefValue(a));
  t.optional = childToken(ctx, "?") != nullptr;
  return t;
}

std::optional<TypeRef> AstBuilder::typeRef(P::TypeRefContext* ctx) {
  if (ctx == nullptr) return std::nullopt;
  return typeRefValue(ctx);
}

Citation AstBuilder::citationToken(antlr4::Token* t) {
  Citation c;
  if (t == nullptr) return c;
  c.range = range(t);
  c.text = citationText(t->getText());
  return c;
}

std::vector<Citation> AstBuilder::citations(const std::vector<P::CitationContext*>& ctxs) {
  std::vector<Citation> out;
  out.reserve(ctxs.size());
  for (P::CitationContext* c : ctxs) {
    if (c != nullptr && isReal(c->CITATION()))
      out.push_back(citationToken(c->CITATION()->getSymbol()));
  }
  return out;
}

std::string AstBuilder::stringValue(TerminalNode* node) {
  if (!isReal(node)) return {};
  antlr4::Token* t = node->getSymbol();
  const std::string raw = t->getText();
  Unescaped u = unescapeString(raw);
  if (u.badEscape) {
    diag::SourceRange r = range(t);
    r.begin.col += static_cast<uint32_t>(*u.badEscape);
    r.end = r.begin;
    r.end.col += 2;
    if (u.badEscapeChar == '\n' || u.badEscapeChar == '\r') {
      r.end.col = r.begin.col + 1;
      diags_.error(r, "a string cannot continue on the next line (a '\\' before the line break)");
    } else {
      std::string esc = "\\";
      appendUtf8(esc, u.badEscapeChar);
      diags_.error(r, fmt::format("unknown escape sequence {} in a string (the escapes are \\\", "
                                  "\\\\, \\n and \\t)",
                                  quoteForMessage(esc)));
    }
  }
  return std::move(u.value);
}

std::string AstBuilder::sourceText(antlr4::ParserRuleContext* ctx) {
  if (ctx == nullptr || ctx->start == nullptr || ctx->stop == nullptr || chars_ == nullptr) {
    return {};
  }
  const size_t a = ctx->start->getStartIndex();
  const size_t b = ctx->stop->getStopIndex();
  if (a == kInvalidIndex || b == kInvalidIndex || b < a || b >= chars_->size()) {
    return {};
  }
  return chars_->getText(antlr4::misc::Interval(a, b));
}

void AstBuilder::buildFile(P::FileContext* ctx, File& out) {
  if (ctx == nullptr) return;
  if (P::PartHeaderContext* ph = ctx->partHeader()) out.partOf = ident(ph->ident());
  for (P::TopItemContext* item : ctx->topItem()) {
    if (item == nullptr) continue;
    if (auto* r = item->rulesetBlock()) {
      out.blocks.push_back(rulesetBlock(r));
    } else if (auto* h = item->houseBlock()) {
      out.blocks.push_back(houseBlock(h));
    } else if (auto* m = item->moduleBlock()) {
      out.blocks.push_back(moduleBlock(m));
    } else if (auto* s = item->scenarioBlock()) {
      out.blocks.push_back(scenarioBlock(s));
    } else if (auto* d = item->declaration()) {
      if (DeclPtr decl = declaration(d)) out.decls.push_back(std::move(decl));
    }
  }
}

ExprPtr AstBuilder::buildReplExpr(P::ReplExprContext* ctx) {
  if (ctx == nullptr) return nullptr;
  return expr(ctx->expr());
}

std::unique_ptr<Block> AstBuilder::rulesetBlock(P::RulesetBlockContext* ctx) {
  auto b = std::make_unique<Block>(BlockKind::Ruleset);
  b->range = range(ctx);
  std::vector<P::IdentContext*> ids = ctx->ident();
  if (!ids.empty()) b->name = ident(ids[0]);
  if (ctx->EXTENDS() != nullptr && ids.size() > 1) b->base = ident(ids[1]);
  b->title = stringValue(ctx->STRING());
  b->citations = citations(ctx->citation());
  declarations(ctx->declaration(), b->decls);
  return b;
}

std::unique_ptr<Block> AstBuilder::houseBlock(P::HouseBlockContext* ctx) {
  auto b = std::make_unique<Block>(BlockKind::House);
  b->range = range(ctx);
  std::vector<P::IdentContext*> ids = ctx->ident();
  if (!ids.empty()) b->name = ident(ids[0]);
  if (ids.size() > 1) b->base = ident(ids[1]);
  b->title = stringValue(ctx->STRING());
  b->citations = citations(ctx->citation());
  declarations(ctx->declaration(), b->decls);
  return b;
}

std::unique_ptr<Block> AstBuilder::moduleBlock(P::ModuleBlockContext* ctx) {
  auto b = std::make_unique<Block>(BlockKind::Module);
  b->range = range(ctx);
  b->moduleName = qualifiedName(ctx->qualifiedName());
  b->title = stringValue(ctx->STRING());
  declarations(ctx->declaration(), b->decls);
  return b;
}

std::unique_ptr<Block> AstBuilder::scenarioBlock(P::ScenarioBlockContext* ctx) {
  auto b = std::make_unique<Block>(BlockKind::Scenario);
  b->range = range(ctx);
  std::vector<P::IdentContext*> ids = ctx->ident();
  if (!ids.empty()) b->name = ident(ids[0]);
  if (ids.size() > 1) b->base = ident(ids[1]);
  b->title = stringValue(ctx->STRING());
  b->citations = citations(ctx->citation());
  for (P::ScenarioItemContext* item : ctx->scenarioItem()) scenarioItem(item, b->scenario);
  return b;
}

}  // namespace polemos::syntax
