// The AST builder: tables, modifiers, results and scenarios.
#include "syntax/ast_builder_internal.h"

namespace polemos::syntax {

using namespace building;

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
  } else if (auto* d = as<P::DotRangeKeyContext>(ctx)) {
    // LO..HI, either end negative (Warfare 18.8: -5..-1).
    k.kind = TableKey::Range;
    IntValue lo = parseInt(text(d->lo), d->loNeg != nullptr);
    IntValue hi = parseInt(text(d->hi), d->hiNeg != nullptr);
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
  } else if (auto* hs = as<P::HexStateItemContext>(ctx)) {
    m.kind = MapItem::HexState;
    m.name = ident(hs->ident());
    m.value = expr(hs->expr());
    m.hexes = hexRefs(hs->hexRef());
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

}  // namespace polemos::syntax
