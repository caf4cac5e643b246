// The checker: assignability, type resolution, constant evaluation.
#include "check/compiler_internal.h"

namespace polemos::check::detail {

// Can a value of type `from` be used where `to` is expected? Unknown types (Any) always can.
bool assignable(const Type& to, const Type& from) {
  if (to.kind == TypeKind::Any || from.kind == TypeKind::Any) return true;
  if (from.kind == TypeKind::None) return to.optional || to.kind == TypeKind::None;
  if (to.kind != from.kind) {
    // An odds literal may stand where a table column is expected and vice versa.
    if ((to.kind == TypeKind::Column && from.kind == TypeKind::Odds) ||
        (to.kind == TypeKind::Odds && from.kind == TypeKind::Column))
      return true;
    return false;
  }
  if (to.kind == TypeKind::Enum) return to.id == from.id || to.id < 0 || from.id < 0;
  if (to.kind == TypeKind::Unit) return to.id < 0 || from.id < 0 || to.id == from.id;
  if (to.kind == TypeKind::List) return assignable(to.element(), from.element());
  return true;
}

std::string citeList(const std::vector<ast::Citation>& cs) {
  std::string s;
  for (const auto& c : cs) s += (s.empty() ? "§" : " §") + c.text;
  return s;
}

std::vector<std::string> citeStrings(const std::vector<ast::Citation>& cs) {
  std::vector<std::string> out;
  for (const auto& c : cs) out.push_back(c.text);
  return out;
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
      return "side state";
    case DeclKind::GameState:
      return "game state";
    case DeclKind::HexState:
      return "hex state";
    case DeclKind::UnitClass:
      return "unit class";
    case DeclKind::UnitType:
      return "unit type";
    case DeclKind::TerrainAttributes:
      return "terrain attributes";
    case DeclKind::HexsideAttributes:
      return "hexside attributes";
    case DeclKind::ScenarioAttributes:
      return "scenario attributes";
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
  return "declaration";
}

// Names the language gives meaning to without a declaration; user declarations may not take them.
const std::set<std::string>& reservedNames() {
  static const std::set<std::string> kNames = {"game", "scenario", "this"};
  return kNames;
}

std::optional<Type> Compiler::resolveType(const ast::TypeRef& t) {
  const std::string& n = t.name.name;
  Type out;
  static const std::unordered_map<std::string, TypeKind> kBasic = {
      {"int", TypeKind::Int},         {"bool", TypeKind::Bool},
      {"string", TypeKind::Str},      {"odds", TypeKind::Odds},
      {"unit", TypeKind::Unit},       {"side", TypeKind::Side},
      {"hex", TypeKind::Hex},         {"terrain", TypeKind::Terrain},
      {"hexside", TypeKind::Feature}, {"unit_type", TypeKind::UnitType},
      {"level", TypeKind::Level},     {"table", TypeKind::Table},
      {"column", TypeKind::Column},   {"die", TypeKind::Die},
      {"any", TypeKind::Any},         {"function", TypeKind::Func}};
  if (n == "list") {
    if (t.args.size() != 1) {
      error(t.range, "'list' takes one type argument, as in list<unit>");
      return std::nullopt;
    }
    auto e = resolveType(t.args[0]);
    if (!e) return std::nullopt;
    out = Type::listOf(*e);
  } else if (auto it = kBasic.find(n); it != kBasic.end()) {
    out = Type::of(it->second);
  } else if (const Sym* s = lookup(n); s && s->kind == SymKind::EnumType) {
    out = Type::of(TypeKind::Enum, s->index);
  } else if (s && s->kind == SymKind::Results) {
    out = Type::of(TypeKind::Enum, P.results[s->index].enumId);
  } else if (s && s->kind == SymKind::Class) {
    out = Type::of(TypeKind::Unit, s->index);
  } else {
    error(t.name.range, fmt::format("unknown type '{}'", n));
    return std::nullopt;
  }
  if (n != "list" && !t.args.empty()) {
    error(t.range, fmt::format("type '{}' takes no type arguments", n));
  }
  out.optional = t.optional;
  return out;
}

Type Compiler::valueType(const Value& v) {
  switch (v.tag) {
    case Tag::None:
      return Type::of(TypeKind::None);
    case Tag::Bool:
      return Type::of(TypeKind::Bool);
    case Tag::Int:
      return Type::of(TypeKind::Int);
    case Tag::Odds:
      return Type::of(TypeKind::Odds);
    case Tag::Str:
      return Type::of(TypeKind::Str);
    case Tag::Enum:
      return Type::of(TypeKind::Enum, v.sub);
    case Tag::Unit:
      return Type::of(TypeKind::Unit);
    case Tag::Side:
      return Type::of(TypeKind::Side);
    case Tag::Hex:
      return Type::of(TypeKind::Hex);
    case Tag::Terrain:
      return Type::of(TypeKind::Terrain);
    case Tag::Feature:
      return Type::of(TypeKind::Feature);
    case Tag::UnitType:
      return Type::of(TypeKind::UnitType);
    case Tag::Level:
      return Type::of(TypeKind::Level);
    case Tag::Table:
      return Type::of(TypeKind::Table);
    case Tag::Column:
      return Type::of(TypeKind::Column);
    case Tag::Die:
      return Type::of(TypeKind::Die);
    case Tag::List: {
      Type elem = v.items().empty() ? Type::any() : valueType(v.items()[0]);
      return Type::listOf(elem);
    }
    case Tag::Func:
      return Type::of(TypeKind::Func);
    case Tag::Packed:  // a builtin's own (Tag::Packed): never a ruleset's constant
      return Type::any();
  }
  return Type::any();
}

void Compiler::checkValueType(const Type& want, const Value& v, SourceRange r,
                              const std::string& what) {
  Type got = valueType(v);
  if (!assignable(want, got)) {
    error(r, fmt::format("{} expects {}, found {}", what, typeName(P, want), typeName(P, got)));
  }
}

void Compiler::checkFieldValue(const FieldInfo& field, const Value& v, SourceRange r,
                               const std::string& what) {
  checkValueType(field.type, v, r, what);
  if (!field.inBounds(v))
    error(r, fmt::format("{} is {}, outside its range {}..{}", what, v.i, field.bounds->first,
                         field.bounds->second));
}

std::optional<Value> Compiler::constEval(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Int:
      if (e.overflow) {
        error(e.range, "integer literal is too large (the limit is 9223372036854775807)");
        return std::nullopt;
      }
      return Value::integer(e.intValue);
    case ExprKind::Odds:
      if (e.overflow || e.oddsA <= 0 || e.oddsB <= 0) {
        error(e.range, "odds must be two positive whole numbers, as in 3:1");
        return std::nullopt;
      }
      return Value::odds(e.oddsA, e.oddsB);
    case ExprKind::String:
      return Value::string(e.text);
    case ExprKind::Bool:
      return Value::boolean(e.boolValue);
    case ExprKind::None:
      return Value::none();
    case ExprKind::Name: {
      const Sym* s = lookup(e.text);
      if (!s) break;
      if (s->ambiguous) {
        error(e.range, fmt::format("'{}' is a member of several enums; qualify it, as in Enum.{}",
                                   e.text, e.text));
        return std::nullopt;
      }
      switch (s->kind) {
        case SymKind::EnumMember:
          return Value::of(Tag::Enum, s->index, s->sub);
        case SymKind::Const:
          return P.globals[s->index];
        case SymKind::Level:
          return Value::of(Tag::Level, s->index);
        case SymKind::Terrain:
          return Value::of(Tag::Terrain, s->index);
        case SymKind::Feature:
          return Value::of(Tag::Feature, s->index);
        case SymKind::UnitType:
          return Value::of(Tag::UnitType, s->index);
        case SymKind::Side:
          return Value::of(Tag::Side, s->index);
        case SymKind::Table:
          return Value::of(Tag::Table, s->index);
        case SymKind::Die:
          return Value::of(Tag::Die, s->index);
        case SymKind::Option:
          return P.options[s->index].value;
        default:
          break;
      }
      break;
    }
    case ExprKind::Member: {
      const Expr& obj = *e.operands[0];
      if (obj.kind == ExprKind::Name) {
        const Sym* s = lookup(obj.text);
        if (s && s->kind == SymKind::EnumType) {
          const EnumInfo& en = P.enums[s->index];
          for (size_t i = 0; i < en.members.size(); ++i)
            if (en.members[i] == e.member.name) return Value::of(Tag::Enum, i, s->index);
          error(e.member.range, fmt::format("enum {} has no member '{}'", en.name, e.member.name));
          return std::nullopt;
        }
      }
      break;
    }
    case ExprKind::Unary: {
      auto v = constEval(*e.operands[0]);
      if (!v) return std::nullopt;
      if (e.unaryOp == ast::UnaryOp::Neg && v->tag == Tag::Int) return Value::integer(-v->i);
      if (e.unaryOp == ast::UnaryOp::Not && v->tag == Tag::Bool) return Value::boolean(!v->i);
      break;
    }
    case ExprKind::Binary: {
      auto a = constEval(*e.operands[0]);
      auto b = a ? constEval(*e.operands[1]) : std::nullopt;
      if (!a || !b) return std::nullopt;
      if (a->tag == Tag::Int && b->tag == Tag::Int) {
        __int128 x = a->i, y = b->i, r = 0;
        switch (e.binaryOp) {
          case ast::BinaryOp::Add:
            r = x + y;
            break;
          case ast::BinaryOp::Sub:
            r = x - y;
            break;
          case ast::BinaryOp::Mul:
            r = x * y;
            break;
          default:
            goto notConst;
        }
        if (r > INT64_MAX || r < INT64_MIN) {
          error(e.range, "integer overflow in a constant");
          return std::nullopt;
        }
        return Value::integer(static_cast<int64_t>(r));
      }
      break;
    }
    case ExprKind::List: {
      ValueList items;
      for (const auto& op : e.operands) {
        auto v = constEval(*op);
        if (!v) return std::nullopt;
        items.push_back(*v);
      }
      return Value::makeList(std::move(items));
    }
    case ExprKind::Map: {
      ValueList pairs;
      for (size_t i = 0; i < e.mapKeys.size(); ++i) {
        Expr keyExpr(ExprKind::Name);
        keyExpr.text = e.mapKeys[i].name;
        keyExpr.range = e.mapKeys[i].range;
        auto k = constEval(keyExpr);
        auto v = k ? constEval(*e.operands[i]) : std::nullopt;
        if (!k || !v) return std::nullopt;
        pairs.push_back(Value::makeList({*k, *v}));
      }
      Value m = Value::makeList(std::move(pairs));
      m.sub = 1;  // marks a map: a list of [key, value] pairs
      return m;
    }
    default:
      break;
  }
notConst:
  if (e.kind == ExprKind::Name && !lookup(e.text)) {
    error(e.range, fmt::format("unknown name '{}'", e.text));
  } else {
    error(e.range, "this must be a constant (a number, odds, string, enum member or list of them)");
  }
  return std::nullopt;
}

}  // namespace polemos::check::detail
