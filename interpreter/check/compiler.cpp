#include "check/compiler.h"

#include "check/compiler_internal.h"
#include "ir/forwarding.h"
#include "ir/peephole.h"

namespace polemos::check {
namespace detail {

bool Compiler::run(const std::vector<MergedDecl>& decls, const ast::Block* scenario) {
  size_t before = D.errorCount();  // warnings do not stop a program
  scenario_ = scenario;
  // The builtin event every ruleset has: a unit eliminated by `eliminate(u)`.
  {
    EventInfo ev;
    ev.name = "eliminated";
    ev.params.push_back(Type::of(TypeKind::Unit));
    define("eliminated", Sym{SymKind::Event, 0}, {}, "event");
    P.events.push_back(ev);
    eliminatedEvent_ = 0;
    EventInfo mv;
    mv.name = "moved";
    Type from = Type::of(TypeKind::Hex);
    from.optional = true;  // none when the unit enters from off the map
    mv.params = {Type::of(TypeKind::Unit), from, Type::of(TypeKind::Hex)};
    define("moved", Sym{SymKind::Event, 1}, {}, "event");
    P.events.push_back(mv);
  }
  if (scenario) declareScenarioSides(*scenario);
  // Declaration order matters only for dependencies between constants; declare types first.
  auto rank = [](DeclKind k) {
    switch (k) {
      case DeclKind::Levels:
        return 0;
      case DeclKind::Enum:
      case DeclKind::Results:
        return 1;
      case DeclKind::Die:
        return 2;
      case DeclKind::Const:
        return 3;
      case DeclKind::Option:
        return 4;
      case DeclKind::UnitClass:
        return 5;
      case DeclKind::SideState:
      case DeclKind::GameState:
      case DeclKind::HexState:
      case DeclKind::TerrainAttributes:
      case DeclKind::HexsideAttributes:
      case DeclKind::ScenarioAttributes:
        return 6;
      case DeclKind::Terrain:
      case DeclKind::Hexside:
      case DeclKind::UnitType:
        return 7;
      case DeclKind::Table:
        return 8;
      default:
        return 9;
    }
  };
  std::vector<const MergedDecl*> order;
  for (const auto& m : decls) order.push_back(&m);
  std::stable_sort(order.begin(), order.end(), [&](const MergedDecl* a, const MergedDecl* b) {
    return rank(a->decl->kind) < rank(b->decl->kind);
  });
  for (const MergedDecl* m : order) declare(*m->decl);
  if (P.levels.empty()) P.levels.push_back("standard");
  compileSignatures();
  // Derived fields (which may call functions: their signatures are known).
  for (size_t i = 0; i < classes_.size(); ++i) {
    const Sym* s = lookup(classes_[i]->name.name);
    if (s && s->kind == SymKind::Class) compileDerived(P.classes[s->index], classes_[i]->fields);
  }
  for (const auto& m : decls) {
    if (m.decl->kind == DeclKind::SideState) compileDerived(P.sideState, m.decl->fields);
    if (m.decl->kind == DeclKind::GameState) compileDerived(P.gameState, m.decl->fields);
    if (m.decl->kind == DeclKind::HexState) compileDerived(P.hexState, m.decl->fields);
  }
  // The scenario (map, sides, forces) before the bodies, so rules can name hexes by label.
  if (scenario) {
    compileScenario(*scenario);
  } else {
    // Without a scenario the attributes keep their defaults (the sandbox starts from them).
    for (const auto& f : P.scenarioAttrs.fields) P.scenarioValues.push_back(f.value);
  }
  compileBodies();
  checkHooks();
  return D.errorCount() == before;
}

void Compiler::rebuildSymbols() {
  for (size_t i = 0; i < P.levels.size(); ++i)
    syms_.emplace(P.levels[i], Sym{SymKind::Level, static_cast<int32_t>(i)});
  for (size_t r = 0; r < P.results.size(); ++r)
    syms_.emplace(P.results[r].name, Sym{SymKind::Results, static_cast<int32_t>(r)});
  for (size_t e = 0; e < P.enums.size(); ++e) {
    if (P.enums[e].results < 0)
      syms_.emplace(P.enums[e].name, Sym{SymKind::EnumType, static_cast<int32_t>(e)});
    for (size_t m = 0; m < P.enums[e].members.size(); ++m) {
      const std::string& n = P.enums[e].members[m];
      auto it = syms_.find(n);
      if (it != syms_.end()) {
        if (it->second.kind == SymKind::EnumMember) it->second.ambiguous = true;
        continue;
      }
      syms_.emplace(n, Sym{SymKind::EnumMember, static_cast<int32_t>(m), static_cast<int32_t>(e)});
    }
  }
  for (size_t i = 0; i < P.options.size(); ++i)
    syms_.emplace(P.options[i].name, Sym{SymKind::Option, static_cast<int32_t>(i)});
  for (size_t i = 0; i < P.globalNames.size(); ++i)
    syms_.emplace(P.globalNames[i], Sym{SymKind::Const, static_cast<int32_t>(i)});
  for (size_t i = 0; i < P.dice.size(); ++i)
    syms_.emplace(P.dice[i].name, Sym{SymKind::Die, static_cast<int32_t>(i)});
  for (size_t i = 0; i < P.classes.size(); ++i)
    syms_.emplace(P.classes[i].name, Sym{SymKind::Class, static_cast<int32_t>(i)});
  for (size_t i = 0; i < P.unitTypes.size(); ++i)
    syms_.emplace(P.unitTypes[i].name, Sym{SymKind::UnitType, static_cast<int32_t>(i)});
  for (size_t i = 0; i < P.terrains.size(); ++i)
    syms_.emplace(P.terrains[i].name, Sym{SymKind::Terrain, static_cast<int32_t>(i)});
  for (size_t i = 0; i < P.features.size(); ++i)
    syms_.emplace(P.features[i].name, Sym{SymKind::Feature, static_cast<int32_t>(i)});
  for (size_t i = 0; i < P.tables.size(); ++i)
    syms_.emplace(P.tables[i].name, Sym{SymKind::Table, static_cast<int32_t>(i)});
  for (size_t i = 0; i < P.actions.size(); ++i)
    syms_.emplace(P.actions[i].name, Sym{SymKind::Action, static_cast<int32_t>(i)});
  for (size_t i = 0; i < P.events.size(); ++i)
    syms_.emplace(P.events[i].name, Sym{SymKind::Event, static_cast<int32_t>(i)});
  for (size_t i = 0; i < P.sides.size(); ++i)
    syms_.emplace(P.sides[i].name, Sym{SymKind::Side, static_cast<int32_t>(i)});
  for (const auto& [n, fi] : P.functionByName) syms_.emplace(n, Sym{SymKind::Function, fi});
  for (size_t i = 0; i < P.functions.size(); ++i)
    if (P.functions[i].kind == FuncKind::Quantity)
      quantities_[P.functions[i].name] = static_cast<int32_t>(i);
}

int32_t Compiler::compileStandalone(const ast::Expr& e) {
  size_t before = D.reportCount();
  int32_t fi = newFunction("eval", FuncKind::Function, e.range);
  FnCtx c;
  c.index = fi;
  c.pure = true;
  c.scopes.emplace_back();
  ctx_ = &c;
  Type t = compileExpr(e);
  emit(Op::Return, 0, 0, e.range);
  P.functions[fi].result = t;
  ctx_ = nullptr;
  return D.reportCount() == before ? fi : -1;
}

// Marks every function whose code, or the code of a function it calls or makes a value of,
// writes trace events (tracesDeep): a fixed point over the call graph.
int32_t calleeOf(const ir::Program& P, const Instr& in) {
  int32_t callee = -1;
  if (in.op == Op::Call || in.op == Op::MakeClosure) callee = in.a;
  if (in.op == Op::Const && in.a >= 0 && static_cast<size_t>(in.a) < P.constants.size() &&
      P.constants[in.a].tag == Tag::Func)
    callee = static_cast<int32_t>(P.constants[in.a].i);
  return callee >= 0 && static_cast<size_t>(callee) < P.functions.size() ? callee : -1;
}

void markTracingCalls(ir::Program& P) {
  const size_t n = P.functions.size();
  std::vector<std::vector<int32_t>> callers(n);
  for (size_t f = 0; f < n; ++f)
    for (const Instr& in : P.functions[f].code)
      if (int32_t callee = calleeOf(P, in); callee >= 0)
        callers[callee].push_back(static_cast<int32_t>(f));
  std::vector<int32_t> work;
  for (size_t f = 0; f < n; ++f) {
    P.functions[f].tracesDeep = P.functions[f].writesTrace;
    if (P.functions[f].tracesDeep) work.push_back(static_cast<int32_t>(f));
  }
  while (!work.empty()) {
    int32_t f = work.back();
    work.pop_back();
    for (int32_t c : callers[f]) {
      if (P.functions[c].tracesDeep) continue;
      P.functions[c].tracesDeep = true;
      work.push_back(c);
    }
  }
}

}  // namespace detail

using detail::Compiler;
using detail::markTracingCalls;

int32_t compileExpression(diag::Diagnostics& diags, const ast::Expr& expr, ir::Program& program) {
  Compiler c(diags, program);
  c.rebuildSymbols();
  int32_t fi = c.compileStandalone(expr);
  if (fi >= 0) {
    markTracingCalls(program);
    ir::peephole(program.functions[static_cast<size_t>(fi)]);
  }
  return fi;
}

bool compileProgram(diag::Diagnostics& diags, const std::vector<MergedDecl>& decls,
                    const ast::Block* scenario, ir::Program& out) {
  Compiler c(diags, out);
  bool ok = c.run(decls, scenario);
  if (ok) {
    markTracingCalls(out);
    ir::peephole(out);
    ir::findForwards(out);
  }
  return ok;
}

}  // namespace polemos::check
