// The checker: code generation for gates, phases and statements.
#include "check/compiler_internal.h"

namespace polemos::check::detail {

void Compiler::expectBool(const Type& t, SourceRange r, const char* where) {
  if (t.kind != TypeKind::Any && t.kind != TypeKind::Bool) {
    error(r, fmt::format("{} must be true or false, but this is {}", where, typeName(P, t)));
  }
}

void Compiler::expectInt(const Type& t, SourceRange r, const char* where) {
  if (t.kind != TypeKind::Any && t.kind != TypeKind::Int) {
    error(r, fmt::format("{} must be a number, but this is {}", where, typeName(P, t)));
  }
}

int32_t Compiler::compileGate(const std::vector<ast::Gate>& gates, const std::string& name,
                              const std::vector<std::pair<std::string, Type>>& params) {
  if (gates.empty()) return -1;
  int32_t fi = newFunction(name + " (gate)", FuncKind::Function, gates[0].range);
  FnCtx c;
  c.index = fi;
  c.pure = true;
  c.scopes.emplace_back();
  FnCtx* saved = ctx_;
  ctx_ = &c;
  // A trigger's gate sees the event's parameters: `trigger t on moved(u, f, to) if u.side == x`.
  for (const auto& [n, t] : params) {
    newLocal(n, t);
    P.functions[fi].paramNames.push_back(n);
    P.functions[fi].paramTypes.push_back(t);
  }
  P.functions[fi].arity = static_cast<int32_t>(params.size());
  std::vector<int32_t> falseJumps;
  for (const auto& g : gates) {
    if (g.kind == ast::Gate::Level) {
      const Sym* s = lookup(g.level.name);
      if (!s || s->kind != SymKind::Level) {
        error(g.level.range, fmt::format("unknown level '{}'", g.level.name));
        continue;
      }
      emit(Op::CallBuiltin, ir::findBuiltin("level"), 0, g.range);
      emit(Op::Const, addConst(Value::of(Tag::Level, s->index)), 0, g.range);
      emit(Op::Ge, 0, 0, g.range);
    } else {
      Type t = compileExpr(*g.cond);
      expectBool(t, g.cond->range, "a gate's condition");
    }
    falseJumps.push_back(here());
    emit(Op::JumpIfFalse, 0);
  }
  emit(Op::Const, addConst(Value::boolean(true)));
  emit(Op::Return);
  int32_t falseAt = here();
  for (int32_t j : falseJumps) patch(j, falseAt);
  emit(Op::Const, addConst(Value::boolean(false)));
  emit(Op::Return);
  P.functions[fi].result = Type::of(TypeKind::Bool);
  ctx_ = saved;
  return fi;
}

std::vector<const ast::Arg*> Compiler::orderArgs(const std::vector<ast::Arg>& args,
                                                 const std::vector<std::string>& params,
                                                 SourceRange r, const std::string& callee) {
  std::vector<const ast::Arg*> out(params.size(), nullptr);
  size_t pos = 0;
  bool named = false;
  for (const auto& a : args) {
    if (a.name) {
      named = true;
      auto it = std::find(params.begin(), params.end(), a.name->name);
      if (it == params.end()) {
        error(a.name->range, fmt::format("{} has no parameter '{}'", callee, a.name->name));
        continue;
      }
      size_t i = it - params.begin();
      if (out[i]) {
        error(a.name->range, fmt::format("parameter '{}' is given twice", a.name->name));
        continue;
      }
      out[i] = &a;
    } else {
      if (named) {
        error(a.value->range, "a positional argument cannot follow a named one");
        continue;
      }
      if (pos >= params.size()) {
        error(a.value->range,
              fmt::format("too many arguments: {} takes {}", callee, params.size()));
        return {};
      }
      out[pos++] = &a;
    }
  }
  for (size_t i = 0; i < out.size(); ++i) {
    if (!out[i]) {
      error(r, fmt::format("{} needs {} argument{}, but {} {} given (missing '{}')", callee,
                           params.size(), params.size() == 1 ? "" : "s", args.size(),
                           args.size() == 1 ? "is" : "are", params[i]));
      return {};
    }
  }
  return out;
}

void Compiler::compileBlock(const std::vector<ast::StmtPtr>& body) {
  ctx_->scopes.emplace_back();
  for (const auto& s : body) compileStmt(*s);
  ctx_->scopes.pop_back();
}

void Compiler::compileAssign(const Stmt& s) {
  const Expr& t = *s.target;
  if (t.kind == ExprKind::Name) {
    auto l = resolveLocal(ctx_, t.text);
    if (!l) {
      error(t.range, fmt::format("cannot assign to '{}': only variables (let) and state fields can "
                                 "be assigned",
                                 t.text));
      return;
    }
    if (ctx_->parent && findLocal(ctx_, t.text) == nullptr) {
      error(t.range, "a lambda cannot assign to a variable of the enclosing function");
      return;
    }
    if (s.assignOp != ast::AssignOp::Set) emit(Op::Load, l->slot, 0, t.range);
    Type vt = compileExpr(*s.value);
    if (s.assignOp == ast::AssignOp::Add) emit(Op::Add, 0, 0, s.range);
    if (s.assignOp == ast::AssignOp::Sub) emit(Op::Sub, 0, 0, s.range);
    if (s.assignOp == ast::AssignOp::Set && !assignable(l->type, vt)) {
      error(s.value->range, fmt::format("'{}' is {}, but this is {}", t.text, typeName(P, l->type),
                                        typeName(P, vt)));
    }
    emit(Op::Store, l->slot, 0, s.range);
    return;
  }
  if (t.kind == ExprKind::Member) {
    if (ctx_->pure) {
      error(s.range, "a function cannot change the game state; make it a procedure");
      return;
    }
    const Expr& obj = *t.operands[0];
    int32_t nameId = P.nameId(t.member.name);
    if (obj.kind == ExprKind::Name && obj.text == "game" && !resolveLocal(ctx_, "game")) {
      int32_t slot = P.gameState.find(nameId);
      if (slot < 0) {
        error(t.member.range, fmt::format("the game state has no field '{}'", t.member.name));
        return;
      }
      emit(Op::Const, addConst(Value::none()), 0, t.range);  // stands for `game`
    } else {
      Type ot = compileExpr(obj);
      if (ot.kind == TypeKind::Unit || ot.kind == TypeKind::Any) {
        bool found = false;
        for (const auto& c : P.classes) {
          int32_t slot = c.find(nameId);
          if (slot >= 0 && (ot.id < 0 || &c == &P.classes[ot.id])) {
            found = true;
            if (!c.fields[slot].isState) {
              error(t.member.range,
                    fmt::format("'{}' of unit class {} is not a state field; declare it "
                                "`state {}: ...` to change it during play",
                                t.member.name, c.name, t.member.name));
              return;
            }
          }
        }
        static const std::set<std::string> kUnitWritable = {"facing"};
        if (!found && ot.kind == TypeKind::Unit && !kUnitWritable.count(t.member.name) &&
            P.sideState.find(nameId) < 0) {
          error(t.member.range, fmt::format("no unit class has a state field '{}'", t.member.name));
          return;
        }
      } else if (ot.kind == TypeKind::Side) {
        if (P.sideState.find(nameId) < 0) {
          error(t.member.range, fmt::format("the side state has no field '{}'", t.member.name));
          return;
        }
      } else if (ot.kind == TypeKind::Hex) {
        int32_t slot = P.hexState.find(nameId);
        if (slot < 0 || P.hexState.fields[slot].derived >= 0) {
          error(t.member.range,
                fmt::format("the hex state has no field '{}' (terrain, elevation and hexsides "
                            "change with set_terrain, add_hexside and remove_hexside)",
                            t.member.name));
          return;
        }
      } else {
        error(t.range, fmt::format("cannot assign to a field of {}", typeName(P, ot)));
        return;
      }
    }
    compileExpr(*s.value);
    if (s.assignOp == ast::AssignOp::Set) {
      emit(Op::SetMember, nameId, 0, s.range);
    } else {
      if (s.assignOp == ast::AssignOp::Sub) emit(Op::Neg, 0, 0, s.range);
      emit(Op::AddMember, nameId, 0, s.range);
    }
    return;
  }
  error(t.range, "cannot assign to this: only variables and state fields can be assigned");
}

void Compiler::compilePhase(const Stmt& s, bool alternate) {
  PhaseInfo ph;
  ph.name = !alternate || !s.name.name.empty() ? s.name.name : !step_.empty() ? step_ : "alternate";
  ph.alternate = alternate;
  ph.passes = s.passes > 0 ? s.passes : 2;
  ph.citations = citeStrings(s.citations);
  int32_t pi = static_cast<int32_t>(P.phases.size());
  P.phases.push_back(ph);
  // Gates: skip the whole phase when off.
  std::vector<int32_t> skips;
  for (const auto& g : s.gates) {
    if (g.kind == ast::Gate::Level) {
      const Sym* l = lookup(g.level.name);
      if (!l || l->kind != SymKind::Level) {
        error(g.level.range, fmt::format("unknown level '{}'", g.level.name));
        continue;
      }
      emit(Op::CallBuiltin, ir::findBuiltin("level"), 0, g.range);
      emit(Op::Const, addConst(Value::of(Tag::Level, l->index)), 0, g.range);
      emit(Op::Ge, 0, 0, g.range);
    } else {
      expectBool(compileExpr(*g.cond), g.cond->range, "a phase's condition");
    }
    skips.push_back(here());
    emit(Op::JumpIfFalse, 0, 0, g.range);
  }
  ctx_->scopes.emplace_back();
  // Window state: [player, passes, justActed].
  int32_t base = newLocal("", Type::of(TypeKind::Side));
  newLocal("", Type::of(TypeKind::Int));
  newLocal("", Type::of(TypeKind::Int));
  if (alternate) {
    compileExpr(*s.value);
  } else if (s.forPlayer) {
    compileExpr(*s.forPlayer);
  } else {
    emit(Op::CallBuiltin, ir::findBuiltin("active_side"), 0, s.range);
  }
  emit(Op::Store, base, 0, s.range);
  emit(Op::Const, addConst(Value::integer(0)));
  emit(Op::Store, base + 1);
  emit(Op::Const, addConst(Value::integer(0)));
  emit(Op::Store, base + 2);
  emit(Op::PhaseEnter, pi, base, s.range);
  std::vector<int32_t> actions;
  for (const auto& item : s.items) {
    if (item.kind == ast::PhaseItem::OnStart) compileBlock(item.body);
  }
  for (const auto& item : s.items) {
    if (item.kind == ast::PhaseItem::Allow) {
      for (const auto& a : item.actions) {
        const Sym* as = lookup(a.name);
        if (!as || as->kind != SymKind::Action) {
          error(a.range, fmt::format("'{}' is not an action", a.name));
          continue;
        }
        actions.push_back(as->index);
      }
    } else if (item.kind == ast::PhaseItem::EndRequires) {
      int32_t fi = newFunction(ph.name + " (end requires)", FuncKind::Function, item.range);
      FnCtx c;
      c.index = fi;
      c.pure = true;
      c.scopes.emplace_back();
      FnCtx* saved = ctx_;
      ctx_ = &c;
      // The acting player is parameter 0, named `player`.
      P.functions[c.index].arity = 1;
      newLocal("player", Type::of(TypeKind::Side));
      P.functions[c.index].paramNames.push_back("player");
      Type t = compileExpr(*item.cond);
      expectBool(t, item.cond->range, "an end requirement");
      emit(Op::Return, 0, 0, item.range);
      ctx_ = saved;
      P.phases[pi].endRequires = fi;
      P.phases[pi].endInfo.citations = citeStrings(item.citations);
      P.phases[pi].endInfo.text = item.message.empty() ? item.condText : item.message;
    }
  }
  P.phases[pi].actions = actions;
  emit(Op::Window, pi, base, s.range);
  for (const auto& item : s.items) {
    if (item.kind == ast::PhaseItem::OnEnd) compileBlock(item.body);
  }
  emit(Op::PhaseExit, pi, base, s.range);
  ctx_->scopes.pop_back();
  int32_t end = here();
  for (int32_t j : skips) patch(j, end);
}

void Compiler::compileStmt(const Stmt& s) {
  switch (s.kind) {
    case StmtKind::Let: {
      Type t = compileExpr(*s.value);
      if (t.kind == TypeKind::Void) error(s.value->range, "this has no value");
      if (s.typeRef) {
        auto declared = resolveType(*s.typeRef);
        if (declared) {
          if (!assignable(*declared, t)) {
            error(s.value->range, fmt::format("'{}' is declared {}, but this is {}", s.name.name,
                                              typeName(P, *declared), typeName(P, t)));
          }
          t = *declared;
        }
      }
      int32_t slot = newLocal(s.name.name, t);
      emit(Op::Store, slot, 0, s.range);
      break;
    }
    case StmtKind::Assign:
      compileAssign(s);
      break;
    case StmtKind::If: {
      expectBool(compileExpr(*s.cond), s.cond->range, "an if condition");
      int32_t jf = here();
      emit(Op::JumpIfFalse, 0, 0, s.range);
      compileBlock(s.body);
      if (s.hasElse) {
        int32_t jend = here();
        emit(Op::Jump, 0);
        patch(jf, here());
        compileBlock(s.elseBody);
        patch(jend, here());
      } else {
        patch(jf, here());
      }
      break;
    }
    case StmtKind::While: {
      int32_t top = here();
      expectBool(compileExpr(*s.cond), s.cond->range, "a while condition");
      int32_t jf = here();
      emit(Op::JumpIfFalse, 0, 0, s.range);
      compileBlock(s.body);
      emit(Op::Jump, top, 0, s.range);
      patch(jf, here());
      break;
    }
    case StmtKind::For: {
      ctx_->scopes.emplace_back();
      Type lt = compileExpr(*s.value);
      if (lt.kind != TypeKind::Any && lt.kind != TypeKind::List) {
        error(s.value->range,
              fmt::format("a for loop needs a list, but this is {}", typeName(P, lt)));
      }
      int32_t it = newLocal("", Type::any());
      newLocal("", Type::of(TypeKind::Int));
      emit(Op::IterInit, it, 0, s.range);
      int32_t top = here();
      emit(Op::IterNext, it, 0, s.range);
      int32_t var = newLocal(s.name.name, lt.kind == TypeKind::List ? lt.element() : Type::any());
      emit(Op::Store, var);
      compileBlock(s.body);
      emit(Op::Jump, top, 0, s.range);
      cur().code[top].b = here();
      ctx_->scopes.pop_back();
      break;
    }
    case StmtKind::Require: {
      expectBool(compileExpr(*s.cond), s.cond->range, "a requirement");
      RequireInfo ri;
      ri.citations = citeStrings(s.citations);
      ri.text = s.message.empty() ? s.condText : s.message;
      P.requirements.push_back(ri);
      emit(Op::Require, static_cast<int32_t>(P.requirements.size() - 1), 0, s.range);
      break;
    }
    case StmtKind::Return: {
      if (s.value) {
        Type t = compileExpr(*s.value);
        const Type& want = cur().result;
        if (!assignable(want, t)) {
          error(s.value->range, fmt::format("{} returns {}, but this is {}", cur().name,
                                            typeName(P, want), typeName(P, t)));
        }
      } else {
        emit(Op::Const, addConst(Value::none()));
      }
      emit(Op::Return, 0, 0, s.range);
      break;
    }
    case StmtKind::Phase:
    case StmtKind::Alternate:
      if (cur().kind != FuncKind::Sequence && cur().kind != FuncKind::Procedure) {
        error(s.range, "phases belong to the sequence of play (or a procedure it calls)");
        break;
      }
      compilePhase(s, s.kind == StmtKind::Alternate);
      break;
    case StmtKind::Step: {
      if (ctx_->pure) {
        error(s.range, "a step belongs to the sequence of play, not a function");
        break;
      }
      int32_t si = static_cast<int32_t>(P.steps.size());
      P.steps.push_back(s.name.name);
      P.stepCitations.push_back(citeStrings(s.citations));
      int32_t gate = compileGate(s.gates, s.name.name);
      int32_t skip = -1;
      if (gate >= 0) {
        emit(Op::Call, gate, 0, s.range);
        skip = here();
        emit(Op::JumpIfFalse, 0);
      }
      emit(Op::StepEnter, si, 0, s.range);
      std::string outer = std::exchange(step_, s.name.name);
      compileBlock(s.body);
      step_ = std::move(outer);
      if (skip >= 0) patch(skip, here());
      break;
    }
    case StmtKind::Emit: {
      if (ctx_->pure) {
        error(s.range, "a function cannot emit events; make it a procedure");
        break;
      }
      const Sym* ev = lookup(s.name.name);
      if (!ev || ev->kind != SymKind::Event) {
        error(s.name.range, fmt::format("unknown event '{}'", s.name.name));
        break;
      }
      const EventInfo& info = P.events[ev->index];
      if (s.args.size() != info.params.size()) {
        error(s.range, fmt::format("event {} takes {} argument{}, but {} {} given", info.name,
                                   info.params.size(), info.params.size() == 1 ? "" : "s",
                                   s.args.size(), s.args.size() == 1 ? "is" : "are"));
        break;
      }
      for (size_t i = 0; i < s.args.size(); ++i) {
        if (s.args[i].name)
          error(s.args[i].name->range, "event arguments are positional; remove the name");
        Type t = compileExpr(*s.args[i].value);
        if (!assignable(info.params[i], t)) {
          error(s.args[i].value->range,
                fmt::format("event {} expects {} here, but this is {}", info.name,
                            typeName(P, info.params[i]), typeName(P, t)));
        }
      }
      emit(Op::Emit, ev->index, static_cast<int32_t>(s.args.size()), s.range);
      break;
    }
    case StmtKind::Apply: {
      if (ctx_->pure) {
        error(s.range, "a function cannot apply results; make it a procedure");
        break;
      }
      const Expr& call = *s.value;
      if (call.kind != ExprKind::Call) {
        error(call.range,
              "apply needs a result and its arguments, as in `apply crt[d, col](battle)`");
        break;
      }
      Type rt = compileExpr(*call.operands[0]);
      int32_t ri = -1;
      if (rt.kind == TypeKind::Enum && rt.id >= 0) ri = P.enums[rt.id].results;
      if (rt.kind != TypeKind::Any && ri < 0) {
        error(call.operands[0]->range, fmt::format("apply needs a result (a member of a `results` "
                                                   "declaration), but this is {}",
                                                   typeName(P, rt)));
        break;
      }
      for (const auto& a : call.args) {
        if (a.name) error(a.name->range, "result arguments are positional; remove the name");
        compileExpr(*a.value);
      }
      if (ri >= 0) {
        int32_t arity = P.functions[P.results[ri].cases[0]].arity;
        if (static_cast<int32_t>(call.args.size()) != arity) {
          error(call.range, fmt::format("results {} take {} argument{}, but {} {} given",
                                        P.results[ri].name, arity, arity == 1 ? "" : "s",
                                        call.args.size(), call.args.size() == 1 ? "is" : "are"));
          break;
        }
      }
      // a: the results declaration plus one when it is known here, so that applying `none` (a `-`
      // cell of a table) runs its `-` case.
      emit(Op::ApplyResult, ri + 1, static_cast<int32_t>(call.args.size()), s.range);
      break;
    }
    case StmtKind::Note: {
      RequireInfo ni;
      ni.citations = citeStrings(s.citations);
      P.notes.push_back(ni);
      // A note's values are worked out only when the trace is written (docs/language.md 5):
      // the code that makes them is jumped over otherwise, when it can change nothing but the
      // operand stack (quietCode). `sim` and the random player's probes play without a trace.
      const int32_t skip = here();
      emit(Op::SkipUntraced, 0, 0, s.range);
      for (const auto& a : s.noteArgs) compileExpr(*a);
      emit(Op::Note, static_cast<int32_t>(P.notes.size() - 1),
           static_cast<int32_t>(s.noteArgs.size()), s.range);
      patch(skip, quietCode(skip + 1, here() - 1) ? here() : skip + 1);
      break;
    }
    case StmtKind::Pause: {
      // A stop inside an automatic phase that a stepping player sees and everything else passes
      // through (the Session decides).
      if (ctx_->pure) {
        error(s.range,
              "`pause` belongs in procedures, actions, triggers and the sequence of play, not in a "
              "function, a quantity or a requirement");
        break;
      }
      RequireInfo pi;
      pi.citations = citeStrings(s.citations);
      P.pauses.push_back(pi);
      compileExpr(*s.value);
      emit(Op::Pause, static_cast<int32_t>(P.pauses.size() - 1), 0, s.range);
      break;
    }
    case StmtKind::Block:
      compileBlock(s.body);
      break;
    case StmtKind::ExprStmt: {
      // A call (or a name) made for what it does: the grammar lets no other expression stand
      // as a statement, and a citation alone there is a syntax error (syntax_errors.cpp).
      Type t = compileExpr(*s.value);
      if (t.kind != TypeKind::Void) emit(Op::Pop);
      break;
    }
  }
}

}  // namespace polemos::check::detail
