#include "engine/save.h"

#include <fmt/format.h>

#include <map>
#include <nlohmann/json.hpp>

#include "engine/setup.h"
#include "eval/trace.h"
#include "limits/limits.h"

namespace polemos::engine {

using json = nlohmann::ordered_json;
using namespace polemos::ir;

namespace {

struct Fnv {
  uint64_t h = 1469598103934665603ull;
  void add(const void* data, size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < n; ++i) {
      h ^= p[i];
      h *= 1099511628211ull;
    }
  }
  void add(int64_t v) { add(&v, sizeof v); }
  void add(const std::string& s) {
    add(static_cast<int64_t>(s.size()));
    add(s.data(), s.size());
  }
};

void hashValue(Fnv& f, const Value& v) {
  f.add(static_cast<int64_t>(v.tag));
  f.add(v.sub);
  f.add(v.i);
  f.add(v.j());
  f.add(v.text());
  for (const Value& e : v.items()) hashValue(f, e);
}

json valueToJson(const Value& v) {
  switch (v.tag) {
    case Tag::Str:
      return json::array({static_cast<int>(v.tag), v.text()});
    case Tag::List:
    case Tag::Func: {
      json items = json::array();
      for (const Value& e : v.items()) items.push_back(valueToJson(e));
      return json::array({static_cast<int>(v.tag), v.sub, v.i, items, v.hasPayload()});
    }
    default:
      return json::array({static_cast<int>(v.tag), v.sub, v.i, v.j()});
  }
}

struct Reader {
  const Program& p;
  const eval::GameState& s;  // for index bounds (units, sides, hexes)
  std::string error;

  bool fail(std::string msg) {
    if (error.empty()) error = std::move(msg);
    return false;
  }

  bool inRange(int64_t i, size_t n) { return i >= 0 && i < static_cast<int64_t>(n); }

  bool value(const json& j, Value& out, int depth = 0) {
    if (depth > 64) return fail("values nested too deeply");
    if (!j.is_array() || j.empty() || !j[0].is_number_integer())
      return fail("a value is malformed");
    int tag = j[0].get<int>();
    if (tag < 0 || tag > static_cast<int>(Tag::Func)) return fail("a value has an unknown kind");
    out = Value{};
    out.tag = static_cast<Tag>(tag);
    if (out.tag == Tag::Str) {
      if (j.size() != 2 || !j[1].is_string()) return fail("a string value is malformed");
      out = Value::string(j[1].get<std::string>());
      return true;
    }
    if (out.tag == Tag::List || out.tag == Tag::Func) {
      if (j.size() != 5 || !j[1].is_number_integer() || !j[2].is_number_integer() ||
          !j[3].is_array() || !j[4].is_boolean())
        return fail("a list value is malformed");
      const Tag kind = out.tag;
      const auto sub = j[1].get<int32_t>();
      const auto index = j[2].get<int64_t>();
      if (kind == Tag::Func && !inRange(index, p.functions.size()))
        return fail("a function value is out of range");
      if (j[4].get<bool>()) {
        ValueList items;
        for (const auto& e : j[3]) {
          Value x;
          if (!value(e, x, depth + 1)) return false;
          items.push_back(std::move(x));
        }
        out = kind == Tag::Func ? Value::closure(index, std::move(items))
                                : Value::makeList(std::move(items));
        if (kind == Tag::Func && !out.hasPayload()) return fail("a closure's captures are empty");
      }
      out.tag = kind;
      out.sub = sub;
      out.i = index;
      return true;
    }
    if (j.size() != 4 || !j[1].is_number_integer() || !j[2].is_number_integer() ||
        !j[3].is_number_integer())
      return fail("a value is malformed");
    out.sub = j[1].get<int32_t>();
    out.i = j[2].get<int64_t>();
    if (out.tag == Tag::Odds) {
      out = Value::odds(out.i, j[3].get<int64_t>());
    } else if (j[3].get<int64_t>() != 0) {
      return fail("a value is malformed");
    }
    bool ok = true;
    switch (out.tag) {
      case Tag::Enum:
        ok = inRange(out.sub, p.enums.size()) && inRange(out.i, p.enums[out.sub].members.size());
        break;
      case Tag::Unit:
        ok = inRange(out.i, s.units.size());
        break;
      case Tag::Side:
        ok = inRange(out.i, s.sides.size()) || (s.sides.empty() && out.i == 0);
        break;
      case Tag::Hex:
        ok = inRange(out.i, static_cast<size_t>(s.map.size()));
        break;
      case Tag::Terrain:
        ok = inRange(out.i, p.terrains.size());
        break;
      case Tag::Feature:
        ok = inRange(out.i, p.features.size());
        break;
      case Tag::UnitType:
        ok = inRange(out.i, p.unitTypes.size());
        break;
      case Tag::Level:
        ok = inRange(out.i, p.levels.size());
        break;
      case Tag::Table:
        ok = inRange(out.i, p.tables.size());
        break;
      case Tag::Column:
        ok = inRange(out.sub, p.tables.size()) && out.i >= -1 &&
             out.i < static_cast<int64_t>(p.tables[out.sub].cols.size());
        break;
      case Tag::Die:
        ok = inRange(out.i, p.dice.size());
        break;
      case Tag::Odds:
        ok = out.i > 0 && out.j() > 0;
        break;
      default:
        break;
    }
    if (!ok) return fail(fmt::format("a {} value is out of range", tagName(out.tag)));
    return true;
  }

  bool values(const json& j, std::vector<Value>& out, size_t expected, const char* what) {
    if (!j.is_array()) return fail(fmt::format("{} is malformed", what));
    if (expected != SIZE_MAX && j.size() != expected)
      return fail(fmt::format("{} has {} fields, the program has {}", what, j.size(), expected));
    out.clear();
    for (const auto& e : j) {
      Value v;
      if (!value(e, v)) return false;
      out.push_back(std::move(v));
    }
    return true;
  }
};

// The first field of the game state whose value is not one of its field's (its type, its range
// `in LO..HI`), in words ("unit r43's steps is 7, outside its range 0..2"); "" if none.
std::string badField(const Program& P, const eval::GameState& st) {
  auto check = [&](const Schema& schema, const std::vector<Value>& values,
                   const std::string& owner) -> std::string {
    for (size_t k = 0; k < schema.fields.size() && k < values.size(); ++k) {
      const FieldInfo& f = schema.fields[k];
      const Value& v = values[k];
      if (f.derived >= 0) continue;
      if (!fitsType(P, st, f.type, v))
        return fmt::format("{}'s {} is not a value of its type ({})", owner, f.name,
                           typeName(P, f.type));
      if (!f.inBounds(v))
        return fmt::format("{}'s {} is {}, outside its range {}..{}", owner, f.name, v.i,
                           f.bounds->first, f.bounds->second);
    }
    return "";
  };
  for (const auto& u : st.units)
    if (auto bad = check(P.classes[u.cls], u.fields, "unit " + u.id); !bad.empty()) return bad;
  for (size_t i = 0; i < st.sides.size() && i < P.sides.size(); ++i)
    if (auto bad = check(P.sideState, st.sides[i].fields, "side " + P.sides[i].name); !bad.empty())
      return bad;
  if (auto bad = check(P.gameState, st.game, "the game"); !bad.empty()) return bad;
  for (int32_t h = 0; h < st.map.size(); ++h)
    for (size_t k = 0;
         k < P.hexState.fields.size() && k < static_cast<size_t>(st.map.hexFieldCount); ++k) {
      const FieldInfo& f = P.hexState.fields[k];
      const Value& v = st.map.hexField(h, static_cast<int32_t>(k));
      if (f.derived < 0 && !fitsField(P, st, f, v))
        return fmt::format("hex {}'s {} is not one of its values", st.map.label(h), f.name);
    }
  return "";
}

// What differs between the files a save was made from and the program's ("" if nothing): each file
// edited, new or no longer read, by name (at most three, then how many more).
std::string sourcesChanged(const json& saved, const Program& P) {
  if (!saved.is_object()) return "the save's list of files is malformed";
  std::map<std::string, std::string> then, now(P.sources.begin(), P.sources.end());
  for (const auto& [name, hash] : saved.items())
    then[name] = hash.is_string() ? hash.get<std::string>() : "";
  std::vector<std::string> changes;
  for (const auto& [name, hash] : now) {
    auto it = then.find(name);
    if (it == then.end())
      changes.push_back(name + " is new");
    else if (it->second != hash)
      changes.push_back(name + " was edited");
  }
  for (const auto& [name, hash] : then)
    if (!now.count(name)) changes.push_back(name + " is no longer read");
  std::string out;
  for (size_t i = 0; i < changes.size() && i < 3; ++i) out += (i ? ", " : "") + changes[i];
  if (changes.size() > 3) out += fmt::format(" and {} more", changes.size() - 3);
  return out;
}

}  // namespace

uint64_t programFingerprint(const Program& p) {
  Fnv f;
  f.add(p.rulesetName);
  f.add(p.scenarioName);
  for (const auto& fn : p.functions) {
    f.add(fn.name);
    f.add(fn.locals);
    f.add(fn.arity);
    for (const Instr& in : fn.code) {
      f.add(static_cast<int64_t>(in.op));
      f.add(in.a);
      f.add(in.b);
    }
  }
  for (const Value& v : p.constants) hashValue(f, v);
  for (const auto& t : p.tables)
    for (const Value& v : t.cells) hashValue(f, v);
  for (const auto& u : p.unitTypes)
    for (const Value& v : u.values) hashValue(f, v);
  for (const auto& u : p.units) {
    f.add(u.id);
    f.add(u.type);
    f.add(u.side);
    f.add(u.hex);
  }
  for (const auto& o : p.options) f.add(o.name);
  for (const auto& n : p.names) f.add(n);
  f.add(static_cast<int64_t>(p.mapTerrain.size()));
  for (int32_t t : p.mapTerrain) f.add(t);
  return f.h;
}

namespace {

json sessionJson(const Session& s) {
  const Program& P = s.program();
  const eval::GameState& st = s.state();
  json j;
  j["format"] = "polemos-save";
  j["version"] = kSaveFormatVersion;
  j["ruleset"] = P.rulesetName;
  j["scenario"] = P.scenarioName;
  j["program"] = fmt::format("{:016x}", programFingerprint(P));
  json sources = json::object();
  for (const auto& [name, hash] : P.sources) sources[name] = hash;
  j["sources"] = sources;
  j["seed"] = s.config().seed;
  j["rng"] = fmt::format("{:016x}", s.rngState());
  json forced = json::array();
  for (int64_t d : s.forcedDice()) forced.push_back(d);
  j["forced_dice"] = forced;
  j["level"] = st.level;
  json options = json::array();
  for (const Value& v : st.options) options.push_back(valueToJson(v));
  j["options"] = options;
  j["turn"] = st.turn;
  j["active_side"] = st.activeSide;
  j["acting"] = st.acting;
  j["phase"] = st.phase;
  j["result"] = {{"over", st.result.over},
                 {"winner", st.result.winner},
                 {"level", st.result.level},
                 {"reason", st.result.reason}};
  json units = json::array();
  for (const auto& u : st.units) {
    json fields = json::array();
    for (const Value& v : u.fields) fields.push_back(valueToJson(v));
    units.push_back({{"id", u.id},
                     {"type", u.type},
                     {"side", u.side},
                     {"hex", u.hex},
                     {"facing", u.facing},
                     {"status", static_cast<int>(u.status)},
                     {"fields", fields}});
  }
  j["units"] = units;
  json sides = json::array();
  for (const auto& sd : st.sides) {
    json fields = json::array();
    for (const Value& v : sd.fields) fields.push_back(valueToJson(v));
    sides.push_back(fields);
  }
  j["sides"] = sides;
  json game = json::array();
  for (const Value& v : st.game) game.push_back(valueToJson(v));
  j["game"] = game;
  json map;
  map["terrain"] = st.map.terrain;
  map["elevation"] = st.map.elevation;
  json hexsides = json::array();
  for (const auto& [k, fs] : st.map.hexsides) hexsides.push_back({k.first, k.second, fs});
  map["hexsides"] = hexsides;
  json groups = json::object();
  for (const auto& [name, hs] : st.map.groups) groups[name] = hs;
  map["groups"] = groups;
  json hexState = json::array();
  for (const Value& v : st.map.hexFields.get()) hexState.push_back(valueToJson(v));
  map["hex_state"] = hexState;
  j["map"] = map;
  json frames = json::array();
  for (const auto& f : s.machine().frames) frames.push_back({f.fn, f.pc, f.base, f.discard});
  json stack = json::array();
  for (const Value& v : s.machine().stack) stack.push_back(valueToJson(v));
  j["machine"] = {{"frames", frames}, {"stack", stack}};
  const eval::Stop& stop = s.stop();
  j["stop"] = {{"kind", static_cast<int>(stop.kind)},
               {"index", stop.index},
               {"player", stop.player},
               {"count", stop.count},
               {"options", valueToJson(stop.options)},
               {"message", stop.message}};
  json trace = json::array();
  for (const auto& e : st.trace)
    trace.push_back(
        json::array({e.seq, cite::numberList(e.citations), std::string(eval::traceKindName(e.kind)),
                     e.subject, e.inputs, e.output, e.depth}));
  j["trace_seq"] = st.traceSeq;
  j["trace"] = trace;
  return j;
}

}  // namespace

std::string saveSession(const Session& s) {
  return sessionJson(s).dump(1) + "\n";
}

std::string writeSave(const Session& s, const SaveRecord& record) {
  json j = sessionJson(s);
  const GameOrigin& o = record.origin;
  json setup = {{"ruleset", o.ruleset},
                {"scenario", o.scenario},
                {"houses", o.houses},
                {"seed", o.session.seed},
                {"level", o.session.level}};
  json options = json::array();
  for (const auto& [k, v] : o.session.options) options.push_back(k + "=" + v);
  setup["options"] = options;
  j["replay"] = {{"setup", setup}, {"commands", record.commands}};
  if (record.edited) j["replay"]["edited"] = true;
  if (record.autoPlayer) j["replay"]["auto_player"] = fmt::format("{:016x}", *record.autoPlayer);
  return j.dump(1) + "\n";
}

namespace {

// A save's JSON, parsed: a Polemos save holds whole numbers only, so a number with a fraction or
// an exponent (9.2e19, as a fuzzer wrote) is refused here, before any is read as an integer (a
// conversion of a number past an integer's range is undefined behaviour).
json parseSave(const std::string& text) {
  json j = json::parse(text);
  std::vector<const json*> todo{&j};
  while (!todo.empty()) {
    const json* v = todo.back();
    todo.pop_back();
    if (v->is_number_float())
      throw std::runtime_error("a number in the save is not a whole number (" + v->dump() + ")");
    if (v->is_structured())
      for (const auto& child : *v) todo.push_back(&child);
  }
  return j;
}

}  // namespace

std::optional<SaveRecord> readSaveRecord(const std::string& text, std::string& why) {
  try {
    auto j = parseSave(text);
    const auto& r = j.at("replay");
    const auto& setup = r.at("setup");
    SaveRecord record;
    GameOrigin& o = record.origin;
    o.ruleset = setup.at("ruleset").get<std::string>();
    o.scenario = setup.at("scenario").get<std::string>();
    o.houses = setup.at("houses").get<std::vector<std::string>>();
    o.session.seed = setup.at("seed").get<uint64_t>();
    o.session.level = setup.at("level").get<std::string>();
    for (const auto& kv : setup.at("options")) {
      std::string t = kv.get<std::string>();
      auto eq = t.find('=');
      if (eq == std::string::npos) throw std::runtime_error("an option is not NAME=VALUE");
      o.session.options.emplace_back(t.substr(0, eq), t.substr(eq + 1));
    }
    record.commands = r.at("commands").get<std::vector<std::string>>();
    if (r.contains("edited")) record.edited = r.at("edited").get<bool>();
    if (r.contains("auto_player"))
      record.autoPlayer = std::stoull(r.at("auto_player").get<std::string>(), nullptr, 16);
    return record;
  } catch (const std::exception& e) {
    why = e.what();
    return std::nullopt;
  }
}

std::optional<std::string> loadSession(const std::string& text, Session& into,
                                       std::vector<std::string>* commands, bool* olderBuild) {
  if (olderBuild) *olderBuild = false;
  json j;
  try {
    j = parseSave(text);
  } catch (const std::exception& e) {
    return fmt::format("not a Polemos save file: the JSON is malformed ({})", e.what());
  }
  try {
    if (!j.is_object() || j.value("format", "") != "polemos-save")
      return std::string("not a Polemos save file (no \"format\": \"polemos-save\")");
    if (!j.contains("version") || !j["version"].is_number_integer() ||
        j["version"].get<int>() != kSaveFormatVersion)
      return fmt::format("this save file has format version {}, but this Polemos reads version {}",
                         j.contains("version") ? j["version"].dump() : "none", kSaveFormatVersion);
    const Program& P = into.program();
    if (j.value("ruleset", "") != P.rulesetName || j.value("scenario", "") != P.scenarioName)
      return fmt::format("this save is of ruleset '{}' scenario '{}', but the game is '{}' '{}'",
                         j.value("ruleset", "?"), j.value("scenario", "?"), P.rulesetName,
                         P.scenarioName);
    if (j.value("program", "") != fmt::format("{:016x}", programFingerprint(P))) {
      if (!j.contains("sources"))
        return std::string(
            "this save was made with different rules (the ruleset, its tables or the house rules "
            "have changed since), or by an older build of Polemos, so it cannot be resumed here");
      std::string changed = sourcesChanged(j.at("sources"), P);
      if (!changed.empty())
        return fmt::format(
            "the rules have changed since this game was saved ({}), so it cannot be resumed here",
            changed);
      if (olderBuild) *olderBuild = true;
      return std::string(
          "this save was made by another build of Polemos (the same rules, made into a different "
          "program), so its state cannot be taken as it is");
    }
    eval::GameState st = into.state();  // keeps the configuration not in the file (tracing)
    // Units first: values are checked against their count.
    const json& units = j.at("units");
    // Units placed in the sandbox come after the scenario's order of battle.
    if (units.is_array() && units.size() > limits::kMaxSavedUnits)
      return fmt::format("the save has {} units, more than the {} a saved game may have",
                         units.size(), limits::kMaxSavedUnits);
    if (!units.is_array() || units.size() < P.units.size())
      return std::string("the save's units do not match the scenario's order of battle");
    st.units.resize(units.size());
    st.sides.resize(P.sides.size());
    st.map.terrain = j.at("map").at("terrain").get<std::vector<int32_t>>();
    st.map.elevation = j.at("map").at("elevation").get<std::vector<int32_t>>();
    if (st.map.terrain.size() != P.mapTerrain.size() ||
        st.map.elevation.size() != P.mapElevation.size())
      return std::string("the save's map does not match the scenario's map");
    for (int32_t t : st.map.terrain)
      if (t < -1 || t >= static_cast<int32_t>(P.terrains.size()))
        return std::string("the save's map has an unknown terrain");
    st.map.hexsides.mut().clear();
    for (const auto& e : j.at("map").at("hexsides")) {
      int32_t a = e.at(0).get<int32_t>(), b = e.at(1).get<int32_t>();
      auto fs = e.at(2).get<std::vector<int32_t>>();
      if (a < 0 || b < 0 || a >= st.map.size() || b >= st.map.size())
        return std::string("the save's hexsides are off the map");
      for (int32_t f : fs)
        if (f < 0 || f >= static_cast<int32_t>(P.features.size()))
          return std::string("the save's map has an unknown hexside kind");
      st.map.hexsides.mut()[{a, b}] = fs;
    }
    st.map.groups.mut().clear();
    for (const auto& [name, hs] : j.at("map").at("groups").items()) {
      auto list = hs.get<std::vector<int32_t>>();
      for (int32_t h : list)
        if (h < 0 || h >= st.map.size())
          return std::string("a hex group of the save is off the map");
      st.map.groups.mut()[name] = list;
    }
    Reader r{P, st, {}};
    // The hex state: every field of every hex (a save from before hex state has none).
    if (j.at("map").contains("hex_state")) {
      std::vector<Value> fields;
      const size_t n = P.hexState.fields.size() * static_cast<size_t>(st.map.size());
      if (!r.values(j.at("map").at("hex_state"), fields, n, "the save's hex state")) return r.error;
      st.map.hexFieldCount = static_cast<int32_t>(P.hexState.fields.size());
      st.map.hexFields = std::move(fields);
    } else if (!P.hexState.fields.empty()) {
      return std::string("the save has no hex state, which this ruleset declares");
    }
    for (size_t i = 0; i < units.size(); ++i) {
      const json& u = units[i];
      eval::UnitState& us = st.units[i];
      us.id = u.at("id").get<std::string>();
      us.type = u.at("type").get<int32_t>();
      us.side = u.at("side").get<int32_t>();
      us.hex = u.at("hex").get<int32_t>();
      us.facing = u.at("facing").get<int32_t>();
      int status = u.at("status").get<int>();
      if (us.type < 0 || us.type >= static_cast<int32_t>(P.unitTypes.size()) || us.side < 0 ||
          us.side >= static_cast<int32_t>(P.sides.size()) || us.hex < -1 ||
          us.hex >= st.map.size() || us.facing < -1 || us.facing > 5 || status < 0 || status > 4)
        return fmt::format("unit {} of the save is malformed", us.id);
      us.status = static_cast<eval::UnitStatus>(status);
      us.cls = P.unitTypes[us.type].cls;
    }
    for (size_t i = 0; i < units.size(); ++i) {
      if (!r.values(units[i].at("fields"), st.units[i].fields,
                    P.classes[st.units[i].cls].fields.size(), "a unit"))
        return "the save is corrupt: " + r.error;
    }
    const json& sides = j.at("sides");
    if (!sides.is_array() || sides.size() != P.sides.size())
      return std::string("the save's sides do not match the scenario");
    for (size_t i = 0; i < sides.size(); ++i)
      if (!r.values(sides[i], st.sides[i].fields, P.sideState.fields.size(), "a side"))
        return "the save is corrupt: " + r.error;
    if (!r.values(j.at("game"), st.game, P.gameState.fields.size(), "the game state"))
      return "the save is corrupt: " + r.error;
    if (!r.values(j.at("options"), st.options, P.options.size(), "the options"))
      return "the save is corrupt: " + r.error;
    // Every field holds a value of its type, within its range: a save edited by hand (or loaded
    // with --trust) cannot give a unit what its schema forbids.
    if (std::string bad = badField(P, st); !bad.empty()) return "the save is corrupt: " + bad;
    st.level = j.at("level").get<int32_t>();
    if (st.level < 0 || st.level >= static_cast<int32_t>(P.levels.size()))
      return std::string("the save's level is unknown");
    st.turn = j.at("turn").get<int32_t>();
    st.activeSide = j.at("active_side").get<int32_t>();
    st.acting = j.at("acting").get<int32_t>();
    st.phase = j.at("phase").get<int32_t>();
    if (st.phase < -1 || st.phase >= static_cast<int32_t>(P.phases.size()))
      return std::string("the save's phase is unknown");
    const json& res = j.at("result");
    st.result.over = res.at("over").get<bool>();
    st.result.winner = res.at("winner").get<int32_t>();
    st.result.level = res.at("level").get<std::string>();
    st.result.reason = res.at("reason").get<std::string>();
    // Sides are indices: each must name a side of the scenario, or none (-1).
    const auto nSides = static_cast<int32_t>(P.sides.size());
    auto sideOk = [&](int32_t s) { return s >= -1 && s < nSides; };
    if (!sideOk(st.result.winner))
      return std::string("the save's result names no side of the game");
    if (!sideOk(st.activeSide) || !sideOk(st.acting))
      return std::string("the save's side to act is no side of the game");
    if (st.turn < 0) return std::string("the save's turn is negative");
    // The machine: every frame must point into real code, and locals into the stack.
    eval::Machine m;
    std::vector<Value> stack;
    if (!r.values(j.at("machine").at("stack"), stack, SIZE_MAX, "the value stack"))
      return "the save is corrupt: " + r.error;
    m.stack.assign(stack.data(), stack.data() + stack.size());
    for (const auto& f : j.at("machine").at("frames")) {
      eval::Frame fr;
      fr.fn = f.at(0).get<int32_t>();
      fr.pc = f.at(1).get<int32_t>();
      fr.base = f.at(2).get<int32_t>();
      fr.discard = f.at(3).get<bool>();
      if (fr.fn < 0 || fr.fn >= static_cast<int32_t>(P.functions.size()) || fr.pc < 0 ||
          fr.pc >= static_cast<int32_t>(P.functions[fr.fn].code.size()) || fr.base < 0 ||
          fr.base + P.functions[fr.fn].locals > static_cast<int32_t>(m.stack.size()))
        return std::string("the save is corrupt: a call frame points outside the program");
      m.frames.push_back(fr);
    }
    eval::Stop stop;
    const json& sj = j.at("stop");
    int kind = sj.at("kind").get<int>();
    if (kind < 0 || kind > eval::Stop::Pause) return std::string("the save's stop is malformed");
    stop.kind = static_cast<eval::Stop::Kind>(kind);
    stop.index = sj.at("index").get<int32_t>();
    stop.player = sj.at("player").get<int32_t>();
    stop.count = sj.at("count").get<int64_t>();
    stop.message = sj.at("message").get<std::string>();
    if (!r.value(sj.at("options"), stop.options)) return "the save is corrupt: " + r.error;
    bool stopOk = true;
    switch (stop.kind) {
      case eval::Stop::Window:
        stopOk = stop.index >= 0 && stop.index < static_cast<int32_t>(P.phases.size()) &&
                 !m.frames.empty();
        break;
      case eval::Stop::Choose:
        stopOk = stop.index >= 0 && stop.index < static_cast<int32_t>(P.chooses.size()) &&
                 stop.options.tag == Tag::List && !m.frames.empty();
        break;
      case eval::Stop::Roll:
        stopOk = stop.index >= 0 && stop.index < static_cast<int32_t>(P.rolls.size()) &&
                 stop.count >= 1 && stop.count <= 20 && !m.frames.empty();
        break;
      case eval::Stop::Pause:
        stopOk = stop.index >= 0 && stop.index < static_cast<int32_t>(P.pauses.size()) &&
                 !m.frames.empty();
        break;
      default:
        break;
    }
    if (!sideOk(stop.player)) stopOk = false;
    if (!stopOk) return std::string("the save's pending decision does not match the program");
    if (stop.kind == eval::Stop::Window) {
      const eval::Frame& top = m.frames.back();
      const Instr& in = P.functions[top.fn].code[top.pc];
      if (in.op != Op::Window || in.a != stop.index ||
          top.base + in.b + 2 >= static_cast<int32_t>(m.stack.size()))
        return std::string(
            "the save is corrupt: the pending phase does not match the saved continuation");
    }
    std::deque<int64_t> forced;
    for (const auto& d : j.at("forced_dice")) forced.push_back(d.get<int64_t>());
    uint64_t rng = std::stoull(j.at("rng").get<std::string>(), nullptr, 16);
    st.trace.clear();
    for (const auto& e : j.at("trace")) {
      eval::TraceEvent ev;
      ev.seq = e.at(0).get<uint64_t>();
      ev.citations = cite::Citation::parseList(e.at(1).get<std::string>());
      auto kind = eval::traceKindFromName(e.at(2).get<std::string>());
      if (!kind)
        throw std::runtime_error("a trace event of an unknown kind: " + e.at(2).get<std::string>());
      ev.kind = *kind;
      ev.subject = e.at(3).get<std::string>();
      ev.inputs = e.at(4).get<std::string>();
      ev.output = e.at(5).get<std::string>();
      ev.depth = e.at(6).get<uint32_t>();
      st.trace.push_back(std::move(ev));
    }
    st.traceSeq = j.at("trace_seq").get<uint64_t>();
    uint64_t seed = j.at("seed").get<uint64_t>();
    into.restore(std::move(st), std::move(m), std::move(stop), rng, std::move(forced));
    into.setSeed(seed);
    if (commands) {
      // The commands that made the game, so that it can be saved and replayed again; a save
      // without a well-formed record loads with none.
      commands->clear();
      try {
        if (j.contains("replay"))
          *commands = j["replay"].at("commands").get<std::vector<std::string>>();
      } catch (const std::exception&) {
        commands->clear();
      }
    }
    return std::nullopt;
  } catch (const std::exception& e) {
    return fmt::format("the save file is corrupt or incomplete ({})", e.what());
  }
}

namespace {

// Walks two saves' JSON side by side; the first difference, by path.
struct Differ {
  std::vector<std::string> path;
  bool find(const json& a, const json& b) {
    if (a.is_number() && b.is_number()) return a != b;  // 1 read back is unsigned, 1 made signed
    if (a.type() != b.type()) return true;
    if (a.is_object()) {
      for (const auto& [k, v] : a.items()) {
        path.push_back(k);
        if (!b.contains(k) || find(v, b.at(k))) return true;
        path.pop_back();
      }
      for (const auto& [k, v] : b.items())
        if (!a.contains(k)) {
          path.push_back(k);
          return true;
        }
      return false;
    }
    if (a.is_array()) {
      for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
        path.push_back(std::to_string(i));
        if (find(a[i], b[i])) return true;
        path.pop_back();
      }
      if (a.size() != b.size()) {
        path.push_back(std::to_string(std::min(a.size(), b.size())));
        return true;
      }
      return false;
    }
    return a != b;
  }
};

const json* at(const json& j, const std::vector<std::string>& path, size_t n) {
  const json* p = &j;
  for (size_t i = 0; i < n && i < path.size(); ++i) {
    if (p->is_object() && p->contains(path[i]))
      p = &(*p)[path[i]];
    else if (p->is_array() && std::stoul(path[i]) < p->size())
      p = &(*p)[std::stoul(path[i])];
    else
      return nullptr;
  }
  return p;
}

}  // namespace

std::string stateDifference(const std::string& text, const Session& made, bool wholeState) {
  json saved;
  try {
    saved = parseSave(text);
  } catch (const std::exception& e) {
    return "the file is not JSON";
  }
  json now = sessionJson(made);
  // Not the game itself: how it was made, and what the program is.
  for (const char* k : {"replay", "program", "sources"}) {
    saved.erase(k);
    now.erase(k);
  }
  if (!wholeState)
    for (const char* k : {"machine", "stop", "trace", "trace_seq"}) {
      saved.erase(k);
      now.erase(k);
    }
  Differ d;
  if (!d.find(saved, now)) return "";
  const Program& P = made.program();
  const eval::GameState& st = made.state();
  const std::vector<std::string>& path = d.path;
  auto idx = [&](size_t i) -> int64_t {
    if (i >= path.size()) return -1;
    try {
      return std::stoll(path[i]);
    } catch (const std::exception&) {
      return -1;
    }
  };
  // Says the path with names: a unit by its id, a field by its name.
  std::string what;
  size_t shown = path.size();  // how much of the path the value below is taken at
  if (path[0] == "units" && idx(1) >= 0 && static_cast<size_t>(idx(1)) < st.units.size()) {
    const eval::UnitState& u = st.units[idx(1)];
    what = "unit " + u.id;
    if (path.size() >= 4 && path[2] == "fields" && idx(3) >= 0 &&
        static_cast<size_t>(idx(3)) < P.classes[u.cls].fields.size()) {
      what += "'s " + P.classes[u.cls].fields[idx(3)].name;
      shown = 4;
    } else if (path.size() >= 3) {
      what += "'s " + path[2];
      shown = 3;
    }
  } else if (path[0] == "units") {
    what = "the number of units";
    shown = 1;
  } else if (path[0] == "sides" && idx(1) >= 0 && static_cast<size_t>(idx(1)) < P.sides.size()) {
    what = "side " + P.sides[idx(1)].name;
    if (idx(2) >= 0 && static_cast<size_t>(idx(2)) < P.sideState.fields.size()) {
      what += "'s " + P.sideState.fields[idx(2)].name;
      shown = 3;
    }
  } else if (path[0] == "game" && idx(1) >= 0 &&
             static_cast<size_t>(idx(1)) < P.gameState.fields.size()) {
    what = "the game's " + P.gameState.fields[idx(1)].name;
    shown = 2;
  } else if (path[0] == "map" && path.size() >= 2) {
    what = "the map's " + path[1];
    if (path.size() >= 3 && (path[1] == "terrain" || path[1] == "elevation") && idx(2) >= 0 &&
        idx(2) < st.map.size()) {
      what += " at " + st.map.label(static_cast<int32_t>(idx(2)));
      shown = 3;
    } else {
      shown = 2;
    }
  } else {
    what = "its " + path[0];
    for (size_t i = 1; i < path.size(); ++i)
      what += (idx(i) >= 0 ? "[" + path[i] + "]" : "." + path[i]);
  }
  auto render = [&](const json& root) -> std::string {
    const json* v = at(root, path, shown);
    if (!v) return "absent";
    // A value of the rule language is shown as the game shows it.
    Reader r{P, st, {}};
    Value x;
    if (v->is_array() && !v->empty() && v->at(0).is_number_integer() && r.value(*v, x))
      return made.display(x);
    std::string s = v->dump();
    if (s.size() > 60) s = s.substr(0, 57) + "...";
    return s;
  };
  return fmt::format("{} is {} in the file, {} by the rules", what, render(saved), render(now));
}

}  // namespace polemos::engine
