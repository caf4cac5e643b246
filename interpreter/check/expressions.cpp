// The checker: code generation for index, operators, lambdas, rolls and choices, and the expression
// dispatcher.
#include "check/compiler_internal.h"
#include "limits/limits.h"

namespace polemos::check::detail {

Type Compiler::compileIndex(const Expr& e) {
  Type ot = compileExpr(*e.operands[0]);
  size_t n = e.operands.size() - 1;
  for (size_t i = 1; i < e.operands.size(); ++i) compileExpr(*e.operands[i]);
  if (ot.kind == TypeKind::Table && e.operands[0]->kind == ExprKind::Name) {
    const Sym* s = lookup(e.operands[0]->text);
    if (s && s->kind == SymKind::Table) {
      const TableInfo& t = P.tables[s->index];
      size_t want = t.cols.empty() ? 1 : 2;
      if (n != want) {
        error(e.range, fmt::format("table {} is looked up as {}[{}], with {} key{}", t.name, t.name,
                                   want == 1 ? "row" : "row, column", want, want == 1 ? "" : "s"));
      }
      for (const auto& c : t.cells)
        if (c.tag != Tag::None) {
          emit(Op::Index, static_cast<int32_t>(n), 0, e.range);
          Type ct = valueType(c);
          ct.optional = true;
          return ct;
        }
    }
  }
  if (ot.kind != TypeKind::Any && ot.kind != TypeKind::Table && ot.kind != TypeKind::List) {
    error(e.operands[0]->range, fmt::format("{} cannot be indexed", typeName(P, ot)));
  }
  emit(Op::Index, static_cast<int32_t>(n), 0, e.range);
  if (ot.kind == TypeKind::List) return ot.element();
  return Type::any();
}

Type Compiler::compileBinary(const Expr& e) {
  using B = ast::BinaryOp;
  if (e.binaryOp == B::And || e.binaryOp == B::Or) {
    Type l = compileExpr(*e.operands[0]);
    expectBool(l, e.operands[0]->range,
               e.binaryOp == B::And ? "each side of `and`" : "each side of `or`");
    int32_t j = here();
    emit(e.binaryOp == B::And ? Op::AndJump : Op::OrJump, 0, 0, e.range);
    Type r = compileExpr(*e.operands[1]);
    expectBool(r, e.operands[1]->range,
               e.binaryOp == B::And ? "each side of `and`" : "each side of `or`");
    patch(j, here());
    return Type::of(TypeKind::Bool);
  }
  Type l = compileExpr(*e.operands[0]);
  Type r = compileExpr(*e.operands[1]);
  Op op = Op::Add;
  switch (e.binaryOp) {
    case B::Add:
      op = Op::Add;
      break;
    case B::Sub:
      op = Op::Sub;
      break;
    case B::Mul:
      op = Op::Mul;
      break;
    case B::Div:
      op = Op::Div;
      break;
    case B::Mod:
      op = Op::Mod;
      break;
    case B::Eq:
      op = Op::Eq;
      break;
    case B::Ne:
      op = Op::Ne;
      break;
    case B::Lt:
      op = Op::Lt;
      break;
    case B::Le:
      op = Op::Le;
      break;
    case B::Gt:
      op = Op::Gt;
      break;
    case B::Ge:
      op = Op::Ge;
      break;
    case B::In:
      op = Op::In;
      break;
    case B::NotIn:
      op = Op::NotIn;
      break;
    default:
      break;
  }
  emit(op, 0, 0, e.range);
  switch (e.binaryOp) {
    case B::Add:
      if (l.kind == TypeKind::Str || r.kind == TypeKind::Str) return Type::of(TypeKind::Str);
      if (l.kind == TypeKind::List) return l;
      [[fallthrough]];
    case B::Sub:
    case B::Mul:
    case B::Div:
    case B::Mod: {
      if (l.kind != TypeKind::Any && l.kind != TypeKind::Int &&
          !(e.binaryOp == B::Add && l.kind == TypeKind::List)) {
        error(e.operands[0]->range,
              fmt::format("arithmetic needs numbers, but this is {}", typeName(P, l)));
      } else if (r.kind != TypeKind::Any && r.kind != TypeKind::Int && l.kind != TypeKind::List) {
        error(e.operands[1]->range,
              fmt::format("arithmetic needs numbers, but this is {}", typeName(P, r)));
      }
      return Type::of(TypeKind::Int);
    }
    case B::Lt:
    case B::Le:
    case B::Gt:
    case B::Ge: {
      auto orderable = [](TypeKind k) {
        return k == TypeKind::Any || k == TypeKind::Int || k == TypeKind::Odds ||
               k == TypeKind::Column || k == TypeKind::Level || k == TypeKind::Enum ||
               k == TypeKind::Str;
      };
      if (!orderable(l.kind)) {
        error(e.operands[0]->range,
              fmt::format("{} cannot be compared with < or >", typeName(P, l)));
      } else if (!orderable(r.kind)) {
        error(e.operands[1]->range,
              fmt::format("{} cannot be compared with < or >", typeName(P, r)));
      } else if (!assignable(l, r) && !assignable(r, l)) {
        error(e.range, fmt::format("cannot compare {} with {}", typeName(P, l), typeName(P, r)));
      }
      return Type::of(TypeKind::Bool);
    }
    case B::Eq:
    case B::Ne: {
      Type ln = l, rn = r;
      ln.optional = rn.optional = true;
      if (!assignable(ln, r) && !assignable(rn, l)) {
        error(e.range, fmt::format("comparing {} with {} is always {}", typeName(P, l),
                                   typeName(P, r), e.binaryOp == B::Eq ? "false" : "true"));
      }
      return Type::of(TypeKind::Bool);
    }
    case B::In:
    case B::NotIn:
      if (r.kind != TypeKind::Any && r.kind != TypeKind::List) {
        error(e.operands[1]->range,
              fmt::format("`in` needs a list on its right, but this is {}", typeName(P, r)));
      }
      return Type::of(TypeKind::Bool);
    default:
      break;
  }
  return Type::any();
}

Type Compiler::compileLambda(const Expr& e) {
  int32_t fi = newFunction(fmt::format("lambda@{}:{}", e.range.begin.line, e.range.begin.col + 1),
                           FuncKind::Lambda, e.range);
  FnCtx c;
  c.index = fi;
  c.pure = true;
  c.parent = ctx_;
  c.owner = ctx_->owner;
  c.scopes.emplace_back();
  FnCtx* saved = ctx_;
  ctx_ = &c;
  for (const auto& p : e.params) {
    newLocal(p.name, Type::any());
    P.functions[c.index].paramNames.push_back(p.name);
    P.functions[c.index].paramTypes.push_back(Type::any());
  }
  P.functions[c.index].arity = static_cast<int32_t>(e.params.size());
  Type body = compileExpr(*e.operands[0]);
  emit(Op::Return, 0, 0, e.range);
  P.functions[fi].result = body;
  ctx_ = saved;
  // Captured values are loaded now and stored in the closure; they follow the parameters.
  for (const auto& [outer, inner] : c.captures) emit(Op::Load, outer, 0, e.range);
  // The lambda's locals that hold captures must be the ones right after the parameters, in
  // capture order; resolveLocal allocated them in that order, but lets in the body could not
  // precede them because a lambda body is one expression.
  emit(Op::MakeClosure, fi, static_cast<int32_t>(c.captures.size()), e.range);
  return Type::of(TypeKind::Func);
}

Type Compiler::compileRoll(const Expr& e) {
  if (ctx_->pure) {
    error(e.range,
          "dice can be rolled only in procedures, actions, triggers, results and the "
          "sequence of play, not in a function, a quantity or a requirement");
    return Type::of(TypeKind::Int);
  }
  RollInfo r;
  r.citations = citeStrings(e.citations);
  const std::string& dn = e.dieName.name;
  std::string spec = dn;
  if (!dn.empty() && dn[0] == 'd' && dn.size() > 1 &&
      std::all_of(dn.begin() + 1, dn.end(), [](char c) { return std::isdigit(c); })) {
    // A plain die `dN`: an implicit die with faces 1..N.
    int64_t faces = 0;
    for (char c : dn.substr(1)) faces = std::min<int64_t>(faces * 10 + (c - '0'), 1000000);
    if (faces < 1 || faces > 1000) {
      error(e.dieName.range, "a die has between 1 and 1000 faces");
      return Type::of(TypeKind::Int);
    }
    std::string name = "d" + std::to_string(faces);
    int32_t di = -1;
    for (size_t i = 0; i < P.dice.size(); ++i)
      if (P.dice[i].name == name) di = static_cast<int32_t>(i);
    if (di < 0) {
      DieInfo d;
      d.name = name;
      for (int64_t f = 1; f <= faces; ++f) d.faces.push_back(f);
      P.dice.push_back(d);
      di = static_cast<int32_t>(P.dice.size() - 1);
    }
    r.die = di;
  } else {
    const Sym* s = lookup(dn);
    if (!s || s->kind != SymKind::Die) {
      error(e.dieName.range, fmt::format("unknown die '{}' (use d6, 2d6, or a declared die)", dn));
      return Type::of(TypeKind::Int);
    }
    r.die = s->index;
  }
  r.count = e.diceCount;
  if (r.count < 1 || r.count > limits::kMaxDicePerRoll) {
    error(e.range, fmt::format("roll between 1 and {} dice at a time", limits::kMaxDicePerRoll));
    r.count = 1;
  }
  if (e.rollCount) {
    expectInt(compileExpr(*e.rollCount), e.rollCount->range, "the number of dice");
    r.dynamicCount = true;
  }
  r.mode = static_cast<RollInfo::Mode>(e.rollMode);
  P.rolls.push_back(r);
  emit(Op::Roll, static_cast<int32_t>(P.rolls.size() - 1), 0, e.range);
  if (r.mode == RollInfo::Each) return Type::listOf(Type::of(TypeKind::Int));
  return Type::of(TypeKind::Int);
}

Type Compiler::compileChoose(const Expr& e) {
  if (ctx_->pure) {
    error(e.range,
          "`choose` asks a player to decide and can be used only in procedures, actions, "
          "triggers, results and the sequence of play");
    return Type::any();
  }
  Type opts = compileExpr(*e.operands[0]);
  if (opts.kind != TypeKind::Any && opts.kind != TypeKind::List) {
    error(e.operands[0]->range,
          fmt::format("choose needs a list of options, but this is {}", typeName(P, opts)));
  }
  Type who = compileExpr(*e.operands[1]);
  if (who.kind != TypeKind::Any && who.kind != TypeKind::Side) {
    error(e.operands[1]->range,
          fmt::format("`by` names the side that chooses, but this is {}", typeName(P, who)));
  }
  ChooseInfo c;
  c.prompt = e.prompt;
  c.citations = citeStrings(e.citations);
  P.chooses.push_back(c);
  emit(Op::Choose, static_cast<int32_t>(P.chooses.size() - 1), 0, e.range);
  return opts.kind == TypeKind::List ? opts.element() : Type::any();
}

Type Compiler::compileExpr(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Int:
    case ExprKind::Odds:
    case ExprKind::String:
    case ExprKind::Bool:
    case ExprKind::None: {
      auto v = constEval(e);
      if (!v) return Type::any();
      emit(Op::Const, addConst(*v), 0, e.range);
      return valueType(*v);
    }
    case ExprKind::CitationLit:
      emit(Op::Const, addConst(Value::string("§" + e.text)), 0, e.range);
      return Type::of(TypeKind::Str);
    case ExprKind::Name:
      return compileName(e);
    case ExprKind::Member:
      return compileMember(e);
    case ExprKind::Call:
      return compileCall(e);
    case ExprKind::Index:
      return compileIndex(e);
    case ExprKind::Unary: {
      Type t = compileExpr(*e.operands[0]);
      if (e.unaryOp == ast::UnaryOp::Neg) {
        expectInt(t, e.operands[0]->range, "the operand of unary minus");
        emit(Op::Neg, 0, 0, e.range);
        return Type::of(TypeKind::Int);
      }
      expectBool(t, e.operands[0]->range, "the operand of `not`");
      emit(Op::Not, 0, 0, e.range);
      return Type::of(TypeKind::Bool);
    }
    case ExprKind::Binary:
      return compileBinary(e);
    case ExprKind::Cond: {
      expectBool(compileExpr(*e.operands[0]), e.operands[0]->range, "the condition of `if`");
      int32_t jf = here();
      emit(Op::JumpIfFalse, 0, 0, e.range);
      Type a = compileExpr(*e.operands[1]);
      int32_t jend = here();
      emit(Op::Jump, 0);
      patch(jf, here());
      Type b = compileExpr(*e.operands[2]);
      patch(jend, here());
      if (a.kind == TypeKind::None) {
        b.optional = true;
        return b;
      }
      if (b.kind == TypeKind::None) {
        a.optional = true;
        return a;
      }
      if (!assignable(a, b) && !assignable(b, a)) {
        error(e.range, fmt::format("the two branches give different types: {} and {}",
                                   typeName(P, a), typeName(P, b)));
      }
      return a;
    }
    case ExprKind::Lambda:
      return compileLambda(e);
    case ExprKind::List: {
      Type elem = Type::any();
      for (size_t i = 0; i < e.operands.size(); ++i) {
        Type t = compileExpr(*e.operands[i]);
        if (i == 0)
          elem = t;
        else if (!assignable(elem, t))
          elem = Type::any();
      }
      emit(Op::MakeList, static_cast<int32_t>(e.operands.size()), 0, e.range);
      return Type::listOf(elem);
    }
    case ExprKind::Map: {
      for (size_t i = 0; i < e.mapKeys.size(); ++i) {
        Expr k(ExprKind::Name);
        k.text = e.mapKeys[i].name;
        k.range = e.mapKeys[i].range;
        compileName(k);
        compileExpr(*e.operands[i]);
        emit(Op::MakeList, 2, 0, e.range);
      }
      emit(Op::MakeList, static_cast<int32_t>(e.mapKeys.size()), 1, e.range);  // b=1: a map
      return Type::listOf(Type::any());
    }
    case ExprKind::Range: {
      expectInt(compileExpr(*e.operands[0]), e.operands[0]->range, "a range's start");
      expectInt(compileExpr(*e.operands[1]), e.operands[1]->range, "a range's end");
      emit(Op::MakeRange, 0, 0, e.range);
      return Type::listOf(Type::of(TypeKind::Int));
    }
    case ExprKind::Roll:
      return compileRoll(e);
    case ExprKind::Choose:
      return compileChoose(e);
  }
  return Type::any();
}

}  // namespace polemos::check::detail
