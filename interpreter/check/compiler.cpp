#include "check/compiler.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>

#include "ir/builtins.h"
#include "hex/grid.h"

namespace polemos::check {
namespace {

using namespace polemos::ir;
using ast::Decl;
using ast::DeclKind;
using ast::Expr;
using ast::ExprKind;
using ast::Stmt;
using ast::StmtKind;
using diag::SourceRange;

enum class SymKind {
  EnumType, EnumMember, Option, Const, Die, Class, UnitType, Terrain, Feature, Table, Function,
  Quantity, Action, Results, Event, Level, Side
};

struct Sym {
  Sym(SymKind k, int32_t i = -1, int32_t s = 0) : kind(k), index(i), sub(s) {}
  SymKind kind;
  int32_t index = -1;
  int32_t sub = 0;
  SourceRange range;
  bool ambiguous = false;
};

struct Local {
  std::string name;
  int32_t slot;
  Type type;
};

struct FnCtx {
  int32_t index = -1;
  bool pure = false;
  std::vector<std::vector<Local>> scopes;
  FnCtx* parent = nullptr;                              // lambdas: the enclosing function
  std::vector<std::pair<int32_t, int32_t>> captures;    // (slot in parent, slot here)
  const Schema* owner = nullptr;                        // derived fields: `this` is local 0
  bool inWindowScope = false;
};

std::string typeName(const Program& p, const Type& t) {
  std::string base;
  switch (t.kind) {
    case TypeKind::Any: base = "any"; break;
    case TypeKind::None: base = "none"; break;
    case TypeKind::Bool: base = "bool"; break;
    case TypeKind::Int: base = "int"; break;
    case TypeKind::Odds: base = "odds"; break;
    case TypeKind::Str: base = "string"; break;
    case TypeKind::Enum: base = t.id >= 0 ? p.enums[t.id].name : "enum"; break;
    case TypeKind::Unit: base = t.id >= 0 ? fmt::format("unit ({})", p.classes[t.id].name) : "unit"; break;
    case TypeKind::Side: base = "side"; break;
    case TypeKind::Hex: base = "hex"; break;
    case TypeKind::Terrain: base = "terrain"; break;
    case TypeKind::Feature: base = "hexside kind"; break;
    case TypeKind::UnitType: base = "unit type"; break;
    case TypeKind::Level: base = "level"; break;
    case TypeKind::Table: base = "table"; break;
    case TypeKind::Column: base = "column"; break;
    case TypeKind::Die: base = "die"; break;
    case TypeKind::List: base = "list<" + typeName(p, t.element()) + ">"; break;
    case TypeKind::Func: base = "function"; break;
    case TypeKind::Void: base = "nothing"; break;
  }
  return t.optional ? base + "?" : base;
}

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
    case DeclKind::Uses: return "uses";
    case DeclKind::Include: return "include";
    case DeclKind::Levels: return "levels";
    case DeclKind::Option: return "option";
    case DeclKind::Enum: return "enum";
    case DeclKind::Const: return "const";
    case DeclKind::Die: return "die";
    case DeclKind::SideState: return "side state";
    case DeclKind::GameState: return "game state";
    case DeclKind::UnitClass: return "unit class";
    case DeclKind::UnitType: return "unit type";
    case DeclKind::TerrainAttributes: return "terrain attributes";
    case DeclKind::HexsideAttributes: return "hexside attributes";
    case DeclKind::ScenarioAttributes: return "scenario attributes";
    case DeclKind::Terrain: return "terrain";
    case DeclKind::Hexside: return "hexside";
    case DeclKind::Table: return "table";
    case DeclKind::Quantity: return "quantity";
    case DeclKind::Modifier: return "modifier";
    case DeclKind::Function: return "function";
    case DeclKind::Procedure: return "procedure";
    case DeclKind::Action: return "action";
    case DeclKind::Results: return "results";
    case DeclKind::Event: return "event";
    case DeclKind::Trigger: return "trigger";
    case DeclKind::Sequence: return "sequence";
  }
  return "declaration";
}

// Names the language gives meaning to without a declaration; user declarations may not take them.
const std::set<std::string>& reservedNames() {
  static const std::set<std::string> kNames = {"game", "scenario", "this"};
  return kNames;
}

class Compiler {
 public:
  Compiler(diag::Diagnostics& d, Program& p) : D(d), P(p) {}

  bool run(const std::vector<MergedDecl>& decls, const ast::Block* scenario);
  // Rebuilds the symbol table from a compiled program (for REPL expressions).
  void rebuildSymbols();
  // Compiles one expression into a new pure function of no parameters; -1 on errors.
  int32_t compileStandalone(const ast::Expr& e);

 private:
  diag::Diagnostics& D;
  Program& P;
  std::unordered_map<std::string, Sym> syms_;
  std::unordered_map<std::string, int32_t> quantities_;  // dotted name -> function
  std::vector<std::pair<const Decl*, int32_t>> bodies_;   // function decls to compile
  std::vector<const Decl*> modifiers_, triggers_, actions_, results_, classes_;
  std::unordered_map<int32_t, std::vector<const Decl*>> modifiersOf_;  // quantity fn -> mods
  std::unordered_map<const Decl*, int32_t> actionIndex_;
  const Decl* sequence_ = nullptr;
  const ast::Block* scenario_ = nullptr;
  int32_t eliminatedEvent_ = -1;

  // --- errors ---
  diag::Diagnostic& error(SourceRange r, std::string msg) { return D.error(r, std::move(msg)); }

  // --- symbols ---
  bool define(const std::string& name, Sym s, SourceRange range, const char* what) {
    if (reservedNames().count(name)) {
      error(range, fmt::format("'{}' is a reserved name and cannot name a {}", name, what));
      return false;
    }
    auto it = syms_.find(name);
    if (it != syms_.end()) {
      // Enum members may repeat across enums; using such a name unqualified is then ambiguous.
      if (it->second.kind == SymKind::EnumMember && s.kind == SymKind::EnumMember) {
        it->second.ambiguous = true;
        return true;
      }
      auto& d = error(range, fmt::format("'{}' is already declared", name));
      D.note(d, it->second.range, "previous declaration is here");
      return false;
    }
    s.range = range;
    syms_.emplace(name, s);
    return true;
  }
  const Sym* lookup(const std::string& name) const {
    auto it = syms_.find(name);
    return it == syms_.end() ? nullptr : &it->second;
  }

  // --- types ---
  std::optional<Type> resolveType(const ast::TypeRef& t);
  Type fieldType(const Type& obj, int32_t nameId, const std::string& name, SourceRange r, bool& ok);

  // --- constants ---
  std::optional<Value> constEval(const Expr& e);
  void checkValueType(const Type& want, const Value& v, SourceRange r, const std::string& what);
  Type valueType(const Value& v);

  // --- declarations ---
  void declare(const Decl& d);
  void declareSchema(Schema& s, const std::vector<ast::FieldDecl>& fields, const std::string& owner);
  void fillKind(KindInfo& k, const Schema& schema, const Decl& d, const char* what);
  void declareTable(const Decl& d);
  int32_t newFunction(const std::string& name, FuncKind kind, SourceRange range);
  void declareScenarioSides(const ast::Block& sc);
  void compileScenario(const ast::Block& sc);

  // --- code ---
  void compileBodies();
  void compileFunctionDecl(const Decl& d, int32_t fi);
  void compileQuantity(const Decl& d, int32_t fi);
  void compileAction(const Decl& d);
  bool exprIsPure(const Expr& e);
  void compileDerived(Schema& s, const std::vector<ast::FieldDecl>& fields);
  int32_t compileGate(const std::vector<ast::Gate>& gates, const std::string& name,
                      const std::vector<std::pair<std::string, Type>>& params = {});

  FnCtx* ctx_ = nullptr;
  // The step being compiled: an unnamed `alternate` inside it takes its name (so `goto melee`
  // reaches Deluxe's melee alternation, and its status line names it).
  std::string step_;
  // The function being compiled. (By index: compiling a lambda adds functions, which may move
  // the vector.)
  Function& cur() { return P.functions[ctx_->index]; }
  void emit(Op op, int32_t a = 0, int32_t b = 0, SourceRange r = {}) {
    cur().code.push_back(Instr{op, a, b});
    cur().ranges.push_back(r);
    if (op == Op::Note || op == Op::Trace || op == Op::Index) cur().writesTrace = true;
  }
  int32_t here() { return static_cast<int32_t>(cur().code.size()); }
  void patch(int32_t at, int32_t target) { cur().code[at].a = target; }
  int32_t addConst(Value v) {
    P.constants.push_back(std::move(v));
    return static_cast<int32_t>(P.constants.size() - 1);
  }
  int32_t newLocal(const std::string& name, Type t) {
    int32_t slot = cur().locals++;
    if (!name.empty()) ctx_->scopes.back().push_back(Local{name, slot, std::move(t)});
    return slot;
  }
  const Local* findLocal(FnCtx* c, const std::string& name) {
    for (auto s = c->scopes.rbegin(); s != c->scopes.rend(); ++s)
      for (auto l = s->rbegin(); l != s->rend(); ++l)
        if (l->name == name) return &*l;
    return nullptr;
  }
  // Finds a local, capturing it from enclosing functions when inside a lambda.
  std::optional<Local> resolveLocal(FnCtx* c, const std::string& name) {
    if (const Local* l = findLocal(c, name)) return *l;
    if (!c->parent) return std::nullopt;
    auto outer = resolveLocal(c->parent, name);
    if (!outer) return std::nullopt;
    int32_t slot = P.functions[c->index].locals++;
    c->captures.emplace_back(outer->slot, slot);
    Local l{name, slot, outer->type};
    c->scopes.front().push_back(l);
    return l;
  }

  void compileBlock(const std::vector<ast::StmtPtr>& body);
  void compileStmt(const Stmt& s);
  void compileAssign(const Stmt& s);
  void compilePhase(const Stmt& s, bool alternate);
  Type compileExpr(const Expr& e);
  Type compileName(const Expr& e);
  Type compileMember(const Expr& e);
  Type compileCall(const Expr& e);
  Type compileIndex(const Expr& e);
  Type compileBinary(const Expr& e);
  Type compileLambda(const Expr& e);
  Type compileRoll(const Expr& e);
  Type compileChoose(const Expr& e);
  std::optional<std::string> dottedName(const Expr& e);
  void expectBool(const Type& t, SourceRange r, const char* where);
  void expectInt(const Type& t, SourceRange r, const char* where);
  std::vector<const ast::Arg*> orderArgs(const std::vector<ast::Arg>& args,
                                         const std::vector<std::string>& params, SourceRange r,
                                         const std::string& callee);
};

// -----------------------------------------------------------------------------------------------
// Types
// -----------------------------------------------------------------------------------------------

std::optional<Type> Compiler::resolveType(const ast::TypeRef& t) {
  const std::string& n = t.name.name;
  Type out;
  static const std::unordered_map<std::string, TypeKind> kBasic = {
      {"int", TypeKind::Int},         {"bool", TypeKind::Bool},       {"string", TypeKind::Str},
      {"odds", TypeKind::Odds},       {"unit", TypeKind::Unit},       {"side", TypeKind::Side},
      {"hex", TypeKind::Hex},         {"terrain", TypeKind::Terrain}, {"hexside", TypeKind::Feature},
      {"unit_type", TypeKind::UnitType}, {"level", TypeKind::Level},  {"table", TypeKind::Table},
      {"column", TypeKind::Column},   {"die", TypeKind::Die},         {"any", TypeKind::Any},
      {"function", TypeKind::Func}};
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
    case Tag::None: return Type::of(TypeKind::None);
    case Tag::Bool: return Type::of(TypeKind::Bool);
    case Tag::Int: return Type::of(TypeKind::Int);
    case Tag::Odds: return Type::of(TypeKind::Odds);
    case Tag::Str: return Type::of(TypeKind::Str);
    case Tag::Enum: return Type::of(TypeKind::Enum, v.sub);
    case Tag::Unit: return Type::of(TypeKind::Unit);
    case Tag::Side: return Type::of(TypeKind::Side);
    case Tag::Hex: return Type::of(TypeKind::Hex);
    case Tag::Terrain: return Type::of(TypeKind::Terrain);
    case Tag::Feature: return Type::of(TypeKind::Feature);
    case Tag::UnitType: return Type::of(TypeKind::UnitType);
    case Tag::Level: return Type::of(TypeKind::Level);
    case Tag::Table: return Type::of(TypeKind::Table);
    case Tag::Column: return Type::of(TypeKind::Column);
    case Tag::Die: return Type::of(TypeKind::Die);
    case Tag::List: {
      Type elem = v.items().empty() ? Type::any() : valueType(v.items()[0]);
      return Type::listOf(elem);
    }
    case Tag::Func: return Type::of(TypeKind::Func);
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

// -----------------------------------------------------------------------------------------------
// Constant evaluation: option values, defaults, unit type values, table-free constants.
// -----------------------------------------------------------------------------------------------

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
    case ExprKind::String: return Value::string(e.text);
    case ExprKind::Bool: return Value::boolean(e.boolValue);
    case ExprKind::None: return Value::none();
    case ExprKind::Name: {
      const Sym* s = lookup(e.text);
      if (!s) break;
      if (s->ambiguous) {
        error(e.range, fmt::format("'{}' is a member of several enums; qualify it, as in Enum.{}",
                                   e.text, e.text));
        return std::nullopt;
      }
      switch (s->kind) {
        case SymKind::EnumMember: return Value::of(Tag::Enum, s->index, s->sub);
        case SymKind::Const: return P.globals[s->index];
        case SymKind::Level: return Value::of(Tag::Level, s->index);
        case SymKind::Terrain: return Value::of(Tag::Terrain, s->index);
        case SymKind::Feature: return Value::of(Tag::Feature, s->index);
        case SymKind::UnitType: return Value::of(Tag::UnitType, s->index);
        case SymKind::Side: return Value::of(Tag::Side, s->index);
        case SymKind::Table: return Value::of(Tag::Table, s->index);
        case SymKind::Die: return Value::of(Tag::Die, s->index);
        case SymKind::Option: return P.options[s->index].value;
        default: break;
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
          case ast::BinaryOp::Add: r = x + y; break;
          case ast::BinaryOp::Sub: r = x - y; break;
          case ast::BinaryOp::Mul: r = x * y; break;
          default: goto notConst;
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
    default: break;
  }
notConst:
  if (e.kind == ExprKind::Name && !lookup(e.text)) {
    error(e.range, fmt::format("unknown name '{}'", e.text));
  } else {
    error(e.range, "this must be a constant (a number, odds, string, enum member or list of them)");
  }
  return std::nullopt;
}

// -----------------------------------------------------------------------------------------------
// Declarations
// -----------------------------------------------------------------------------------------------

int32_t Compiler::newFunction(const std::string& name, FuncKind kind, SourceRange range) {
  Function f;
  f.name = name;
  f.kind = kind;
  f.range = range;
  P.functions.push_back(std::move(f));
  return static_cast<int32_t>(P.functions.size() - 1);
}

void Compiler::declareSchema(Schema& s, const std::vector<ast::FieldDecl>& fields,
                             const std::string& owner) {
  for (const auto& f : fields) {
    if (s.find(P.nameId(f.name.name)) >= 0) {
      error(f.name.range, fmt::format("field '{}' is declared twice in {}", f.name.name, owner));
      continue;
    }
    FieldInfo fi;
    fi.name = f.name.name;
    fi.nameId = P.nameId(f.name.name);
    fi.isState = f.isState;
    fi.citations = citeStrings(f.citations);
    fi.description = f.description;
    if (f.derived) {
      fi.type = Type::any();
      fi.derived = -2;  // compiled once every symbol exists (see compileDerived)
    } else if (f.type) {
      auto t = resolveType(*f.type);
      fi.type = t ? *t : Type::any();
      if (f.value) {
        auto v = constEval(*f.value);
        if (v) {
          checkValueType(fi.type, *v, f.value->range,
                         fmt::format("the default of '{}' in {}", f.name.name, owner));
          fi.value = *v;
          fi.init = 0;  // has a default
        }
      } else if (fi.type.optional) {
        fi.init = 0;
      }
    }
    s.slotOf[fi.nameId] = static_cast<int32_t>(s.fields.size());
    s.fields.push_back(std::move(fi));
  }
}

void Compiler::fillKind(KindInfo& k, const Schema& schema, const Decl& d, const char* what) {
  k.name = d.name.name;
  k.citations = citeStrings(d.citations);
  k.description = d.description;
  k.values.assign(schema.fields.size(), Value::none());
  std::vector<bool> set(schema.fields.size(), false);
  for (size_t i = 0; i < schema.fields.size(); ++i) {
    if (schema.fields[i].init >= 0) {
      k.values[i] = schema.fields[i].value;
      set[i] = true;
    }
  }
  for (const auto& init : d.inits) {
    int32_t slot = schema.find(P.nameId(init.name.name));
    if (slot < 0) {
      auto& diag = error(init.name.range, fmt::format("{} '{}': no attribute '{}' in {} attributes",
                                                      what, k.name, init.name.name, what));
      std::string known;
      for (const auto& f : schema.fields) known += (known.empty() ? "" : ", ") + f.name;
      D.note(diag, {}, known.empty() ? fmt::format("no {} attributes are declared", what)
                                     : fmt::format("known attributes: {}", known));
      continue;
    }
    auto v = constEval(*init.value);
    if (!v) continue;
    checkValueType(schema.fields[slot].type, *v, init.value->range,
                   fmt::format("attribute '{}' of {} '{}'", init.name.name, what, k.name));
    k.values[slot] = *v;
    set[slot] = true;
  }
  for (size_t i = 0; i < schema.fields.size(); ++i) {
    if (!set[i] && schema.fields[i].derived < 0) {
      error(d.name.range, fmt::format("{} '{}' is missing '{}' ({}), which has no default", what,
                                      k.name, schema.fields[i].name,
                                      typeName(P, schema.fields[i].type)));
    }
  }
}

void Compiler::declareTable(const Decl& d) {
  TableInfo t;
  t.name = d.name.name;
  t.title = d.description;
  t.citations = citeStrings(d.citations);
  t.range = d.range;
  auto keyKind = [&](const std::optional<ast::Ident>& k, TableInfo::KeyKind& kind, int32_t& en) {
    if (!k) return;
    const std::string& n = k->name;
    // `rows d6` / `rows 2d6`: die rolls, keyed by number.
    bool dice = n.find('d') != std::string::npos &&
                std::all_of(n.begin(), n.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == 'd'; });
    const Sym* ks = lookup(n);
    if (n == "odds") {
      kind = TableInfo::OddsKeys;
    } else if (n == "int" || dice || (ks && ks->kind == SymKind::Die)) {
      kind = TableInfo::IntKeys;
    } else if (const Sym* s = ks; s && s->kind == SymKind::EnumType) {
      kind = TableInfo::EnumKeys;
      en = s->index;
    } else if (s && s->kind == SymKind::Results) {
      kind = TableInfo::EnumKeys;
      en = P.results[s->index].enumId;
    } else {
      error(k->range, fmt::format("unknown table key kind '{}' (use int, odds, a die such as d6, "
                                  "or an enum)", n));
    }
  };
  t.rowKind = TableInfo::IntKeys;
  keyKind(d.table.rowKind, t.rowKind, t.rowEnum);
  if (d.table.columnKind) {
    t.colKind = TableInfo::IntKeys;
    keyKind(d.table.columnKind, t.colKind, t.colEnum);
  }
  auto convertKey = [&](const ast::TableKey& k, TableInfo::KeyKind kind, int32_t en,
                        const char* where) -> std::optional<TableKeyInfo> {
    TableKeyInfo out;
    if (k.overflow) {
      error(k.range, "number is too large");
      return std::nullopt;
    }
    switch (k.kind) {
      case ast::TableKey::Int: out.kind = TableKeyInfo::Int; out.lo = out.hi = k.lo; out.text = std::to_string(k.lo); break;
      case ast::TableKey::Range:
        out.kind = TableKeyInfo::Range; out.lo = k.lo; out.hi = k.hi;
        out.text = fmt::format("{}-{}", k.lo, k.hi);
        if (k.hi < k.lo) {
          error(k.range, fmt::format("empty range {}-{}: the first number must not exceed the second",
                                     k.lo, k.hi));
          return std::nullopt;
        }
        break;
      case ast::TableKey::Less: out.kind = TableKeyInfo::Less; out.lo = k.lo; out.text = fmt::format("<{}", k.lo); break;
      case ast::TableKey::LessEq: out.kind = TableKeyInfo::LessEq; out.lo = k.lo; out.text = fmt::format("<={}", k.lo); break;
      case ast::TableKey::Greater: out.kind = TableKeyInfo::Greater; out.lo = k.lo; out.text = fmt::format(">{}", k.lo); break;
      case ast::TableKey::GreaterEq: out.kind = TableKeyInfo::GreaterEq; out.lo = k.lo; out.text = fmt::format(">={}", k.lo); break;
      case ast::TableKey::Odds:
        out.kind = TableKeyInfo::Odds; out.lo = k.lo; out.hi = k.hi;
        out.text = fmt::format("{}:{}", k.lo, k.hi);
        if (k.lo <= 0 || k.hi <= 0) {
          error(k.range, "odds must be two positive whole numbers, as in 3:1");
          return std::nullopt;
        }
        break;
      case ast::TableKey::Name: {
        out.kind = TableKeyInfo::Member;
        out.text = k.name;
        if (kind != TableInfo::EnumKeys) {
          error(k.range, fmt::format("'{}' is not a valid {} key here (the keys are {})", k.name,
                                     where, kind == TableInfo::OddsKeys ? "odds" : "numbers"));
          return std::nullopt;
        }
        const EnumInfo& e = P.enums[en];
        auto it = std::find(e.members.begin(), e.members.end(), k.name);
        if (it == e.members.end()) {
          error(k.range, fmt::format("'{}' is not a member of {}", k.name, e.name));
          return std::nullopt;
        }
        out.lo = it - e.members.begin();
        return out;
      }
    }
    if (kind == TableInfo::OddsKeys && out.kind != TableKeyInfo::Odds) {
      error(k.range, fmt::format("{} key '{}' must be odds such as 3:1", where, out.text));
      return std::nullopt;
    }
    if (kind == TableInfo::EnumKeys) {
      error(k.range, fmt::format("{} key '{}' must be a member of {}", where, out.text, P.enums[en].name));
      return std::nullopt;
    }
    if (kind == TableInfo::IntKeys && out.kind == TableKeyInfo::Odds) {
      error(k.range, fmt::format("{} key '{}' is odds, but the {}s are numbers", where, out.text, where));
      return std::nullopt;
    }
    return out;
  };
  for (const auto& k : d.table.columns) {
    auto c = convertKey(k, t.colKind, t.colEnum, "column");
    // A bad key keeps its place so that the rows are not all reported as the wrong width.
    t.cols.push_back(c ? *c : TableKeyInfo{TableKeyInfo::Member, -1, -1, "?"});
  }
  size_t width = std::max<size_t>(1, t.cols.size());
  std::optional<Type> cellType;
  for (const auto& row : d.table.rows) {
    auto rk = convertKey(row.key, t.rowKind, t.rowEnum, "row");
    if (!rk) continue;
    if (row.cells.size() != width) {
      error(row.key.range, fmt::format("table {}: row {} has {} cell{}, but the table has {} "
                                       "column{}", t.name, rk->text, row.cells.size(),
                                       row.cells.size() == 1 ? "" : "s", width, width == 1 ? "" : "s"));
      continue;
    }
    t.rows.push_back(*rk);
    for (const auto& c : row.cells) {
      Value v;
      switch (c.kind) {
        case ast::TableCell::Empty: v = Value::none(); break;
        case ast::TableCell::Int:
          if (c.overflow) error(c.range, "number is too large");
          v = Value::integer(c.intValue);
          break;
        case ast::TableCell::Odds: v = Value::odds(c.intValue, c.oddsB); break;
        case ast::TableCell::String: v = Value::string(c.text); break;
        case ast::TableCell::Bool: v = Value::boolean(c.intValue != 0); break;
        case ast::TableCell::None: v = Value::none(); break;
        case ast::TableCell::Name: {
          Expr ne(ExprKind::Name);
          ne.text = c.text;
          ne.range = c.range;
          auto cv = constEval(ne);
          if (!cv) continue;
          v = *cv;
          break;
        }
      }
      if (v.tag != Tag::None) {
        Type vt = valueType(v);
        if (!cellType) {
          cellType = vt;
        } else if (!assignable(*cellType, vt)) {
          error(c.range, fmt::format("table {}: cell '{}' is {}, but earlier cells are {}", t.name,
                                     P.display(v), typeName(P, vt), typeName(P, *cellType)));
        }
      }
      t.cells.push_back(v);
    }
  }
  // Keys must be distinct (ranges may not overlap) so that a look-up has one answer.
  auto bounds = [](const TableKeyInfo& k) -> std::pair<int64_t, int64_t> {
    switch (k.kind) {
      case TableKeyInfo::Int: return {k.lo, k.lo};
      case TableKeyInfo::Range: return {k.lo, k.hi};
      case TableKeyInfo::Less: return {INT64_MIN, k.lo - 1};
      case TableKeyInfo::LessEq: return {INT64_MIN, k.lo};
      case TableKeyInfo::Greater: return {k.lo + 1, INT64_MAX};
      case TableKeyInfo::GreaterEq: return {k.lo, INT64_MAX};
      default: return {1, 0};  // odds and members: compared by text below
    }
  };
  for (size_t i = 0; i < t.rows.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      auto [a0, a1] = bounds(t.rows[i]);
      auto [b0, b1] = bounds(t.rows[j]);
      bool numeric = a0 <= a1 && b0 <= b1;
      if (t.rows[i].text == t.rows[j].text) {
        error(d.table.rows[i].key.range, fmt::format("table {}: row {} appears twice", t.name, t.rows[i].text));
        break;
      }
      if (numeric && a0 <= b1 && b0 <= a1) {
        error(d.table.rows[i].key.range, fmt::format("table {}: row {} overlaps row {}, so a look-up would "
                                                     "have two answers", t.name, t.rows[i].text, t.rows[j].text));
        break;
      }
    }
  }
  P.tables.push_back(std::move(t));
}

void Compiler::declare(const Decl& d) {
  const std::string& name = d.name.name;
  switch (d.kind) {
    case DeclKind::Uses:
    case DeclKind::Include:
      break;  // handled by the loader
    case DeclKind::Levels:
      if (!P.levels.empty()) {
        error(d.range, "levels are declared twice");
        break;
      }
      for (const auto& l : d.levels) {
        if (define(l.name, Sym{SymKind::Level, static_cast<int32_t>(P.levels.size())}, l.range, "level"))
          P.levels.push_back(l.name);
      }
      break;
    case DeclKind::Enum: {
      EnumInfo e;
      e.name = name;
      int32_t id = static_cast<int32_t>(P.enums.size());
      if (!define(name, Sym{SymKind::EnumType, id}, d.name.range, "enum")) break;
      std::set<std::string> seen;
      for (const auto& m : d.members) {
        if (!seen.insert(m.name.name).second) {
          error(m.name.range, fmt::format("enum {} has '{}' twice", name, m.name.name));
          continue;
        }
        define(m.name.name, Sym{SymKind::EnumMember, static_cast<int32_t>(e.members.size()), id},
               m.name.range, "enum member");
        e.members.push_back(m.name.name);
        e.memberCitations.push_back(citeList(m.citations));
        e.descriptions.push_back(m.description);
      }
      P.enums.push_back(std::move(e));
      break;
    }
    case DeclKind::Results: {
      // A `results` declaration is an enum of outcomes plus one procedure per outcome.
      EnumInfo e;
      e.name = name;
      int32_t id = static_cast<int32_t>(P.enums.size());
      ResultsInfo r;
      r.name = name;
      r.enumId = id;
      int32_t ri = static_cast<int32_t>(P.results.size());
      if (!define(name, Sym{SymKind::Results, ri}, d.name.range, "results")) break;
      e.results = ri;
      for (const auto& c : d.cases) {
        if (std::find(e.members.begin(), e.members.end(), c.name.name) != e.members.end()) {
          error(c.name.range, fmt::format("results {} has '{}' twice", name, c.name.name));
          continue;
        }
        if (c.name.name != "-") {
          define(c.name.name, Sym{SymKind::EnumMember, static_cast<int32_t>(e.members.size()), id},
                 c.name.range, "result");
        }
        int32_t fi = newFunction(name + "." + c.name.name, FuncKind::Result, c.range);
        r.cases.push_back(fi);
        e.members.push_back(c.name.name);
        e.memberCitations.push_back(citeList(c.citations));
        e.descriptions.push_back(c.description);
      }
      P.enums.push_back(std::move(e));
      P.results.push_back(std::move(r));
      results_.push_back(&d);
      break;
    }
    case DeclKind::Option: {
      OptionInfo o;
      o.name = name;
      o.citations = citeStrings(d.citations);
      o.description = d.description;
      auto v = constEval(*d.value);
      if (!v) break;
      o.value = *v;
      if (d.type) {
        auto t = resolveType(*d.type);
        if (t) {
          o.type = *t;
          checkValueType(o.type, o.value, d.value->range, fmt::format("option '{}'", name));
        }
      } else {
        o.type = valueType(o.value);
      }
      if (define(name, Sym{SymKind::Option, static_cast<int32_t>(P.options.size())}, d.name.range, "option"))
        P.options.push_back(std::move(o));
      break;
    }
    case DeclKind::Const: {
      auto v = constEval(*d.value);
      if (!v) break;
      if (d.type) {
        auto t = resolveType(*d.type);
        if (t) checkValueType(*t, *v, d.value->range, fmt::format("constant '{}'", name));
      }
      if (define(name, Sym{SymKind::Const, static_cast<int32_t>(P.globals.size())}, d.name.range, "constant"))
      {
        P.globals.push_back(*v);
        P.globalNames.push_back(name);
      }
      break;
    }
    case DeclKind::Die: {
      DieInfo die;
      die.name = name;
      die.citations = citeStrings(d.citations);
      for (const auto& f : d.faces) {
        auto v = constEval(*f);
        if (!v) continue;
        if (v->tag != Tag::Int) {
          error(f->range, "die faces must be whole numbers");
          continue;
        }
        die.faces.push_back(v->i);
      }
      if (die.faces.empty()) error(d.name.range, fmt::format("die '{}' has no faces", name));
      if (define(name, Sym{SymKind::Die, static_cast<int32_t>(P.dice.size())}, d.name.range, "die"))
        P.dice.push_back(std::move(die));
      break;
    }
    case DeclKind::SideState: declareSchema(P.sideState, d.fields, "side state"); break;
    case DeclKind::GameState: declareSchema(P.gameState, d.fields, "game state"); break;
    case DeclKind::TerrainAttributes: declareSchema(P.terrainAttrs, d.fields, "terrain attributes"); break;
    case DeclKind::HexsideAttributes: declareSchema(P.hexsideAttrs, d.fields, "hexside attributes"); break;
    case DeclKind::ScenarioAttributes: declareSchema(P.scenarioAttrs, d.fields, "scenario attributes"); break;
    case DeclKind::UnitClass: {
      Schema s;
      s.name = name;
      s.citations = citeStrings(d.citations);
      int32_t id = static_cast<int32_t>(P.classes.size());
      if (!define(name, Sym{SymKind::Class, id}, d.name.range, "unit class")) break;
      P.classes.push_back(std::move(s));
      declareSchema(P.classes.back(), d.fields, "unit class " + name);
      classes_.push_back(&d);
      break;
    }
    case DeclKind::UnitType: {
      const Sym* cs = lookup(d.baseClass.name);
      if (!cs || cs->kind != SymKind::Class) {
        error(d.baseClass.range, fmt::format("unit type '{}': '{}' is not a unit class", name,
                                             d.baseClass.name));
        break;
      }
      const Schema& schema = P.classes[cs->index];
      UnitTypeInfo u;
      u.name = name;
      u.cls = cs->index;
      u.citations = citeStrings(d.citations);
      u.description = d.description;
      u.values.assign(schema.fields.size(), Value::none());
      std::vector<bool> set(schema.fields.size(), false);
      for (size_t i = 0; i < schema.fields.size(); ++i) {
        if (schema.fields[i].init >= 0 || schema.fields[i].derived != -1) {
          u.values[i] = schema.fields[i].value;
          set[i] = true;
        }
      }
      for (const auto& init : d.inits) {
        int32_t slot = schema.find(P.nameId(init.name.name));
        if (slot < 0) {
          auto& diag = error(init.name.range,
                             fmt::format("unit type '{}': no field '{}' in unit class {}", name,
                                         init.name.name, schema.name));
          std::string known;
          for (const auto& f : schema.fields)
            if (f.derived == -1) known += (known.empty() ? "" : ", ") + f.name;
          D.note(diag, {}, fmt::format("unit class {} has: {}", schema.name, known));
          continue;
        }
        if (schema.fields[slot].derived != -1) {
          error(init.name.range, fmt::format("unit type '{}': '{}' is derived in unit class {} and "
                                             "cannot be set", name, init.name.name, schema.name));
          continue;
        }
        auto v = constEval(*init.value);
        if (!v) continue;
        checkValueType(schema.fields[slot].type, *v, init.value->range,
                       fmt::format("field '{}' of unit type '{}' (unit class {})", init.name.name,
                                   name, schema.name));
        u.values[slot] = *v;
        set[slot] = true;
      }
      for (size_t i = 0; i < schema.fields.size(); ++i) {
        if (!set[i]) {
          error(d.name.range, fmt::format("unit type '{}' is missing '{}' ({}), required by unit "
                                          "class {}", name, schema.fields[i].name,
                                          typeName(P, schema.fields[i].type), schema.name));
        }
      }
      if (define(name, Sym{SymKind::UnitType, static_cast<int32_t>(P.unitTypes.size())}, d.name.range,
                 "unit type"))
        P.unitTypes.push_back(std::move(u));
      break;
    }
    case DeclKind::Terrain: {
      KindInfo k;
      fillKind(k, P.terrainAttrs, d, "terrain");
      if (define(name, Sym{SymKind::Terrain, static_cast<int32_t>(P.terrains.size())}, d.name.range, "terrain"))
        P.terrains.push_back(std::move(k));
      break;
    }
    case DeclKind::Hexside: {
      KindInfo k;
      fillKind(k, P.hexsideAttrs, d, "hexside");
      if (define(name, Sym{SymKind::Feature, static_cast<int32_t>(P.features.size())}, d.name.range, "hexside"))
        P.features.push_back(std::move(k));
      break;
    }
    case DeclKind::Table:
      if (define(name, Sym{SymKind::Table, static_cast<int32_t>(P.tables.size())}, d.name.range, "table"))
        declareTable(d);
      break;
    case DeclKind::Quantity: {
      std::string q = d.qualified.joined();
      if (quantities_.count(q) || lookup(q)) {
        error(d.qualified.range, fmt::format("'{}' is already declared", q));
        break;
      }
      int32_t fi = newFunction(q, FuncKind::Quantity, d.range);
      quantities_[q] = fi;
      if (d.qualified.parts.size() == 1) define(q, Sym{SymKind::Quantity, fi}, d.qualified.range, "quantity");
      bodies_.emplace_back(&d, fi);
      break;
    }
    case DeclKind::Function:
    case DeclKind::Procedure: {
      int32_t fi = newFunction(name, d.kind == DeclKind::Function ? FuncKind::Function : FuncKind::Procedure,
                               d.range);
      if (ir::findBuiltin(name) >= 0) {
        error(d.name.range, fmt::format("'{}' is a builtin function and cannot be redeclared", name));
        break;
      }
      if (define(name, Sym{SymKind::Function, fi}, d.name.range, declKindName(d.kind))) {
        bodies_.emplace_back(&d, fi);
        P.functionByName[name] = fi;
      }
      break;
    }
    case DeclKind::Action: {
      int32_t ai = static_cast<int32_t>(P.actions.size());
      ActionInfo a;
      a.name = name;
      a.citations = citeStrings(d.citations);
      a.description = d.description;
      P.actions.push_back(std::move(a));
      if (define(name, Sym{SymKind::Action, ai}, d.name.range, "action")) {
        actions_.push_back(&d);
        actionIndex_[&d] = ai;
      }
      break;
    }
    case DeclKind::Event: {
      EventInfo ev;
      ev.name = name;
      for (const auto& p : d.params) {
        auto t = resolveType(p.type);
        ev.params.push_back(t ? *t : Type::any());
      }
      if (define(name, Sym{SymKind::Event, static_cast<int32_t>(P.events.size())}, d.name.range, "event"))
        P.events.push_back(std::move(ev));
      break;
    }
    case DeclKind::Modifier: modifiers_.push_back(&d); break;
    case DeclKind::Trigger: triggers_.push_back(&d); break;
    case DeclKind::Sequence:
      if (sequence_) {
        auto& diag = error(d.range, "a ruleset has one sequence of play; this is a second one");
        D.note(diag, sequence_->range, "the first is here (an overlay replaces it with `replace sequence`)");
        break;
      }
      sequence_ = &d;
      break;
  }
}

// -----------------------------------------------------------------------------------------------
// Scenario
// -----------------------------------------------------------------------------------------------

void Compiler::declareScenarioSides(const ast::Block& sc) {
  for (const auto& s : sc.scenario.sides) {
    SideSetup ss;
    ss.name = s.name.name;
    ss.title = s.title.empty() ? s.name.name : s.title;
    if (define(s.name.name, Sym{SymKind::Side, static_cast<int32_t>(P.sides.size())}, s.name.range, "side"))
      P.sides.push_back(std::move(ss));
  }
}

void Compiler::compileScenario(const ast::Block& sc) {
  const ast::Scenario& s = sc.scenario;
  P.scenarioName = sc.name.name;
  P.scenarioTitle = sc.title;
  if (P.sides.empty()) error(sc.name.range, fmt::format("scenario '{}' declares no sides", sc.name.name));
  // Side state values.
  for (size_t i = 0; i < s.sides.size() && i < P.sides.size(); ++i) {
    for (const auto& init : s.sides[i].inits) {
      int32_t slot = P.sideState.find(P.nameId(init.name.name));
      if (slot < 0) {
        error(init.name.range, fmt::format("side {}: no field '{}' in the side state", s.sides[i].name.name,
                                           init.name.name));
        continue;
      }
      auto v = constEval(*init.value);
      if (!v) continue;
      checkValueType(P.sideState.fields[slot].type, *v, init.value->range,
                     fmt::format("side state field '{}'", init.name.name));
      P.sides[i].overrides.emplace_back(slot, *v);
    }
  }
  // Scenario attributes.
  P.scenarioValues.assign(P.scenarioAttrs.fields.size(), Value::none());
  std::vector<bool> set(P.scenarioAttrs.fields.size(), false);
  for (size_t i = 0; i < P.scenarioAttrs.fields.size(); ++i) {
    if (P.scenarioAttrs.fields[i].init >= 0) {
      P.scenarioValues[i] = P.scenarioAttrs.fields[i].value;
      set[i] = true;
    }
  }
  for (const auto& st : s.settings) {
    int32_t slot = P.scenarioAttrs.find(P.nameId(st.name.name));
    if (slot < 0) {
      error(st.name.range, fmt::format("scenario setting '{}' is not one of the ruleset's scenario "
                                       "attributes", st.name.name));
      continue;
    }
    auto v = constEval(*st.value);
    if (!v) continue;
    checkValueType(P.scenarioAttrs.fields[slot].type, *v, st.value->range,
                   fmt::format("scenario setting '{}'", st.name.name));
    P.scenarioValues[slot] = *v;
    set[slot] = true;
  }
  for (size_t i = 0; i < set.size(); ++i) {
    if (!set[i]) {
      error(sc.name.range, fmt::format("scenario '{}' does not set '{}' ({}), which the ruleset's "
                                       "scenario attributes require", sc.name.name,
                                       P.scenarioAttrs.fields[i].name,
                                       typeName(P, P.scenarioAttrs.fields[i].type)));
    }
  }
  // The map.
  if (s.map) {
    const ast::MapSpec& m = *s.map;
    P.mapCols0 = static_cast<int32_t>(m.colFrom);
    P.mapCols1 = static_cast<int32_t>(m.colTo);
    P.mapRows0 = static_cast<int32_t>(m.rowFrom);
    P.mapRows1 = static_cast<int32_t>(m.rowTo);
    if (m.labels.name == "letters") {
      P.letterLabels = true;
    } else if (!m.labels.name.empty() && m.labels.name != "xxyy") {
      error(m.labels.range, fmt::format("unknown label scheme '{}' (use xxyy or letters)", m.labels.name));
    }
    if (m.colTo < m.colFrom || m.rowTo < m.rowFrom || m.colFrom < 0 || m.rowFrom < 0 ||
        m.colTo > 200 || m.rowTo > 200) {
      error(m.range, "the map's columns and rows must be increasing ranges between 0 and 200");
      P.mapCols1 = P.mapCols0 - 1;
    }
  }
  int32_t cols = P.mapCols1 - P.mapCols0 + 1, rows = P.mapRows1 - P.mapRows0 + 1;
  int32_t hexes = cols > 0 && rows > 0 ? cols * rows : 0;
  // The map's geometry: hex::Grid reads and writes its labels and knows its neighbours.
  if (hexes > 0) {
    hex::GridSpec spec;
    spec.firstColumn = P.mapCols0;
    spec.columns = cols;
    spec.firstRow = P.mapRows0;
    spec.rows = rows;
    spec.labels = P.letterLabels ? hex::LabelStyle::Letters : hex::LabelStyle::Numeric;
    try {
      P.grid = std::make_shared<const hex::Grid>(spec);
    } catch (const std::exception& e) {
      error(s.map->range, e.what());
    }
  }
  auto hexIndex = [&](const ast::Ident& label) -> int32_t {
    hex::Offset o;
    try {
      if (!P.grid) throw hex::HexError("no map");
      o = P.grid->parseOffset(label.name);
    } catch (const hex::HexError&) {
      error(label.range, fmt::format("'{}' is not a hex label ({})", label.name,
                                     P.letterLabels ? "a column letter and a row, as in L9" : "four digits xxyy, as in 2725"));
      return -1;
    }
    if (o.col < P.mapCols0 || o.col > P.mapCols1 || o.row < P.mapRows0 || o.row > P.mapRows1) {
      error(label.range, fmt::format("hex {} is off the map (columns {}-{}, rows {}-{})", label.name,
                                     P.mapCols0, P.mapCols1, P.mapRows0, P.mapRows1));
      return -1;
    }
    return (o.col - P.mapCols0) * rows + (o.row - P.mapRows0);
  };
  P.mapTerrain.assign(hexes, -1);
  P.mapElevation.assign(hexes, 0);
  if (s.map) {
    std::vector<SourceRange> terrainSetAt(hexes);
    int32_t defaultTerrain = -1;
    auto expand = [&](const ast::HexRef& ref, const std::function<void(int32_t, SourceRange)>& f) {
      int32_t a = hexIndex(ref.from);
      if (a < 0) return;
      if (!ref.to) {
        f(a, ref.range);
        return;
      }
      int32_t b = hexIndex(*ref.to);
      if (b < 0) return;
      int32_t c0 = std::min(a / rows, b / rows), c1 = std::max(a / rows, b / rows);
      int32_t r0 = std::min(a % rows, b % rows), r1 = std::max(a % rows, b % rows);
      for (int32_t c = c0; c <= c1; ++c)
        for (int32_t r = r0; r <= r1; ++r) f(c * rows + r, ref.range);
    };
    for (const auto& item : s.map->items) {
      switch (item.kind) {
        case ast::MapItem::Default:
        case ast::MapItem::Terrain: {
          const Sym* t = lookup(item.name.name);
          if (!t || t->kind != SymKind::Terrain) {
            error(item.name.range, fmt::format("unknown terrain '{}'", item.name.name));
            break;
          }
          if (item.kind == ast::MapItem::Default) {
            defaultTerrain = t->index;
            break;
          }
          for (const auto& ref : item.hexes) {
            expand(ref, [&](int32_t h, SourceRange r) {
              if (P.mapTerrain[h] >= 0 && !ref.to) {
                auto& d = error(r, fmt::format("hex {} is given terrain twice", ref.from.name));
                D.note(d, terrainSetAt[h], "first given here");
                return;
              }
              P.mapTerrain[h] = t->index;
              terrainSetAt[h] = r;
            });
          }
          break;
        }
        case ast::MapItem::Hexside: {
          const Sym* f = lookup(item.name.name);
          if (!f || f->kind != SymKind::Feature) {
            error(item.name.range, fmt::format("unknown hexside kind '{}'", item.name.name));
            break;
          }
          for (const auto& pr : item.pairs) {
            int32_t a = hexIndex(pr.a), b = hexIndex(pr.b);
            if (a < 0 || b < 0) continue;
            const auto& around = P.grid->neighbourIndices(a);
            if (std::find(around.begin(), around.end(), b) == around.end()) {
              error(pr.range, fmt::format("hexes {} and {} are not adjacent, so they share no hexside",
                                          pr.a.name, pr.b.name));
              continue;
            }
            auto key = std::make_pair(std::min(a, b), std::max(a, b));
            auto& list = P.mapHexsides[key];
            if (std::find(list.begin(), list.end(), f->index) != list.end()) {
              error(pr.range, fmt::format("hexside {}/{} is given '{}' twice", pr.a.name, pr.b.name,
                                          item.name.name));
              continue;
            }
            list.push_back(f->index);
          }
          break;
        }
        case ast::MapItem::Elevation:
          for (const auto& ref : item.hexes)
            expand(ref, [&](int32_t h, SourceRange) { P.mapElevation[h] = static_cast<int32_t>(item.elevation); });
          break;
        case ast::MapItem::Group: {
          auto& g = P.mapGroups[item.name.name];
          for (const auto& ref : item.hexes)
            expand(ref, [&](int32_t h, SourceRange) {
              if (std::find(g.begin(), g.end(), h) == g.end()) g.push_back(h);
            });
          break;
        }
      }
    }
    for (int32_t h = 0; h < hexes; ++h) {
      if (P.mapTerrain[h] < 0) P.mapTerrain[h] = defaultTerrain;
    }
    if (defaultTerrain < 0 && std::count(P.mapTerrain.begin(), P.mapTerrain.end(), -1) > 0) {
      error(s.map->range, "some hexes have no terrain: give the map a `default` terrain");
    }
  }
  // Forces.
  std::set<std::string> ids;
  for (const auto& f : s.forces) {
    const Sym* side = lookup(f.side.name);
    if (!side || side->kind != SymKind::Side) {
      error(f.side.range, fmt::format("'{}' is not a side of this scenario", f.side.name));
      continue;
    }
    for (const auto& u : f.units) {
      UnitSetup us;
      us.id = u.id.name;
      us.side = side->index;
      us.range = u.range;
      if (!ids.insert(u.id.name).second) {
        error(u.id.range, fmt::format("unit id '{}' is used twice", u.id.name));
        continue;
      }
      const Sym* t = lookup(u.type.name);
      if (!t || t->kind != SymKind::UnitType) {
        error(u.type.range, fmt::format("unknown unit type '{}'", u.type.name));
        continue;
      }
      us.type = t->index;
      if (u.hex) {
        us.hex = hexIndex(*u.hex);
        if (us.hex < 0) continue;
      }
      if (u.facing) {
        auto d = hex::parseDirection(u.facing->name);
        if (!d) {
          error(u.facing->range, fmt::format("unknown facing '{}' (use N, NE, SE, S, SW or NW)", u.facing->name));
          continue;
        }
        us.facing = static_cast<int32_t>(*d);
      }
      const Schema& cls = P.classes[P.unitTypes[us.type].cls];
      for (const auto& init : u.inits) {
        int32_t slot = cls.find(P.nameId(init.name.name));
        if (slot < 0 || cls.fields[slot].derived != -1) {
          error(init.name.range, fmt::format("unit {}: no field '{}' in unit class {}", u.id.name,
                                             init.name.name, cls.name));
          continue;
        }
        auto v = constEval(*init.value);
        if (!v) continue;
        checkValueType(cls.fields[slot].type, *v, init.value->range,
                       fmt::format("field '{}' of unit {}", init.name.name, u.id.name));
        us.overrides.emplace_back(slot, *v);
      }
      P.units.push_back(std::move(us));
    }
  }
}

// -----------------------------------------------------------------------------------------------
// Code
// -----------------------------------------------------------------------------------------------

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
        error(a.value->range, fmt::format("too many arguments: {} takes {}", callee, params.size()));
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
                                 "be assigned", t.text));
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
              error(t.member.range, fmt::format("'{}' of unit class {} is not a state field; declare it "
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
    case StmtKind::Assign: compileAssign(s); break;
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
        error(s.value->range, fmt::format("a for loop needs a list, but this is {}", typeName(P, lt)));
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
        if (s.args[i].name) error(s.args[i].name->range, "event arguments are positional; remove the name");
        Type t = compileExpr(*s.args[i].value);
        if (!assignable(info.params[i], t)) {
          error(s.args[i].value->range, fmt::format("event {} expects {} here, but this is {}",
                                                    info.name, typeName(P, info.params[i]), typeName(P, t)));
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
        error(call.range, "apply needs a result and its arguments, as in `apply crt[d, col](battle)`");
        break;
      }
      Type rt = compileExpr(*call.operands[0]);
      int32_t ri = -1;
      if (rt.kind == TypeKind::Enum && rt.id >= 0) ri = P.enums[rt.id].results;
      if (rt.kind != TypeKind::Any && ri < 0) {
        error(call.operands[0]->range, fmt::format("apply needs a result (a member of a `results` "
                                                   "declaration), but this is {}", typeName(P, rt)));
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
      for (const auto& a : s.noteArgs) compileExpr(*a);
      emit(Op::Note, static_cast<int32_t>(P.notes.size() - 1), static_cast<int32_t>(s.noteArgs.size()),
           s.range);
      break;
    }
    case StmtKind::Block: compileBlock(s.body); break;
    case StmtKind::ExprStmt: {
      // `f() §3.1` reads as two statements: the citation alone would be silently lost.
      if (s.value->kind == ExprKind::CitationLit) {
        error(s.value->range, fmt::format("a citation on its own does nothing: put §{} on the declaration, a `require`, "
                                          "a `note`, a `roll` or a `choose`",
                                          s.value->text));
        break;
      }
      Type t = compileExpr(*s.value);
      if (t.kind != TypeKind::Void) emit(Op::Pop);
      break;
    }
  }
}

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
        error(e.range, fmt::format("'{}' changes the game and cannot be used in a function", e.text));
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
    error(e.range, fmt::format("'{}' is a member of several enums; qualify it, as in Enum.{}", e.text, e.text));
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
      error(e.range, fmt::format("'{}' is a type; name one of its members, as in {}.X", e.text, e.text));
      return Type::any();
    case SymKind::Class:
      error(e.range, fmt::format("'{}' is a unit class, not a value", e.text));
      return Type::any();
    case SymKind::Quantity:
      error(e.range, fmt::format("quantity '{}' needs its arguments", e.text));
      return Type::any();
    case SymKind::Action:
      error(e.range, fmt::format("'{}' is an action; players take actions, rules do not call them", e.text));
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
      {"id", Type::of(TypeKind::Str)},       {"type", Type::of(TypeKind::UnitType)},
      {"side", Type::of(TypeKind::Side)},    {"hex", Type{TypeKind::Hex, -1, true, nullptr}},
      {"facing", Type::of(TypeKind::Int)},   {"on_map", Type::of(TypeKind::Bool)},
      {"eliminated", Type::of(TypeKind::Bool)}, {"exited", Type::of(TypeKind::Bool)},
      {"class", Type::of(TypeKind::Str)}};
  static const std::unordered_map<std::string, Type> kSideProps = {
      {"name", Type::of(TypeKind::Str)},  {"title", Type::of(TypeKind::Str)},
      {"units", Type::listOf(Type::of(TypeKind::Unit))}, {"index", Type::of(TypeKind::Int)}};
  static const std::unordered_map<std::string, Type> kHexProps = {
      {"terrain", Type::of(TypeKind::Terrain)}, {"units", Type::listOf(Type::of(TypeKind::Unit))},
      {"col", Type::of(TypeKind::Int)},          {"row", Type::of(TypeKind::Int)},
      {"label", Type::of(TypeKind::Str)},        {"elevation", Type::of(TypeKind::Int)}};
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
          if (!found) found = *t;
          else if (found->kind != t->kind) found = Type::any();
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
        if (auto t = fromSchema(c)) found = found ? (found->kind == t->kind ? *found : Type::any()) : *t;
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
      ok = false;
      error(r, fmt::format("a hex has no property '{}' (it has terrain, units, col, row, label, "
                           "elevation)", name));
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
    case TypeKind::Any: return Type::any();
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
    if (const Sym* s = lookup(obj.text); s && (s->kind == SymKind::EnumType || s->kind == SymKind::Results)) {
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
        error(e.member.range, fmt::format("the ruleset declares no scenario attribute '{}'", e.member.name));
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
    if (auto q = quantities_.find(*dotted); q != quantities_.end() && !resolveLocal(ctx_, *dotted)) {
      const Function& f = P.functions[q->second];
      auto ordered = orderArgs(e.args, f.paramNames, e.range, "quantity " + *dotted);
      if (ordered.empty() && !f.paramNames.empty()) return f.result;
      for (size_t i = 0; i < ordered.size(); ++i) {
        Type t = compileExpr(*ordered[i]->value);
        if (!assignable(f.paramTypes[i], t)) {
          error(ordered[i]->value->range, fmt::format("argument '{}' of {} expects {}, but this is {}",
                                                      f.paramNames[i], *dotted,
                                                      typeName(P, f.paramTypes[i]), typeName(P, t)));
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
                                        "a quantity or a requirement", callee.text));
      }
      auto ordered = orderArgs(e.args, f.paramNames, e.range, fmt::format("'{}'", callee.text));
      if (ordered.empty() && !f.paramNames.empty()) return f.result;
      for (size_t i = 0; i < ordered.size(); ++i) {
        Type t = compileExpr(*ordered[i]->value);
        if (!assignable(f.paramTypes[i], t)) {
          error(ordered[i]->value->range, fmt::format("argument '{}' of {} expects {}, but this is {}",
                                                      f.paramNames[i], callee.text,
                                                      typeName(P, f.paramTypes[i]), typeName(P, t)));
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
          std::string want = bi.minArgs == bi.maxArgs ? std::to_string(bi.minArgs)
                                                      : fmt::format("{} to {}", bi.minArgs, bi.maxArgs);
          error(e.range, fmt::format("{}() takes {} argument{}, but {} {} given", callee.text, want,
                                     bi.maxArgs == 1 ? "" : "s", n, n == 1 ? "is" : "are"));
          return Type::any();
        }
        if (bi.effect && ctx_->pure) {
          error(callee.range, fmt::format("{}() changes the game and cannot be used in a function, "
                                          "a quantity or a requirement", callee.text));
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
          else if ((nm == "min" || nm == "max") && argTypes.size() == 1 && argTypes[0].kind == TypeKind::List)
            t = argTypes[0].element();
          else if ((nm == "min" || nm == "max") && argTypes.size() >= 2)
            t = argTypes[0];
          else if (nm == "shift" || nm == "abs") t = argTypes[0];
        }
        return t;
      }
    }
    if (s && s->kind == SymKind::Action) {
      error(callee.range, fmt::format("'{}' is an action: players take actions; rules call procedures",
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
    expectBool(l, e.operands[0]->range, e.binaryOp == B::And ? "each side of `and`" : "each side of `or`");
    int32_t j = here();
    emit(e.binaryOp == B::And ? Op::AndJump : Op::OrJump, 0, 0, e.range);
    Type r = compileExpr(*e.operands[1]);
    expectBool(r, e.operands[1]->range, e.binaryOp == B::And ? "each side of `and`" : "each side of `or`");
    patch(j, here());
    return Type::of(TypeKind::Bool);
  }
  Type l = compileExpr(*e.operands[0]);
  Type r = compileExpr(*e.operands[1]);
  Op op = Op::Add;
  switch (e.binaryOp) {
    case B::Add: op = Op::Add; break;
    case B::Sub: op = Op::Sub; break;
    case B::Mul: op = Op::Mul; break;
    case B::Div: op = Op::Div; break;
    case B::Mod: op = Op::Mod; break;
    case B::Eq: op = Op::Eq; break;
    case B::Ne: op = Op::Ne; break;
    case B::Lt: op = Op::Lt; break;
    case B::Le: op = Op::Le; break;
    case B::Gt: op = Op::Gt; break;
    case B::Ge: op = Op::Ge; break;
    case B::In: op = Op::In; break;
    case B::NotIn: op = Op::NotIn; break;
    default: break;
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
      if (l.kind != TypeKind::Any && l.kind != TypeKind::Int && !(e.binaryOp == B::Add && l.kind == TypeKind::List)) {
        error(e.operands[0]->range, fmt::format("arithmetic needs numbers, but this is {}", typeName(P, l)));
      } else if (r.kind != TypeKind::Any && r.kind != TypeKind::Int && l.kind != TypeKind::List) {
        error(e.operands[1]->range, fmt::format("arithmetic needs numbers, but this is {}", typeName(P, r)));
      }
      return Type::of(TypeKind::Int);
    }
    case B::Lt:
    case B::Le:
    case B::Gt:
    case B::Ge: {
      auto orderable = [](TypeKind k) {
        return k == TypeKind::Any || k == TypeKind::Int || k == TypeKind::Odds || k == TypeKind::Column ||
               k == TypeKind::Level || k == TypeKind::Enum || k == TypeKind::Str;
      };
      if (!orderable(l.kind)) {
        error(e.operands[0]->range, fmt::format("{} cannot be compared with < or >", typeName(P, l)));
      } else if (!orderable(r.kind)) {
        error(e.operands[1]->range, fmt::format("{} cannot be compared with < or >", typeName(P, r)));
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
        error(e.range, fmt::format("comparing {} with {} is always {}", typeName(P, l), typeName(P, r),
                                   e.binaryOp == B::Eq ? "false" : "true"));
      }
      return Type::of(TypeKind::Bool);
    }
    case B::In:
    case B::NotIn:
      if (r.kind != TypeKind::Any && r.kind != TypeKind::List) {
        error(e.operands[1]->range, fmt::format("`in` needs a list on its right, but this is {}", typeName(P, r)));
      }
      return Type::of(TypeKind::Bool);
    default: break;
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
    error(e.range, "dice can be rolled only in procedures, actions, triggers, results and the "
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
  if (r.count < 1 || r.count > 20) {
    error(e.range, "roll between 1 and 20 dice at a time");
    r.count = 1;
  }
  if (e.rollCount) {
    expectInt(compileExpr(*e.rollCount), e.rollCount->range, "the number of dice");
    r.dynamicCount = true;
  }
  r.mode = static_cast<RollInfo::Mode>(e.rollMode);
  std::string countText = e.rollCount ? "N" : (r.count > 1 ? std::to_string(r.count) : "");
  r.text = countText + P.dice[r.die].name;
  if (r.mode == RollInfo::Highest) r.text += " highest";
  if (r.mode == RollInfo::Lowest) r.text += " lowest";
  if (r.mode == RollInfo::Each) r.text += " each";
  P.rolls.push_back(r);
  emit(Op::Roll, static_cast<int32_t>(P.rolls.size() - 1), 0, e.range);
  if (r.mode == RollInfo::Each) return Type::listOf(Type::of(TypeKind::Int));
  return Type::of(TypeKind::Int);
}

Type Compiler::compileChoose(const Expr& e) {
  if (ctx_->pure) {
    error(e.range, "`choose` asks a player to decide and can be used only in procedures, actions, "
                   "triggers, results and the sequence of play");
    return Type::any();
  }
  Type opts = compileExpr(*e.operands[0]);
  if (opts.kind != TypeKind::Any && opts.kind != TypeKind::List) {
    error(e.operands[0]->range, fmt::format("choose needs a list of options, but this is {}", typeName(P, opts)));
  }
  Type who = compileExpr(*e.operands[1]);
  if (who.kind != TypeKind::Any && who.kind != TypeKind::Side) {
    error(e.operands[1]->range, fmt::format("`by` names the side that chooses, but this is {}", typeName(P, who)));
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
    case ExprKind::Name: return compileName(e);
    case ExprKind::Member: return compileMember(e);
    case ExprKind::Call: return compileCall(e);
    case ExprKind::Index: return compileIndex(e);
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
    case ExprKind::Binary: return compileBinary(e);
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
        error(e.range, fmt::format("the two branches give different types: {} and {}", typeName(P, a),
                                   typeName(P, b)));
      }
      return a;
    }
    case ExprKind::Lambda: return compileLambda(e);
    case ExprKind::List: {
      Type elem = Type::any();
      for (size_t i = 0; i < e.operands.size(); ++i) {
        Type t = compileExpr(*e.operands[i]);
        if (i == 0) elem = t;
        else if (!assignable(elem, t)) elem = Type::any();
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
    case ExprKind::Roll: return compileRoll(e);
    case ExprKind::Choose: return compileChoose(e);
  }
  return Type::any();
}

// -----------------------------------------------------------------------------------------------
// Bodies
// -----------------------------------------------------------------------------------------------

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
  for (size_t i = 0; i < d.params.size(); ++i) newLocal(d.params[i].name.name, P.functions[c.index].paramTypes[i]);
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
      case ast::ModOpKind::Set: return 0;
      case ast::ModOpKind::Div: return 1;
      case ast::ModOpKind::Mul: return 2;
      case ast::ModOpKind::Add:
      case ast::ModOpKind::Sub: return 3;
      case ast::ModOpKind::Shift: return 4;
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
      ctx_->scopes.back().push_back(Local{m->paramNames[i].name, static_cast<int32_t>(i), P.functions[c.index].paramTypes[i]});
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
          case ast::ModOpKind::Add: emit(Op::Add, 0, 0, cl.range); opText = "+"; break;
          case ast::ModOpKind::Sub: emit(Op::Sub, 0, 0, cl.range); opText = "-"; break;
          case ast::ModOpKind::Mul: emit(Op::Mul, 0, 0, cl.range); opText = "x"; break;
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
          case ast::ModOpKind::Set: break;
        }
        if (cl.op != ast::ModOpKind::Shift) expectInt(ot, cl.operand->range, "a modifier's operand");
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
      emit(Op::Trace, static_cast<int32_t>(P.modifiers.size() - 1), static_cast<int32_t>(cl.because.size()),
           cl.range);
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
    if (const Sym* s = lookup(n); s && s->kind == SymKind::Function && !P.functions[s->index].pure()) return false;
    if (int b = ir::findBuiltin(n); b >= 0 && ir::builtin(b).effect) return false;
  }
  for (const auto& op : e.operands)
    if (op && !exprIsPure(*op)) return false;
  for (const auto& a : e.args)
    if (!exprIsPure(*a.value)) return false;
  if (e.rollCount && !exprIsPure(*e.rollCount)) return false;
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
      int32_t fi = newFunction(fmt::format("{}.{} (domain)", d.name.name, names[i]), FuncKind::Function,
                               d.params[i].range);
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
              fmt::format("the candidates of '{}' must be a list, but this is {}", names[i], typeName(P, t)));
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
        error(d.params[i].range, fmt::format("parameter '{}' needs its candidates, as in `{}: {} in ...`",
                                             names[i], names[i], typeName(P, types[i])));
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

void Compiler::compileBodies() {
  // Signatures first, so bodies can call each other in any order.
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
  // Modifiers attach to quantities.
  for (const Decl* m : modifiers_) {
    std::string q = m->qualified.joined();
    auto it = quantities_.find(q);
    if (it == quantities_.end()) {
      error(m->qualified.range, fmt::format("modifier {}: '{}' is not a quantity", m->name.name, q));
      continue;
    }
    if (m->clauses.empty()) continue;
    ast::ModOpKind k0 = m->clauses[0].op;
    auto kindClass = [](ast::ModOpKind k) { return k == ast::ModOpKind::Sub ? ast::ModOpKind::Add : k; };
    bool mixed = false;
    for (const auto& cl : m->clauses) mixed |= kindClass(cl.op) != kindClass(k0);
    if (mixed) {
      error(m->name.range, fmt::format("modifier {} mixes kinds of operation; split it so each "
                                       "modifier adds, multiplies, divides, sets or shifts", m->name.name));
      continue;
    }
    modifiersOf_[it->second].push_back(m);
  }
  for (auto& [d, fi] : bodies_) {
    if (d->kind == DeclKind::Quantity) compileQuantity(*d, fi);
    else compileFunctionDecl(*d, fi);
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
      for (size_t j = 0; j < r->params.size(); ++j) newLocal(r->params[j].name.name, P.functions[c.index].paramTypes[j]);
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
      error(t->event.range, fmt::format("trigger {}: unknown event '{}'", t->name.name, t->event.name));
      continue;
    }
    EventInfo& info = P.events[ev->index];
    if (t->paramNames.size() != info.params.size()) {
      error(t->event.range, fmt::format("event {} has {} parameter{}, but the trigger names {}", info.name,
                                        info.params.size(), info.params.size() == 1 ? "" : "s",
                                        t->paramNames.size()));
      continue;
    }
    int32_t fi = newFunction(t->name.name, FuncKind::Trigger, t->range);
    FnCtx c;
    c.index = fi;
    c.pure = false;
    c.scopes.emplace_back();
    ctx_ = &c;
    for (size_t j = 0; j < t->paramNames.size(); ++j) newLocal(t->paramNames[j].name, info.params[j]);
    P.functions[c.index].arity = static_cast<int32_t>(t->paramNames.size());
    P.functions[c.index].citations = citeStrings(t->citations);
    compileBlock(t->body);
    emit(Op::Const, addConst(Value::none()));
    emit(Op::Return, 0, 0, t->range);
    ctx_ = nullptr;
    std::vector<std::pair<std::string, Type>> gateParams;
    for (size_t j = 0; j < t->paramNames.size(); ++j) gateParams.emplace_back(t->paramNames[j].name, info.params[j]);
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

bool Compiler::run(const std::vector<MergedDecl>& decls, const ast::Block* scenario) {
  size_t before = D.reportCount();
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
      case DeclKind::Levels: return 0;
      case DeclKind::Enum:
      case DeclKind::Results: return 1;
      case DeclKind::Die: return 2;
      case DeclKind::Const: return 3;
      case DeclKind::Option: return 4;
      case DeclKind::UnitClass: return 5;
      case DeclKind::SideState:
      case DeclKind::GameState:
      case DeclKind::TerrainAttributes:
      case DeclKind::HexsideAttributes:
      case DeclKind::ScenarioAttributes: return 6;
      case DeclKind::Terrain:
      case DeclKind::Hexside:
      case DeclKind::UnitType: return 7;
      case DeclKind::Table: return 8;
      default: return 9;
    }
  };
  std::vector<const MergedDecl*> order;
  for (const auto& m : decls) order.push_back(&m);
  std::stable_sort(order.begin(), order.end(), [&](const MergedDecl* a, const MergedDecl* b) {
    return rank(a->decl->kind) < rank(b->decl->kind);
  });
  for (const MergedDecl* m : order) declare(*m->decl);
  if (P.levels.empty()) P.levels.push_back("standard");
  // Derived fields.
  for (size_t i = 0; i < classes_.size(); ++i) {
    const Sym* s = lookup(classes_[i]->name.name);
    if (s && s->kind == SymKind::Class) compileDerived(P.classes[s->index], classes_[i]->fields);
  }
  for (const auto& m : decls) {
    if (m.decl->kind == DeclKind::SideState) compileDerived(P.sideState, m.decl->fields);
    if (m.decl->kind == DeclKind::GameState) compileDerived(P.gameState, m.decl->fields);
  }
  // The scenario (map, sides, forces) before the bodies, so rules can name hexes by label.
  if (scenario) {
    compileScenario(*scenario);
  } else {
    // Without a scenario the attributes keep their defaults (the sandbox starts from them).
    for (const auto& f : P.scenarioAttrs.fields) P.scenarioValues.push_back(f.value);
  }
  compileBodies();
  return D.reportCount() == before;
}

void Compiler::rebuildSymbols() {
  for (size_t i = 0; i < P.levels.size(); ++i) syms_.emplace(P.levels[i], Sym{SymKind::Level, static_cast<int32_t>(i)});
  for (size_t r = 0; r < P.results.size(); ++r) syms_.emplace(P.results[r].name, Sym{SymKind::Results, static_cast<int32_t>(r)});
  for (size_t e = 0; e < P.enums.size(); ++e) {
    if (P.enums[e].results < 0) syms_.emplace(P.enums[e].name, Sym{SymKind::EnumType, static_cast<int32_t>(e)});
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
  for (size_t i = 0; i < P.options.size(); ++i) syms_.emplace(P.options[i].name, Sym{SymKind::Option, static_cast<int32_t>(i)});
  for (size_t i = 0; i < P.globalNames.size(); ++i) syms_.emplace(P.globalNames[i], Sym{SymKind::Const, static_cast<int32_t>(i)});
  for (size_t i = 0; i < P.dice.size(); ++i) syms_.emplace(P.dice[i].name, Sym{SymKind::Die, static_cast<int32_t>(i)});
  for (size_t i = 0; i < P.classes.size(); ++i) syms_.emplace(P.classes[i].name, Sym{SymKind::Class, static_cast<int32_t>(i)});
  for (size_t i = 0; i < P.unitTypes.size(); ++i) syms_.emplace(P.unitTypes[i].name, Sym{SymKind::UnitType, static_cast<int32_t>(i)});
  for (size_t i = 0; i < P.terrains.size(); ++i) syms_.emplace(P.terrains[i].name, Sym{SymKind::Terrain, static_cast<int32_t>(i)});
  for (size_t i = 0; i < P.features.size(); ++i) syms_.emplace(P.features[i].name, Sym{SymKind::Feature, static_cast<int32_t>(i)});
  for (size_t i = 0; i < P.tables.size(); ++i) syms_.emplace(P.tables[i].name, Sym{SymKind::Table, static_cast<int32_t>(i)});
  for (size_t i = 0; i < P.actions.size(); ++i) syms_.emplace(P.actions[i].name, Sym{SymKind::Action, static_cast<int32_t>(i)});
  for (size_t i = 0; i < P.events.size(); ++i) syms_.emplace(P.events[i].name, Sym{SymKind::Event, static_cast<int32_t>(i)});
  for (size_t i = 0; i < P.sides.size(); ++i) syms_.emplace(P.sides[i].name, Sym{SymKind::Side, static_cast<int32_t>(i)});
  for (const auto& [n, fi] : P.functionByName) syms_.emplace(n, Sym{SymKind::Function, fi});
  for (size_t i = 0; i < P.functions.size(); ++i)
    if (P.functions[i].kind == FuncKind::Quantity) quantities_[P.functions[i].name] = static_cast<int32_t>(i);
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
void markTracingCalls(ir::Program& P) {
  const size_t n = P.functions.size();
  std::vector<std::vector<int32_t>> callers(n);
  for (size_t f = 0; f < n; ++f) {
    for (const Instr& in : P.functions[f].code) {
      int32_t callee = -1;
      if (in.op == Op::Call || in.op == Op::MakeClosure) callee = in.a;
      if (in.op == Op::Const && in.a >= 0 && static_cast<size_t>(in.a) < P.constants.size() &&
          P.constants[in.a].tag == Tag::Func)
        callee = static_cast<int32_t>(P.constants[in.a].i);
      if (callee >= 0 && static_cast<size_t>(callee) < n) callers[callee].push_back(static_cast<int32_t>(f));
    }
  }
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

}  // namespace

int32_t compileExpression(diag::Diagnostics& diags, const ast::Expr& expr, ir::Program& program) {
  Compiler c(diags, program);
  c.rebuildSymbols();
  int32_t fi = c.compileStandalone(expr);
  if (fi >= 0) markTracingCalls(program);
  return fi;
}

bool compileProgram(diag::Diagnostics& diags, const std::vector<MergedDecl>& decls,
                    const ast::Block* scenario, ir::Program& out) {
  Compiler c(diags, out);
  bool ok = c.run(decls, scenario);
  if (ok) markTracingCalls(out);
  return ok;
}

}  // namespace polemos::check
