#include "engine/setup.h"

#include <fmt/format.h>

#include <algorithm>

#include "eval/trace.h"
#include "limits/limits.h"

namespace polemos::engine {

using namespace polemos::ir;

// The one way into a Session's state from outside its own operations.
struct SetupAccess {
  static eval::GameState& state(Session& s) {
    s.state_.touch();  // the memo of pure calls no longer holds
    return s.state_;
  }
};

bool fitsType(const Program& P, const eval::GameState& st, const Type& t, const Value& v) {
  if (t.kind == TypeKind::Any) return true;
  if (v.tag == Tag::None) return t.optional || t.kind == TypeKind::None;
  if (t.kind == TypeKind::None || t.kind == TypeKind::Void) return false;
  if (static_cast<int>(v.tag) != static_cast<int>(t.kind) - 1) return false;
  auto in = [&](size_t n) { return v.i >= 0 && static_cast<size_t>(v.i) < n; };
  switch (t.kind) {
    case TypeKind::Enum:
      return v.sub == t.id && t.id >= 0 && static_cast<size_t>(t.id) < P.enums.size() &&
             in(P.enums[t.id].members.size());
    case TypeKind::Unit:
      return in(st.units.size());
    case TypeKind::Side:
      return in(P.sides.size());
    case TypeKind::Hex:
      return in(static_cast<size_t>(st.map.size()));
    case TypeKind::Terrain:
      return in(P.terrains.size());
    case TypeKind::Feature:
      return in(P.features.size());
    case TypeKind::UnitType:
      return in(P.unitTypes.size());
    default:
      return true;
  }
}

bool fitsField(const Program& P, const eval::GameState& st, const FieldInfo& f, const Value& v) {
  return fitsType(P, st, f.type, v) && f.inBounds(v);
}

namespace {

bool fits(const Session& s, const Type& t, const Value& v) {
  return fitsType(s.program(), s.state(), t, v);
}

bool validUnitId(const std::string& id) {
  return !id.empty() && std::isalpha(static_cast<unsigned char>(id[0]));
}

Outcome refused(std::string message) {
  return Outcome{Outcome::Error, std::move(message), {}};
}

// Checks a list of field assignments against a schema; "" when all are good.
std::string checkFields(const Session& s, const Schema& schema, const std::vector<edit::Field>& fs,
                        const char* owner) {
  for (const auto& f : fs) {
    if (f.slot < 0 || static_cast<size_t>(f.slot) >= schema.fields.size())
      return fmt::format("{} has no field number {}", owner, f.slot);
    const FieldInfo& info = schema.fields[f.slot];
    if (info.derived >= 0) return fmt::format("{}'s field '{}' is derived", owner, info.name);
    if (!fits(s, info.type, f.value))
      return fmt::format("{} is not a value of {}'s field '{}'", s.display(f.value), owner,
                         info.name);
    if (!info.inBounds(f.value))
      return fmt::format("{}'s field '{}' holds {}..{}, not {}", owner, info.name,
                         info.bounds->first, info.bounds->second, f.value.i);
  }
  return "";
}

struct Apply {
  Session& s;

  bool hex(int32_t h) const { return h >= 0 && h < s.state().map.size(); }

  Outcome operator()(const edit::Terrain& e) {
    if (!hex(e.hex)) return refused("no such hex");
    if (e.terrain < 0 || static_cast<size_t>(e.terrain) >= s.program().terrains.size())
      return refused("no such terrain");
    SetupAccess::state(s).map.terrain.mut()[e.hex] = e.terrain;
    return {};
  }

  Outcome operator()(const edit::Elevation& e) {
    if (!hex(e.hex)) return refused("no such hex");
    if (e.level < -1000 || e.level > 1000) return refused("an elevation is from -1000 to 1000");
    SetupAccess::state(s).map.elevation.mut()[e.hex] = e.level;
    return {};
  }

  Outcome operator()(const edit::Hexside& e) {
    const auto& m = s.state().map;
    if (!hex(e.a) || !hex(e.b)) return refused("no such hex");
    if (!m.adjacent(e.a, e.b))
      return refused(fmt::format("hexes {} and {} are not adjacent", m.label(e.a), m.label(e.b)));
    if (e.feature < 0 || static_cast<size_t>(e.feature) >= s.program().features.size())
      return refused("no such hexside kind");
    auto& list = SetupAccess::state(s).map.hexsides.mut()[{std::min(e.a, e.b), std::max(e.a, e.b)}];
    if (std::find(list.begin(), list.end(), e.feature) == list.end()) list.push_back(e.feature);
    return {};
  }

  Outcome operator()(const edit::Place& e) {
    const Program& P = s.program();
    if (e.side < 0 || static_cast<size_t>(e.side) >= P.sides.size()) return refused("no such side");
    if (e.type < 0 || static_cast<size_t>(e.type) >= P.unitTypes.size())
      return refused("no such unit type");
    if (e.hex != -1 && !hex(e.hex)) return refused("no such hex");
    if (e.facing < -1 || e.facing > 5) return refused("a facing is one of six directions");
    // No more units than a saved game may have, so that every game can be saved and loaded again.
    if (s.state().units.size() >= limits::kMaxSavedUnits)
      return refused(fmt::format("a game has at most {} units (the most a saved game may have)",
                                 limits::kMaxSavedUnits));
    if (!validUnitId(e.id))
      return refused(fmt::format("a unit id starts with a letter, not '{}'", e.id));
    for (const auto& other : s.state().units)
      if (other.id == e.id) return refused(fmt::format("unit id '{}' is already used", e.id));
    const UnitTypeInfo& type = P.unitTypes[e.type];
    const Schema& cls = P.classes[type.cls];
    if (std::string why = checkFields(s, cls, e.fields, ("unit class " + cls.name).c_str());
        !why.empty())
      return refused(why);
    eval::UnitState u;
    u.id = e.id;
    u.type = e.type;
    u.cls = type.cls;
    u.side = e.side;
    u.hex = e.hex;
    u.facing = e.facing;
    u.status = e.hex >= 0 ? eval::UnitStatus::OnMap : eval::UnitStatus::Off;
    u.fields = type.values;
    for (const auto& f : e.fields) u.fields[f.slot] = f.value;
    SetupAccess::state(s).units.push_back(std::move(u));
    return {};
  }

  Outcome operator()(const edit::Remove& e) {
    const auto& units = s.state().units;
    if (e.unit < 0 || static_cast<size_t>(e.unit) >= units.size()) return refused("no such unit");
    if (units[e.unit].status != eval::UnitStatus::OnMap)
      return refused(fmt::format("{} is not on the map", units[e.unit].id));
    auto& u = SetupAccess::state(s).units[e.unit];
    u.status = eval::UnitStatus::Off;
    u.hex = -1;
    return {};
  }

  Outcome operator()(const edit::SetUnit& e) {
    const Program& P = s.program();
    const auto& units = s.state().units;
    if (e.unit < 0 || static_cast<size_t>(e.unit) >= units.size()) return refused("no such unit");
    const Schema& cls = P.classes[units[e.unit].cls];
    for (const auto& c : e.changes) {
      if (c.what == edit::SetUnit::Change::FieldValue) {
        std::string why =
            checkFields(s, cls, {edit::Field{c.slot, c.value}}, ("unit class " + cls.name).c_str());
        if (!why.empty()) return refused(why);
      } else if (c.what == edit::SetUnit::Change::Hex) {
        if (c.value.tag != Tag::Hex || !hex(static_cast<int32_t>(c.value.i)))
          return refused("no such hex");
      } else if (c.value.tag != Tag::Int || c.value.i < 0 || c.value.i > 5) {
        return refused("a facing is one of six directions");
      }
    }
    auto& u = SetupAccess::state(s).units[e.unit];
    for (const auto& c : e.changes) {
      if (c.what == edit::SetUnit::Change::FieldValue) {
        u.fields[c.slot] = c.value;
      } else if (c.what == edit::SetUnit::Change::Hex) {
        u.hex = static_cast<int32_t>(c.value.i);
        u.status = eval::UnitStatus::OnMap;
      } else {
        u.facing = static_cast<int32_t>(c.value.i);
      }
    }
    return {};
  }

  Outcome operator()(const edit::SetSide& e) {
    const Program& P = s.program();
    if (e.side < 0 || static_cast<size_t>(e.side) >= s.state().sides.size())
      return refused("no such side");
    if (std::string why = checkFields(s, P.sideState, e.fields, "the side state"); !why.empty())
      return refused(why);
    auto& side = SetupAccess::state(s).sides[e.side];
    for (const auto& f : e.fields) side.fields[f.slot] = f.value;
    return {};
  }

  Outcome operator()(const edit::SetGame& e) {
    const Program& P = s.program();
    if (std::string why = checkFields(s, P.gameState, e.fields, "the game state"); !why.empty())
      return refused(why);
    auto& game = SetupAccess::state(s).game;
    for (const auto& f : e.fields) game[static_cast<size_t>(f.slot)] = f.value;
    return {};
  }

  Outcome operator()(const edit::SetHex& e) {
    const Program& P = s.program();
    if (!hex(e.hex)) return refused("no such hex");
    if (std::string why = checkFields(s, P.hexState, e.fields, "the hex state"); !why.empty())
      return refused(why);
    auto& m = SetupAccess::state(s).map;
    if (m.hexFieldCount != static_cast<int32_t>(P.hexState.fields.size()))
      return refused("the hex state is not set up");
    auto& fields = m.hexFields.mut();
    for (const auto& f : e.fields)
      fields[static_cast<size_t>(e.hex) * m.hexFieldCount + f.slot] = f.value;
    return {};
  }
};

}  // namespace

Outcome applyEdit(Session& s, const Edit& e) {
  return std::visit(Apply{s}, e);
}

std::string nextUnitId(const Session& s, const std::string& typeName) {
  const auto& units = s.state().units;
  for (int n = 1;; ++n) {
    std::string id = fmt::format("{}{}", typeName.substr(0, 3), n);
    if (std::none_of(units.begin(), units.end(),
                     [&](const eval::UnitState& o) { return o.id == id; }))
      return id;
  }
}

std::unique_ptr<Session> openSandbox(const Program& base, const check::SandboxSpec& spec,
                                     const SessionConfig& config, std::string& why,
                                     const std::vector<int64_t>& forced) {
  auto p = check::sandboxProgram(base, spec, why);
  if (!p) return nullptr;
  auto s = std::make_unique<Session>(p, config);
  s->forceDice(forced);
  Outcome o = s->start();
  if (o.kind == Outcome::Error) {
    why = "the sandbox could not start: " + o.message;
    return nullptr;
  }
  return s;
}

Outcome gotoPhase(Session& game, int32_t phase, int32_t side, bool takeFirst, size_t* traceStart) {
  const Program& P = game.program();
  const std::string& name = P.phases.at(phase).name;
  // Ends phases (no actions taken) on a copy until the phase begins; the game changes only if it
  // gets there.
  Session s = game;
  size_t before = s.state().trace.size();
  auto at = [&] {
    return s.stop().kind == eval::Stop::Window && P.phases[s.stop().index].name == name &&
           (side < 0 || s.stop().player == side);
  };
  // A choice or roll in the `on start` of the phase asked for counts as getting there: the
  // phase has begun (the latest phase event of the trace is its start).
  auto begun = [&] {
    const auto& tr = s.state().trace;
    for (size_t k = tr.size(); k-- > before;) {
      if (tr[k].kind != eval::TraceKind::Phase) continue;
      std::string line = eval::formatEvent(tr[k]);
      std::string want = "phase " + name + " (" + (side < 0 ? std::string() : P.sides[side].name);
      return line.find(want) != std::string::npos && line.find(": start") != std::string::npos;
    }
    return false;
  };
  for (int i = 0; i < 10000 && !at(); ++i) {
    if (s.stop().kind != eval::Stop::Window) {
      if (begun()) break;
      if (takeFirst && s.stop().kind == eval::Stop::Choose) {
        Outcome o = s.pick(0);
        if (o.kind != Outcome::Ok)
          return refused(
              fmt::format("cannot go to {}: the first option was refused ({})", name, o.message));
        continue;
      }
      return refused(fmt::format("cannot go to {}: {}{}", name, s.describeStop(),
                                 s.stop().kind == eval::Stop::Choose
                                     ? " (--first takes the first option of each decision)"
                                     : ""));
    }
    Outcome o = s.endPhase();
    if (o.kind != Outcome::Ok) {
      std::string cite;
      for (const auto& c : o.citations) cite += "§" + c + " ";
      return refused(fmt::format("cannot go to {}: the {} phase cannot end ({}{})", name,
                                 s.phaseName(), cite, o.message));
    }
  }
  if (!at() && !begun()) return refused(fmt::format("cannot go to {}: it did not begin", name));
  game = std::move(s);
  if (traceStart) *traceStart = before;
  return {};
}

}  // namespace polemos::engine
