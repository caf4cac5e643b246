// The checker: lowering declarations with bodies (functions, quantities and their modifiers,
// actions, triggers, derived fields, the sequence of play).
#include "check/compiler_internal.h"

namespace polemos::check::detail {

void Compiler::compileFunctionDecl(const Decl& d, int32_t fi) {
  FnCtx c;
  c.index = fi;
  c.pure = P.functions[c.index].pure();
  c.scopes.emplace_back();
  ctx_ = &c;
  for (size_t i = 0; i < d.params.size(); ++i) {
    newLocal(d.params[i].name.name, P.functions[c.index].paramTypes[i]);
  }
  if (d.hasBody) {
    compileBlock(d.body);
    emit(Op::Const, addConst(Value::none()));
    emit(Op::Return, 0, 0, d.range);
  } else if (d.value) {
    Type t = compileExpr(*d.value);
    if (!assignable(P.functions[c.index].result, t)) {
      error(d.value->range, fmt::format("{} returns {}, but this is {}", d.name.name,
                                        typeName(P, P.functions[c.index].result), typeName(P, t)));
    }
    if (P.functions[c.index].result.kind == TypeKind::Any) P.functions[fi].result = t;
    emit(Op::Return, 0, 0, d.range);
  }
  ctx_ = nullptr;
}

void Compiler::compileQuantity(const Decl& d, int32_t fi) {
  FnCtx c;
  c.index = fi;
  c.pure = true;
  c.scopes.emplace_back();
  ctx_ = &c;
  for (size_t i = 0; i < d.params.size(); ++i)
    newLocal(d.params[i].name.name, P.functions[c.index].paramTypes[i]);
  Type base = compileExpr(*d.value);
  if (P.functions[c.index].result.kind == TypeKind::Any) P.functions[fi].result = base;
  int32_t acc = newLocal("", base);
  emit(Op::Store, acc);
  // Modifiers in their order of application: by the kind of operation, then in declaration
  // order; a modifier's first matching clause wins. The kinds go set, divide, multiply, add and
  // subtract, shift: the order in which the board games' rules read. A halving applies to the
  // printed strength (Standard 10.1: a Disrupted unit defends at half strength, rounded down),
  // terrain multiplies the result (7.41), bonuses are added after (14.1: a leader's value is not
  // doubled by a charge), and column shifts come last (15.1).
  auto stage = [](ast::ModOpKind k) {
    switch (k) {
      case ast::ModOpKind::Set:
        return 0;
      case ast::ModOpKind::Div:
        return 1;
      case ast::ModOpKind::Mul:
        return 2;
      case ast::ModOpKind::Add:
      case ast::ModOpKind::Sub:
        return 3;
      case ast::ModOpKind::Shift:
        return 4;
    }
    return 3;
  };
  std::vector<const Decl*> mods = modifiersOf_[fi];
  std::stable_sort(mods.begin(), mods.end(), [&](const Decl* a, const Decl* b) {
    return stage(a->clauses[0].op) < stage(b->clauses[0].op);
  });
  for (const Decl* m : mods) {
    ctx_->scopes.emplace_back();
    // Bind the modifier's parameter names to the quantity's parameters.
    for (size_t i = 0; i < m->paramNames.size() && i < d.params.size(); ++i) {
      ctx_->scopes.back().push_back(Local{m->paramNames[i].name, static_cast<int32_t>(i),
                                          P.functions[c.index].paramTypes[i]});
    }
    if (m->paramNames.size() > d.params.size()) {
      error(m->paramNames[d.params.size()].range,
            fmt::format("quantity {} has {} parameter{}", d.qualified.joined(), d.params.size(),
                        d.params.size() == 1 ? "" : "s"));
    }
    int32_t skipAll = -1;
    if (!m->gates.empty()) {
      int32_t gate = compileGate(m->gates, m->name.name);
      emit(Op::Call, gate, 0, m->range);
      skipAll = here();
      emit(Op::JumpIfFalse, 0);
    }
    std::vector<int32_t> toEnd;
    for (const auto& cl : m->clauses) {
      int32_t next = -1;
      if (cl.cond) {
        expectBool(compileExpr(*cl.cond), cl.cond->range, "a modifier's condition");
        next = here();
        emit(Op::JumpIfFalse, 0);
      }
      // Stack for the trace: before, after, operand, because...
      emit(Op::Load, acc);  // before
      std::string opText;
      Type ot;
      if (cl.op == ast::ModOpKind::Set) {
        ot = compileExpr(*cl.operand);
        opText = "=";
      } else {
        emit(Op::Load, acc);
        ot = compileExpr(*cl.operand);
        switch (cl.op) {
          case ast::ModOpKind::Add:
            emit(Op::Add, 0, 0, cl.range);
            opText = "+";
            break;
          case ast::ModOpKind::Sub:
            emit(Op::Sub, 0, 0, cl.range);
            opText = "-";
            break;
          case ast::ModOpKind::Mul:
            emit(Op::Mul, 0, 0, cl.range);
            opText = "x";
            break;
          case ast::ModOpKind::Div:
            emit(Op::CallBuiltin,
                 ir::findBuiltin(cl.rounding == ast::Rounding::Up        ? "div_up"
                                 : cl.rounding == ast::Rounding::Nearest ? "div_nearest"
                                                                         : "div_down"),
                 2, cl.range);
            opText = "/";
            break;
          case ast::ModOpKind::Shift:
            emit(Op::CallBuiltin, ir::findBuiltin("shift"), 2, cl.range);
            opText = "shift ";
            break;
          case ast::ModOpKind::Set:
            break;
        }
        if (cl.op != ast::ModOpKind::Shift)
          expectInt(ot, cl.operand->range, "a modifier's operand");
      }
      emit(Op::Store, acc);
      ModifierInfo mi;
      mi.name = m->name.name;
      mi.quantity = d.qualified.joined();
      mi.citations = citeStrings(m->citations);
      mi.opText = opText;
      P.modifiers.push_back(mi);
      // Trace: before (on stack), after, operand, because...
      emit(Op::Load, acc);
      compileExpr(*cl.operand);
      for (const auto& b : cl.because) compileExpr(*b);
      emit(Op::Trace, static_cast<int32_t>(P.modifiers.size() - 1),
           static_cast<int32_t>(cl.because.size()), cl.range);
      toEnd.push_back(here());
      emit(Op::Jump, 0);
      if (next >= 0) patch(next, here());
    }
    for (int32_t j : toEnd) patch(j, here());
    if (skipAll >= 0) patch(skipAll, here());
    ctx_->scopes.pop_back();
  }
  emit(Op::Load, acc);
  emit(Op::Return, 0, 0, d.range);
  ctx_ = nullptr;
}

bool Compiler::exprIsPure(const Expr& e) {
  if (e.kind == ExprKind::Roll || e.kind == ExprKind::Choose) return false;
  if (e.kind == ExprKind::Call && e.operands[0]->kind == ExprKind::Name) {
    const std::string& n = e.operands[0]->text;
    if (const Sym* s = lookup(n);
        s && s->kind == SymKind::Function && !P.functions[s->index].pure())
      return false;
    if (int b = ir::findBuiltin(n); b >= 0 && ir::builtin(b).effect) return false;
  }
  for (const auto& op : e.operands)
    if (op && !exprIsPure(*op)) return false;
  for (const auto& a : e.args)
    if (!exprIsPure(*a.value)) return false;
  if (e.rollCount && !exprIsPure(*e.rollCount)) return false;
  return true;
}

std::vector<int32_t> requiresBeforeParameters(const ir::Function& guard) {
  std::vector<int32_t> out;
  const int32_t params = guard.arity;
  auto param = [&](int32_t local) { return local >= 0 && local < params; };
  for (const Instr& in : guard.code) {
    // The guard's statements run in order; a jump inside an expression stays inside it, so the
    // code before a requirement is all that can have run when it is reached.
    if ((in.op == Op::Load && param(in.a)) || (in.op == Op::LoadMember && param(in.a)) ||
        (in.op == Op::LoadLoad && (param(in.a) || param(in.b))) ||
        (in.op == Op::Store && param(in.a)) || (in.op == Op::IterInit && param(in.a)) ||
        (in.op == Op::IterNext && param(in.a)))
      break;
    if (in.op == Op::Require) out.push_back(in.a);
  }
  return out;
}

bool Compiler::quietCode(int32_t from, int32_t to) {
  const std::vector<Instr>& code = cur().code;
  for (int32_t i = from; i < to; ++i) {
    const Instr& in = code[static_cast<size_t>(i)];
    switch (in.op) {
      case Op::Store:
      case Op::IterInit:
      case Op::IterNext:
      case Op::Roll:
      case Op::Choose:
      case Op::Require:
      case Op::Window:
      case Op::PhaseEnter:
      case Op::PhaseExit:
      case Op::StepEnter:
      case Op::Emit:
      case Op::ApplyResult:
      case Op::Pause:
      case Op::SetMember:
      case Op::AddMember:
      case Op::CallValue:
        return false;
      case Op::Call:
        if (in.a < 0 || static_cast<size_t>(in.a) >= P.functions.size() ||
            !P.functions[static_cast<size_t>(in.a)].pure())
          return false;
        break;
      case Op::CallBuiltin:
        if (in.a < 0 || in.a >= ir::builtinCount() || ir::builtin(in.a).effect) return false;
        break;
      default:
        break;
    }
  }
  return true;
}

void Compiler::compileAction(const Decl& d) {
  int32_t ai = actionIndex_[&d];
  ActionInfo& a = P.actions[ai];
  std::vector<Type> types;
  std::vector<std::string> names;
  for (const auto& p : d.params) {
    auto t = resolveType(p.type);
    types.push_back(t ? *t : Type::any());
    names.push_back(p.name.name);
  }
  // Domains: each a pure function of the earlier parameters.
  for (size_t i = 0; i < d.params.size(); ++i) {
    ActionParam ap;
    ap.name = names[i];
    ap.type = types[i];
    if (d.params[i].domain) {
      int32_t fi = newFunction(fmt::format("{}.{} (domain)", d.name.name, names[i]),
                               FuncKind::Function, d.params[i].range);
      FnCtx c;
      c.index = fi;
      c.pure = true;
      c.scopes.emplace_back();
      ctx_ = &c;
      for (size_t j = 0; j < i; ++j) newLocal(names[j], types[j]);
      P.functions[c.index].arity = static_cast<int32_t>(i);
      Type t = compileExpr(*d.params[i].domain);
      if (t.kind != TypeKind::Any && t.kind != TypeKind::List) {
        error(d.params[i].domain->range,
              fmt::format("the candidates of '{}' must be a list, but this is {}", names[i],
                          typeName(P, t)));
      } else if (t.kind == TypeKind::List && !assignable(types[i], t.element())) {
        error(d.params[i].domain->range,
              fmt::format("'{}' is {}, but its candidates are {}", names[i], typeName(P, types[i]),
                          typeName(P, t)));
      }
      emit(Op::Return, 0, 0, d.params[i].range);
      ctx_ = nullptr;
      ap.domain = fi;
    } else {
      TypeKind k = types[i].kind;
      if (k != TypeKind::Unit && k != TypeKind::Hex && k != TypeKind::Side && k != TypeKind::Enum &&
          k != TypeKind::Bool && k != TypeKind::Level && k != TypeKind::Int) {
        error(d.params[i].range,
              fmt::format("parameter '{}' needs its candidates, as in `{}: {} in ...`", names[i],
                          names[i], typeName(P, types[i])));
      }
    }
    a.params.push_back(ap);
  }
  a.gate = compileGate(d.gates, d.name.name);
  // The guard: the leading `let` and `require` statements, pure.
  // A `let` belongs to the guard only if it neither rolls, chooses nor calls a procedure.
  size_t lead = 0;
  while (lead < d.body.size() &&
         (d.body[lead]->kind == StmtKind::Require ||
          (d.body[lead]->kind == StmtKind::Let && exprIsPure(*d.body[lead]->value)))) {
    ++lead;
  }
  // Lets after the last leading requirement are not needed to decide legality: they run with the
  // body only (listing the legal options evaluates the guard for every candidate).
  while (lead > 0 && d.body[lead - 1]->kind == StmtKind::Let) --lead;
  // Trailing lets that no requirement needs stay in the body; simpler to keep them in both.
  {
    int32_t fi = newFunction(d.name.name + " (requirements)", FuncKind::Guard, d.range);
    FnCtx c;
    c.index = fi;
    c.pure = true;
    c.scopes.emplace_back();
    ctx_ = &c;
    for (size_t j = 0; j < names.size(); ++j) newLocal(names[j], types[j]);
    P.functions[c.index].arity = static_cast<int32_t>(names.size());
    P.functions[c.index].paramNames = names;
    P.functions[c.index].paramTypes = types;
    for (size_t s = 0; s < lead; ++s) compileStmt(*d.body[s]);
    emit(Op::Const, addConst(Value::boolean(true)));
    emit(Op::Return, 0, 0, d.range);
    ctx_ = nullptr;
    a.guard = fi;
    a.sharedRequires = requiresBeforeParameters(P.functions[fi]);
  }
  {
    int32_t fi = newFunction(d.name.name, FuncKind::Action, d.range);
    FnCtx c;
    c.index = fi;
    c.pure = false;
    c.scopes.emplace_back();
    ctx_ = &c;
    for (size_t j = 0; j < names.size(); ++j) newLocal(names[j], types[j]);
    P.functions[c.index].arity = static_cast<int32_t>(names.size());
    P.functions[c.index].paramNames = names;
    P.functions[c.index].paramTypes = types;
    P.functions[c.index].citations = citeStrings(d.citations);
    // The leading requirements were checked by the guard; the lets are needed again.
    for (size_t s = 0; s < d.body.size(); ++s) {
      if (s < lead && d.body[s]->kind == StmtKind::Require) continue;
      compileStmt(*d.body[s]);
    }
    emit(Op::Const, addConst(Value::none()));
    emit(Op::Return, 0, 0, d.range);
    ctx_ = nullptr;
    a.body = fi;
  }
}

void Compiler::compileDerived(Schema& s, const std::vector<ast::FieldDecl>& fields) {
  for (const auto& f : fields) {
    if (!f.derived) continue;
    int32_t slot = s.find(P.nameId(f.name.name));
    if (slot < 0 || s.fields[slot].derived != -2) continue;
    int32_t fi = newFunction(s.name + "." + f.name.name, FuncKind::Derived, f.range);
    FnCtx c;
    c.index = fi;
    c.pure = true;
    c.owner = &s;
    c.scopes.emplace_back();
    ctx_ = &c;
    newLocal("this", Type::any());
    P.functions[c.index].arity = 1;
    Type t = compileExpr(*f.value);
    emit(Op::Return, 0, 0, f.range);
    ctx_ = nullptr;
    s.fields[slot].derived = fi;
    s.fields[slot].type = t;
    P.functions[fi].result = t;
  }
}

// Signatures first, so that bodies (and derived fields) can call each other in any order.
void Compiler::compileSignatures() {
  for (auto& [d, fi] : bodies_) {
    Function& f = P.functions[fi];
    f.citations = citeStrings(d->citations);
    for (const auto& p : d->params) {
      auto t = resolveType(p.type);
      f.paramNames.push_back(p.name.name);
      f.paramTypes.push_back(t ? *t : Type::any());
    }
    f.arity = static_cast<int32_t>(d->params.size());
    if (d->type) {
      auto t = resolveType(*d->type);
      f.result = t ? *t : Type::any();
    } else {
      f.result = d->kind == DeclKind::Procedure ? Type::any() : Type::any();
    }
  }
  for (const Decl* r : results_) {
    const Sym* s = lookup(r->name.name);
    if (!s || s->kind != SymKind::Results) continue;
    for (int32_t fi : P.results[s->index].cases) {
      Function& f = P.functions[fi];
      for (const auto& p : r->params) {
        auto t = resolveType(p.type);
        f.paramNames.push_back(p.name.name);
        f.paramTypes.push_back(t ? *t : Type::any());
      }
      f.arity = static_cast<int32_t>(r->params.size());
    }
  }
}

void Compiler::compileBodies() {
  // Modifiers attach to quantities.
  for (const Decl* m : modifiers_) {
    std::string q = m->qualified.joined();
    auto it = quantities_.find(q);
    if (it == quantities_.end()) {
      error(m->qualified.range,
            fmt::format("modifier {}: '{}' is not a quantity", m->name.name, q));
      continue;
    }
    if (m->clauses.empty()) continue;
    ast::ModOpKind k0 = m->clauses[0].op;
    auto kindClass = [](ast::ModOpKind k) {
      return k == ast::ModOpKind::Sub ? ast::ModOpKind::Add : k;
    };
    bool mixed = false;
    for (const auto& cl : m->clauses) mixed |= kindClass(cl.op) != kindClass(k0);
    if (mixed) {
      error(m->name.range, fmt::format("modifier {} mixes kinds of operation; split it so each "
                                       "modifier adds, multiplies, divides, sets or shifts",
                                       m->name.name));
      continue;
    }
    modifiersOf_[it->second].push_back(m);
  }
  for (auto& [d, fi] : bodies_) {
    if (d->kind == DeclKind::Quantity)
      compileQuantity(*d, fi);
    else
      compileFunctionDecl(*d, fi);
  }
  for (const Decl* a : actions_) compileAction(*a);
  for (const Decl* r : results_) {
    const Sym* s = lookup(r->name.name);
    if (!s || s->kind != SymKind::Results) continue;
    for (size_t i = 0; i < r->cases.size() && i < P.results[s->index].cases.size(); ++i) {
      int32_t fi = P.results[s->index].cases[i];
      FnCtx c;
      c.index = fi;
      c.pure = false;
      c.scopes.emplace_back();
      ctx_ = &c;
      for (size_t j = 0; j < r->params.size(); ++j)
        newLocal(r->params[j].name.name, P.functions[c.index].paramTypes[j]);
      P.functions[c.index].citations = citeStrings(r->cases[i].citations);
      compileBlock(r->cases[i].body);
      emit(Op::Const, addConst(Value::none()));
      emit(Op::Return, 0, 0, r->cases[i].range);
      ctx_ = nullptr;
    }
  }
  for (const Decl* t : triggers_) {
    const Sym* ev = lookup(t->event.name);
    if (!ev || ev->kind != SymKind::Event) {
      error(t->event.range,
            fmt::format("trigger {}: unknown event '{}'", t->name.name, t->event.name));
      continue;
    }
    EventInfo& info = P.events[ev->index];
    if (t->paramNames.size() != info.params.size()) {
      error(t->event.range, fmt::format("event {} has {} parameter{}, but the trigger names {}",
                                        info.name, info.params.size(),
                                        info.params.size() == 1 ? "" : "s", t->paramNames.size()));
      continue;
    }
    int32_t fi = newFunction(t->name.name, FuncKind::Trigger, t->range);
    FnCtx c;
    c.index = fi;
    c.pure = false;
    c.scopes.emplace_back();
    ctx_ = &c;
    for (size_t j = 0; j < t->paramNames.size(); ++j)
      newLocal(t->paramNames[j].name, info.params[j]);
    P.functions[c.index].arity = static_cast<int32_t>(t->paramNames.size());
    P.functions[c.index].citations = citeStrings(t->citations);
    compileBlock(t->body);
    emit(Op::Const, addConst(Value::none()));
    emit(Op::Return, 0, 0, t->range);
    ctx_ = nullptr;
    std::vector<std::pair<std::string, Type>> gateParams;
    for (size_t j = 0; j < t->paramNames.size(); ++j)
      gateParams.emplace_back(t->paramNames[j].name, info.params[j]);
    int32_t gate = compileGate(t->gates, t->name.name, gateParams);
    info.triggers.push_back(fi);
    info.triggerGates.push_back(gate);
    info.triggerNames.push_back(t->name.name);
  }
  if (sequence_) {
    int32_t fi = newFunction("sequence", FuncKind::Sequence, sequence_->range);
    FnCtx c;
    c.index = fi;
    c.pure = false;
    c.scopes.emplace_back();
    ctx_ = &c;
    P.functions[c.index].citations = citeStrings(sequence_->citations);
    compileBlock(sequence_->body);
    emit(Op::Const, addConst(Value::none()));
    emit(Op::Return, 0, 0, sequence_->range);
    ctx_ = nullptr;
    P.sequence = fi;
  }
}

}  // namespace polemos::check::detail
