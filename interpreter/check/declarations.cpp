// The checker: declaring the merged declarations (the symbol table, schemas, kinds, tables,
// functions, quantities, actions, events).
#include "check/compiler_internal.h"
#include "limits/limits.h"

namespace polemos::check::detail {

int32_t Compiler::newFunction(const std::string& name, FuncKind kind, SourceRange range) {
  Function f;
  f.name = name;
  f.kind = kind;
  f.range = range;
  P.functions.push_back(std::move(f));
  return static_cast<int32_t>(P.functions.size() - 1);
}

void Compiler::declareSchema(Schema& s, const std::vector<ast::FieldDecl>& fields,
                             const std::string& owner, bool displayable) {
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
    fi.label = f.displayLabel.empty() ? f.name.name : f.displayLabel;
    if (f.display != ast::FieldDisplay::Hidden) {
      if (!displayable)
        error(f.name.range,
              fmt::format("'{}' of {} cannot be a counter or a marker: only the fields of unit "
                          "classes, side state and game state are shown (a hex's state is listed "
                          "under the map)",
                          f.name.name, owner));
      fi.display = f.display == ast::FieldDisplay::Counter ? Display::Counter : Display::Marker;
      s.declaresDisplay = true;
    }
    if (f.derived) {
      fi.type = Type::any();
      fi.derived = -2;  // compiled once every symbol exists (see compileDerived)
    } else if (f.type) {
      auto t = resolveType(*f.type);
      fi.type = t ? *t : Type::any();
      if (f.bounds) {
        if (f.boundsOverflow)
          error(f.boundsRange, "integer literal is too large (the limit is 9223372036854775807)");
        else if (t && t->kind != TypeKind::Int)
          error(f.boundsRange, fmt::format("only a whole-number field has a range: '{}' is {}",
                                           f.name.name, typeName(P, *t)));
        else if (f.bounds->first > f.bounds->second)
          error(f.boundsRange, fmt::format("the range of '{}' is empty: {} is more than {}",
                                           f.name.name, f.bounds->first, f.bounds->second));
        else
          fi.bounds = f.bounds;
      }
      if (f.value) {
        auto v = constEval(*f.value);
        if (v) {
          checkFieldValue(fi, *v, f.value->range,
                          fmt::format("the default of '{}' in {}", f.name.name, owner));
          fi.value = *v;
          fi.init = 0;  // has a default
        }
      } else if (fi.type.optional) {
        fi.init = 0;
      }
    }
    s.add(fi.nameId, static_cast<int32_t>(s.fields.size()));
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
      D.note(diag, {},
             known.empty() ? fmt::format("no {} attributes are declared", what)
                           : fmt::format("known attributes: {}", known));
      continue;
    }
    auto v = constEval(*init.value);
    if (!v) continue;
    checkFieldValue(schema.fields[slot], *v, init.value->range,
                    fmt::format("attribute '{}' of {} '{}'", init.name.name, what, k.name));
    k.values[slot] = *v;
    set[slot] = true;
  }
  for (size_t i = 0; i < schema.fields.size(); ++i) {
    if (!set[i] && schema.fields[i].derived < 0) {
      error(d.name.range,
            fmt::format("{} '{}' is missing '{}' ({}), which has no default", what, k.name,
                        schema.fields[i].name, typeName(P, schema.fields[i].type)));
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
    bool dice = n.find('d') != std::string::npos && std::all_of(n.begin(), n.end(), [](char c) {
                  return std::isdigit(static_cast<unsigned char>(c)) || c == 'd';
                });
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
                                  "or an enum)",
                                  n));
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
      case ast::TableKey::Int:
        out.kind = TableKeyInfo::Int;
        out.lo = out.hi = k.lo;
        out.text = std::to_string(k.lo);
        break;
      case ast::TableKey::Range:
        out.kind = TableKeyInfo::Range;
        out.lo = k.lo;
        out.hi = k.hi;
        // 2-4, or -5..-1 when an end is negative (a dash would read as a minus sign).
        out.text = k.lo < 0 || k.hi < 0 ? fmt::format("{}..{}", k.lo, k.hi)
                                        : fmt::format("{}-{}", k.lo, k.hi);
        if (k.hi < k.lo) {
          error(k.range, fmt::format("empty range {}: the first number must not exceed the second",
                                     out.text));
          return std::nullopt;
        }
        break;
      case ast::TableKey::Less:
        out.kind = TableKeyInfo::Less;
        out.lo = k.lo;
        out.text = fmt::format("<{}", k.lo);
        break;
      case ast::TableKey::LessEq:
        out.kind = TableKeyInfo::LessEq;
        out.lo = k.lo;
        out.text = fmt::format("<={}", k.lo);
        break;
      case ast::TableKey::Greater:
        out.kind = TableKeyInfo::Greater;
        out.lo = k.lo;
        out.text = fmt::format(">{}", k.lo);
        break;
      case ast::TableKey::GreaterEq:
        out.kind = TableKeyInfo::GreaterEq;
        out.lo = k.lo;
        out.text = fmt::format(">={}", k.lo);
        break;
      case ast::TableKey::Odds:
        out.kind = TableKeyInfo::Odds;
        out.lo = k.lo;
        out.hi = k.hi;
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
      error(k.range,
            fmt::format("{} key '{}' must be a member of {}", where, out.text, P.enums[en].name));
      return std::nullopt;
    }
    if (kind == TableInfo::IntKeys && out.kind == TableKeyInfo::Odds) {
      error(k.range,
            fmt::format("{} key '{}' is odds, but the {}s are numbers", where, out.text, where));
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
      error(row.key.range,
            fmt::format("table {}: row {} has {} cell{}, but the table has {} "
                        "column{}",
                        t.name, rk->text, row.cells.size(), row.cells.size() == 1 ? "" : "s", width,
                        width == 1 ? "" : "s"));
      continue;
    }
    t.rows.push_back(*rk);
    for (const auto& c : row.cells) {
      Value v;
      switch (c.kind) {
        case ast::TableCell::Empty:
          v = Value::none();
          break;
        case ast::TableCell::Int:
          if (c.overflow) error(c.range, "number is too large");
          v = Value::integer(c.intValue);
          break;
        case ast::TableCell::Odds:
          v = Value::odds(c.intValue, c.oddsB);
          break;
        case ast::TableCell::String:
          v = Value::string(c.text);
          break;
        case ast::TableCell::Bool:
          v = Value::boolean(c.intValue != 0);
          break;
        case ast::TableCell::None:
          v = Value::none();
          break;
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
      case TableKeyInfo::Int:
        return {k.lo, k.lo};
      case TableKeyInfo::Range:
        return {k.lo, k.hi};
      case TableKeyInfo::Less:
        return {INT64_MIN, k.lo - 1};
      case TableKeyInfo::LessEq:
        return {INT64_MIN, k.lo};
      case TableKeyInfo::Greater:
        return {k.lo + 1, INT64_MAX};
      case TableKeyInfo::GreaterEq:
        return {k.lo, INT64_MAX};
      default:
        return {1, 0};  // odds and members: compared by text below
    }
  };
  for (size_t i = 0; i < t.rows.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      auto [a0, a1] = bounds(t.rows[i]);
      auto [b0, b1] = bounds(t.rows[j]);
      bool numeric = a0 <= a1 && b0 <= b1;
      if (t.rows[i].text == t.rows[j].text) {
        error(d.table.rows[i].key.range,
              fmt::format("table {}: row {} appears twice", t.name, t.rows[i].text));
        break;
      }
      if (numeric && a0 <= b1 && b0 <= a1) {
        error(d.table.rows[i].key.range,
              fmt::format("table {}: row {} overlaps row {}, so a look-up would "
                          "have two answers",
                          t.name, t.rows[i].text, t.rows[j].text));
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
        if (define(l.name, Sym{SymKind::Level, static_cast<int32_t>(P.levels.size())}, l.range,
                   "level"))
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
      if (define(name, Sym{SymKind::Option, static_cast<int32_t>(P.options.size())}, d.name.range,
                 "option"))
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
      // `step_budget`: the steps one command of this ruleset may take (limits/limits.h).
      if (name == "step_budget") {
        if (v->tag != Tag::Int || v->i < limits::kMinStepBudget || v->i > limits::kMaxStepBudget)
          error(d.value->range, fmt::format("the step budget must be a whole number from {} to {}",
                                            limits::kMinStepBudget, limits::kMaxStepBudget));
        else
          P.stepBudget = v->i;
      }
      if (define(name, Sym{SymKind::Const, static_cast<int32_t>(P.globals.size())}, d.name.range,
                 "constant")) {
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
    case DeclKind::SideState:
      declareSchema(P.sideState, d.fields, "side state");
      break;
    case DeclKind::GameState:
      declareSchema(P.gameState, d.fields, "game state");
      break;
    case DeclKind::HexState:
      declareSchema(P.hexState, d.fields, "hex state", false);
      break;
    case DeclKind::TerrainAttributes:
      declareSchema(P.terrainAttrs, d.fields, "terrain attributes", false);
      break;
    case DeclKind::HexsideAttributes:
      declareSchema(P.hexsideAttrs, d.fields, "hexside attributes", false);
      break;
    case DeclKind::ScenarioAttributes:
      declareSchema(P.scenarioAttrs, d.fields, "scenario attributes", false);
      break;
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
        error(d.baseClass.range,
              fmt::format("unit type '{}': '{}' is not a unit class", name, d.baseClass.name));
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
          auto& diag =
              error(init.name.range, fmt::format("unit type '{}': no field '{}' in unit class {}",
                                                 name, init.name.name, schema.name));
          std::string known;
          for (const auto& f : schema.fields)
            if (f.derived == -1) known += (known.empty() ? "" : ", ") + f.name;
          D.note(diag, {}, fmt::format("unit class {} has: {}", schema.name, known));
          continue;
        }
        if (schema.fields[slot].derived != -1) {
          error(init.name.range, fmt::format("unit type '{}': '{}' is derived in unit class {} and "
                                             "cannot be set",
                                             name, init.name.name, schema.name));
          continue;
        }
        auto v = constEval(*init.value);
        if (!v) continue;
        checkFieldValue(schema.fields[slot], *v, init.value->range,
                        fmt::format("field '{}' of unit type '{}' (unit class {})", init.name.name,
                                    name, schema.name));
        u.values[slot] = *v;
        set[slot] = true;
      }
      for (size_t i = 0; i < schema.fields.size(); ++i) {
        if (!set[i]) {
          error(d.name.range, fmt::format("unit type '{}' is missing '{}' ({}), required by unit "
                                          "class {}",
                                          name, schema.fields[i].name,
                                          typeName(P, schema.fields[i].type), schema.name));
        }
      }
      if (define(name, Sym{SymKind::UnitType, static_cast<int32_t>(P.unitTypes.size())},
                 d.name.range, "unit type"))
        P.unitTypes.push_back(std::move(u));
      break;
    }
    case DeclKind::Terrain: {
      KindInfo k;
      fillKind(k, P.terrainAttrs, d, "terrain");
      if (define(name, Sym{SymKind::Terrain, static_cast<int32_t>(P.terrains.size())}, d.name.range,
                 "terrain"))
        P.terrains.push_back(std::move(k));
      break;
    }
    case DeclKind::Hexside: {
      KindInfo k;
      fillKind(k, P.hexsideAttrs, d, "hexside");
      if (define(name, Sym{SymKind::Feature, static_cast<int32_t>(P.features.size())}, d.name.range,
                 "hexside"))
        P.features.push_back(std::move(k));
      break;
    }
    case DeclKind::Table:
      if (define(name, Sym{SymKind::Table, static_cast<int32_t>(P.tables.size())}, d.name.range,
                 "table"))
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
      if (d.qualified.parts.size() == 1)
        define(q, Sym{SymKind::Quantity, fi}, d.qualified.range, "quantity");
      bodies_.emplace_back(&d, fi);
      break;
    }
    case DeclKind::Function:
    case DeclKind::Procedure: {
      int32_t fi = newFunction(
          name, d.kind == DeclKind::Function ? FuncKind::Function : FuncKind::Procedure, d.range);
      if (ir::findBuiltin(name) >= 0) {
        error(d.name.range,
              fmt::format("'{}' is a builtin function and cannot be redeclared", name));
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
      if (define(name, Sym{SymKind::Event, static_cast<int32_t>(P.events.size())}, d.name.range,
                 "event"))
        P.events.push_back(std::move(ev));
      break;
    }
    case DeclKind::Modifier:
      modifiers_.push_back(&d);
      break;
    case DeclKind::Trigger:
      triggers_.push_back(&d);
      break;
    case DeclKind::Sequence:
      if (sequence_) {
        auto& diag = error(d.range, "a ruleset has one sequence of play; this is a second one");
        D.note(diag, sequence_->range,
               "the first is here (an overlay replaces it with `replace sequence`)");
        break;
      }
      sequence_ = &d;
      break;
  }
}

}  // namespace polemos::check::detail
