#include "analysis/diff.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "cite/citation.h"
#include "syntax/ast_dump.h"

namespace polemos::analysis {

using namespace polemos::ast;

namespace {

// Past this length a description is cut (with "…"): a diff line should fit a wide terminal.
constexpr size_t kMaxDescription = 110;
// A generated detail longer than this is left out of the text line when there is a comment (the
// JSON output always has both).
constexpr size_t kMaxDetailAfterComment = 60;
// At most this many changed rows, cells or clauses are listed; the rest are counted.
constexpr size_t kMaxListed = 4;

// ---------------------------------------------------------------------------------------------
// Source text
// ---------------------------------------------------------------------------------------------

// The byte offset of code point `cps` in a line (columns count code points).
size_t byteOffset(std::string_view line, uint32_t cps) {
  size_t i = 0;
  for (uint32_t n = 0; n < cps && i < line.size(); ++n) {
    ++i;
    while (i < line.size() && (static_cast<unsigned char>(line[i]) & 0xC0) == 0x80) ++i;
  }
  return i;
}

// Drops `//` comments (outside strings) and collapses white space.
std::string normaliseSource(const std::string& text) {
  std::string out;
  bool inString = false, space = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      out += c;
      if (c == '\\' && i + 1 < text.size())
        out += text[++i];
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
      space = true;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    if (c == '"') inString = true;
    out += c;
  }
  return out;
}

// The source text of a range, normalised; empty for an invalid range.
std::string sourceText(const diag::SourceManager& sm, const diag::SourceRange& r) {
  if (!r.valid() || r.begin.file >= sm.fileCount()) return "";
  std::string out;
  uint32_t last = r.end.valid() && r.end.file == r.begin.file ? r.end.line : r.begin.line;
  for (uint32_t l = r.begin.line; l <= last; ++l) {
    std::string_view line = sm.line(r.begin.file, l);
    size_t from = l == r.begin.line ? byteOffset(line, r.begin.col) : 0;
    size_t to = l == last && r.end.valid() ? byteOffset(line, r.end.col) : line.size();
    if (to < from) to = from;
    if (l > r.begin.line) out += '\n';
    out += std::string(line.substr(from, to - from));
  }
  return normaliseSource(out);
}

std::string exprText(const diag::SourceManager& sm, const Expr* e) {
  if (!e) return "";
  std::string t = sourceText(sm, e->range);
  return t.empty() ? syntax::dumpExpr(e) : t;
}

std::string trimmed(std::string_view s) {
  size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string_view::npos) return "";
  size_t b = s.find_last_not_of(" \t\r");
  return std::string(s.substr(a, b - a + 1));
}

// The comment written directly above a declaration (consecutive `//` lines, no blank line
// between), joined and cut after its first sentence. Empty if the declaration does not start its
// line or has no comment above it.
std::string commentAbove(const diag::SourceManager& sm, const diag::SourceRange& r) {
  if (!r.valid() || r.begin.file >= sm.fileCount()) return "";
  std::string_view first = sm.line(r.begin.file, r.begin.line);
  if (!trimmed(first.substr(0, byteOffset(first, r.begin.col))).empty()) return "";
  std::vector<std::string> lines;
  for (uint32_t l = r.begin.line; l > 1; --l) {
    std::string t = trimmed(sm.line(r.begin.file, l - 1));
    if (t.rfind("//", 0) != 0) break;
    lines.push_back(trimmed(std::string_view(t).substr(2)));
  }
  std::reverse(lines.begin(), lines.end());
  std::string text;
  for (const auto& l : lines) {
    // Rulers such as `// ----` say nothing.
    if (l.find_first_not_of("-=*#/ ") == std::string::npos) continue;
    if (!text.empty()) text += ' ';
    text += l;
  }
  // The first sentence: up to a full stop followed by a space (not inside a number like 5.24).
  for (size_t i = 0; i + 1 < text.size(); ++i)
    if (text[i] == '.' && text[i + 1] == ' ') return text.substr(0, i + 1);
  return text;
}

std::string where(const diag::SourceManager& sm, const diag::SourceRange& r) {
  if (!r.valid() || r.begin.file >= sm.fileCount()) return "";
  return fmt::format("{}:{}", sm.name(r.begin.file), r.begin.line);
}

// Cuts at `max` bytes, on a UTF-8 boundary, with an ellipsis.
std::string cut(std::string s, size_t max) {
  if (s.size() <= max) return s;
  size_t n = max - 1;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return s.substr(0, n) + "…";
}

std::string joined(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

// "a, b, c and 3 more"
std::string listed(const std::vector<std::string>& items) {
  if (items.size() <= kMaxListed) return joined(items, ", ");
  std::vector<std::string> head(items.begin(), items.begin() + kMaxListed);
  return joined(head, ", ") + fmt::format(" and {} more", items.size() - kMaxListed);
}

std::vector<std::string> citationTexts(const std::vector<Citation>& cs) {
  std::vector<std::string> out;
  for (const auto& c : cs) out.push_back(c.text);
  return out;
}

// ---------------------------------------------------------------------------------------------
// The declarations of one side, by kind and name
// ---------------------------------------------------------------------------------------------

struct Item {
  std::string kind, name;
  const Decl* decl = nullptr;        // a whole declaration, or
  const FieldDecl* field = nullptr;  // one field of a state or attribute block
  std::string norm;                  // what is compared
  std::vector<std::string> rules;
  diag::SourceRange range;
};

using Key = std::pair<std::string, std::string>;  // kind, name

// The kind word of a field of a block that overlays extend field by field; empty for others.
std::string fieldKind(DeclKind k) {
  switch (k) {
    case DeclKind::SideState:
      return "side state field";
    case DeclKind::GameState:
      return "game state field";
    case DeclKind::TerrainAttributes:
      return "terrain attribute";
    case DeclKind::HexsideAttributes:
      return "hexside attribute";
    case DeclKind::ScenarioAttributes:
      return "scenario attribute";
    default:
      return "";
  }
}

std::string citationsNorm(const std::vector<Citation>& cs) {
  std::string out;
  for (const auto& c : cs) out += " §" + c.text;
  return out;
}

std::string fieldNorm(const FieldDecl& f) {
  std::string out = f.isState ? "state " : "";
  out += f.name.name;
  if (f.derived) out += " :=";
  if (f.type) out += ": " + syntax::dumpTypeRef(*f.type);
  if (f.value) out += " = " + syntax::dumpExpr(f.value.get());
  out += citationsNorm(f.citations);
  if (!f.description.empty()) out += " \"" + f.description + "\"";
  return out;
}

std::string declNorm(const Decl& d) {
  // `replace modifier x` and `modifier x` declare the same thing.
  std::string s = syntax::dumpDecl(&d);
  for (const char* prefix : {"replace ", "add "})
    if (s.rfind(prefix, 0) == 0) return s.substr(std::string(prefix).size());
  return s;
}

std::map<Key, Item> itemsOf(const check::MergedRules& m) {
  std::map<Key, Item> out;
  for (const auto& md : m.decls) {
    const Decl& d = *md.decl;
    std::string fk = fieldKind(d.kind);
    if (!fk.empty()) {
      for (const auto& f : d.fields) {
        Item it;
        it.kind = fk;
        it.name = f.name.name;
        it.field = &f;
        it.norm = fieldNorm(f);
        it.rules = citationTexts(f.citations);
        it.range = f.range;
        out[{it.kind, it.name}] = std::move(it);
      }
      continue;
    }
    if (d.kind == DeclKind::Uses || d.kind == DeclKind::Include) continue;
    Item it;
    it.kind = check::declKindWord(d);
    it.name = check::declName(d);
    it.decl = &d;
    it.norm = declNorm(d);
    it.rules = citationTexts(d.citations);
    it.range = d.range;
    out[{it.kind, it.name}] = std::move(it);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// What changed, in words
// ---------------------------------------------------------------------------------------------

struct Describer {
  const diag::SourceManager& sm;

  std::string text(const Expr* e) const { return exprText(sm, e); }
  std::string type(const TypeRef& t) const {
    std::string s = sourceText(sm, t.range);
    return s.empty() ? syntax::dumpTypeRef(t) : s;
  }
  std::string type(const std::optional<TypeRef>& t) const { return t ? type(*t) : ""; }
  static std::string change(const std::string& what, const std::string& a, const std::string& b) {
    return fmt::format("{}{}{} -> {}", what, what.empty() ? "" : " ", a.empty() ? "none" : a,
                       b.empty() ? "none" : b);
  }

  // `(u: unit in units(s))`; without the candidate lists when `domains` is false.
  std::string params(const std::vector<Param>& ps, bool domains = true) const {
    std::vector<std::string> out;
    for (const auto& p : ps) {
      std::string s = p.name.name + ": " + type(p.type);
      if (p.domain && domains) s += " in " + text(p.domain.get());
      out.push_back(s);
    }
    return "(" + joined(out, ", ") + ")";
  }
  static std::string names(const std::vector<Ident>& ids) {
    std::vector<std::string> out;
    for (const auto& i : ids) out.push_back(i.name);
    return "(" + joined(out, ", ") + ")";
  }
  std::string gates(const std::vector<Gate>& gs) const {
    std::vector<std::string> out;
    for (const auto& g : gs)
      out.push_back(g.kind == Gate::Level ? "level " + g.level.name : "if " + text(g.cond.get()));
    return joined(out, " ");
  }
  std::string opText(const ModClause& c) const {
    std::string op;
    switch (c.op) {
      case ModOpKind::Add:
        op = "+ ";
        break;
      case ModOpKind::Sub:
        op = "- ";
        break;
      case ModOpKind::Mul:
        op = "* ";
        break;
      case ModOpKind::Set:
        op = "= ";
        break;
      case ModOpKind::Div:
        op = "/ ";
        break;
      case ModOpKind::Shift:
        op = "shift ";
        break;
    }
    op += text(c.operand.get());
    if (c.op == ModOpKind::Div && c.rounding != Rounding::Down)
      op += c.rounding == Rounding::Up ? " up" : " nearest";
    return op;
  }
  std::string condText(const ModClause& c) const {
    return c.cond ? "when " + text(c.cond.get()) : "always";
  }
  std::string clauseText(const ModClause& c) const { return condText(c) + ": " + opText(c); }

  std::string inits(const std::vector<FieldInit>& is) const {
    std::vector<std::string> out;
    for (const auto& i : is) out.push_back(i.name.name + " = " + text(i.value.get()));
    return joined(out, ", ");
  }
  std::string fieldSummary(const FieldDecl& f) const {
    if (f.derived) return ":= " + text(f.value.get());
    std::string s = (f.isState ? "state " : "") + type(f.type);
    if (f.value) s += " = " + text(f.value.get());
    return s;
  }

  // The phases, steps and alternations of a sequence, in order, with their printouts.
  void phases(const std::vector<StmtPtr>& body,
              std::vector<std::pair<std::string, std::string>>& out) const {
    for (const auto& s : body) {
      if (!s) continue;
      if (s->kind == StmtKind::Phase || s->kind == StmtKind::Step) {
        out.emplace_back((s->kind == StmtKind::Phase ? "phase " : "step ") + s->name.name,
                         syntax::dumpStmt(s.get()));
      } else if (s->kind == StmtKind::Alternate) {
        out.emplace_back("alternation", syntax::dumpStmt(s.get()));
      }
      phases(s->body, out);
      phases(s->elseBody, out);
    }
  }

  void fieldChanges(const std::string& prefix, const FieldDecl& a, const FieldDecl& b,
                    std::vector<std::string>& parts) const {
    std::string p = prefix.empty() ? "" : prefix + " ";
    if (a.derived != b.derived ||
        (a.derived && syntax::dumpExpr(a.value.get()) != syntax::dumpExpr(b.value.get()))) {
      parts.push_back(p + change("", fieldSummary(a), fieldSummary(b)));
      return;
    }
    if (a.isState != b.isState) parts.push_back(p + (b.isState ? "now state" : "no longer state"));
    if ((a.type ? syntax::dumpTypeRef(*a.type) : "") !=
        (b.type ? syntax::dumpTypeRef(*b.type) : ""))
      parts.push_back(p + change("type", type(a.type), type(b.type)));
    if (syntax::dumpExpr(a.value.get()) != syntax::dumpExpr(b.value.get()))
      parts.push_back(p + change("default", text(a.value.get()), text(b.value.get())));
    if (a.description != b.description) parts.push_back(p + "description changed");
  }

  void fieldsDiff(const std::vector<FieldDecl>& a, const std::vector<FieldDecl>& b,
                  std::vector<std::string>& parts) const {
    std::map<std::string, const FieldDecl*> old;
    for (const auto& f : a) old[f.name.name] = &f;
    std::set<std::string> seen;
    for (const auto& f : b) {
      seen.insert(f.name.name);
      auto it = old.find(f.name.name);
      if (it == old.end())
        parts.push_back("new field " + f.name.name + ": " + fieldSummary(f));
      else if (fieldNorm(*it->second) != fieldNorm(f))
        fieldChanges(f.name.name, *it->second, f, parts);
    }
    for (const auto& f : a)
      if (!seen.count(f.name.name)) parts.push_back("field " + f.name.name + " removed");
  }

  void initsDiff(const std::vector<FieldInit>& a, const std::vector<FieldInit>& b,
                 std::vector<std::string>& parts) const {
    std::map<std::string, std::string> old;
    for (const auto& i : a) old[i.name.name] = text(i.value.get());
    std::set<std::string> seen;
    std::vector<std::string> changed;
    for (const auto& i : b) {
      seen.insert(i.name.name);
      std::string v = text(i.value.get());
      auto it = old.find(i.name.name);
      if (it == old.end())
        changed.push_back(i.name.name + " (default) -> " + v);
      else if (it->second != v)
        changed.push_back(i.name.name + " " + it->second + " -> " + v);
    }
    for (const auto& i : a)
      if (!seen.count(i.name.name))
        changed.push_back(i.name.name + " " + old[i.name.name] + " -> (default)");
    if (!changed.empty()) parts.push_back(listed(changed));
  }

  std::string key(const TableKey& k) const {
    std::string s = sourceText(sm, k.range);
    if (!s.empty()) return s;
    return k.kind == TableKey::Name ? k.name : std::to_string(k.lo);
  }
  std::string cell(const TableCell& c) const {
    std::string s = sourceText(sm, c.range);
    return s.empty() ? (c.kind == TableCell::Empty ? "-" : c.text) : s;
  }
  std::string rowText(const TableRow& r) const {
    std::vector<std::string> cs;
    for (const auto& c : r.cells) cs.push_back(cell(c));
    return joined(cs, " ");
  }

  void tableDiff(const TableSpec& a, const TableSpec& b, std::vector<std::string>& parts) const {
    auto kindOf = [](const std::optional<Ident>& i) { return i ? i->name : std::string(); };
    if (kindOf(a.rowKind) != kindOf(b.rowKind))
      parts.push_back(change("rows", kindOf(a.rowKind), kindOf(b.rowKind)));
    std::vector<std::string> ca, cb;
    for (const auto& k : a.columns) ca.push_back(key(k));
    for (const auto& k : b.columns) cb.push_back(key(k));
    bool sameColumns = ca == cb && kindOf(a.columnKind) == kindOf(b.columnKind);
    if (!sameColumns)
      parts.push_back(change("columns",
                             kindOf(a.columnKind) + (ca.empty() ? "" : " ") + joined(ca, " "),
                             kindOf(b.columnKind) + (cb.empty() ? "" : " ") + joined(cb, " ")));
    std::map<std::string, const TableRow*> old;
    for (const auto& r : a.rows) old[key(r.key)] = &r;
    std::set<std::string> seen;
    std::vector<std::string> changed;
    for (const auto& r : b.rows) {
      std::string k = key(r.key);
      seen.insert(k);
      auto it = old.find(k);
      if (it == old.end()) {
        changed.push_back("row " + k + " added (" + rowText(r) + ")");
        continue;
      }
      const TableRow& o = *it->second;
      if (rowText(o) == rowText(r)) continue;
      if (sameColumns && o.cells.size() == r.cells.size()) {
        for (size_t i = 0; i < r.cells.size(); ++i) {
          if (cell(o.cells[i]) == cell(r.cells[i])) continue;
          std::string at = i < cb.size() ? k + " x " + cb[i] : k;
          changed.push_back(at + ": " + cell(o.cells[i]) + " -> " + cell(r.cells[i]));
        }
      } else {
        changed.push_back("row " + k + ": " + rowText(o) + " -> " + rowText(r));
      }
    }
    for (const auto& r : a.rows)
      if (!seen.count(key(r.key))) changed.push_back("row " + key(r.key) + " removed");
    if (!changed.empty()) parts.push_back(listed(changed));
  }

  void clausesDiff(const std::vector<ModClause>& a, const std::vector<ModClause>& b,
                   std::vector<std::string>& parts) const {
    std::vector<std::string> changed;
    if (a.size() == b.size()) {
      for (size_t i = 0; i < a.size(); ++i) {
        if (clauseText(a[i]) == clauseText(b[i])) continue;
        if (condText(a[i]) == condText(b[i]))
          changed.push_back(condText(b[i]) + ": " + opText(a[i]) + " -> " + opText(b[i]));
        else
          changed.push_back(clauseText(a[i]) + " -> " + clauseText(b[i]));
      }
    } else {
      std::vector<std::string> ta, tb;
      for (const auto& c : a) ta.push_back(clauseText(c));
      for (const auto& c : b) tb.push_back(clauseText(c));
      for (const auto& t : tb)
        if (std::find(ta.begin(), ta.end(), t) == ta.end()) changed.push_back("new clause " + t);
      for (const auto& t : ta)
        if (std::find(tb.begin(), tb.end(), t) == tb.end())
          changed.push_back("clause " + t + " removed");
    }
    if (!changed.empty()) parts.push_back(listed(changed));
  }

  // The requirements at the top level of a body: citations and condition.
  std::vector<std::pair<std::string, std::string>> requirements(
      const std::vector<StmtPtr>& body) const {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& s : body) {
      if (!s || s->kind != StmtKind::Require) continue;
      std::string c = citationsNorm(s->citations);
      out.emplace_back(c.empty() ? "" : c.substr(1), text(s->cond.get()));
    }
    return out;
  }
  static std::string bodyNorm(const std::vector<StmtPtr>& body, bool withRequires) {
    std::string out;
    for (const auto& s : body)
      if (s && (withRequires || s->kind != StmtKind::Require))
        out += syntax::dumpStmt(s.get()) + ";";
    return out;
  }

  void bodyDiff(const std::vector<StmtPtr>& a, const std::vector<StmtPtr>& b,
                std::vector<std::string>& parts) const {
    auto ra = requirements(a), rb = requirements(b);
    std::vector<std::pair<std::string, std::string>> gone, come;
    for (const auto& r : ra)
      if (std::find(rb.begin(), rb.end(), r) == rb.end()) gone.push_back(r);
    for (const auto& r : rb)
      if (std::find(ra.begin(), ra.end(), r) == ra.end()) come.push_back(r);
    auto citedOnce = [](const auto& rs, const std::string& c) {
      return std::count_if(rs.begin(), rs.end(), [&](const auto& r) { return r.first == c; }) == 1;
    };
    auto shown = [](const std::pair<std::string, std::string>& r) {
      return (r.first.empty() ? "" : r.first + " ") + r.second;
    };
    std::vector<std::string> changed;
    // A requirement of the same rule that changed its condition is one change, not two.
    for (const auto& r : come) {
      if (!r.first.empty() && citedOnce(come, r.first) && citedOnce(gone, r.first)) {
        auto old = std::find_if(gone.begin(), gone.end(),
                                [&](const auto& g) { return g.first == r.first; });
        changed.push_back("requirement " + r.first + ": " + old->second + " -> " + r.second);
      } else {
        changed.push_back("new requirement " + shown(r));
      }
    }
    for (const auto& r : gone)
      if (r.first.empty() || !citedOnce(come, r.first) || !citedOnce(gone, r.first))
        changed.push_back("requirement " + shown(r) + " removed");
    if (!changed.empty()) parts.push_back(listed(changed));
    if (bodyNorm(a, false) != bodyNorm(b, false)) parts.push_back("body changed");
  }

  void sequenceDiff(const Decl& a, const Decl& b, std::vector<std::string>& parts) const {
    std::vector<std::pair<std::string, std::string>> pa, pb;
    phases(a.body, pa);
    phases(b.body, pb);
    std::vector<std::string> na, nb, changed;
    for (const auto& p : pa) na.push_back(p.first);
    for (const auto& p : pb) nb.push_back(p.first);
    for (const auto& n : nb)
      if (std::find(na.begin(), na.end(), n) == na.end()) changed.push_back("new " + n);
    for (const auto& n : na)
      if (std::find(nb.begin(), nb.end(), n) == nb.end()) changed.push_back(n + " removed");
    std::set<std::string> reported;
    for (const auto& [n, dump] : pb) {
      const std::string& name = n;  // clang before 16 refuses to capture a structured binding
      auto it = std::find_if(pa.begin(), pa.end(), [&](const auto& p) { return p.first == name; });
      if (it != pa.end() && it->second != dump && reported.insert(n).second)
        changed.push_back(n + " changed");
    }
    if (changed.empty() && na != nb) changed.push_back("phase order changed");
    if (!changed.empty())
      parts.push_back(listed(changed));
    else
      parts.push_back("the rest of the sequence changed");
  }

  // What changed between two versions of one item.
  std::string replaced(const Item& a, const Item& b) const {
    std::vector<std::string> parts;
    if (a.field && b.field) {
      fieldChanges("", *a.field, *b.field, parts);
    } else if (a.decl && b.decl) {
      const Decl& o = *a.decl;
      const Decl& n = *b.decl;
      switch (n.kind) {
        case DeclKind::Option:
        case DeclKind::Const:
          if ((o.type ? syntax::dumpTypeRef(*o.type) : "") !=
              (n.type ? syntax::dumpTypeRef(*n.type) : ""))
            parts.push_back(change("type", type(o.type), type(n.type)));
          if (syntax::dumpExpr(o.value.get()) != syntax::dumpExpr(n.value.get()))
            parts.push_back(change("", text(o.value.get()), text(n.value.get())));
          break;
        case DeclKind::Levels: {
          std::vector<std::string> la, lb;
          for (const auto& l : o.levels) la.push_back(l.name);
          for (const auto& l : n.levels) lb.push_back(l.name);
          parts.push_back(change("", joined(la, " < "), joined(lb, " < ")));
          break;
        }
        case DeclKind::Enum: {
          std::vector<std::string> ma, mb, changed;
          for (const auto& m : o.members) ma.push_back(m.name.name);
          for (const auto& m : n.members) mb.push_back(m.name.name);
          for (const auto& m : mb)
            if (std::find(ma.begin(), ma.end(), m) == ma.end())
              changed.push_back("new member " + m);
          for (const auto& m : ma)
            if (std::find(mb.begin(), mb.end(), m) == mb.end())
              changed.push_back("member " + m + " removed");
          if (changed.empty() && ma != mb) changed.push_back("member order changed");
          if (!changed.empty()) parts.push_back(listed(changed));
          break;
        }
        case DeclKind::Die: {
          std::vector<std::string> fa, fb;
          for (const auto& f : o.faces) fa.push_back(text(f.get()));
          for (const auto& f : n.faces) fb.push_back(text(f.get()));
          if (fa != fb) parts.push_back(change("faces", joined(fa, " "), joined(fb, " ")));
          break;
        }
        case DeclKind::UnitClass:
          fieldsDiff(o.fields, n.fields, parts);
          break;
        case DeclKind::UnitType:
          if (o.baseClass.name != n.baseClass.name)
            parts.push_back(change("class", o.baseClass.name, n.baseClass.name));
          initsDiff(o.inits, n.inits, parts);
          break;
        case DeclKind::Terrain:
        case DeclKind::Hexside:
          initsDiff(o.inits, n.inits, parts);
          break;
        case DeclKind::Table:
          tableDiff(o.table, n.table, parts);
          break;
        case DeclKind::Modifier:
          if (o.qualified.joined() != n.qualified.joined())
            parts.push_back(change("on", o.qualified.joined(), n.qualified.joined()));
          if (names(o.paramNames) != names(n.paramNames))
            parts.push_back(change("names", names(o.paramNames), names(n.paramNames)));
          if (gates(o.gates) != gates(n.gates))
            parts.push_back(change("gates", gates(o.gates), gates(n.gates)));
          clausesDiff(o.clauses, n.clauses, parts);
          break;
        case DeclKind::Quantity:
        case DeclKind::Function:
        case DeclKind::Procedure:
        case DeclKind::Action:
        case DeclKind::Results:
        case DeclKind::Event:
        case DeclKind::Trigger:
          if (n.kind == DeclKind::Trigger &&
              (o.event.name != n.event.name || names(o.paramNames) != names(n.paramNames)))
            parts.push_back(change("on", o.event.name + names(o.paramNames),
                                   n.event.name + names(n.paramNames)));
          if (params(o.params) != params(n.params))
            parts.push_back(change("parameters", params(o.params), params(n.params)));
          if ((o.type ? syntax::dumpTypeRef(*o.type) : "") !=
              (n.type ? syntax::dumpTypeRef(*n.type) : ""))
            parts.push_back(change("type", type(o.type), type(n.type)));
          if (gates(o.gates) != gates(n.gates))
            parts.push_back(change("gates", gates(o.gates), gates(n.gates)));
          if (syntax::dumpExpr(o.value.get()) != syntax::dumpExpr(n.value.get()))
            parts.push_back(change(n.kind == DeclKind::Quantity ? "base" : "value",
                                   text(o.value.get()), text(n.value.get())));
          if (n.kind == DeclKind::Results) {
            std::map<std::string, std::string> ca;
            std::vector<std::string> changed;
            for (const auto& c : o.cases)
              ca[c.name.name] = c.description + bodyNorm(c.body, true) + citationsNorm(c.citations);
            std::set<std::string> seen;
            for (const auto& c : n.cases) {
              seen.insert(c.name.name);
              auto it = ca.find(c.name.name);
              if (it == ca.end())
                changed.push_back("new case " + c.name.name);
              else if (it->second !=
                       c.description + bodyNorm(c.body, true) + citationsNorm(c.citations))
                changed.push_back(c.name.name + " changed");
            }
            for (const auto& c : o.cases)
              if (!seen.count(c.name.name)) changed.push_back("case " + c.name.name + " removed");
            if (!changed.empty()) parts.push_back(listed(changed));
          }
          bodyDiff(o.body, n.body, parts);
          break;
        case DeclKind::Sequence:
          sequenceDiff(o, n, parts);
          break;
        default:
          break;
      }
      if (o.description != n.description)
        parts.push_back(change(n.kind == DeclKind::Table ? "title" : "description",
                               "\"" + o.description + "\"", "\"" + n.description + "\""));
    }
    if (parts.empty()) return a.rules != b.rules ? "rule numbers changed" : "changed";
    return joined(parts, "; ");
  }

  // What an added or removed item is.
  std::string summary(const Item& x) const {
    if (x.field) {
      std::string s = fieldSummary(*x.field);
      return x.field->description.empty() ? s : x.field->description + " (" + s + ")";
    }
    const Decl& d = *x.decl;
    std::string s;
    switch (d.kind) {
      case DeclKind::Option:
      case DeclKind::Const:
        s = "= " + text(d.value.get());
        break;
      case DeclKind::Levels: {
        std::vector<std::string> ls;
        for (const auto& l : d.levels) ls.push_back(l.name);
        s = joined(ls, " < ");
        break;
      }
      case DeclKind::Enum: {
        std::vector<std::string> ms;
        for (const auto& m : d.members) ms.push_back(m.name.name);
        s = joined(ms, ", ");
        break;
      }
      case DeclKind::UnitType:
        s = d.baseClass.name + (d.inits.empty() ? "" : ": " + inits(d.inits));
        break;
      case DeclKind::Terrain:
      case DeclKind::Hexside:
        s = d.inits.empty() ? "all defaults" : inits(d.inits);
        break;
      case DeclKind::Table: {
        size_t cols = d.table.columns.empty() ? 1 : d.table.columns.size();
        s = fmt::format("{} row{} x {} column{}", d.table.rows.size(),
                        d.table.rows.size() == 1 ? "" : "s", cols, cols == 1 ? "" : "s");
        break;
      }
      case DeclKind::Modifier: {
        std::vector<std::string> cs;
        for (const auto& c : d.clauses) cs.push_back(clauseText(c));
        s = "on " + d.qualified.joined() + ": " + joined(cs, "; ");
        break;
      }
      case DeclKind::Quantity:
        s = "= " + text(d.value.get());
        break;
      case DeclKind::Trigger:
        s = "on " + d.event.name + names(d.paramNames);
        break;
      case DeclKind::Function:
      case DeclKind::Procedure:
      case DeclKind::Action:
      case DeclKind::Results:
      case DeclKind::Event:
        s = x.name + params(d.params, false);
        break;
      case DeclKind::Sequence: {
        std::vector<std::pair<std::string, std::string>> ps;
        phases(d.body, ps);
        std::vector<std::string> ns;
        for (const auto& p : ps) ns.push_back(p.first);
        s = listed(ns);
        break;
      }
      case DeclKind::UnitClass: {
        std::vector<std::string> fs;
        for (const auto& f : d.fields) fs.push_back(f.name.name);
        s = "fields " + listed(fs);
        break;
      }
      default:
        break;
    }
    if (d.description.empty()) return s;
    return s.empty() ? d.description : d.description + " (" + s + ")";
  }
};

}  // namespace

// Rule numbers compare as the rule books number them: the section as a number (9 < 10), and the
// digits after its point as a decimal fraction, so that 7.41 (a part of 7.4) comes before 7.6;
// lettered parts (4.A) compare as text, after numbered ones.
bool ruleLess(const std::string& a, const std::string& b) {
  return cite::Citation::before(a, b);
}

namespace {

const std::vector<std::string>& sortRules(const DeclChange& c) {
  return c.change == DeclChange::Removed ? c.oldRules : c.newRules;
}

std::string rulesText(const std::vector<std::string>& rules) {
  std::string out;
  for (const auto& r : rules) out += (out.empty() ? "§" : " §") + r;
  return out;
}

std::string rulesColumn(const DeclChange& c) {
  if (c.change == DeclChange::Replaced && c.oldRules != c.newRules && !c.oldRules.empty())
    return rulesText(c.oldRules) + " -> " + (c.newRules.empty() ? "none" : rulesText(c.newRules));
  return rulesText(sortRules(c));
}

const char* changeWord(DeclChange::Kind k) {
  switch (k) {
    case DeclChange::Replaced:
      return "replaced";
    case DeclChange::Added:
      return "added";
    case DeclChange::Removed:
      return "removed";
  }
  return "?";
}

}  // namespace

size_t RulesDiff::count(DeclChange::Kind k) const {
  return static_cast<size_t>(std::count_if(changes.begin(), changes.end(),
                                           [&](const DeclChange& c) { return c.change == k; }));
}

RulesDiff diffRules(const check::MergedRules& a, const check::MergedRules& b,
                    const diag::SourceManager& sources) {
  RulesDiff out;
  out.from = a.what;
  out.to = b.what;
  Describer desc{sources};
  auto ia = itemsOf(a), ib = itemsOf(b);
  for (const auto& [key, nb] : ib) {
    auto it = ia.find(key);
    if (it != ia.end() && it->second.norm == nb.norm) continue;
    DeclChange c;
    c.kind = nb.kind;
    c.name = nb.name;
    c.newRules = nb.rules;
    c.newWhere = where(sources, nb.range);
    c.comment = commentAbove(sources, nb.range);
    if (it == ia.end()) {
      c.change = DeclChange::Added;
      c.detail = desc.summary(nb);
    } else {
      c.change = DeclChange::Replaced;
      c.oldRules = it->second.rules;
      c.oldWhere = where(sources, it->second.range);
      c.detail = desc.replaced(it->second, nb);
    }
    out.changes.push_back(std::move(c));
  }
  for (const auto& [key, na] : ia) {
    if (ib.count(key)) continue;
    DeclChange c;
    c.change = DeclChange::Removed;
    c.kind = na.kind;
    c.name = na.name;
    c.oldRules = na.rules;
    c.oldWhere = where(sources, na.range);
    c.detail = desc.summary(na);
    // The `remove` in the new side's overlays, if there is one, says why.
    for (const auto& oc : b.changes)
      if (oc.kind == check::OverlayChange::Removed && oc.name == na.name &&
          oc.declKind == na.kind) {
        c.newWhere = where(sources, oc.range);
        c.newRules = oc.citations;
        c.comment = commentAbove(sources, oc.range);
      }
    if (c.comment.empty()) c.comment = commentAbove(sources, na.range);
    out.changes.push_back(std::move(c));
  }
  std::stable_sort(out.changes.begin(), out.changes.end(),
                   [](const DeclChange& x, const DeclChange& y) {
                     const auto& rx = sortRules(x);
                     const auto& ry = sortRules(y);
                     if (rx.empty() != ry.empty()) return ry.empty();  // uncited last
                     if (!rx.empty() && rx.front() != ry.front())
                       return ruleLess(rx.front(), ry.front());
                     if (x.name != y.name) return x.name < y.name;
                     return x.kind < y.kind;
                   });
  return out;
}

std::string describe(const DeclChange& c) {
  std::string s;
  if (c.comment.empty())
    s = c.detail;
  else if (c.detail.empty() || c.detail.size() > kMaxDetailAfterComment)
    s = c.comment;
  else
    s = c.comment + " [" + c.detail + "]";
  return cut(s, kMaxDescription);
}

std::string formatDiff(const RulesDiff& d, bool json) {
  std::string out;
  size_t replaced = d.count(DeclChange::Replaced), added = d.count(DeclChange::Added),
         removed = d.count(DeclChange::Removed);
  if (json) {
    auto loc = [](const std::string& w) {
      return w.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(w);
    };
    for (const auto& c : d.changes) {
      nlohmann::ordered_json j = {{"change", changeWord(c.change)},
                                  {"kind", c.kind},
                                  {"name", c.name},
                                  {"rules", c.newRules},
                                  {"old_rules", c.oldRules},
                                  {"description", describe(c)},
                                  {"comment", c.comment},
                                  {"detail", c.detail},
                                  {"old", loc(c.oldWhere)},
                                  {"new", loc(c.newWhere)}};
      out += j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    }
    nlohmann::ordered_json s = {{"summary",
                                 {{"from", d.from},
                                  {"to", d.to},
                                  {"replaced", replaced},
                                  {"added", added},
                                  {"removed", removed}}}};
    out += s.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    return out;
  }
  // Column widths, capped so that one long name does not push every description off the screen.
  size_t nameWidth = 0, rulesWidth = 0;
  // `§` is two bytes but one column.
  auto columns = [](const std::string& s) {
    return s.size() - static_cast<size_t>(std::count(s.begin(), s.end(), '\xa7'));
  };
  for (const auto& c : d.changes) {
    nameWidth = std::max(nameWidth, c.kind.size() + (c.name.empty() ? 0 : 1 + c.name.size()));
    rulesWidth = std::max(rulesWidth, columns(rulesColumn(c)));
  }
  nameWidth = std::min<size_t>(nameWidth, 36);
  rulesWidth = std::min<size_t>(rulesWidth, 20);
  out += "--- " + d.from + "\n+++ " + d.to + "\n";
  for (const auto& c : d.changes) {
    char sign = c.change == DeclChange::Replaced ? '~' : c.change == DeclChange::Added ? '+' : '-';
    std::string name = c.kind + (c.name.empty() ? "" : " " + c.name);
    std::string rules = rulesColumn(c);
    size_t rulesCols = columns(rules);
    std::string desc = describe(c);
    out += fmt::format("{} {:<{}} {}{} {}{}{}\n", sign, name, nameWidth, rules,
                       std::string(rulesWidth > rulesCols ? rulesWidth - rulesCols : 0, ' '),
                       changeWord(c.change), desc.empty() ? "" : ": ", desc);
  }
  if (d.changes.empty())
    out += "no differences\n";
  else
    out += fmt::format("{} replaced, {} added, {} removed\n", replaced, added, removed);
  return out;
}

}  // namespace polemos::analysis
