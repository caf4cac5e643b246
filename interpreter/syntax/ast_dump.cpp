#include "syntax/ast_dump.h"

#include <fmt/format.h>

namespace polemos::syntax {

using namespace polemos::ast;

namespace {

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        out += c;
    }
  }
  return out + "\"";
}

const char* binaryName(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add:
      return "+";
    case BinaryOp::Sub:
      return "-";
    case BinaryOp::Mul:
      return "*";
    case BinaryOp::Div:
      return "/";
    case BinaryOp::Mod:
      return "%";
    case BinaryOp::Eq:
      return "==";
    case BinaryOp::Ne:
      return "!=";
    case BinaryOp::Lt:
      return "<";
    case BinaryOp::Le:
      return "<=";
    case BinaryOp::Gt:
      return ">";
    case BinaryOp::Ge:
      return ">=";
    case BinaryOp::In:
      return "in";
    case BinaryOp::NotIn:
      return "not-in";
    case BinaryOp::And:
      return "and";
    case BinaryOp::Or:
      return "or";
  }
  return "?";
}

std::string citations(const std::vector<Citation>& cs) {
  std::string out;
  for (const Citation& c : cs) out += " §" + c.text;
  return out;
}

std::string args(const std::vector<Arg>& as) {
  std::string out;
  for (const Arg& a : as) {
    out += ' ';
    if (a.name) out += a.name->name + ": ";
    out += dumpExpr(a.value.get());
  }
  return out;
}

std::string body(const std::vector<StmtPtr>& stmts) {
  std::string out = "{";
  for (size_t i = 0; i < stmts.size(); ++i) {
    if (i > 0) out += ' ';
    out += dumpStmt(stmts[i].get());
  }
  return out + "}";
}

std::string gates(const std::vector<Gate>& gs) {
  std::string out;
  for (const Gate& g : gs) {
    if (g.kind == Gate::Level) {
      out += " (level " + g.level.name + ")";
    } else {
      out += " (if " + dumpExpr(g.cond.get()) + ")";
    }
  }
  return out;
}

std::string phaseItems(const std::vector<PhaseItem>& items) {
  std::string out;
  for (const PhaseItem& p : items) {
    switch (p.kind) {
      case PhaseItem::Allow: {
        out += " (allow";
        for (const Ident& a : p.actions) out += " " + a.name;
        out += ")";
        break;
      }
      case PhaseItem::EndRequires:
        out += " (end-requires " + dumpExpr(p.cond.get()) + citations(p.citations);
        if (!p.message.empty()) out += " else " + quoted(p.message);
        out += ")";
        break;
      case PhaseItem::OnStart:
        out += " (on-start " + body(p.body) + ")";
        break;
      case PhaseItem::OnEnd:
        out += " (on-end " + body(p.body) + ")";
        break;
    }
  }
  return out;
}

std::string params(const std::vector<Param>& ps) {
  std::string out = "(";
  for (size_t i = 0; i < ps.size(); ++i) {
    if (i > 0) out += ", ";
    out += ps[i].name.name + ": " + dumpTypeRef(ps[i].type);
    if (ps[i].domain) out += " in " + dumpExpr(ps[i].domain.get());
  }
  return out + ")";
}

std::string fieldDecl(const FieldDecl& f) {
  std::string out = f.isState ? "state " : "";
  out += f.name.name;
  if (f.derived) {
    out += " := " + dumpExpr(f.value.get());
  } else {
    if (f.type) out += ": " + dumpTypeRef(*f.type);
    if (f.value) out += " = " + dumpExpr(f.value.get());
  }
  out += citations(f.citations);
  if (!f.description.empty()) out += " " + quoted(f.description);
  if (f.display != FieldDisplay::Hidden) {
    out += f.display == FieldDisplay::Counter ? " counter" : " marker";
    if (!f.displayLabel.empty()) out += " " + quoted(f.displayLabel);
  }
  return out;
}

std::string fieldInit(const FieldInit& f) {
  return f.name.name + " = " + dumpExpr(f.value.get()) + citations(f.citations);
}

std::string tableKey(const TableKey& k) {
  std::string v = k.overflow ? "overflow" : std::to_string(k.lo);
  switch (k.kind) {
    case TableKey::Int:
      return v;
    case TableKey::Range:
      return fmt::format("{}-{}", k.lo, k.hi);
    case TableKey::Less:
      return "<" + v;
    case TableKey::LessEq:
      return "<=" + v;
    case TableKey::Greater:
      return ">" + v;
    case TableKey::GreaterEq:
      return ">=" + v;
    case TableKey::Odds:
      return fmt::format("{}:{}", k.lo, k.hi);
    case TableKey::Name:
      return k.name;
  }
  return "?";
}

std::string tableCell(const TableCell& c) {
  switch (c.kind) {
    case TableCell::Empty:
      return "-";
    case TableCell::Int:
      return c.overflow ? "overflow" : std::to_string(c.intValue);
    case TableCell::Odds:
      return fmt::format("{}:{}", c.intValue, c.oddsB);
    case TableCell::String:
      return quoted(c.text);
    case TableCell::Name:
      return c.text;
    case TableCell::Bool:
      return c.intValue != 0 ? "true" : "false";
    case TableCell::None:
      return "none";
  }
  return "?";
}

const char* declKindName(DeclKind k) {
  switch (k) {
    case DeclKind::Uses:
      return "uses";
    case DeclKind::Include:
      return "include";
    case DeclKind::Levels:
      return "levels";
    case DeclKind::Option:
      return "option";
    case DeclKind::Enum:
      return "enum";
    case DeclKind::Const:
      return "const";
    case DeclKind::Die:
      return "die";
    case DeclKind::SideState:
      return "side-state";
    case DeclKind::GameState:
      return "game-state";
    case DeclKind::HexState:
      return "hex-state";
    case DeclKind::UnitClass:
      return "unit-class";
    case DeclKind::UnitType:
      return "unit-type";
    case DeclKind::TerrainAttributes:
      return "terrain-attributes";
    case DeclKind::HexsideAttributes:
      return "hexside-attributes";
    case DeclKind::ScenarioAttributes:
      return "scenario-attributes";
    case DeclKind::Terrain:
      return "terrain";
    case DeclKind::Hexside:
      return "hexside";
    case DeclKind::Table:
      return "table";
    case DeclKind::Quantity:
      return "quantity";
    case DeclKind::Modifier:
      return "modifier";
    case DeclKind::Function:
      return "function";
    case DeclKind::Procedure:
      return "procedure";
    case DeclKind::Action:
      return "action";
    case DeclKind::Results:
      return "results";
    case DeclKind::Event:
      return "event";
    case DeclKind::Trigger:
      return "trigger";
    case DeclKind::Sequence:
      return "sequence";
  }
  return "?";
}

std::string modClause(const ModClause& m) {
  static const char* kOps[] = {"+", "-", "*", "=", "/", "shift"};
  std::string out = m.cond ? "(when " + dumpExpr(m.cond.get()) : std::string("(always");
  out += fmt::format(" {} {}", kOps[static_cast<int>(m.op)], dumpExpr(m.operand.get()));
  if (m.op == ModOpKind::Div) {
    out += m.rounding == Rounding::Up ? " up" : m.rounding == Rounding::Nearest ? " nearest" : "";
  }
  if (!m.because.empty()) {
    out += " because";
    for (const ExprPtr& b : m.because) out += " " + dumpExpr(b.get());
  }
  return out + ")";
}

void line(std::string& out, int indent, const std::string& text) {
  out.append(static_cast<size_t>(indent) * 2, ' ');
  out += text;
  out += '\n';
}

}  // namespace

std::string dumpTypeRef(const TypeRef& t) {
  std::string out = t.name.name;
  if (!t.args.empty()) {
    out += '<';
    for (size_t i = 0; i < t.args.size(); ++i) {
      if (i > 0) out += ", ";
      out += dumpTypeRef(t.args[i]);
    }
    out += '>';
  }
  if (t.optional) out += '?';
  return out;
}

std::string dumpExpr(const Expr* e) {
  if (e == nullptr) return "<null>";
  auto ops = [&](size_t from) {
    std::string out;
    for (size_t i = from; i < e->operands.size(); ++i) out += " " + dumpExpr(e->operands[i].get());
    return out;
  };
  switch (e->kind) {
    case ExprKind::Int:
      return e->overflow ? "<overflow " + e->text + ">" : std::to_string(e->intValue);
    case ExprKind::Odds:
      return fmt::format("{}:{}", e->oddsA, e->oddsB);
    case ExprKind::String:
      return quoted(e->text);
    case ExprKind::Bool:
      return e->boolValue ? "true" : "false";
    case ExprKind::None:
      return "none";
    case ExprKind::CitationLit:
      return "§" + e->text;
    case ExprKind::Name:
      return e->text;
    case ExprKind::Member:
      return "(. " + dumpExpr(e->operands.empty() ? nullptr : e->operands[0].get()) + " " +
             e->member.name + ")";
    case ExprKind::Call:
      return "(call " + dumpExpr(e->operands.empty() ? nullptr : e->operands[0].get()) +
             args(e->args) + ")";
    case ExprKind::Index:
      return "(index" + ops(0) + ")";
    case ExprKind::Unary:
      return std::string("(") + (e->unaryOp == UnaryOp::Neg ? "-" : "not") + ops(0) + ")";
    case ExprKind::Binary:
      return std::string("(") + binaryName(e->binaryOp) + ops(0) + ")";
    case ExprKind::Cond:
      return "(if" + ops(0) + ")";
    case ExprKind::Lambda: {
      std::string ps;
      for (size_t i = 0; i < e->params.size(); ++i) ps += (i > 0 ? " " : "") + e->params[i].name;
      return "(lambda (" + ps + ")" + ops(0) + ")";
    }
    case ExprKind::List:
      return "(list" + ops(0) + ")";
    case ExprKind::Map: {
      std::string out = "(map";
      for (size_t i = 0; i < e->mapKeys.size() && i < e->operands.size(); ++i) {
        out += " (" + e->mapKeys[i].name + " " + dumpExpr(e->operands[i].get()) + ")";
      }
      return out + ")";
    }
    case ExprKind::Range:
      return "(.." + ops(0) + ")";
    case ExprKind::Roll: {
      std::string out = "(roll";
      if (e->rollCount) out += " " + dumpExpr(e->rollCount.get()) + "x";
      if (e->diceCount != 1) out += " " + std::to_string(e->diceCount) + "x";
      out += " " + e->dieName.name;
      if (e->rollMode == RollMode::Highest) out += " highest";
      if (e->rollMode == RollMode::Lowest) out += " lowest";
      if (e->rollMode == RollMode::Each) out += " each";
      return out + citations(e->citations) + ")";
    }
    case ExprKind::Choose: {
      std::string out = "(choose" + ops(0);
      if (!e->prompt.empty()) out += " " + quoted(e->prompt);
      return out + citations(e->citations) + ")";
    }
  }
  return "?";
}

std::string dumpStmt(const Stmt* s) {
  if (s == nullptr) return "<null>";
  switch (s->kind) {
    case StmtKind::Let:
      return "(let " + s->name.name + (s->typeRef ? ": " + dumpTypeRef(*s->typeRef) : "") + " " +
             dumpExpr(s->value.get()) + ")";
    case StmtKind::Assign: {
      const char* op = s->assignOp == AssignOp::Add   ? "+="
                       : s->assignOp == AssignOp::Sub ? "-="
                                                      : "=";
      return fmt::format("({} {} {})", op, dumpExpr(s->target.get()), dumpExpr(s->value.get()));
    }
    case StmtKind::If: {
      std::string out = "(if " + dumpExpr(s->cond.get()) + " " + body(s->body);
      if (s->hasElse) out += " else " + body(s->elseBody);
      return out + ")";
    }
    case StmtKind::For:
      return "(for " + s->name.name + " " + dumpExpr(s->value.get()) + " " + body(s->body) + ")";
    case StmtKind::While:
      return "(while " + dumpExpr(s->cond.get()) + " " + body(s->body) + ")";
    case StmtKind::Require: {
      std::string out = "(require " + dumpExpr(s->cond.get()) + citations(s->citations);
      if (!s->message.empty()) out += " else " + quoted(s->message);
      return out + ")";
    }
    case StmtKind::Return:
      return s->value ? "(return " + dumpExpr(s->value.get()) + ")" : "(return)";
    case StmtKind::Phase: {
      std::string out = "(phase " + s->name.name + citations(s->citations) + gates(s->gates);
      if (s->forPlayer) out += " for " + dumpExpr(s->forPlayer.get());
      return out + phaseItems(s->items) + ")";
    }
    case StmtKind::Step:
      return "(step " + s->name.name + citations(s->citations) + gates(s->gates) + " " +
             body(s->body) + ")";
    case StmtKind::Alternate:
      return fmt::format("(alternate {} {}{}{}{})", dumpExpr(s->value.get()), s->passes,
                         citations(s->citations), gates(s->gates), phaseItems(s->items));
    case StmtKind::Emit:
      return "(emit " + s->name.name + args(s->args) + ")";
    case StmtKind::Apply:
      return "(apply " + dumpExpr(s->value.get()) + ")";
    case StmtKind::Note: {
      std::string out = "(note" + citations(s->citations);
      for (const ExprPtr& a : s->noteArgs) out += " " + dumpExpr(a.get());
      return out + ")";
    }
    case StmtKind::Pause:
      return "(pause" + citations(s->citations) + " " + dumpExpr(s->value.get()) + ")";
    case StmtKind::Block:
      return body(s->body);
    case StmtKind::ExprStmt:
      return dumpExpr(s->value.get());
  }
  return "?";
}

std::string dumpDecl(const Decl* d) {
  if (d == nullptr) return "<null>";
  std::string out;
  switch (d->overlay) {
    case OverlayMode::Plain:
      break;
    case OverlayMode::Replace:
      out += "replace ";
      break;
    case OverlayMode::Add:
      out += "add ";
      break;
    case OverlayMode::Remove:
      return "remove " + d->removeKind + " " + d->qualified.joined() + citations(d->citations);
  }
  out += declKindName(d->kind);
  if (!d->name.name.empty()) out += " " + d->name.name;
  if (!d->qualified.parts.empty() && d->kind != DeclKind::Uses) out += " " + d->qualified.joined();
  switch (d->kind) {
    case DeclKind::Uses:
      for (const QualifiedName& q : d->uses) out += " " + q.joined();
      break;
    case DeclKind::Include:
      for (const std::string& s : d->includes) out += " " + quoted(s);
      break;
    case DeclKind::Levels:
      for (const Ident& l : d->levels) out += " " + l.name;
      break;
    case DeclKind::Enum:
      out += " {";
      for (size_t i = 0; i < d->members.size(); ++i) {
        out += (i > 0 ? ", " : "") + d->members[i].name.name + citations(d->members[i].citations);
        if (!d->members[i].description.empty()) out += " " + quoted(d->members[i].description);
      }
      out += "}";
      break;
    case DeclKind::Die:
      out += " [";
      for (size_t i = 0; i < d->faces.size(); ++i)
        out += (i > 0 ? " " : "") + dumpExpr(d->faces[i].get());
      out += "]";
      break;
    case DeclKind::UnitType:
      out += " : " + d->baseClass.name;
      break;
    case DeclKind::Modifier: {
      if (!d->paramNames.empty()) {
        out += "(";
        for (size_t i = 0; i < d->paramNames.size(); ++i)
          out += (i > 0 ? ", " : "") + d->paramNames[i].name;
        out += ")";
      }
      break;
    }
    case DeclKind::Trigger: {
      out += " on " + d->event.name + "(";
      for (size_t i = 0; i < d->paramNames.size(); ++i)
        out += (i > 0 ? ", " : "") + d->paramNames[i].name;
      out += ")";
      break;
    }
    case DeclKind::Quantity:
    case DeclKind::Function:
    case DeclKind::Procedure:
    case DeclKind::Action:
    case DeclKind::Results:
    case DeclKind::Event:
      out += params(d->params);
      break;
    default:
      break;
  }
  if (d->type) out += ": " + dumpTypeRef(*d->type);
  if (d->value) out += " = " + dumpExpr(d->value.get());
  out += citations(d->citations);
  out += gates(d->gates);
  if (!d->description.empty()) out += " " + quoted(d->description);
  for (const FieldDecl& f : d->fields) out += " [" + fieldDecl(f) + "]";
  for (const FieldInit& f : d->inits) out += " [" + fieldInit(f) + "]";
  if (d->kind == DeclKind::Table) {
    const TableSpec& t = d->table;
    if (t.rowKind) out += " rows " + t.rowKind->name;
    if (t.columnKind) {
      out += " columns " + t.columnKind->name;
      for (const TableKey& k : t.columns) out += " " + tableKey(k);
    }
    for (const TableRow& r : t.rows) {
      out += " | " + tableKey(r.key) + ":";
      for (const TableCell& c : r.cells) out += " " + tableCell(c);
    }
  }
  for (const ModClause& m : d->clauses) out += " " + modClause(m);
  for (const ResultCase& rc : d->cases) {
    out += " (case " + rc.name.name + citations(rc.citations);
    if (!rc.description.empty()) out += " " + quoted(rc.description);
    out += " " + body(rc.body) + ")";
  }
  if (d->hasBody || !d->body.empty()) out += " " + body(d->body);
  return out;
}

std::string dumpFile(const File& f) {
  std::string out;
  if (f.partOf) line(out, 0, "part of " + f.partOf->name);
  for (const DeclPtr& d : f.decls) line(out, 0, dumpDecl(d.get()));
  for (const auto& b : f.blocks) {
    std::string head;
    switch (b->kind) {
      case BlockKind::Ruleset:
        head = "ruleset " + b->name.name + (b->base.name.empty() ? "" : " extends " + b->base.name);
        break;
      case BlockKind::House:
        head = "house " + b->name.name + " for " + b->base.name;
        break;
      case BlockKind::Module:
        head = "module " + b->moduleName.joined();
        break;
      case BlockKind::Scenario:
        head = "scenario " + b->name.name + " for " + b->base.name;
        break;
    }
    if (!b->title.empty()) head += " " + quoted(b->title);
    head += citations(b->citations);
    line(out, 0, head);
    for (const DeclPtr& d : b->decls) line(out, 1, dumpDecl(d.get()));
    const Scenario& s = b->scenario;
    if (s.map) {
      const MapSpec& m = *s.map;
      line(out, 1,
           fmt::format("map columns {}..{} rows {}..{}{}{}", m.colFrom, m.colTo, m.rowFrom, m.rowTo,
                       m.labels.name.empty() ? "" : " labels " + m.labels.name,
                       citations(m.citations)));
      for (const MapItem& item : m.items) {
        static const char* kKinds[] = {"default",   "terrain", "hexside",
                                       "elevation", "group",   "hex"};
        std::string text = kKinds[item.kind];
        text += item.kind == MapItem::Elevation ? " " + std::to_string(item.elevation)
                                                : " " + item.name.name;
        if (item.kind == MapItem::HexState && item.value)
          text += " = " + dumpExpr(item.value.get());
        if (item.kind != MapItem::Default) text += ":";
        for (const HexRef& h : item.hexes)
          text += " " + h.from.name + (h.to ? ".." + h.to->name : "");
        for (const HexPair& p : item.pairs) text += " " + p.a.name + "/" + p.b.name;
        line(out, 2, text);
      }
    }
    for (const SideSpec& side : s.sides) {
      std::string text = "side " + side.name.name;
      if (!side.title.empty()) text += " " + quoted(side.title);
      text += citations(side.citations);
      for (const FieldInit& fi : side.inits) text += " [" + fieldInit(fi) + "]";
      line(out, 1, text);
    }
    for (const ForceSpec& force : s.forces) {
      line(out, 1, "force " + force.side.name + citations(force.citations));
      for (const UnitPlacement& u : force.units) {
        std::string text = u.id.name + " " + u.type.name;
        if (u.hex) text += " at " + u.hex->name;
        if (u.facing) text += " facing " + u.facing->name;
        for (const FieldInit& fi : u.inits) text += " [" + fieldInit(fi) + "]";
        line(out, 2, text);
      }
    }
    for (const FieldInit& fi : s.settings) line(out, 1, "set " + fieldInit(fi));
    if (!s.rules.empty()) {
      line(out, 1, "rules");
      for (const DeclPtr& d : s.rules) line(out, 2, dumpDecl(d.get()));
    }
  }
  return out;
}

}  // namespace polemos::syntax
