// Test support: firstAstDifference, a member-by-member comparison of two ASTs.
//
// One `same` overload per AST struct, with one line per member, in the order of ast.h; the
// containers (vector, optional, unique_ptr) and the leaves (strings, numbers, enums, ranges) are
// handled once, generically. It stops at the first difference and names it by its path. It does
// not normalize anything (a range one column off is a difference) and does not look at the
// source text or at diagnostics.
//
// Adding a member to a struct of ast.h: add its line to that struct's `same` below (the size
// checks at the end of this file fail to compile until then, on the usual 64-bit libstdc++).

#include "ast_equal.h"

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace polemos::test_helpers {
namespace {

using diag::SourceRange;

std::string quoted(const std::string& s) {
  constexpr size_t kMax = 80;
  std::string out = "\"";
  for (size_t i = 0; i < s.size() && i < kMax; ++i) {
    const char c = s[i];
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else {
      out += c;
    }
  }
  if (s.size() > kMax) out += "...";
  out += "\"";
  if (s.size() > kMax) out += " (" + std::to_string(s.size()) + " bytes)";
  return out;
}

std::string fileName(diag::FileId f) {
  return f == diag::kNoFile ? std::string("nofile") : "file" + std::to_string(f);
}

// `12:5-12:9`, with the files when `withFiles` (when the two sides differ in a file).
std::string show(const SourceRange& r, bool withFiles) {
  auto loc = [&](const diag::SourceLoc& l) {
    std::string s = withFiles ? fileName(l.file) + ":" : "";
    return s + std::to_string(l.line) + ":" + std::to_string(l.col);
  };
  return loc(r.begin) + "-" + loc(r.end);
}

class Comparer {
 public:
  const std::string& result() const { return diff_; }

  // Compares one member, named `name` in the path.
  template <class T>
  void field(const char* name, const T& a, const T& b) {
    if (!diff_.empty()) return;
    const size_t n = path_.size();
    path_ += '.';
    path_ += name;
    same(a, b);
    path_.resize(n);
  }

  // --- Leaves ---------------------------------------------------------------------------------

  void same(const std::string& a, const std::string& b) {
    if (a != b) differ(quoted(a) + " vs " + quoted(b));
  }

  template <class N>
  requires std::is_arithmetic_v<N>
  void same(N a, N b) {
    if (a == b) return;
    if constexpr (std::is_same_v<N, bool>) {
      differ(std::string(a ? "true" : "false") + " vs " + (b ? "true" : "false"));
    } else {
      differ(std::to_string(a) + " vs " + std::to_string(b));
    }
  }

  // Enums by their numbers (the order of their enumerators in ast.h).
  template <class E>
  requires std::is_enum_v<E>
  void same(E a, E b) {
    if (a != b) {
      differ("enumerator " + std::to_string(static_cast<long long>(a)) + " vs " +
             std::to_string(static_cast<long long>(b)));
    }
  }

  void same(const SourceRange& a, const SourceRange& b) {
    if (a.begin == b.begin && a.end == b.end) return;
    const bool files = a.begin.file != b.begin.file || a.end.file != b.end.file;
    differ(show(a, files) + " vs " + show(b, files));
  }

  void same(const std::pair<int64_t, int64_t>& a, const std::pair<int64_t, int64_t>& b) {
    field("first", a.first, b.first);
    field("second", a.second, b.second);
  }

  // --- Containers -----------------------------------------------------------------------------

  template <class T>
  void same(const std::vector<T>& a, const std::vector<T>& b) {
    if (a.size() != b.size()) {
      // The size, and where the elements the two have in common first differ (an element left
      // out or added shows there).
      std::string first;
      for (size_t i = 0; i < std::min(a.size(), b.size()) && first.empty(); ++i) {
        Comparer sub;
        sub.path_ = "[" + std::to_string(i) + "]";
        sub.same(a[i], b[i]);
        first = sub.diff_;
      }
      differ(std::to_string(a.size()) + " vs " + std::to_string(b.size()) + " elements" +
             (first.empty() ? std::string(" (the common ones are equal)")
                            : "; first unequal element: " + first));
      return;
    }
    for (size_t i = 0; i < a.size() && diff_.empty(); ++i) {
      const size_t n = path_.size();
      path_ += "[" + std::to_string(i) + "]";
      same(a[i], b[i]);
      path_.resize(n);
    }
  }

  template <class T>
  void same(const std::optional<T>& a, const std::optional<T>& b) {
    if (a.has_value() != b.has_value()) {
      differ(std::string(a ? "present" : "absent") + " vs " + (b ? "present" : "absent"));
    } else if (a) {
      same(*a, *b);
    }
  }

  template <class T>
  void same(const std::unique_ptr<T>& a, const std::unique_ptr<T>& b) {
    if ((a == nullptr) != (b == nullptr)) {
      differ(std::string(a ? "non-null" : "null") + " vs " + (b ? "non-null" : "null"));
    } else if (a) {
      same(*a, *b);
    }
  }

  // --- AST structs: one line per member, in the order of ast.h --------------------------------

  void same(const ast::Citation& a, const ast::Citation& b) {
    field("text", a.text, b.text);
    field("range", a.range, b.range);
  }

  void same(const ast::Ident& a, const ast::Ident& b) {
    field("name", a.name, b.name);
    field("range", a.range, b.range);
  }

  void same(const ast::QualifiedName& a, const ast::QualifiedName& b) {
    field("parts", a.parts, b.parts);
    field("range", a.range, b.range);
  }

  void same(const ast::TypeRef& a, const ast::TypeRef& b) {
    field("name", a.name, b.name);
    field("args", a.args, b.args);
    field("optional", a.optional, b.optional);
    field("range", a.range, b.range);
  }

  void same(const ast::Arg& a, const ast::Arg& b) {
    field("name", a.name, b.name);
    field("value", a.value, b.value);
  }

  void same(const ast::Expr& a, const ast::Expr& b) {
    field("kind", a.kind, b.kind);
    field("range", a.range, b.range);
    field("depth", a.depth, b.depth);
    field("intValue", a.intValue, b.intValue);
    field("overflow", a.overflow, b.overflow);
    field("oddsA", a.oddsA, b.oddsA);
    field("oddsB", a.oddsB, b.oddsB);
    field("text", a.text, b.text);
    field("boolValue", a.boolValue, b.boolValue);
    field("unaryOp", a.unaryOp, b.unaryOp);
    field("binaryOp", a.binaryOp, b.binaryOp);
    field("member", a.member, b.member);
    field("operands", a.operands, b.operands);
    field("args", a.args, b.args);
    field("params", a.params, b.params);
    field("mapKeys", a.mapKeys, b.mapKeys);
    field("rollCount", a.rollCount, b.rollCount);
    field("diceCount", a.diceCount, b.diceCount);
    field("dieName", a.dieName, b.dieName);
    field("rollMode", a.rollMode, b.rollMode);
    field("prompt", a.prompt, b.prompt);
    field("citations", a.citations, b.citations);
  }

  void same(const ast::Gate& a, const ast::Gate& b) {
    field("kind", a.kind, b.kind);
    field("level", a.level, b.level);
    field("cond", a.cond, b.cond);
    field("range", a.range, b.range);
  }

  void same(const ast::PhaseItem& a, const ast::PhaseItem& b) {
    field("kind", a.kind, b.kind);
    field("actions", a.actions, b.actions);
    field("cond", a.cond, b.cond);
    field("citations", a.citations, b.citations);
    field("message", a.message, b.message);
    field("condText", a.condText, b.condText);
    field("body", a.body, b.body);
    field("range", a.range, b.range);
  }

  void same(const ast::Stmt& a, const ast::Stmt& b) {
    field("kind", a.kind, b.kind);
    field("range", a.range, b.range);
    field("name", a.name, b.name);
    field("typeRef", a.typeRef, b.typeRef);
    field("target", a.target, b.target);
    field("assignOp", a.assignOp, b.assignOp);
    field("value", a.value, b.value);
    field("cond", a.cond, b.cond);
    field("forPlayer", a.forPlayer, b.forPlayer);
    field("body", a.body, b.body);
    field("elseBody", a.elseBody, b.elseBody);
    field("hasElse", a.hasElse, b.hasElse);
    field("citations", a.citations, b.citations);
    field("gates", a.gates, b.gates);
    field("message", a.message, b.message);
    field("condText", a.condText, b.condText);
    field("items", a.items, b.items);
    field("passes", a.passes, b.passes);
    field("args", a.args, b.args);
    field("noteArgs", a.noteArgs, b.noteArgs);
  }

  void same(const ast::EnumMember& a, const ast::EnumMember& b) {
    field("name", a.name, b.name);
    field("citations", a.citations, b.citations);
    field("description", a.description, b.description);
  }

  void same(const ast::FieldDecl& a, const ast::FieldDecl& b) {
    field("name", a.name, b.name);
    field("type", a.type, b.type);
    field("value", a.value, b.value);
    field("isState", a.isState, b.isState);
    field("derived", a.derived, b.derived);
    field("citations", a.citations, b.citations);
    field("description", a.description, b.description);
    field("display", a.display, b.display);
    field("displayLabel", a.displayLabel, b.displayLabel);
    field("bounds", a.bounds, b.bounds);
    field("boundsOverflow", a.boundsOverflow, b.boundsOverflow);
    field("boundsRange", a.boundsRange, b.boundsRange);
    field("range", a.range, b.range);
  }

  void same(const ast::FieldInit& a, const ast::FieldInit& b) {
    field("name", a.name, b.name);
    field("value", a.value, b.value);
    field("range", a.range, b.range);
    field("citations", a.citations, b.citations);
  }

  void same(const ast::Param& a, const ast::Param& b) {
    field("name", a.name, b.name);
    field("type", a.type, b.type);
    field("domain", a.domain, b.domain);
    field("range", a.range, b.range);
  }

  void same(const ast::TableKey& a, const ast::TableKey& b) {
    field("kind", a.kind, b.kind);
    field("lo", a.lo, b.lo);
    field("hi", a.hi, b.hi);
    field("name", a.name, b.name);
    field("overflow", a.overflow, b.overflow);
    field("range", a.range, b.range);
  }

  void same(const ast::TableCell& a, const ast::TableCell& b) {
    field("kind", a.kind, b.kind);
    field("intValue", a.intValue, b.intValue);
    field("oddsB", a.oddsB, b.oddsB);
    field("overflow", a.overflow, b.overflow);
    field("text", a.text, b.text);
    field("range", a.range, b.range);
  }

  void same(const ast::TableRow& a, const ast::TableRow& b) {
    field("key", a.key, b.key);
    field("cells", a.cells, b.cells);
    field("range", a.range, b.range);
  }

  void same(const ast::TableSpec& a, const ast::TableSpec& b) {
    field("rowKind", a.rowKind, b.rowKind);
    field("columnKind", a.columnKind, b.columnKind);
    field("columns", a.columns, b.columns);
    field("rows", a.rows, b.rows);
  }

  void same(const ast::ModClause& a, const ast::ModClause& b) {
    field("cond", a.cond, b.cond);
    field("op", a.op, b.op);
    field("operand", a.operand, b.operand);
    field("rounding", a.rounding, b.rounding);
    field("because", a.because, b.because);
    field("range", a.range, b.range);
  }

  void same(const ast::ResultCase& a, const ast::ResultCase& b) {
    field("name", a.name, b.name);
    field("citations", a.citations, b.citations);
    field("description", a.description, b.description);
    field("body", a.body, b.body);
    field("range", a.range, b.range);
  }

  void same(const ast::Decl& a, const ast::Decl& b) {
    field("kind", a.kind, b.kind);
    field("overlay", a.overlay, b.overlay);
    field("range", a.range, b.range);
    field("name", a.name, b.name);
    field("qualified", a.qualified, b.qualified);
    field("uses", a.uses, b.uses);
    field("includes", a.includes, b.includes);
    field("levels", a.levels, b.levels);
    field("type", a.type, b.type);
    field("value", a.value, b.value);
    field("faces", a.faces, b.faces);
    field("members", a.members, b.members);
    field("fields", a.fields, b.fields);
    field("baseClass", a.baseClass, b.baseClass);
    field("inits", a.inits, b.inits);
    field("table", a.table, b.table);
    field("params", a.params, b.params);
    field("paramNames", a.paramNames, b.paramNames);
    field("event", a.event, b.event);
    field("clauses", a.clauses, b.clauses);
    field("cases", a.cases, b.cases);
    field("body", a.body, b.body);
    field("hasBody", a.hasBody, b.hasBody);
    field("gates", a.gates, b.gates);
    field("citations", a.citations, b.citations);
    field("description", a.description, b.description);
    field("removeKind", a.removeKind, b.removeKind);
  }

  void same(const ast::HexRef& a, const ast::HexRef& b) {
    field("from", a.from, b.from);
    field("to", a.to, b.to);
    field("range", a.range, b.range);
  }

  void same(const ast::HexPair& a, const ast::HexPair& b) {
    field("a", a.a, b.a);
    field("b", a.b, b.b);
    field("range", a.range, b.range);
  }

  void same(const ast::MapItem& a, const ast::MapItem& b) {
    field("kind", a.kind, b.kind);
    field("name", a.name, b.name);
    field("elevation", a.elevation, b.elevation);
    field("value", a.value, b.value);
    field("hexes", a.hexes, b.hexes);
    field("pairs", a.pairs, b.pairs);
    field("range", a.range, b.range);
  }

  void same(const ast::MapSpec& a, const ast::MapSpec& b) {
    field("colFrom", a.colFrom, b.colFrom);
    field("colTo", a.colTo, b.colTo);
    field("rowFrom", a.rowFrom, b.rowFrom);
    field("rowTo", a.rowTo, b.rowTo);
    field("labels", a.labels, b.labels);
    field("citations", a.citations, b.citations);
    field("items", a.items, b.items);
    field("range", a.range, b.range);
  }

  void same(const ast::UnitPlacement& a, const ast::UnitPlacement& b) {
    field("id", a.id, b.id);
    field("type", a.type, b.type);
    field("hex", a.hex, b.hex);
    field("facing", a.facing, b.facing);
    field("inits", a.inits, b.inits);
    field("range", a.range, b.range);
  }

  void same(const ast::SideSpec& a, const ast::SideSpec& b) {
    field("name", a.name, b.name);
    field("title", a.title, b.title);
    field("citations", a.citations, b.citations);
    field("inits", a.inits, b.inits);
    field("range", a.range, b.range);
  }

  void same(const ast::ForceSpec& a, const ast::ForceSpec& b) {
    field("side", a.side, b.side);
    field("citations", a.citations, b.citations);
    field("units", a.units, b.units);
    field("range", a.range, b.range);
  }

  void same(const ast::Scenario& a, const ast::Scenario& b) {
    field("map", a.map, b.map);
    field("sides", a.sides, b.sides);
    field("forces", a.forces, b.forces);
    field("settings", a.settings, b.settings);
    field("rules", a.rules, b.rules);
  }

  void same(const ast::Block& a, const ast::Block& b) {
    field("kind", a.kind, b.kind);
    field("name", a.name, b.name);
    field("base", a.base, b.base);
    field("moduleName", a.moduleName, b.moduleName);
    field("title", a.title, b.title);
    field("citations", a.citations, b.citations);
    field("decls", a.decls, b.decls);
    field("scenario", a.scenario, b.scenario);
    field("range", a.range, b.range);
  }

  // The root: its members' paths start without a dot ("blocks[0]...").
  void same(const ast::File& a, const ast::File& b) {
    field("file", a.file, b.file);
    field("partOf", a.partOf, b.partOf);
    field("blocks", a.blocks, b.blocks);
    field("decls", a.decls, b.decls);
  }

 private:
  void differ(const std::string& what) {
    if (!diff_.empty()) return;
    const std::string path = !path_.empty() && path_[0] == '.' ? path_.substr(1) : path_;
    diff_ = (path.empty() ? std::string("file") : path) + ": " + what;
  }

  std::string path_;
  std::string diff_;
};

// A member added to an AST struct changes its size (on the 64-bit libstdc++ these numbers were
// taken on): compare the new member above, then update the number here.
#if defined(__GLIBCXX__) && defined(__LP64__)
static_assert(sizeof(ast::Citation) == 56, "compare the new member of ast::Citation");
static_assert(sizeof(ast::Ident) == 56, "compare the new member of ast::Ident");
static_assert(sizeof(ast::QualifiedName) == 48, "compare the new member of ast::QualifiedName");
static_assert(sizeof(ast::TypeRef) == 112, "compare the new member of ast::TypeRef");
static_assert(sizeof(ast::Arg) == 72, "compare the new member of ast::Arg");
static_assert(sizeof(ast::Expr) == 400, "compare the new member of ast::Expr");
static_assert(sizeof(ast::Gate) == 96, "compare the new member of ast::Gate");
static_assert(sizeof(ast::PhaseItem) == 176, "compare the new member of ast::PhaseItem");
static_assert(sizeof(ast::Stmt) == 496, "compare the new member of ast::Stmt");
static_assert(sizeof(ast::EnumMember) == 112, "compare the new member of ast::EnumMember");
static_assert(sizeof(ast::FieldDecl) == 368, "compare the new member of ast::FieldDecl");
static_assert(sizeof(ast::FieldInit) == 112, "compare the new member of ast::FieldInit");
static_assert(sizeof(ast::Param) == 200, "compare the new member of ast::Param");
static_assert(sizeof(ast::TableKey) == 88, "compare the new member of ast::TableKey");
static_assert(sizeof(ast::TableCell) == 88, "compare the new member of ast::TableCell");
static_assert(sizeof(ast::TableRow) == 136, "compare the new member of ast::TableRow");
static_assert(sizeof(ast::TableSpec) == 176, "compare the new member of ast::TableSpec");
static_assert(sizeof(ast::ModClause) == 80, "compare the new member of ast::ModClause");
static_assert(sizeof(ast::ResultCase) == 160, "compare the new member of ast::ResultCase");
static_assert(sizeof(ast::Decl) == 960, "compare the new member of ast::Decl");
static_assert(sizeof(ast::HexRef) == 144, "compare the new member of ast::HexRef");
static_assert(sizeof(ast::HexPair) == 136, "compare the new member of ast::HexPair");
static_assert(sizeof(ast::MapItem) == 152, "compare the new member of ast::MapItem");
static_assert(sizeof(ast::MapSpec) == 160, "compare the new member of ast::MapSpec");
static_assert(sizeof(ast::UnitPlacement) == 288, "compare the new member of ast::UnitPlacement");
static_assert(sizeof(ast::SideSpec) == 160, "compare the new member of ast::SideSpec");
static_assert(sizeof(ast::ForceSpec) == 128, "compare the new member of ast::ForceSpec");
static_assert(sizeof(ast::Scenario) == 264, "compare the new member of ast::Scenario");
static_assert(sizeof(ast::Block) == 536, "compare the new member of ast::Block");
static_assert(sizeof(ast::File) == 120, "compare the new member of ast::File");
#endif

}  // namespace

std::string firstAstDifference(const ast::File& a, const ast::File& b) {
  Comparer c;
  c.same(a, b);
  return c.result();
}

}  // namespace polemos::test_helpers
