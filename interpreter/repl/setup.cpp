// REPL: Setting a situation up (the audit sandbox): sandbox maps, terrain, hexsides, placing,
// removing and setting units and sides, goto a phase.
#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "analysis/odds.h"
#include "check/sandbox.h"
#include "eval/interpreter.h"
#include "eval/trace.h"
#include "hex/coord.h"
#include "hex/grid.h"
#include "limits/limits.h"
#include "repl/repl.h"
#include "repl/text.h"

namespace polemos::repl {

using namespace polemos::ir;

std::optional<Value> Repl::parseFieldValue(const Type& t, const std::string& text,
                                           std::string& why) const {
  const Program& P = session_->program();
  const auto& st = session_->state();
  if (text == "none" && (t.optional || t.kind == TypeKind::Any)) return Value::none();
  switch (t.kind) {
    case TypeKind::Int:
      if (auto v = parseInt(text)) return Value::integer(*v);
      break;
    case TypeKind::Bool:
      if (text == "true" || text == "yes" || text == "on") return Value::boolean(true);
      if (text == "false" || text == "no" || text == "off") return Value::boolean(false);
      break;
    case TypeKind::Str:
      return Value::string(text);
    case TypeKind::Enum: {
      const auto& m = P.enums[t.id].members;
      auto it = std::find(m.begin(), m.end(), text);
      if (it != m.end()) return Value::of(Tag::Enum, it - m.begin(), t.id);
      break;
    }
    case TypeKind::Side:
      for (size_t i = 0; i < P.sides.size(); ++i)
        if (P.sides[i].name == text) return Value::of(Tag::Side, static_cast<int64_t>(i));
      break;
    case TypeKind::Hex:
      if (int32_t h = st.map.parse(text); h >= 0) return Value::of(Tag::Hex, h);
      break;
    case TypeKind::Terrain:
      for (size_t i = 0; i < P.terrains.size(); ++i)
        if (P.terrains[i].name == text) return Value::of(Tag::Terrain, static_cast<int64_t>(i));
      break;
    case TypeKind::UnitType:
      for (size_t i = 0; i < P.unitTypes.size(); ++i)
        if (P.unitTypes[i].name == text) return Value::of(Tag::UnitType, static_cast<int64_t>(i));
      break;
    case TypeKind::Unit:
      for (size_t i = 0; i < st.units.size(); ++i)
        if (st.units[i].id == text) return Value::of(Tag::Unit, static_cast<int64_t>(i));
      break;
    case TypeKind::Odds: {
      auto colon = text.find(':');
      auto a = parseInt(text.substr(0, colon));
      auto b = colon == std::string::npos ? std::nullopt : parseInt(text.substr(colon + 1));
      if (a && b && *a > 0 && *b > 0) return Value::odds(*a, *b);
      break;
    }
    default:
      if (auto v = parseInt(text)) return Value::integer(*v);
      if (text == "true" || text == "false") return Value::boolean(text == "true");
      return Value::string(text);
  }
  static const char* kNames[] = {
      "any",       "none",           "true or false", "a whole number", "odds such as 3:1",
      "text",      "enum",           "a unit",        "a side",         "a hex",
      "a terrain", "a hexside kind", "a unit type",   "a level",        "a table",
      "a column",  "a die",          "a list",        "a function",     "nothing"};
  std::string want = t.kind == TypeKind::Enum ? "one of " +
                                                    [&] {
                                                      std::string m;
                                                      for (const auto& x : P.enums[t.id].members)
                                                        m += (m.empty() ? "" : ", ") + x;
                                                      return m;
                                                    }()
                                              : kNames[static_cast<int>(t.kind)];
  why = fmt::format("'{}' is not {}", text, want);
  return std::nullopt;
}

void Repl::cmdTerrain(const std::vector<std::string>& args, std::string& out) {
  const Program& P = session_->program();
  auto& m = session_->mutableState().map;
  if (args.size() != 3)
    return error(out, "terrain takes a hex and a terrain kind, as in `terrain 2725 woods`");
  int32_t h = m.parse(args[1]);
  if (h < 0) return error(out, fmt::format("'{}' is not a hex of this map", args[1]));
  for (size_t t = 0; t < P.terrains.size(); ++t) {
    if (P.terrains[t].name != args[2]) continue;
    pushHistory();
    session_->mutableState().map.terrain[h] = static_cast<int32_t>(t);
    record();
    out += fmt::format("hex {} is now {}\n", args[1], args[2]);
    return;
  }
  std::string known;
  for (const auto& t : P.terrains) known += (known.empty() ? "" : ", ") + t.name;
  error(out, fmt::format("unknown terrain '{}' (this ruleset has: {})", args[2], known));
}

void Repl::cmdHexside(const std::vector<std::string>& args, std::string& out) {
  const Program& P = session_->program();
  const auto& m = session_->state().map;
  if (args.size() != 4)
    return error(out,
                 "hexside takes two adjacent hexes and a kind, as in `hexside 3114 3215 ridge`");
  int32_t a = m.parse(args[1]), b = m.parse(args[2]);
  if (a < 0 || b < 0)
    return error(out, fmt::format("'{}' is not a hex of this map", a < 0 ? args[1] : args[2]));
  if (!m.adjacent(a, b))
    return error(out, fmt::format("hexes {} and {} are not adjacent", args[1], args[2]));
  for (size_t f = 0; f < P.features.size(); ++f) {
    if (P.features[f].name != args[3]) continue;
    pushHistory();
    auto& list = session_->mutableState().map.hexsides[{std::min(a, b), std::max(a, b)}];
    if (std::find(list.begin(), list.end(), static_cast<int32_t>(f)) == list.end())
      list.push_back(static_cast<int32_t>(f));
    record();
    out += fmt::format("hexside {}/{} has {}\n", args[1], args[2], args[3]);
    return;
  }
  std::string known;
  for (const auto& f : P.features) known += (known.empty() ? "" : ", ") + f.name;
  error(out, fmt::format("unknown hexside kind '{}' (this ruleset has: {})", args[3],
                         known.empty() ? "none" : known));
}

void Repl::cmdPlace(const std::vector<std::string>& args, std::string& out) {
  const Program& P = session_->program();
  const auto& st = session_->state();
  if (args.size() < 4)
    return error(out,
                 "place takes a side, a unit type and a hex, as in `place roman legion 2725 facing "
                 "N as l1 strength=6`");
  int32_t side = -1;
  for (size_t i = 0; i < P.sides.size(); ++i)
    if (P.sides[i].name == args[1]) side = static_cast<int32_t>(i);
  if (side < 0) return error(out, fmt::format("no side '{}'", args[1]));
  int32_t type = -1;
  for (size_t i = 0; i < P.unitTypes.size(); ++i)
    if (P.unitTypes[i].name == args[2]) type = static_cast<int32_t>(i);
  if (type < 0) return error(out, fmt::format("no unit type '{}'", args[2]));
  int32_t h = st.map.parse(args[3]);
  if (h < 0) return error(out, fmt::format("'{}' is not a hex of this map", args[3]));
  // No more units than a saved game may have, so that every game can be saved and loaded again.
  if (st.units.size() >= limits::kMaxSavedUnits)
    return error(out, fmt::format("a game has at most {} units (the most a saved game may have)",
                                  limits::kMaxSavedUnits));
  eval::UnitState u;
  u.type = type;
  u.cls = P.unitTypes[type].cls;
  u.side = side;
  u.hex = h;
  u.status = eval::UnitStatus::OnMap;
  u.fields = P.unitTypes[type].values;
  const Schema& cls = P.classes[u.cls];
  for (size_t i = 4; i < args.size(); ++i) {
    if ((args[i] == "facing" && i + 1 < args.size()) || args[i].rfind("facing=", 0) == 0) {
      auto d = hex::parseDirection(args[i] == "facing" ? args[++i] : args[i].substr(7));
      if (!d)
        return error(out, fmt::format("unknown facing '{}' (N, NE, SE, S, SW or NW)", args[i]));
      u.facing = static_cast<int32_t>(*d);
    } else if (args[i] == "as" && i + 1 < args.size()) {
      u.id = args[++i];
      for (const auto& other : st.units)
        if (other.id == u.id) return error(out, fmt::format("unit id '{}' is already used", u.id));
      if (u.id.empty() || !std::isalpha(static_cast<unsigned char>(u.id[0])))
        return error(out, fmt::format("a unit id starts with a letter, not '{}'", u.id));
    } else {
      auto eq = args[i].find('=');
      if (eq == std::string::npos) return error(out, fmt::format("'{}' is not KEY=VALUE", args[i]));
      int32_t slot = -1;
      for (size_t f = 0; f < cls.fields.size(); ++f)
        if (cls.fields[f].name == args[i].substr(0, eq) && cls.fields[f].derived < 0)
          slot = static_cast<int32_t>(f);
      if (slot < 0)
        return error(
            out, fmt::format("unit class {} has no field '{}'", cls.name, args[i].substr(0, eq)));
      std::string why;
      auto v = parseFieldValue(cls.fields[slot].type, args[i].substr(eq + 1), why);
      if (!v) return error(out, why);
      u.fields[slot] = *v;
    }
  }
  if (u.id.empty()) {
    for (int n = 1;; ++n) {
      std::string id = fmt::format("{}{}", args[2].substr(0, 3), n);
      if (std::none_of(st.units.begin(), st.units.end(),
                       [&](const eval::UnitState& o) { return o.id == id; })) {
        u.id = id;
        break;
      }
    }
  }
  pushHistory();
  record();
  out += fmt::format("placed {} ({}, {}) at {}\n", u.id, args[2], args[1], args[3]);
  session_->mutableState().units.push_back(std::move(u));
}

void Repl::cmdRemove(const std::vector<std::string>& args, std::string& out) {
  if (args.size() != 2) return error(out, "remove takes a unit id");
  auto& units = session_->mutableState().units;
  for (auto& u : units) {
    if (u.id != args[1]) continue;
    if (u.status != eval::UnitStatus::OnMap)
      return error(out, fmt::format("{} is not on the map", u.id));
    pushHistory();
    auto& w = session_->mutableState().units[&u - units.data()];
    w.status = eval::UnitStatus::Off;
    w.hex = -1;
    record();
    out += fmt::format("removed {}\n", args[1]);
    return;
  }
  error(out, fmt::format("no unit '{}'", args[1]));
}

// set UNIT KEY=VALUE... / setside SIDE KEY=VALUE...: every pair is checked before any is applied,
// so a bad one leaves the game as it was; the whole command is one step of undo and of the log.
void Repl::cmdSet(const std::vector<std::string>& args, bool side, std::string& out) {
  const Program& P = session_->program();
  const char* usage =
      side ? "setside takes a side and KEY=VALUE..., as in `setside roman losses=40`"
           : "set takes a unit and KEY=VALUE..., as in `set l1 disrupted=true hex=0504`";
  if (args.size() < 3) return error(out, usage);
  for (size_t i = 2; i < args.size(); ++i)
    if (args[i].find('=') == std::string::npos) return error(out, usage);
  const auto& st = session_->state();
  int32_t who = -1;
  if (side) {
    for (size_t i = 0; i < P.sides.size(); ++i)
      if (P.sides[i].name == args[1]) who = static_cast<int32_t>(i);
    if (who < 0) return error(out, fmt::format("no side '{}'", args[1]));
  } else {
    for (size_t i = 0; i < st.units.size(); ++i)
      if (st.units[i].id == args[1]) who = static_cast<int32_t>(i);
    if (who < 0) return error(out, fmt::format("no unit '{}'", args[1]));
  }
  std::vector<std::function<void(eval::GameState&)>> changes;
  std::string report;
  for (size_t i = 2; i < args.size(); ++i) {
    std::string key = args[i].substr(0, args[i].find('='));
    std::string text = args[i].substr(args[i].find('=') + 1);
    std::string why;
    if (side) {
      int32_t slot = P.sideState.find(P.nameIds.count(key) ? P.nameIds.at(key) : -1);
      if (slot < 0 || P.sideState.fields[slot].derived >= 0)
        return error(out, fmt::format("the side state has no field '{}' that can be set", key));
      auto v = parseFieldValue(P.sideState.fields[slot].type, text, why);
      if (!v) return error(out, why);
      changes.push_back([who, slot, v = *v](eval::GameState& g) { g.sides[who].fields[slot] = v; });
      report += fmt::format("{}.{} = {}\n", args[1], key, session_->display(*v));
    } else if (key == "facing") {
      auto d = hex::parseDirection(text);
      if (!d) return error(out, fmt::format("unknown facing '{}' (N, NE, SE, S, SW or NW)", text));
      changes.push_back(
          [who, d = static_cast<int32_t>(*d)](eval::GameState& g) { g.units[who].facing = d; });
      report += fmt::format("{}.facing = {}\n", args[1], text);
    } else if (key == "hex") {
      int32_t h = st.map.parse(text);
      if (h < 0) return error(out, fmt::format("'{}' is not a hex of this map", text));
      changes.push_back([who, h](eval::GameState& g) {
        g.units[who].hex = h;
        g.units[who].status = eval::UnitStatus::OnMap;
      });
      report += fmt::format("{}.hex = {}\n", args[1], text);
    } else {
      const Schema& cls = P.classes[st.units[who].cls];
      int32_t slot = -1;
      for (size_t f = 0; f < cls.fields.size(); ++f)
        if (cls.fields[f].name == key && cls.fields[f].derived < 0) slot = static_cast<int32_t>(f);
      if (slot < 0)
        return error(out,
                     fmt::format("unit class {} has no field '{}' that can be set", cls.name, key));
      auto v = parseFieldValue(cls.fields[slot].type, text, why);
      if (!v) return error(out, why);
      changes.push_back([who, slot, v = *v](eval::GameState& g) { g.units[who].fields[slot] = v; });
      report += fmt::format("{}.{} = {}\n", args[1], key, session_->display(*v));
    }
  }
  pushHistory();
  for (const auto& change : changes) change(session_->mutableState());
  record();
  out += report;
}

void Repl::cmdSandbox(const std::vector<std::string>& args, std::string& out) {
  const Program& P = session_->program();
  const char* usage =
      "sandbox takes the map's size as COLSxROWS, from 1x1 to 200x200, and optionally its first "
      "hex and its sides, "
      "as in `sandbox 12x10` or `sandbox 55x27 from 0100 sides hunnic,roman`";
  check::SandboxSpec spec;
  if (args.size() < 2 || std::sscanf(args[1].c_str(), "%dx%d", &spec.columns, &spec.rows) != 2 ||
      spec.columns < 1 || spec.rows < 1 || spec.columns > check::kMaxSandboxSide ||
      spec.rows > check::kMaxSandboxSide ||
      args[1] != fmt::format("{}x{}", spec.columns, spec.rows))
    return error(out, usage);
  bool from = false;
  for (size_t i = 2; i < args.size(); i += 2) {
    if (i + 1 >= args.size()) return error(out, usage);
    if (args[i] == "from" && !from) {
      // `from HEX`: the map's first column and row, written as the ruleset's maps number hexes.
      from = true;
      try {
        hex::Offset o = hex::parseLabel(
            args[i + 1], P.letterLabels ? hex::LabelStyle::Letters : hex::LabelStyle::Numeric);
        spec.firstColumn = o.col;
        spec.firstRow = o.row;
      } catch (const hex::HexError& e) {
        return error(out, fmt::format("'{}' is not a first hex: {}", args[i + 1], e.what()));
      }
    } else if (args[i] == "sides" && spec.sides.empty()) {
      // `sides A,B`: the sides by name (those the ruleset's game has keep their set-up).
      std::string list = args[i + 1];
      for (size_t at = 0; at <= list.size();) {
        size_t comma = list.find(',', at);
        if (comma == std::string::npos) comma = list.size();
        std::string name = list.substr(at, comma - at);
        if (name.empty())
          return error(out, "sides takes names separated by commas, as in `sides blue,red`");
        spec.sides.push_back(name);
        at = comma + 1;
      }
    } else {
      return error(out, usage);
    }
  }
  std::string why;
  auto p = check::sandboxProgram(P, spec, why);
  if (!p) return error(out, why);
  auto s = std::make_unique<engine::Session>(p, options_.session);
  engine::Outcome o = s->start();
  if (o.kind == engine::Outcome::Error)
    return error(out, "the sandbox could not start: " + o.message);
  std::string openName = check::sandboxTerrain(*p);
  session_ = std::move(s);
  undo_.clear();
  redo_.clear();
  log_ = {currentLine_};
  std::string sides;
  for (const auto& sd : p->sides) sides += (sides.empty() ? "" : ", ") + sd.name;
  std::string shown = from ? " from " + session_->state().map.label(0) : "";
  out += fmt::format("sandbox {}x{}{} of {}, all {}; sides {}\n", spec.columns, spec.rows, shown,
                     p->rulesetName, openName, sides);
  cmdStatus(out);
}

// goto PHASE [SIDE] [--first]: ends phases until PHASE (of SIDE) begins. A decision on the way
// stops it, unless --first is given: then each takes its first option (Deluxe's bidding and
// leader placement before its melee step, say).
void Repl::cmdGoto(const std::vector<std::string>& given, std::string& out) {
  const Program& P = session_->program();
  std::vector<std::string> args;
  bool first = false;
  for (const auto& a : given) {
    if (a == "--first")
      first = true;
    else
      args.push_back(a);
  }
  if (args.size() < 2 || args.size() > 3)
    return error(out,
                 "goto takes a phase, optionally a side and --first, as in `goto combat roman`");
  if (std::none_of(P.phases.begin(), P.phases.end(),
                   [&](const PhaseInfo& ph) { return ph.name == args[1]; }))
    return error(out, fmt::format("this ruleset has no phase '{}'", args[1]));
  int32_t side = -1;
  if (args.size() == 3) {
    for (size_t i = 0; i < P.sides.size(); ++i)
      if (P.sides[i].name == args[2]) side = static_cast<int32_t>(i);
    if (side < 0) return error(out, fmt::format("no side '{}'", args[2]));
  }
  // Ends phases (no actions taken) on a copy until the phase begins; the game changes only if it
  // gets there.
  engine::Session s = *session_;
  size_t before = s.state().trace.size();
  auto at = [&] {
    return s.stop().kind == eval::Stop::Window && P.phases[s.stop().index].name == args[1] &&
           (side < 0 || s.stop().player == side);
  };
  // A choice or roll in the `on start` of the phase asked for counts as getting there: the
  // phase has begun (the latest phase event of the trace is its start).
  auto begun = [&] {
    const auto& tr = s.state().trace;
    for (size_t k = tr.size(); k-- > before;) {
      if (tr[k].kind != eval::TraceKind::Phase) continue;
      std::string line = formatEvent(tr[k]);
      std::string want =
          "phase " + args[1] + " (" + (side < 0 ? std::string() : P.sides[side].name);
      return line.find(want) != std::string::npos && line.find(": start") != std::string::npos;
    }
    return false;
  };
  for (int i = 0; i < 10000 && !at(); ++i) {
    if (s.stop().kind != eval::Stop::Window) {
      if (begun()) break;
      if (first && s.stop().kind == eval::Stop::Choose) {
        engine::Outcome o = s.pick(0);
        if (o.kind != engine::Outcome::Ok)
          return error(out, fmt::format("cannot go to {}: the first option was refused ({})",
                                        args[1], o.message));
        continue;
      }
      return error(out, fmt::format("cannot go to {}: {}{}", args[1], s.describeStop(),
                                    s.stop().kind == eval::Stop::Choose
                                        ? " (--first takes the first option of each decision)"
                                        : ""));
    }
    engine::Outcome o = s.endPhase();
    if (o.kind != engine::Outcome::Ok) {
      std::string cite;
      for (const auto& c : o.citations) cite += "§" + c + " ";
      return error(out, fmt::format("cannot go to {}: the {} phase cannot end ({}{})", args[1],
                                    s.phaseName(), cite, o.message));
    }
  }
  if (!at() && !begun())
    return error(out, fmt::format("cannot go to {}: it did not begin", args[1]));
  pushHistory();
  *session_ = std::move(s);
  lastActionTrace_ = before;
  record();
  cmdStatus(out);
}

}  // namespace polemos::repl
