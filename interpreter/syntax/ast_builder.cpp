#include "syntax/ast_builder.h"

#include <fmt/format.h>

#include <typeinfo>

#include "syntax/text.h"

namespace polemos::syntax {

using namespace polemos::ast;
using antlr4::tree::TerminalNode;
using P = PolemosParser;

namespace {

// A token that is really in the source: not absent, not conjured by error recovery (conjured
// tokens have no index in the stream).
bool isReal(TerminalNode* n) {
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

// The only child of a context, if it has exactly one and it is a T (the common case of every
// precedence level of an expression: `orExpr` holding one `andExpr`, and so on down).
template <class T>
T* onlyChild(antlr4::ParserRuleContext* ctx) {
  if (ctx->children.size() != 1) return nullptr;
  return as<T>(ctx->children[0]);
}

std::string text(TerminalNode* n) { return isReal(n) ? n->getSymbol()->getText() : std::string(); }

ExprPtr makeExpr(ExprKind kind, diag::SourceRange r) {
  auto e = std::make_unique<Expr>(kind);
  e->range = r;
  return e;
}

ExprPtr binary(BinaryOp op, ExprPtr lhs, ExprPtr rhs) {
  diag::SourceRange r = spanRanges(lhs ? lhs->range : diag::SourceRange{},
                                   rhs ? rhs->range : diag::SourceRange{});
  auto e = makeExpr(ExprKind::Binary, r);
  e->binaryOp = op;
  e->operands.push_back(std::move(lhs));
  e->operands.push_back(std::move(rhs));
  return e;
}

// The first terminal child of a context with the given text (for literal tokens, which get no
// accessor in the generated code).
TerminalNode* childToken(antlr4::ParserRuleContext* ctx, std::string_view lit) {
  if (ctx == nullptr) return nullptr;
  for (antlr4::tree::ParseTree* c : ctx->children) {
    auto* t = dynamic_cast<TerminalNode*>(c);
    if (isReal(t) && t->getSymbol()->getText() == lit) return t;
  }
  return nullptr;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Leaves
// ---------------------------------------------------------------------------------------------

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
  std::string s = t->getText();
  static constexpr std::string_view kSection = "\u00A7";  // §
  if (s.compare(0, kSection.size(), kSection) == 0) s.erase(0, kSection.size());
  c.text = std::move(s);
  return c;
}

std::vector<Citation> AstBuilder::citations(const std::vector<P::CitationContext*>& ctxs) {
  std::vector<Citation> out;
  out.reserve(ctxs.size());
  for (P::CitationContext* c : ctxs) {
    if (c != nullptr && isReal(c->CITATION())) out.push_back(citationToken(c->CITATION()->getSymbol()));
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

// ---------------------------------------------------------------------------------------------
// Files and blocks
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Declarations
// ---------------------------------------------------------------------------------------------

void AstBuilder::declarations(const std::vector<P::DeclarationContext*>& ctxs,
                              std::vector<DeclPtr>& out) {
  out.reserve(out.size() + ctxs.size());
  for (P::DeclarationContext* d : ctxs) {
    if (DeclPtr decl = declaration(d)) out.push_back(std::move(decl));
  }
}

DeclPtr AstBuilder::declaration(P::DeclarationContext* ctx) {
  if (ctx == nullptr) return nullptr;
  if (auto* o = as<P::OverlayDeclContext>(ctx)) {
    DeclPtr d = declBody(o->declBody());
    if (!d) return nullptr;
    d->overlay = o->REPLACE() != nullptr ? OverlayMode::Replace : OverlayMode::Add;
    d->range = range(ctx);
    return d;
  }
  if (auto* p = as<P::PlainDeclContext>(ctx)) {
    DeclPtr d = declBody(p->declBody());
    if (d) d->range = range(ctx);
    return d;
  }
  if (auto* r = as<P::RemoveDeclContext>(ctx)) {
    DeclKind kind = DeclKind::Option;
    std::string words;
    if (P::DeclKindContext* k = r->declKind()) {
      std::vector<size_t> types;
      for (antlr4::tree::ParseTree* c : k->children) {
        auto* t = dynamic_cast<TerminalNode*>(c);
        if (!isReal(t)) continue;
        if (!words.empty()) words += ' ';
        words += t->getSymbol()->getText();
        types.push_back(t->getSymbol()->getType());
      }
      if (!types.empty()) {
        switch (types[0]) {
          case P::OPTION: kind = DeclKind::Option; break;
          case P::ENUM: kind = DeclKind::Enum; break;
          case P::CONST: kind = DeclKind::Const; break;
          case P::UNIT:
            kind = (types.size() > 1 && types[1] == P::TYPE) ? DeclKind::UnitType
                                                              : DeclKind::UnitClass;
            break;
          case P::TERRAIN: kind = DeclKind::Terrain; break;
          case P::HEXSIDE: kind = DeclKind::Hexside; break;
          case P::TABLE: kind = DeclKind::Table; break;
          case P::QUANTITY: kind = DeclKind::Quantity; break;
          case P::MODIFIER: kind = DeclKind::Modifier; break;
          case P::FUNCTION: kind = DeclKind::Function; break;
          case P::PROCEDURE: kind = DeclKind::Procedure; break;
          case P::ACTION: kind = DeclKind::Action; break;
          case P::RESULTS: kind = DeclKind::Results; break;
          case P::EVENT: kind = DeclKind::Event; break;
          case P::TRIGGER: kind = DeclKind::Trigger; break;
          case P::DIE: kind = DeclKind::Die; break;
          case P::LEVELS: kind = DeclKind::Levels; break;
          // Phases and steps live in the sequence of play; removeKind says which.
          case P::PHASE:
          case P::STEP: kind = DeclKind::Sequence; break;
          default: break;
        }
      }
    }
    auto d = std::make_unique<Decl>(kind);
    d->overlay = OverlayMode::Remove;
    d->range = range(ctx);
    d->removeKind = std::move(words);
    d->qualified = qualifiedName(r->qualifiedName());
    d->citations = citations(r->citation());
    return d;
  }
  return nullptr;  // an alternative that error recovery never chose
}

DeclPtr AstBuilder::declBody(P::DeclBodyContext* ctx) {
  if (ctx == nullptr) return nullptr;
  auto make = [&](DeclKind k) {
    auto d = std::make_unique<Decl>(k);
    d->range = range(ctx);
    return d;
  };
  if (auto* c = as<P::UsesDeclContext>(ctx)) {
    auto d = make(DeclKind::Uses);
    for (P::QualifiedNameContext* q : c->qualifiedName()) d->uses.push_back(qualifiedName(q));
    if (!d->uses.empty()) d->qualified = d->uses.front();
    return d;
  }
  if (auto* c = as<P::IncludeDeclContext>(ctx)) {
    auto d = make(DeclKind::Include);
    for (TerminalNode* s : c->STRING()) {
      if (isReal(s)) d->includes.push_back(stringValue(s));
    }
    return d;
  }
  if (auto* c = as<P::LevelsDeclContext>(ctx)) {
    auto d = make(DeclKind::Levels);
    for (P::IdentContext* i : c->ident()) d->levels.push_back(ident(i));
    d->citations = citations(c->citation());
    return d;
  }
  if (auto* c = as<P::OptionDeclContext>(ctx)) {
    auto d = make(DeclKind::Option);
    d->name = ident(c->ident());
    d->type = typeRef(c->typeRef());
    d->value = expr(c->expr());
    d->citations = citations(c->citation());
    d->description = stringValue(c->STRING());
    return d;
  }
  if (auto* c = as<P::EnumDeclContext>(ctx)) {
    auto d = make(DeclKind::Enum);
    d->name = ident(c->ident());
    d->citations = citations(c->citation());
    for (P::EnumMemberContext* m : c->enumMember()) {
      if (m != nullptr) d->members.push_back(enumMember(m));
    }
    return d;
  }
  if (auto* c = as<P::ConstDeclContext>(ctx)) {
    auto d = make(DeclKind::Const);
    d->name = ident(c->ident());
    d->type = typeRef(c->typeRef());
    d->value = expr(c->expr());
    d->citations = citations(c->citation());
    return d;
  }
  if (auto* c = as<P::DieDeclContext>(ctx)) {
    auto d = make(DeclKind::Die);
    d->name = ident(c->ident());
    d->faces = exprs(c->expr());
    d->citations = citations(c->citation());
    d->description = stringValue(c->STRING());
    return d;
  }
  if (auto* c = as<P::StateDeclContext>(ctx)) {
    auto d = make(c->GAME() != nullptr ? DeclKind::GameState : DeclKind::SideState);
    d->citations = citations(c->citation());
    d->fields = fieldDecls(c->fieldDecl());
    return d;
  }
  if (auto* c = as<P::ClassDeclContext>(ctx)) {
    auto d = make(DeclKind::UnitClass);
    d->name = ident(c->ident());
    d->citations = citations(c->citation());
    d->fields = fieldDecls(c->fieldDecl());
    return d;
  }
  if (auto* c = as<P::UnitTypeDeclContext>(ctx)) {
    auto d = make(DeclKind::UnitType);
    std::vector<P::IdentContext*> ids = c->ident();
    if (!ids.empty()) d->name = ident(ids[0]);
    if (ids.size() > 1) d->baseClass = ident(ids[1]);
    d->description = stringValue(c->STRING());
    d->citations = citations(c->citation());
    d->inits = fieldInits(c->fieldInit());
    return d;
  }
  if (auto* c = as<P::AttributesDeclContext>(ctx)) {
    DeclKind k = c->HEXSIDE() != nullptr    ? DeclKind::HexsideAttributes
                 : c->SCENARIO() != nullptr ? DeclKind::ScenarioAttributes
                                            : DeclKind::TerrainAttributes;
    auto d = make(k);
    d->citations = citations(c->citation());
    d->fields = fieldDecls(c->fieldDecl());
    return d;
  }
  if (auto* c = as<P::KindDeclContext>(ctx)) {
    auto d = make(c->HEXSIDE() != nullptr ? DeclKind::Hexside : DeclKind::Terrain);
    d->name = ident(c->ident());
    d->description = stringValue(c->STRING());
    d->citations = citations(c->citation());
    d->inits = fieldInits(c->fieldInit());
    return d;
  }
  if (auto* c = as<P::TableDeclContext>(ctx)) {
    auto d = make(DeclKind::Table);
    d->name = ident(c->ident());
    d->description = stringValue(c->STRING());
    d->citations = citations(c->citation());
    tableBody(c->tableBody(), d->table);
    return d;
  }
  if (auto* c = as<P::QuantityDeclContext>(ctx)) {
    auto d = make(DeclKind::Quantity);
    d->qualified = qualifiedName(c->qualifiedName());
    d->params = params(c->params());
    d->type = typeRef(c->typeRef());
    d->value = expr(c->expr());
    d->citations = citations(c->citation());
    d->description = stringValue(c->STRING());
    return d;
  }
  if (auto* c = as<P::ModifierDeclContext>(ctx)) {
    auto d = make(DeclKind::Modifier);
    d->name = ident(c->ident());
    d->qualified = qualifiedName(c->qualifiedName());
    d->paramNames = identList(c->identList());
    d->citations = citations(c->citation());
    d->gates = gates(c->gate());
    d->description = stringValue(c->STRING());
    for (P::ModClauseContext* m : c->modClause()) {
      if (m != nullptr) d->clauses.push_back(modClause(m));
    }
    return d;
  }
  if (auto* c = as<P::FunctionDeclContext>(ctx)) {
    auto d = make(DeclKind::Function);
    d->name = ident(c->ident());
    d->params = params(c->params());
    d->type = typeRef(c->typeRef());
    d->citations = citations(c->citation());
    if (P::BlockContext* b = c->block()) {
      d->hasBody = true;
      d->body = block(b);
    } else {
      d->value = expr(c->expr());
    }
    return d;
  }
  if (auto* c = as<P::ProcedureDeclContext>(ctx)) {
    auto d = make(DeclKind::Procedure);
    d->name = ident(c->ident());
    d->params = params(c->params());
    d->type = typeRef(c->typeRef());
    d->citations = citations(c->citation());
    d->hasBody = true;
    d->body = block(c->block());
    return d;
  }
  if (auto* c = as<P::ActionDeclContext>(ctx)) {
    auto d = make(DeclKind::Action);
    d->name = ident(c->ident());
    d->params = actionParams(c->actionParams());
    d->citations = citations(c->citation());
    d->description = stringValue(c->STRING());
    d->gates = gates(c->gate());
    d->hasBody = true;
    d->body = block(c->block());
    return d;
  }
  if (auto* c = as<P::ResultsDeclContext>(ctx)) {
    auto d = make(DeclKind::Results);
    d->name = ident(c->ident());
    d->params = params(c->params());
    d->citations = citations(c->citation());
    for (P::ResultCaseContext* rc : c->resultCase()) {
      if (rc != nullptr) d->cases.push_back(resultCase(rc));
    }
    return d;
  }
  if (auto* c = as<P::EventDeclContext>(ctx)) {
    auto d = make(DeclKind::Event);
    d->name = ident(c->ident());
    d->params = params(c->params());
    d->citations = citations(c->citation());
    return d;
  }
  if (auto* c = as<P::TriggerDeclContext>(ctx)) {
    auto d = make(DeclKind::Trigger);
    std::vector<P::IdentContext*> ids = c->ident();
    if (!ids.empty()) d->name = ident(ids[0]);
    if (ids.size() > 1) d->event = ident(ids[1]);
    d->paramNames = identList(c->identList());
    d->citations = citations(c->citation());
    d->gates = gates(c->gate());
    d->hasBody = true;
    d->body = block(c->block());
    return d;
  }
  if (auto* c = as<P::SequenceDeclContext>(ctx)) {
    auto d = make(DeclKind::Sequence);
    d->citations = citations(c->citation());
    d->hasBody = true;
    d->body = block(c->block());
    return d;
  }
  return nullptr;
}

EnumMember AstBuilder::enumMember(P::EnumMemberContext* ctx) {
  EnumMember m;
  m.name = ident(ctx->ident());
  m.citations = citations(ctx->citation());
  m.description = stringValue(ctx->STRING());
  return m;
}

void AstBuilder::fieldDecl(P::FieldDeclContext* ctx, std::vector<FieldDecl>& out) {
  if (auto* s = as<P::StoredFieldContext>(ctx)) {
    FieldDecl f;
    f.range = range(ctx);
    f.isState = s->STATE() != nullptr;
    f.name = ident(s->ident());
    f.type = typeRef(s->typeRef());
    f.value = expr(s->expr());
    f.citations = citations(s->citation());
    f.description = stringValue(s->STRING());
    out.push_back(std::move(f));
  } else if (auto* d = as<P::DerivedFieldContext>(ctx)) {
    FieldDecl f;
    f.range = range(ctx);
    f.derived = true;
    f.name = ident(d->ident());
    f.value = expr(d->expr());
    f.citations = citations(d->citation());
    f.description = stringValue(d->STRING());
    out.push_back(std::move(f));
  }
}

std::vector<FieldDecl> AstBuilder::fieldDecls(const std::vector<P::FieldDeclContext*>& ctxs) {
  std::vector<FieldDecl> out;
  out.reserve(ctxs.size());
  for (P::FieldDeclContext* f : ctxs) fieldDecl(f, out);
  return out;
}

FieldInit AstBuilder::fieldInit(P::FieldInitContext* ctx) {
  FieldInit f;
  f.range = range(ctx);
  f.name = ident(ctx->ident());
  f.value = expr(ctx->expr());
  return f;
}

std::vector<FieldInit> AstBuilder::fieldInits(const std::vector<P::FieldInitContext*>& ctxs) {
  std::vector<FieldInit> out;
  out.reserve(ctxs.size());
  for (P::FieldInitContext* f : ctxs) {
    if (f != nullptr) out.push_back(fieldInit(f));
  }
  return out;
}

Gate AstBuilder::gate(P::GateContext* ctx) {
  Gate g;
  g.range = range(ctx);
  if (auto* l = as<P::LevelGateContext>(ctx)) {
    g.kind = Gate::Level;
    g.level = ident(l->ident());
  } else if (auto* i = as<P::IfGateContext>(ctx)) {
    g.kind = Gate::If;
    g.cond = expr(i->expr());
  }
  return g;
}

std::vector<Gate> AstBuilder::gates(const std::vector<P::GateContext*>& ctxs) {
  std::vector<Gate> out;
  for (P::GateContext* g : ctxs) {
    if (as<P::LevelGateContext>(g) != nullptr ||
        as<P::IfGateContext>(g) != nullptr) {
      out.push_back(gate(g));
    }
  }
  return out;
}

std::vector<Param> AstBuilder::params(P::ParamsContext* ctx) {
  std::vector<Param> out;
  if (ctx == nullptr) return out;
  for (P::ParamContext* p : ctx->param()) {
    if (p == nullptr) continue;
    Param param;
    param.range = range(p);
    param.name = ident(p->ident());
    param.type = typeRefValue(p->typeRef());
    out.push_back(std::move(param));
  }
  return out;
}

std::vector<Param> AstBuilder::actionParams(P::ActionParamsContext* ctx) {
  std::vector<Param> out;
  if (ctx == nullptr) return out;
  for (P::ActionParamContext* p : ctx->actionParam()) {
    if (p == nullptr) continue;
    Param param;
    param.range = range(p);
    param.name = ident(p->ident());
    param.type = typeRefValue(p->typeRef());
    param.domain = expr(p->expr());
    out.push_back(std::move(param));
  }
  return out;
}

std::vector<Ident> AstBuilder::identList(P::IdentListContext* ctx) {
  std::vector<Ident> out;
  if (ctx == nullptr) return out;
  for (P::IdentContext* i : ctx->ident()) out.push_back(ident(i));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Tables, modifiers, results
// ---------------------------------------------------------------------------------------------

Ident AstBuilder::keyKind(P::KeyKindContext* ctx) {
  if (ctx == nullptr) return {};
  if (P::IdentContext* i = ctx->ident()) return ident(i);
  return tokenIdent(ctx->DICE());
}

void AstBuilder::tableBody(P::TableBodyContext* ctx, TableSpec& out) {
  if (ctx == nullptr) return;
  if (P::TableRowsSpecContext* r = ctx->tableRowsSpec()) out.rowKind = keyKind(r->keyKind());
  if (P::TableColumnsSpecContext* c = ctx->tableColumnsSpec()) {
    out.columnKind = keyKind(c->keyKind());
    for (P::TableKeyContext* k : c->tableKey()) out.columns.push_back(tableKey(k));
  }
  for (P::TableRowContext* r : ctx->tableRow()) {
    if (r != nullptr) out.rows.push_back(tableRow(r));
  }
}

TableKey AstBuilder::tableKey(P::TableKeyContext* ctx) {
  TableKey k;
  k.range = range(ctx);
  if (auto* r = as<P::RangeKeyContext>(ctx)) {
    k.kind = TableKey::Range;
    IntValue lo = parseInt(text(r->INT(0)));
    IntValue hi = parseInt(text(r->INT(1)));
    k.lo = lo.value;
    k.hi = hi.value;
    k.overflow = lo.overflow || hi.overflow;
  } else if (auto* b = as<P::BoundKeyContext>(ctx)) {
    const std::string op = b->op != nullptr ? b->op->getText() : "";
    k.kind = op == "<"    ? TableKey::Less
             : op == "<=" ? TableKey::LessEq
             : op == ">"  ? TableKey::Greater
                          : TableKey::GreaterEq;
    IntValue v = parseInt(text(b->INT()), b->neg != nullptr);
    k.lo = v.value;
    k.overflow = v.overflow;
  } else if (auto* i = as<P::IntKeyContext>(ctx)) {
    k.kind = TableKey::Int;
    IntValue v = parseInt(text(i->INT()), i->neg != nullptr);
    k.lo = v.value;
    k.overflow = v.overflow;
  } else if (auto* o = as<P::OddsKeyContext>(ctx)) {
    k.kind = TableKey::Odds;
    OddsValue v = parseOdds(text(o->ODDS()));
    k.lo = v.a;
    k.hi = v.b;
    k.overflow = v.overflow;
  } else if (auto* n = as<P::NameKeyContext>(ctx)) {
    k.kind = TableKey::Name;
    k.name = ident(n->ident()).name;
  }
  return k;
}

TableRow AstBuilder::tableRow(P::TableRowContext* ctx) {
  TableRow row;
  row.range = range(ctx);
  row.key = tableKey(ctx->tableKey());
  std::vector<P::TableCellContext*> cells = ctx->tableCell();
  row.cells.reserve(cells.size());
  for (size_t i = 0; i < cells.size(); ++i) {
    P::TableCellContext* c = cells[i];
    if (c == nullptr || c->children.empty()) continue;
    TableCell cell;
    cell.range = range(c);
    if (TerminalNode* n = c->INT()) {
      cell.kind = TableCell::Int;
      IntValue v = parseInt(text(n));
      cell.intValue = v.value;
      cell.overflow = v.overflow;
    } else if (TerminalNode* o = c->ODDS()) {
      cell.kind = TableCell::Odds;
      OddsValue v = parseOdds(text(o));
      cell.intValue = v.a;
      cell.oddsB = v.b;
      cell.overflow = v.overflow;
    } else if (TerminalNode* s = c->STRING()) {
      cell.kind = TableCell::String;
      cell.text = stringValue(s);
    } else if (P::IdentContext* id = c->ident()) {
      cell.kind = TableCell::Name;
      cell.text = ident(id).name;
    } else if (c->TRUE() != nullptr || c->FALSE() != nullptr) {
      cell.kind = TableCell::Bool;
      cell.intValue = c->TRUE() != nullptr ? 1 : 0;
      cell.text = c->TRUE() != nullptr ? "true" : "false";
    } else if (c->NONE() != nullptr) {
      cell.kind = TableCell::None;
    } else {
      // '-': a negative number when it touches the INT that follows, else an empty cell.
      cell.kind = TableCell::Empty;
      cell.text = "-";
      if (i + 1 < cells.size() && cells[i + 1] != nullptr) {
        TerminalNode* next = cells[i + 1]->INT();
        antlr4::Token* minus = c->start;
        if (isReal(next) && minus != nullptr &&
            minus->getStopIndex() + 1 == next->getSymbol()->getStartIndex()) {
          cell.kind = TableCell::Int;
          cell.text.clear();
          IntValue v = parseInt(text(next), true);
          cell.intValue = v.value;
          cell.overflow = v.overflow;
          cell.range = spanRanges(cell.range, range(next));
          ++i;
        }
      }
    }
    row.cells.push_back(std::move(cell));
  }
  return row;
}

ModClause AstBuilder::modClause(P::ModClauseContext* ctx) {
  ModClause m;
  m.range = range(ctx);
  if (auto* w = as<P::WhenClauseContext>(ctx)) {
    std::vector<P::ExprContext*> es = w->expr();
    if (!es.empty()) m.cond = expr(es[0]);
    for (size_t i = 1; i < es.size(); ++i) m.because.push_back(expr(es[i]));
    modOp(w->modOp(), m);
  } else if (auto* a = as<P::AlwaysClauseContext>(ctx)) {
    for (P::ExprContext* e : a->expr()) m.because.push_back(expr(e));
    modOp(a->modOp(), m);
  }
  return m;
}

void AstBuilder::modOp(P::ModOpContext* ctx, ModClause& out) {
  if (auto* a = as<P::ArithOpContext>(ctx)) {
    const std::string op = a->op != nullptr ? a->op->getText() : "+";
    out.op = op == "-"   ? ModOpKind::Sub
             : op == "*" ? ModOpKind::Mul
             : op == "=" ? ModOpKind::Set
                         : ModOpKind::Add;
    out.operand = expr(a->expr());
  } else if (auto* d = as<P::DivideOpContext>(ctx)) {
    out.op = ModOpKind::Div;
    out.operand = expr(d->expr());
    out.rounding = d->UP() != nullptr        ? Rounding::Up
                   : d->NEAREST() != nullptr ? Rounding::Nearest
                                             : Rounding::Down;
  } else if (auto* s = as<P::ShiftOpContext>(ctx)) {
    out.op = ModOpKind::Shift;
    out.operand = expr(s->expr());
  }
}

ResultCase AstBuilder::resultCase(P::ResultCaseContext* ctx) {
  ResultCase rc;
  rc.range = range(ctx);
  if (P::IdentContext* i = ctx->ident()) {
    rc.name = ident(i);
  } else if (ctx->start != nullptr) {
    rc.name.name = "-";
    rc.name.range = range(ctx->start);
  }
  rc.citations = citations(ctx->citation());
  rc.description = stringValue(ctx->STRING());
  rc.body = block(ctx->block());
  return rc;
}

// ---------------------------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------------------------

void AstBuilder::scenarioItem(P::ScenarioItemContext* ctx, Scenario& out) {
  if (auto* m = as<P::MapItem_Context>(ctx)) {
    MapSpec spec = mapSpec(m);
    if (out.map) {
      // The AST holds one map per scenario; a second one cannot be represented, so it is
      // reported here rather than silently dropped.
      diag::Diagnostic& d = diags_.error(range(m->MAP()), "a scenario has only one map");
      diags_.note(d, out.map->range, "the first map is here");
      return;
    }
    out.map = std::move(spec);
  } else if (auto* s = as<P::SideItemContext>(ctx)) {
    SideSpec side;
    side.range = range(ctx);
    side.name = ident(s->ident());
    side.title = stringValue(s->STRING());
    side.citations = citations(s->citation());
    side.inits = fieldInits(s->fieldInit());
    out.sides.push_back(std::move(side));
  } else if (auto* f = as<P::ForceItemContext>(ctx)) {
    ForceSpec force;
    force.range = range(ctx);
    force.side = ident(f->ident());
    force.citations = citations(f->citation());
    for (P::UnitPlacementContext* u : f->unitPlacement()) {
      if (u != nullptr) force.units.push_back(unitPlacement(u));
    }
    out.forces.push_back(std::move(force));
  } else if (auto* st = as<P::SettingItemContext>(ctx)) {
    FieldInit init;
    init.range = range(ctx);
    init.name = ident(st->ident());
    init.value = expr(st->expr());
    init.citations = citations(st->citation());
    out.settings.push_back(std::move(init));
  } else if (auto* r = as<P::RulesItemContext>(ctx)) {
    declarations(r->declaration(), out.rules);
  }
}

MapSpec AstBuilder::mapSpec(P::MapItem_Context* ctx) {
  MapSpec m;
  m.range = range(ctx);
  std::vector<TerminalNode*> ints = ctx->INT();
  int64_t* fields[] = {&m.colFrom, &m.colTo, &m.rowFrom, &m.rowTo};
  for (size_t i = 0; i < ints.size() && i < 4; ++i) *fields[i] = parseInt(text(ints[i])).value;
  if (ctx->LABELS() != nullptr) m.labels = ident(ctx->ident());
  m.citations = citations(ctx->citation());
  for (P::MapItemContext* item : ctx->mapItem()) {
    if (item != nullptr) m.items.push_back(mapItem(item));
  }
  return m;
}

std::vector<HexRef> AstBuilder::hexRefs(const std::vector<P::HexRefContext*>& ctxs) {
  std::vector<HexRef> out;
  out.reserve(ctxs.size());
  for (P::HexRefContext* h : ctxs) {
    if (h == nullptr) continue;
    HexRef ref;
    ref.range = range(h);
    std::vector<P::HexLabelContext*> labels = h->hexLabel();
    if (!labels.empty()) ref.from = hexLabel(labels[0]);
    if (labels.size() > 1) ref.to = hexLabel(labels[1]);
    out.push_back(std::move(ref));
  }
  return out;
}

MapItem AstBuilder::mapItem(P::MapItemContext* ctx) {
  MapItem m;
  m.range = range(ctx);
  if (auto* d = as<P::DefaultTerrainContext>(ctx)) {
    m.kind = MapItem::Default;
    m.name = ident(d->ident());
  } else if (auto* t = as<P::TerrainItemContext>(ctx)) {
    m.kind = MapItem::Terrain;
    m.name = ident(t->ident());
    m.hexes = hexRefs(t->hexRef());
  } else if (auto* h = as<P::HexsideItemContext>(ctx)) {
    m.kind = MapItem::Hexside;
    m.name = ident(h->ident());
    for (P::HexPairContext* p : h->hexPair()) {
      if (p == nullptr) continue;
      HexPair pair;
      pair.range = range(p);
      std::vector<P::HexLabelContext*> labels = p->hexLabel();
      if (!labels.empty()) pair.a = hexLabel(labels[0]);
      if (labels.size() > 1) pair.b = hexLabel(labels[1]);
      m.pairs.push_back(std::move(pair));
    }
  } else if (auto* e = as<P::ElevationItemContext>(ctx)) {
    m.kind = MapItem::Elevation;
    m.elevation = parseInt(text(e->INT())).value;
    m.hexes = hexRefs(e->hexRef());
  } else if (auto* g = as<P::GroupItemContext>(ctx)) {
    m.kind = MapItem::Group;
    m.name = ident(g->ident());
    m.hexes = hexRefs(g->hexRef());
  }
  return m;
}

Ident AstBuilder::hexLabel(P::HexLabelContext* ctx) {
  if (ctx == nullptr) return {};
  if (P::IdentContext* i = ctx->ident()) return ident(i);
  return tokenIdent(ctx->INT());  // as written: "0305" keeps its leading zero
}

UnitPlacement AstBuilder::unitPlacement(P::UnitPlacementContext* ctx) {
  UnitPlacement u;
  u.range = range(ctx);
  std::vector<P::IdentContext*> ids = ctx->ident();
  if (!ids.empty()) u.id = ident(ids[0]);
  if (ids.size() > 1) u.type = ident(ids[1]);
  if (ctx->AT() != nullptr && ctx->hexLabel() != nullptr) u.hex = hexLabel(ctx->hexLabel());
  if (ctx->FACING() != nullptr && ids.size() > 2) u.facing = ident(ids[2]);
  u.inits = fieldInits(ctx->fieldInit());
  return u;
}

// ---------------------------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------------------------

std::vector<StmtPtr> AstBuilder::block(P::BlockContext* ctx) {
  std::vector<StmtPtr> out;
  if (ctx == nullptr) return out;
  std::vector<P::StatementContext*> stmts = ctx->statement();
  out.reserve(stmts.size());
  for (P::StatementContext* s : stmts) {
    if (StmtPtr st = statement(s)) out.push_back(std::move(st));
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
  if (auto* c = as<P::ExprStmtContext>(ctx)) {
    auto s = make(StmtKind::ExprStmt);
    s->value = expr(c->expr());
    return s;
  }
  if (auto* c = as<P::LetStmtContext>(ctx)) {
    auto s = make(StmtKind::Let);
    s->name = ident(c->ident());
    s->typeRef = typeRef(c->typeRef());
    s->value = expr(c->expr());
    return s;
  }
  if (auto* c = as<P::AssignStmtContext>(ctx)) {
    auto s = make(StmtKind::Assign);
    s->target = postfixExpr(c->postfixExpr());
    const std::string op = c->op != nullptr ? c->op->getText() : "=";
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
    if (as<P::AllowItemContext>(p) != nullptr ||
        as<P::EndRequiresItemContext>(p) != nullptr ||
        as<P::OnStartItemContext>(p) != nullptr ||
        as<P::OnEndItemContext>(p) != nullptr) {
      out.push_back(phaseItem(p));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------------------------

std::vector<ExprPtr> AstBuilder::exprs(const std::vector<P::ExprContext*>& ctxs) {
  std::vector<ExprPtr> out;
  out.reserve(ctxs.size());
  for (P::ExprContext* e : ctxs) {
    if (ExprPtr x = expr(e)) out.push_back(std::move(x));
  }
  return out;
}

ExprPtr AstBuilder::expr(P::ExprContext* ctx) {
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
    for (size_t i = 0; i < 3; ++i) e->operands.push_back(i < parts.size() ? expr(parts[i]) : nullptr);
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
  for (size_t i = 1; i < parts.size(); ++i) e = binary(BinaryOp::Or, std::move(e), andExpr(parts[i]));
  return e;
}

ExprPtr AstBuilder::andExpr(P::AndExprContext* ctx) {
  if (ctx == nullptr) return nullptr;
  if (auto* only = onlyChild<P::NotExprContext>(ctx)) return notExpr(only);
  std::vector<P::NotExprContext*> parts = ctx->notExpr();
  if (parts.empty()) return nullptr;
  ExprPtr e = notExpr(parts[0]);
  for (size_t i = 1; i < parts.size(); ++i) e = binary(BinaryOp::And, std::move(e), notExpr(parts[i]));
  return e;
}

ExprPtr AstBuilder::notExpr(P::NotExprContext* ctx) {
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
  if (op->NOT() != nullptr) b = BinaryOp::NotIn;
  else if (op->IN() != nullptr) b = BinaryOp::In;
  else if (t == "!=") b = BinaryOp::Ne;
  else if (t == "<") b = BinaryOp::Lt;
  else if (t == "<=") b = BinaryOp::Le;
  else if (t == ">") b = BinaryOp::Gt;
  else if (t == ">=") b = BinaryOp::Ge;
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
    const bool minus = i - 1 < ctx->op.size() && ctx->op[i - 1] != nullptr &&
                       ctx->op[i - 1]->getText() == "-";
    e = binary(minus ? BinaryOp::Sub : BinaryOp::Add, std::move(e), mulExpr(parts[i]));
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
    e = binary(b, std::move(e), unaryExpr(parts[i]));
  }
  return e;
}

ExprPtr AstBuilder::unaryExpr(P::UnaryExprContext* ctx) {
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
  ExprPtr e = primary(ctx->primary());
  for (P::PostfixContext* p : ctx->postfix()) {
    if (p == nullptr) continue;
    diag::SourceRange r = spanRanges(e ? e->range : diag::SourceRange{}, range(p));
    if (auto* call = as<P::CallPostfixContext>(p)) {
      auto c = makeExpr(ExprKind::Call, r);
      c->operands.push_back(std::move(e));
      c->args = args(call->args());
      e = std::move(c);
    } else if (auto* index = as<P::IndexPostfixContext>(p)) {
      auto c = makeExpr(ExprKind::Index, r);
      c->operands.push_back(std::move(e));
      for (ExprPtr& x : exprs(index->expr())) c->operands.push_back(std::move(x));
      e = std::move(c);
    } else if (auto* member = as<P::MemberPostfixContext>(p)) {
      auto c = makeExpr(ExprKind::Member, r);
      c->operands.push_back(std::move(e));
      // `h.row`: `row` is a keyword (it starts a table row) but a fine member name.
      c->member = member->ROW() ? tokenIdent(member->ROW()) : ident(member->ident());
      e = std::move(c);
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

ExprPtr AstBuilder::primary(P::PrimaryContext* ctx) {
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
        case P::HIGHEST: e->rollMode = RollMode::Highest; break;
        case P::LOWEST: e->rollMode = RollMode::Lowest; break;
        case P::EACH: e->rollMode = RollMode::Each; break;
        default: break;
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
