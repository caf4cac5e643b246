#include "check/sandbox.h"

#include <fmt/format.h>

#include "hex/grid.h"

namespace polemos::check {

namespace {

int32_t openTerrain(const ir::Program& P) {
  int32_t open = 0;
  for (size_t t = 0; t < P.terrains.size(); ++t)
    if (P.terrains[t].name == "clear" || P.terrains[t].name == "open")
      open = static_cast<int32_t>(t);
  return open;
}

}  // namespace

std::string sandboxTerrain(const ir::Program& base) {
  return base.terrains.empty() ? "" : base.terrains[openTerrain(base)].name;
}

std::shared_ptr<const ir::Program> sandboxProgram(const ir::Program& base, const SandboxSpec& spec,
                                                  std::string& why) {
  const int cols = spec.columns, rows = spec.rows;
  if (cols < 1 || rows < 1 || spec.firstColumn < 0 || spec.firstRow < 0 ||
      spec.firstColumn + cols - 1 > kMaxSandboxSide || spec.firstRow + rows - 1 > kMaxSandboxSide) {
    why = fmt::format(
        "a sandbox's columns and rows are numbered up to {}: {}x{} from column {} row {} is too "
        "large",
        kMaxSandboxSide, cols, rows, spec.firstColumn, spec.firstRow);
    return nullptr;
  }
  if (base.terrains.empty()) {
    why = "this ruleset declares no terrain, so it has no map to make";
    return nullptr;
  }
  auto p = std::make_shared<ir::Program>(base);
  p->scenarioName = "sandbox";
  p->scenarioTitle = fmt::format("sandbox {}x{}", cols, rows);
  if (spec.letters >= 0) p->letterLabels = spec.letters == 1;
  p->mapCols0 = spec.firstColumn;
  p->mapCols1 = spec.firstColumn + cols - 1;
  p->mapRows0 = spec.firstRow;
  p->mapRows1 = spec.firstRow + rows - 1;
  hex::GridSpec g;
  g.firstColumn = spec.firstColumn;
  g.columns = cols;
  g.firstRow = spec.firstRow;
  g.rows = rows;
  g.labels = p->letterLabels ? hex::LabelStyle::Letters : hex::LabelStyle::Numeric;
  try {
    p->grid = std::make_shared<const hex::Grid>(g);
  } catch (const hex::HexError& e) {
    why = e.what();
    return nullptr;
  }
  p->mapTerrain.assign(static_cast<size_t>(cols) * static_cast<size_t>(rows), openTerrain(base));
  p->mapElevation.assign(static_cast<size_t>(cols) * static_cast<size_t>(rows), 0);
  p->mapHexsides.clear();
  // The scenario's hex groups are kept by name, empty: its rules may still ask for them (Chalons's
  // camp hexes), and a sandbox map has none of its hexes.
  for (auto& [name, hexes] : p->mapGroups) hexes.clear();
  p->units.clear();
  if (!spec.sides.empty()) {
    std::vector<ir::SideSetup> sides;
    for (const auto& name : spec.sides) {
      for (const auto& have : sides)
        if (have.name == name) {
          why = fmt::format("the side '{}' is named twice", name);
          return nullptr;
        }
      ir::SideSetup s;
      s.name = s.title = name;
      for (const auto& old : base.sides)
        if (old.name == name) s = old;
      sides.push_back(s);
    }
    p->sides = std::move(sides);
  }
  if (p->sides.empty()) {
    for (const char* n : {"blue", "red"}) {
      ir::SideSetup s;
      s.name = s.title = n;
      p->sides.push_back(s);
    }
  }
  if (p->scenarioValues.size() != p->scenarioAttrs.fields.size()) {
    p->scenarioValues.clear();
    for (const auto& f : p->scenarioAttrs.fields) p->scenarioValues.push_back(f.value);
  }
  return p;
}

}  // namespace polemos::check
