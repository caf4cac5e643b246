// The checker's compiler, shared by its passes (one class, its members defined across the files
// of check/, one concern each):
//   types.cpp         type names and resolution, constant evaluation
//   declarations.cpp  declaring the merged declarations: enums, options, schemas, kinds, tables,
//                     functions, quantities, actions, events (the symbol table)
//   scenario.cpp      a scenario's sides, settings, map and forces
//   statements.cpp    code generation for gates, phases and statements
//   names.cpp         code generation for names, members and calls
//   expressions.cpp   code generation for the other expressions (index, operators, lambdas, rolls,
//                     choices) and the expression dispatcher
//   bodies.cpp        lowering declarations with bodies: functions, quantities with their
//   modifiers,
//                     actions, triggers, derived fields, the sequence of play
//   hooks.cpp         the hook functions held to their contract (ir/hooks.h)
//   compiler.cpp      the passes in order, and the entry points of compiler.h
// Internal to check/: nothing outside it includes this header.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "check/compiler.h"
#include "hex/grid.h"
#include "ir/builtins.h"

namespace polemos::check::detail {

using namespace polemos::ir;
using ast::Decl;
using ast::DeclKind;
using ast::Expr;
using ast::ExprKind;
using ast::Stmt;
using ast::StmtKind;
using diag::SourceRange;

enum class SymKind {
  EnumType,
  EnumMember,
  Option,
  Const,
  Die,
  Class,
  UnitType,
  Terrain,
  Feature,
  Table,
  Function,
  Quantity,
  Action,
  Results,
  Event,
  Level,
  Side
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
  FnCtx* parent = nullptr;                            // lambdas: the enclosing function
  std::vector<std::pair<int32_t, int32_t>> captures;  // (slot in parent, slot here)
  const Schema* owner = nullptr;                      // derived fields: `this` is local 0
  bool inWindowScope = false;
};

using ir::typeName;  // (ir/type_name.cpp)
bool assignable(const Type& to, const Type& from);
std::string citeList(const std::vector<ast::Citation>& cs);
std::vector<std::string> citeStrings(const std::vector<ast::Citation>& cs);
const char* declKindName(DeclKind k);
const std::set<std::string>& reservedNames();

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
  std::vector<std::pair<const Decl*, int32_t>> bodies_;  // function decls to compile
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
  // checkValueType, and the field's range (`in LO..HI`) if it has one.
  void checkFieldValue(const FieldInfo& field, const Value& v, SourceRange r,
                       const std::string& what);
  Type valueType(const Value& v);

  // --- declarations ---
  void declare(const Decl& d);
  // `displayable`: whether its fields may be counters or markers (not terrain, hexside and
  // scenario attributes, which no view shows as a unit's or a side's state).
  void declareSchema(Schema& s, const std::vector<ast::FieldDecl>& fields, const std::string& owner,
                     bool displayable = true);
  void fillKind(KindInfo& k, const Schema& schema, const Decl& d, const char* what);
  void declareTable(const Decl& d);
  int32_t newFunction(const std::string& name, FuncKind kind, SourceRange range);
  void declareScenarioSides(const ast::Block& sc);
  void compileScenario(const ast::Block& sc);

  // --- hooks (hooks.cpp) ---
  void checkHooks();

  // --- code ---
  void compileSignatures();
  void compileBodies();
  void compileFunctionDecl(const Decl& d, int32_t fi);
  void compileQuantity(const Decl& d, int32_t fi);
  void compileAction(const Decl& d);
  bool exprIsPure(const Expr& e);
  // Whether the current function's code from `from` to `to` (not included) changes nothing but
  // the operand stack: no roll, choice, decision, event, result, state field or local written, no
  // call of a procedure or an effect builtin, no call of a function value (which may be one).
  // Such code may be jumped over without changing the game (a note's values, Op::SkipUntraced).
  bool quietCode(int32_t from, int32_t to);
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

// The function an instruction calls or makes a value of (a call, a closure, a function
// constant), or -1: the edges of the call graph.
int32_t calleeOf(const ir::Program& P, const Instr& in);
// The requirements of an action's guard met or not alike for every argument (ActionInfo::
// sharedRequires): those its code reaches before it reads a parameter.
std::vector<int32_t> requiresBeforeParameters(const ir::Function& guard);

// Marks every function whose code, or the code of a function it calls or makes a value of,
// writes trace events (tracesDeep).
void markTracingCalls(ir::Program& P);

}  // namespace polemos::check::detail
