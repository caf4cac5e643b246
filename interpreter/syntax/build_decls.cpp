// The AST builder: declarations.
#include "syntax/ast_builder_internal.h"

namespace polemos::syntax {

using namespace building;

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
      if (!types.empty())
        kind = removedDeclKind(types[0], types.size() > 1 ? types[1] : 0).value_or(kind);
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
    auto d = make(c->GAME() != nullptr  ? DeclKind::GameState
                  : c->HEX() != nullptr ? DeclKind::HexState
                                        : DeclKind::SideState);
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
    if (auto* b = s->fieldBounds()) {
      IntValue lo = parseInt(text(b->lo), b->loNeg != nullptr);
      IntValue hi = parseInt(text(b->hi), b->hiNeg != nullptr);
      f.bounds = std::make_pair(lo.value, hi.value);
      f.boundsOverflow = lo.overflow || hi.overflow;
      f.boundsRange = range(b);
    }
    f.value = expr(s->expr());
    f.citations = citations(s->citation());
    f.description = stringValue(s->STRING());
    fieldDisplay(s->fieldDisplay(), f);
    out.push_back(std::move(f));
  } else if (auto* d = as<P::DerivedFieldContext>(ctx)) {
    FieldDecl f;
    f.range = range(ctx);
    f.derived = true;
    f.name = ident(d->ident());
    f.value = expr(d->expr());
    f.citations = citations(d->citation());
    f.description = stringValue(d->STRING());
    fieldDisplay(d->fieldDisplay(), f);
    out.push_back(std::move(f));
  }
}

void AstBuilder::fieldDisplay(P::FieldDisplayContext* ctx, FieldDecl& f) {
  if (ctx == nullptr) return;
  f.display = ctx->role != nullptr && ctx->role->getType() == P::COUNTER ? FieldDisplay::Counter
                                                                         : FieldDisplay::Marker;
  f.displayLabel = stringValue(ctx->STRING());
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
    if (as<P::LevelGateContext>(g) != nullptr || as<P::IfGateContext>(g) != nullptr) {
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

}  // namespace polemos::syntax
