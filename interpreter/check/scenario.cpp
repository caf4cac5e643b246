// The checker: a scenario's sides, settings, map (on its hex::Grid) and forces.
#include "check/compiler_internal.h"
#include "limits/limits.h"

namespace polemos::check::detail {

namespace {

// Where a setting wants a hex (or a list of hexes) and the scenario wrote a number, the number is
// the hex's xxyy label (0605 or 605), as it is in rule code (docs/language.md, "The map").
Value labelsToHexes(const Type& want, const Value& v, SourceRange r,
                    const std::function<int32_t(const ast::Ident&)>& hexIndex) {
  auto one = [&](const Value& x) {
    if (x.tag != Tag::Int || x.i < 0 || x.i > 9999) return x;
    ast::Ident label;
    label.name = fmt::format("{:04d}", x.i);
    label.range = r;
    int32_t h = hexIndex(label);
    return h < 0 ? x : Value::of(Tag::Hex, h);
  };
  if (want.kind == TypeKind::Hex) return one(v);
  if (want.kind == TypeKind::List && want.element().kind == TypeKind::Hex && v.tag == Tag::List) {
    ValueList items;
    for (const auto& x : v.items()) items.push_back(one(x));
    return Value::makeList(std::move(items));
  }
  return v;
}

}  // namespace

void Compiler::declareScenarioSides(const ast::Block& sc) {
  for (const auto& s : sc.scenario.sides) {
    SideSetup ss;
    ss.name = s.name.name;
    ss.title = s.title.empty() ? s.name.name : s.title;
    if (define(s.name.name, Sym{SymKind::Side, static_cast<int32_t>(P.sides.size())}, s.name.range,
               "side"))
      P.sides.push_back(std::move(ss));
  }
}

void Compiler::compileScenario(const ast::Block& sc) {
  const ast::Scenario& s = sc.scenario;
  P.scenarioName = sc.name.name;
  P.scenarioTitle = sc.title;
  if (P.sides.empty())
    error(sc.name.range, fmt::format("scenario '{}' declares no sides", sc.name.name));
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
      error(m.labels.range,
            fmt::format("unknown label scheme '{}' (use xxyy or letters)", m.labels.name));
    }
    if (m.colTo < m.colFrom || m.rowTo < m.rowFrom || m.colFrom < 0 || m.rowFrom < 0 ||
        m.colTo > limits::kMaxMapSide || m.rowTo > limits::kMaxMapSide) {
      error(m.range,
            fmt::format("the map's columns and rows must be increasing ranges between 0 and {}",
                        limits::kMaxMapSide));
      // No map: every later step sees an empty one (the bounds as written may not fit an int).
      P.mapCols0 = P.mapRows0 = 0;
      P.mapCols1 = P.mapRows1 = -1;
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
  bool noMapSaid = false;
  auto hexIndex = [&](const ast::Ident& label) -> int32_t {
    hex::Offset o;
    // Without a map (none declared, or its bounds refused above) no hex can be placed: one error
    // says so, not one per hex.
    if (!P.grid) {
      if (!noMapSaid)
        error(label.range,
              fmt::format("'{}': the scenario has no usable map to place a hex on", label.name));
      noMapSaid = true;
      return -1;
    }
    try {
      o = P.grid->parseOffset(label.name);
    } catch (const hex::HexError&) {
      error(label.range, fmt::format("'{}' is not a hex label ({})", label.name,
                                     P.letterLabels ? "a column letter and a row, as in L9"
                                                    : "four digits xxyy, as in 2725"));
      return -1;
    }
    if (o.col < P.mapCols0 || o.col > P.mapCols1 || o.row < P.mapRows0 || o.row > P.mapRows1) {
      error(label.range, fmt::format("hex {} is off the map (columns {}-{}, rows {}-{})",
                                     label.name, P.mapCols0, P.mapCols1, P.mapRows0, P.mapRows1));
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
              error(pr.range,
                    fmt::format("hexes {} and {} are not adjacent, so they share no hexside",
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
            expand(ref, [&](int32_t h, SourceRange) {
              P.mapElevation[h] = static_cast<int32_t>(item.elevation);
            });
          break;
        case ast::MapItem::HexState: {
          int32_t slot = P.hexState.find(P.nameId(item.name.name));
          if (slot < 0 || P.hexState.fields[slot].derived >= 0) {
            error(
                item.name.range,
                fmt::format("no field '{}' in the hex state (declare it in `hex state {{ ... }}`)",
                            item.name.name));
            break;
          }
          if (!item.value) break;
          auto v = constEval(*item.value);
          if (!v) break;
          *v = labelsToHexes(P.hexState.fields[slot].type, *v, item.value->range, hexIndex);
          checkFieldValue(P.hexState.fields[slot], *v, item.value->range,
                          fmt::format("hex state field '{}'", item.name.name));
          for (const auto& ref : item.hexes)
            expand(ref, [&](int32_t h, SourceRange) {
              P.mapHexState.push_back(ir::Program::HexStateValue{h, slot, *v});
            });
          break;
        }
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
  // Side state values (after the map: a number stands for a hex label where a hex is wanted).
  for (size_t i = 0; i < s.sides.size() && i < P.sides.size(); ++i) {
    for (const auto& init : s.sides[i].inits) {
      int32_t slot = P.sideState.find(P.nameId(init.name.name));
      if (slot < 0) {
        error(init.name.range, fmt::format("side {}: no field '{}' in the side state",
                                           s.sides[i].name.name, init.name.name));
        continue;
      }
      auto v = constEval(*init.value);
      if (!v) continue;
      *v = labelsToHexes(P.sideState.fields[slot].type, *v, init.value->range, hexIndex);
      checkFieldValue(P.sideState.fields[slot], *v, init.value->range,
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
                                       "attributes",
                                       st.name.name));
      continue;
    }
    auto v = constEval(*st.value);
    if (!v) continue;
    *v = labelsToHexes(P.scenarioAttrs.fields[slot].type, *v, st.value->range, hexIndex);
    checkFieldValue(P.scenarioAttrs.fields[slot], *v, st.value->range,
                    fmt::format("scenario setting '{}'", st.name.name));
    P.scenarioValues[slot] = *v;
    set[slot] = true;
  }
  for (size_t i = 0; i < set.size(); ++i) {
    if (!set[i]) {
      error(sc.name.range, fmt::format("scenario '{}' does not set '{}' ({}), which the ruleset's "
                                       "scenario attributes require",
                                       sc.name.name, P.scenarioAttrs.fields[i].name,
                                       typeName(P, P.scenarioAttrs.fields[i].type)));
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
          error(u.facing->range,
                fmt::format("unknown facing '{}' (use N, NE, SE, S, SW or NW)", u.facing->name));
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
        checkFieldValue(cls.fields[slot], *v, init.value->range,
                        fmt::format("field '{}' of unit {}", init.name.name, u.id.name));
        us.overrides.emplace_back(slot, *v);
      }
      P.units.push_back(std::move(us));
    }
  }
}

}  // namespace polemos::check::detail
