// The checker: code generation for names, members and calls (user functions, quantities, builtins
// by their ir/builtins signatures).
#include "check/compiler_internal.h"

namespace polemos::check::detail {

std::optional<std::string> Compiler::dottedName(const Expr& e) {
  if (e.kind == ExprKind::Name) return e.text;
  if (e.kind == ExprKind::Member) {
    auto base = dottedName(*e.operands[0]);
    if (base) return *base + "." + e.member.name;
  }
  return std::nullopt;
}

Type Compiler::compileName(const Expr& e) {
  if (auto l = resolveLocal(ctx_, e.text)) {
    emit(Op::Load, l->slot, 0, e.range);
    return l->type;
  }
  // Inside a derived field or a schema default, the owner's fields are in scope.
  if (ctx_->owner) {
    int32_t slot = ctx_->owner->find(P.nameId(e.text));
    if (slot >= 0) {
      emit(Op::Load, 0, 0, e.range);
      emit(Op::Member, P.nameId(e.text), 0, e.range);
      return ctx_->owner->fields[slot].type;
    }
  }
  const Sym* s = lookup(e.text);
  if (!s) {
    int b = ir::findBuiltin(e.text);
    if (b >= 0 && ir::builtin(b).minArgs == 0) {
      if (ir::builtin(b).effect && ctx_->pure) {
        error(e.range,
              fmt::format("'{}' changes the game and cannot be used in a function", e.text));
      }
      emit(Op::CallBuiltin, b, 0, e.range);
      const auto& bi = ir::builtin(b);
      Type t = Type::of(bi.result);
      if (bi.result == TypeKind::List) t = Type::listOf(Type::of(bi.elem));
      return t;
    }
    if (auto q = quantities_.find(e.text); q != quantities_.end()) {
      error(e.range, fmt::format("quantity '{}' needs its arguments", e.text));
      return Type::any();
    }
    // A scenario's unit ids name its units (`reachable(h12)` at the REPL).
    for (size_t u = 0; u < P.units.size(); ++u) {
      if (P.units[u].id == e.text) {
        emit(Op::Const, addConst(Value::of(Tag::Unit, static_cast<int64_t>(u))), 0, e.range);
        return Type::of(TypeKind::Unit, P.unitTypes[P.units[u].type].cls);
      }
    }
    // On a map with letter labels, `L9` names a hex.
    if (P.letterLabels && P.grid) {
      int32_t h = hex::kNoIndex;
      try {
        h = P.grid->indexOf(P.grid->parse(e.text));
      } catch (const hex::HexError&) {
      }
      if (h != hex::kNoIndex) {
        emit(Op::Const, addConst(Value::of(Tag::Hex, h)), 0, e.range);
        return Type::of(TypeKind::Hex);
      }
    }
    auto& d = error(e.range, fmt::format("unknown name '{}'", e.text));
    if (e.text == "game" || e.text == "scenario") {
      D.note(d, {}, fmt::format("use {}.FIELD to read a field of the {} state", e.text, e.text));
    }
    return Type::any();
  }
  if (s->ambiguous) {
    error(e.range, fmt::format("'{}' is a member of several enums; qualify it, as in Enum.{}",
                               e.text, e.text));
    return Type::any();
  }
  switch (s->kind) {
    case SymKind::EnumMember:
      emit(Op::Const, addConst(Value::of(Tag::Enum, s->index, s->sub)), 0, e.range);
      return Type::of(TypeKind::Enum, s->sub);
    case SymKind::Const:
      emit(Op::LoadGlobal, s->index, 0, e.range);
      return valueType(P.globals[s->index]);
    case SymKind::Option:
      emit(Op::LoadOption, s->index, 0, e.range);
      return P.options[s->index].type;
    case SymKind::Level:
      emit(Op::Const, addConst(Value::of(Tag::Level, s->index)), 0, e.range);
      return Type::of(TypeKind::Level);
    case SymKind::Terrain:
      emit(Op::Const, addConst(Value::of(Tag::Terrain, s->index)), 0, e.range);
      return Type::of(TypeKind::Terrain);
    case SymKind::Feature:
      emit(Op::Const, addConst(Value::of(Tag::Feature, s->index)), 0, e.range);
      return Type::of(TypeKind::Feature);
    case SymKind::UnitType:
      emit(Op::Const, addConst(Value::of(Tag::UnitType, s->index)), 0, e.range);
      return Type::of(TypeKind::UnitType);
    case SymKind::Table:
      emit(Op::Const, addConst(Value::of(Tag::Table, s->index)), 0, e.range);
      return Type::of(TypeKind::Table);
    case SymKind::Die:
      emit(Op::Const, addConst(Value::of(Tag::Die, s->index)), 0, e.range);
      return Type::of(TypeKind::Die);
    case SymKind::Side:
      emit(Op::Const, addConst(Value::of(Tag::Side, s->index)), 0, e.range);
      return Type::of(TypeKind::Side);
    case SymKind::Function: {
      const Function& f = P.functions[s->index];
      if (ctx_->pure && !f.pure()) {
        error(e.range, fmt::format("procedure '{}' cannot be used in a function", e.text));
      }
      emit(Op::MakeClosure, s->index, 0, e.range);
      return Type::of(TypeKind::Func);
    }
    case SymKind::EnumType:
    case SymKind::Results:
      error(e.range,
            fmt::format("'{}' is a type; name one of its members, as in {}.X", e.text, e.text));
      return Type::any();
    case SymKind::Class:
      error(e.range, fmt::format("'{}' is a unit class, not a value", e.text));
      return Type::any();
    case SymKind::Quantity:
      error(e.range, fmt::format("quantity '{}' needs its arguments", e.text));
      return Type::any();
    case SymKind::Action:
      error(e.range,
            fmt::format("'{}' is an action; players take actions, rules do not call them", e.text));
      return Type::any();
    case SymKind::Event:
      error(e.range, fmt::format("'{}' is an event; use `emit {}(...)`", e.text, e.text));
      return Type::any();
  }
  return Type::any();
}

Type Compiler::fieldType(const Type& obj, int32_t nameId, const std::string& name, SourceRange r,
                         bool& ok) {
  ok = true;
  auto fromSchema = [&](const Schema& s) -> std::optional<Type> {
    int32_t slot = s.find(nameId);
    if (slot < 0) return std::nullopt;
    return s.fields[slot].type;
  };
  static const std::unordered_map<std::string, Type> kUnitProps = {
      {"id", Type::of(TypeKind::Str)},          {"type", Type::of(TypeKind::UnitType)},
      {"side", Type::of(TypeKind::Side)},       {"hex", Type{TypeKind::Hex, -1, true, nullptr}},
      {"facing", Type::of(TypeKind::Int)},      {"on_map", Type::of(TypeKind::Bool)},
      {"eliminated", Type::of(TypeKind::Bool)}, {"exited", Type::of(TypeKind::Bool)},
      {"merged", Type::of(TypeKind::Bool)},     {"class", Type::of(TypeKind::Str)}};
  static const std::unordered_map<std::string, Type> kSideProps = {
      {"name", Type::of(TypeKind::Str)},
      {"title", Type::of(TypeKind::Str)},
      {"units", Type::listOf(Type::of(TypeKind::Unit))},
      {"index", Type::of(TypeKind::Int)}};
  static const std::unordered_map<std::string, Type> kHexProps = {
      {"terrain", Type::of(TypeKind::Terrain)}, {"units", Type::listOf(Type::of(TypeKind::Unit))},
      {"col", Type::of(TypeKind::Int)},         {"row", Type::of(TypeKind::Int)},
      {"label", Type::of(TypeKind::Str)},       {"elevation", Type::of(TypeKind::Int)}};
  switch (obj.kind) {
    case TypeKind::Unit: {
      if (auto it = kUnitProps.find(name); it != kUnitProps.end()) return it->second;
      if (obj.id >= 0) {
        if (auto t = fromSchema(P.classes[obj.id])) return *t;
        ok = false;
        error(r, fmt::format("unit class {} has no field '{}'", P.classes[obj.id].name, name));
        return Type::any();
      }
      std::optional<Type> found;
      for (const auto& c : P.classes) {
        if (auto t = fromSchema(c)) {
          if (!found)
            found = *t;
          else if (found->kind != t->kind)
            found = Type::any();
        }
      }
      if (found) return *found;
      ok = false;
      error(r, fmt::format("no unit class has a field '{}'", name));
      return Type::any();
    }
    case TypeKind::UnitType: {
      if (name == "name") return Type::of(TypeKind::Str);
      std::optional<Type> found;
      for (const auto& c : P.classes)
        if (auto t = fromSchema(c))
          found = found ? (found->kind == t->kind ? *found : Type::any()) : *t;
      if (found) return *found;
      ok = false;
      error(r, fmt::format("no unit class has a field '{}'", name));
      return Type::any();
    }
    case TypeKind::Side: {
      if (auto it = kSideProps.find(name); it != kSideProps.end()) return it->second;
      if (auto t = fromSchema(P.sideState)) return *t;
      ok = false;
      error(r, fmt::format("the side state has no field '{}'", name));
      return Type::any();
    }
    case TypeKind::Hex: {
      if (auto it = kHexProps.find(name); it != kHexProps.end()) return it->second;
      if (auto t = fromSchema(P.hexState)) return *t;
      ok = false;
      error(r, fmt::format("a hex has no property '{}' (it has terrain, units, col, row, label, "
                           "elevation and the fields of the hex state)",
                           name));
      return Type::any();
    }
    case TypeKind::Terrain: {
      if (name == "name") return Type::of(TypeKind::Str);
      if (auto t = fromSchema(P.terrainAttrs)) return *t;
      ok = false;
      error(r, fmt::format("terrain has no attribute '{}'", name));
      return Type::any();
    }
    case TypeKind::Feature: {
      if (name == "name") return Type::of(TypeKind::Str);
      if (auto t = fromSchema(P.hexsideAttrs)) return *t;
      ok = false;
      error(r, fmt::format("hexside kinds have no attribute '{}'", name));
      return Type::any();
    }
    case TypeKind::Enum:
    case TypeKind::Level:
    case TypeKind::Table:
    case TypeKind::Die:
      if (name == "name") return Type::of(TypeKind::Str);
      if (obj.kind == TypeKind::Level && name == "index") return Type::of(TypeKind::Int);
      ok = false;
      error(r, fmt::format("{} has no property '{}'", typeName(P, obj), name));
      return Type::any();
    case TypeKind::Any:
      return Type::any();
    default:
      ok = false;
      error(r, fmt::format("{} has no fields", typeName(P, obj)));
      return Type::any();
  }
}

Type Compiler::compileMember(const Expr& e) {
  const Expr& obj = *e.operands[0];
  int32_t nameId = P.nameId(e.member.name);
  if (obj.kind == ExprKind::Name && !resolveLocal(ctx_, obj.text)) {
    // Enum.member
    if (const Sym* s = lookup(obj.text);
        s && (s->kind == SymKind::EnumType || s->kind == SymKind::Results)) {
      int32_t en = s->kind == SymKind::EnumType ? s->index : P.results[s->index].enumId;
      const EnumInfo& info = P.enums[en];
      auto it = std::find(info.members.begin(), info.members.end(), e.member.name);
      if (it == info.members.end()) {
        error(e.member.range, fmt::format("{} has no member '{}'", info.name, e.member.name));
        return Type::any();
      }
      emit(Op::Const, addConst(Value::of(Tag::Enum, it - info.members.begin(), en)), 0, e.range);
      return Type::of(TypeKind::Enum, en);
    }
    if (obj.text == "game" && !lookup("game")) {
      int32_t slot = P.gameState.find(nameId);
      if (slot < 0) {
        error(e.member.range, fmt::format("the game state has no field '{}'", e.member.name));
        return Type::any();
      }
      emit(Op::Const, addConst(Value::none()), 0, obj.range);
      emit(Op::Member, nameId, 0, e.range);
      return P.gameState.fields[slot].type;
    }
    if (obj.text == "scenario" && !lookup("scenario")) {
      int32_t slot = P.scenarioAttrs.find(nameId);
      if (slot < 0) {
        error(e.member.range,
              fmt::format("the ruleset declares no scenario attribute '{}'", e.member.name));
        return Type::any();
      }
      emit(Op::Const, addConst(Value::integer(slot)), 0, obj.range);
      emit(Op::CallBuiltin, ir::findBuiltin("scenario_value"), 1, e.range);
      return P.scenarioAttrs.fields[slot].type;
    }
  }
  Type ot = compileExpr(obj);
  bool ok = true;
  Type t = fieldType(ot, nameId, e.member.name, e.member.range, ok);
  emit(Op::Member, nameId, 0, e.range);
  return t;
}

Type Compiler::compileCall(const Expr& e) {
  const Expr& callee = *e.operands[0];
  auto dotted = dottedName(callee);
  // Quantities: `melee.defense(d)`.
  if (dotted) {
    if (auto q = quantities_.find(*dotted);
        q != quantities_.end() && !resolveLocal(ctx_, *dotted)) {
      const Function& f = P.functions[q->second];
      auto ordered = orderArgs(e.args, f.paramNames, e.range, "quantity " + *dotted);
      if (ordered.empty() && !f.paramNames.empty()) return f.result;
      for (size_t i = 0; i < ordered.size(); ++i) {
        Type t = compileExpr(*ordered[i]->value);
        if (!assignable(f.paramTypes[i], t)) {
          error(ordered[i]->value->range,
                fmt::format("argument '{}' of {} expects {}, but this is {}", f.paramNames[i],
                            *dotted, typeName(P, f.paramTypes[i]), typeName(P, t)));
        }
      }
      emit(Op::Call, q->second, static_cast<int32_t>(ordered.size()), e.range);
      return f.result;
    }
  }
  if (callee.kind == ExprKind::Name && !resolveLocal(ctx_, callee.text)) {
    const Sym* s = lookup(callee.text);
    if (s && s->kind == SymKind::Function) {
      const Function& f = P.functions[s->index];
      if (ctx_->pure && !f.pure()) {
        error(callee.range, fmt::format("'{}' is a procedure and cannot be called from a function, "
                                        "a quantity or a requirement",
                                        callee.text));
      }
      auto ordered = orderArgs(e.args, f.paramNames, e.range, fmt::format("'{}'", callee.text));
      if (ordered.empty() && !f.paramNames.empty()) return f.result;
      for (size_t i = 0; i < ordered.size(); ++i) {
        Type t = compileExpr(*ordered[i]->value);
        if (!assignable(f.paramTypes[i], t)) {
          error(ordered[i]->value->range,
                fmt::format("argument '{}' of {} expects {}, but this is {}", f.paramNames[i],
                            callee.text, typeName(P, f.paramTypes[i]), typeName(P, t)));
        }
      }
      emit(Op::Call, s->index, static_cast<int32_t>(ordered.size()), e.range);
      return f.result;
    }
    if (!s) {
      int b = ir::findBuiltin(callee.text);
      if (b >= 0) {
        const auto& bi = ir::builtin(b);
        int n = static_cast<int>(e.args.size());
        if (n < bi.minArgs || n > bi.maxArgs) {
          std::string want = bi.minArgs == bi.maxArgs
                                 ? std::to_string(bi.minArgs)
                                 : fmt::format("{} to {}", bi.minArgs, bi.maxArgs);
          error(e.range, fmt::format("{}() takes {} argument{}, but {} {} given", callee.text, want,
                                     bi.maxArgs == 1 ? "" : "s", n, n == 1 ? "is" : "are"));
          return Type::any();
        }
        if (bi.effect && ctx_->pure) {
          error(callee.range, fmt::format("{}() changes the game and cannot be used in a function, "
                                          "a quantity or a requirement",
                                          callee.text));
        }
        std::vector<Type> argTypes;
        for (const auto& a : e.args) {
          if (a.name) error(a.name->range, "builtin functions take positional arguments only");
          argTypes.push_back(compileExpr(*a.value));
        }
        emit(Op::CallBuiltin, b, n, e.range);
        Type t = Type::of(bi.result);
        if (bi.result == TypeKind::List) t = Type::listOf(Type::of(bi.elem));
        // A few builtins return the type of their argument.
        if (bi.result == TypeKind::Any && !argTypes.empty()) {
          std::string nm = callee.text;
          if ((nm == "first" || nm == "last" || nm == "min_by" || nm == "max_by") &&
              argTypes[0].kind == TypeKind::List)
            t = argTypes[0].element();
          else if ((nm == "filter" || nm == "sort_by" || nm == "append" || nm == "concat" ||
                    nm == "reverse" || nm == "without" || nm == "distinct") &&
                   argTypes[0].kind == TypeKind::List)
            t = argTypes[0];
          else if ((nm == "min" || nm == "max") && argTypes.size() == 1 &&
                   argTypes[0].kind == TypeKind::List)
            t = argTypes[0].element();
          else if ((nm == "min" || nm == "max") && argTypes.size() >= 2)
            t = argTypes[0];
          else if (nm == "shift" || nm == "abs")
            t = argTypes[0];
        }
        return t;
      }
    }
    if (s && s->kind == SymKind::Action) {
      error(callee.range,
            fmt::format("'{}' is an action: players take actions; rules call procedures",
                        callee.text));
      return Type::any();
    }
    if (s && s->kind == SymKind::Quantity) {
      // Handled above through quantities_; unreachable.
    }
    if (!s) {
      error(callee.range, fmt::format("unknown function '{}'", callee.text));
      for (const auto& a : e.args) compileExpr(*a.value);
      return Type::any();
    }
  }
  // A function value: a lambda in a local, or a function name used as a value.
  Type ct = compileExpr(callee);
  if (ct.kind != TypeKind::Any && ct.kind != TypeKind::Func) {
    error(callee.range, fmt::format("{} cannot be called", typeName(P, ct)));
  }
  for (const auto& a : e.args) {
    if (a.name) error(a.name->range, "a function value takes positional arguments only");
    compileExpr(*a.value);
  }
  emit(Op::CallValue, 0, static_cast<int32_t>(e.args.size()), e.range);
  return Type::any();
}

}  // namespace polemos::check::detail
