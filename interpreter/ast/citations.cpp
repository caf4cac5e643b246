#include "ast/citations.h"

namespace polemos::ast {

namespace {

void citations(const std::vector<Citation>& cs, const CitationVisitor& visit) {
  for (const Citation& c : cs) visit(c);
}

void expr(const Expr* e, const CitationVisitor& visit) {
  if (!e) return;
  if (e->kind == ExprKind::CitationLit) visit(Citation{e->text, e->range});
  citations(e->citations, visit);
  for (const auto& o : e->operands) expr(o.get(), visit);
  for (const auto& a : e->args) expr(a.value.get(), visit);
  expr(e->rollCount.get(), visit);
}

void stmts(const std::vector<StmtPtr>& body, const CitationVisitor& visit);

void stmt(const Stmt& s, const CitationVisitor& visit) {
  citations(s.citations, visit);
  expr(s.target.get(), visit);
  expr(s.value.get(), visit);
  expr(s.cond.get(), visit);
  expr(s.forPlayer.get(), visit);
  for (const auto& a : s.args) expr(a.value.get(), visit);
  for (const auto& n : s.noteArgs) expr(n.get(), visit);
  for (const auto& item : s.items) {
    citations(item.citations, visit);
    expr(item.cond.get(), visit);
    stmts(item.body, visit);
  }
  stmts(s.body, visit);
  stmts(s.elseBody, visit);
}

void stmts(const std::vector<StmtPtr>& body, const CitationVisitor& visit) {
  for (const auto& s : body) stmt(*s, visit);
}

}  // namespace

void forEachCitation(const Decl& d, const CitationVisitor& visit) {
  citations(d.citations, visit);
  for (const auto& m : d.members) citations(m.citations, visit);
  for (const auto& f : d.fields) {
    citations(f.citations, visit);
    expr(f.value.get(), visit);
  }
  for (const auto& i : d.inits) {
    citations(i.citations, visit);
    expr(i.value.get(), visit);
  }
  expr(d.value.get(), visit);
  for (const auto& c : d.clauses) {
    expr(c.cond.get(), visit);
    expr(c.operand.get(), visit);
    for (const auto& b : c.because) expr(b.get(), visit);
  }
  for (const auto& c : d.cases) {
    citations(c.citations, visit);
    stmts(c.body, visit);
  }
  for (const auto& p : d.params) expr(p.domain.get(), visit);
  for (const auto& g : d.gates) expr(g.cond.get(), visit);
  stmts(d.body, visit);
}

void forEachCitation(const Block& b, const CitationVisitor& visit) {
  citations(b.citations, visit);
  for (const auto& d : b.decls) forEachCitation(*d, visit);
  const Scenario& sc = b.scenario;
  if (sc.map) citations(sc.map->citations, visit);
  for (const auto& s : sc.sides) {
    citations(s.citations, visit);
    for (const auto& i : s.inits) expr(i.value.get(), visit);
  }
  for (const auto& f : sc.forces) {
    citations(f.citations, visit);
    for (const auto& u : f.units)
      for (const auto& i : u.inits) expr(i.value.get(), visit);
  }
  for (const auto& i : sc.settings) {
    citations(i.citations, visit);
    expr(i.value.get(), visit);
  }
  for (const auto& d : sc.rules) forEachCitation(*d, visit);
}

}  // namespace polemos::ast
