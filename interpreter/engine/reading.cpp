#include "engine/reading.h"

#include <fmt/format.h>

#include <algorithm>

#include "hex/coord.h"

namespace polemos::engine {

using namespace polemos::ir;

std::optional<long long> readInteger(const std::string& s) {
  try {
    size_t used = 0;
    long long v = std::stoll(s, &used);
    if (used != s.size()) return std::nullopt;
    return v;
  } catch (...) {
    return std::nullopt;
  }
}

namespace {

template <typename List>
int32_t indexNamed(const List& list, const std::string& name) {
  for (size_t i = 0; i < list.size(); ++i)
    if (list[i].name == name) return static_cast<int32_t>(i);
  return -1;
}

}  // namespace

int32_t findSide(const Program& p, const std::string& name) {
  return indexNamed(p.sides, name);
}
int32_t findUnitType(const Program& p, const std::string& name) {
  return indexNamed(p.unitTypes, name);
}
int32_t findTerrain(const Program& p, const std::string& name) {
  return indexNamed(p.terrains, name);
}
int32_t findFeature(const Program& p, const std::string& name) {
  return indexNamed(p.features, name);
}
int32_t findPhase(const Program& p, const std::string& name) {
  return indexNamed(p.phases, name);
}
int32_t findAction(const Program& p, const std::string& name) {
  return indexNamed(p.actions, name);
}
int32_t findUnit(const eval::GameState& s, const std::string& id) {
  for (size_t i = 0; i < s.units.size(); ++i)
    if (s.units[i].id == id) return static_cast<int32_t>(i);
  return -1;
}

namespace {

std::string namesOf(const std::vector<KindInfo>& kinds) {
  std::string known;
  for (const auto& k : kinds) known += (known.empty() ? "" : ", ") + k.name;
  return known;
}

int32_t settable(const Schema& schema, const std::string& name) {
  for (size_t f = 0; f < schema.fields.size(); ++f)
    if (schema.fields[f].name == name && schema.fields[f].derived < 0)
      return static_cast<int32_t>(f);
  return -1;
}

int32_t refuse(std::string& why, std::string message) {
  why = std::move(message);
  return -1;
}

}  // namespace

int32_t readSide(const Program& p, const std::string& name, std::string& why) {
  int32_t i = findSide(p, name);
  return i >= 0 ? i : refuse(why, fmt::format("no side '{}'", name));
}
int32_t readUnitType(const Program& p, const std::string& name, std::string& why) {
  int32_t i = findUnitType(p, name);
  return i >= 0 ? i : refuse(why, fmt::format("no unit type '{}'", name));
}
int32_t readTerrain(const Program& p, const std::string& name, std::string& why) {
  int32_t i = findTerrain(p, name);
  return i >= 0 ? i
                : refuse(why, fmt::format("unknown terrain '{}' (this ruleset has: {})", name,
                                          namesOf(p.terrains)));
}
int32_t readFeature(const Program& p, const std::string& name, std::string& why) {
  int32_t i = findFeature(p, name);
  std::string known = namesOf(p.features);
  return i >= 0 ? i
                : refuse(why, fmt::format("unknown hexside kind '{}' (this ruleset has: {})", name,
                                          known.empty() ? "none" : known));
}
int32_t readPhase(const Program& p, const std::string& name, std::string& why) {
  int32_t i = findPhase(p, name);
  return i >= 0 ? i : refuse(why, fmt::format("this ruleset has no phase '{}'", name));
}
int32_t readHex(const eval::GameState& s, const std::string& label, std::string& why) {
  int32_t h = s.map.parse(label);
  return h >= 0 ? h : refuse(why, fmt::format("'{}' is not a hex of this map", label));
}
int32_t readUnit(const eval::GameState& s, const std::string& id, std::string& why) {
  int32_t u = findUnit(s, id);
  return u >= 0 ? u : refuse(why, fmt::format("no unit '{}'", id));
}
int32_t readUnitField(const Program& p, int32_t cls, const std::string& name, std::string& why) {
  int32_t f = settable(p.classes.at(cls), name);
  return f >= 0 ? f
                : refuse(why, fmt::format("unit class {} has no field '{}' that can be set",
                                          p.classes[cls].name, name));
}
// A settable field of one of the program's state schemas, named for the refusal ("the side state").
static int32_t readStateField(const Schema& schema, const char* owner, const std::string& name,
                              std::string& why) {
  int32_t f = settable(schema, name);
  return f >= 0 ? f : refuse(why, fmt::format("{} has no field '{}' that can be set", owner, name));
}
int32_t readSideField(const Program& p, const std::string& name, std::string& why) {
  return readStateField(p.sideState, "the side state", name, why);
}
int32_t readHexField(const Program& p, const std::string& name, std::string& why) {
  return readStateField(p.hexState, "the hex state", name, why);
}
int32_t readGameField(const Program& p, const std::string& name, std::string& why) {
  return readStateField(p.gameState, "the game state", name, why);
}

std::optional<Value> readValue(const Session& s, const Type& t, const std::string& text,
                               std::string& why) {
  const Program& P = s.program();
  const auto& st = s.state();
  if (text == "none" && (t.optional || t.kind == TypeKind::Any)) return Value::none();
  switch (t.kind) {
    case TypeKind::Int:
      if (auto v = readInteger(text)) return Value::integer(*v);
      break;
    case TypeKind::Bool:
      if (text == "true" || text == "yes" || text == "on") return Value::boolean(true);
      if (text == "false" || text == "no" || text == "off") return Value::boolean(false);
      break;
    case TypeKind::Str:
      // Written as the language writes text ("thracian") or bare (thracian): the same string.
      if (text.size() >= 2 && text.front() == '"' && text.back() == '"')
        return Value::string(text.substr(1, text.size() - 2));
      return Value::string(text);
    case TypeKind::Enum: {
      const auto& m = P.enums[t.id].members;
      auto it = std::find(m.begin(), m.end(), text);
      if (it != m.end()) return Value::of(Tag::Enum, it - m.begin(), t.id);
      break;
    }
    case TypeKind::Side:
      if (int32_t i = findSide(P, text); i >= 0) return Value::of(Tag::Side, i);
      break;
    case TypeKind::Hex:
      if (int32_t h = st.map.parse(text); h >= 0) return Value::of(Tag::Hex, h);
      break;
    case TypeKind::Terrain:
      if (int32_t i = findTerrain(P, text); i >= 0) return Value::of(Tag::Terrain, i);
      break;
    case TypeKind::UnitType:
      if (int32_t i = findUnitType(P, text); i >= 0) return Value::of(Tag::UnitType, i);
      break;
    case TypeKind::Unit:
      if (int32_t i = findUnit(st, text); i >= 0) return Value::of(Tag::Unit, i);
      break;
    case TypeKind::Odds: {
      auto colon = text.find(':');
      auto a = readInteger(text.substr(0, colon));
      auto b = colon == std::string::npos ? std::nullopt : readInteger(text.substr(colon + 1));
      if (a && b && *a > 0 && *b > 0) return Value::odds(*a, *b);
      break;
    }
    default:
      if (auto v = readInteger(text)) return Value::integer(*v);
      if (text == "true" || text == "false") return Value::boolean(text == "true");
      return Value::string(text);
  }
  static const char* kNames[] = {
      "any",       "none",           "true or false", "a whole number", "odds such as 3:1",
      "text",      "enum",           "a unit",        "a side",         "a hex",
      "a terrain", "a hexside kind", "a unit type",   "a level",        "a table",
      "a column",  "a die",          "a list",        "a function",     "nothing"};
  std::string want;
  if (t.kind == TypeKind::Enum) {
    for (const auto& x : P.enums[t.id].members) want += (want.empty() ? "" : ", ") + x;
    want = "one of " + want;
  } else {
    want = kNames[static_cast<int>(t.kind)];
  }
  why = fmt::format("'{}' is not {}", text, want);
  return std::nullopt;
}

bool isDirectionParameter(const ActionParam& p) {
  return p.type.kind == TypeKind::Int &&
         (p.name == "dir" || p.name == "facing" || p.name == "face" ||
          (p.name.size() > 4 && p.name.substr(p.name.size() - 4) == "_dir"));
}

std::optional<Value> readArgument(const Session& s, const ActionParam& p, const std::string& word,
                                  std::string& why) {
  const auto& st = s.state();
  const Program& P = s.program();
  auto unitNamed = [&]() -> std::optional<Value> {
    if (int32_t u = findUnit(st, word); u >= 0) return Value::of(Tag::Unit, u);
    return std::nullopt;
  };
  switch (p.type.kind) {
    case TypeKind::Unit:
      if (auto u = unitNamed()) return u;
      why = fmt::format("no unit '{}'", word);
      return std::nullopt;
    case TypeKind::Hex: {
      int32_t h = st.map.parse(word);
      if (h >= 0) return Value::of(Tag::Hex, h);
      why = fmt::format("'{}' is not a hex of this map", word);
      return std::nullopt;
    }
    case TypeKind::Int: {
      if (auto v = readInteger(word)) return Value::integer(*v);
      // A direction parameter (named dir, facing or face, as the rulesets name them) reads the
      // letters a player writes: N, NE, SE, S, SW, NW for 0 to 5.
      bool direction = isDirectionParameter(p);
      if (direction)
        if (auto d = hex::parseDirection(word)) return Value::integer(static_cast<int64_t>(*d));
      why = direction
                ? fmt::format("'{}' is not a direction (N, NE, SE, S, SW, NW or 0 to 5)", word)
                : fmt::format("'{}' is not a number", word);
      return std::nullopt;
    }
    case TypeKind::Bool:
      if (word == "yes" || word == "true" || word == "on") return Value::boolean(true);
      if (word == "no" || word == "false" || word == "off") return Value::boolean(false);
      why = fmt::format("'{}' is not yes or no", word);
      return std::nullopt;
    case TypeKind::Side:
      if (int32_t i = findSide(P, word); i >= 0) return Value::of(Tag::Side, i);
      why = fmt::format("no side '{}'", word);
      return std::nullopt;
    case TypeKind::Enum: {
      const auto& members = P.enums[p.type.id].members;
      for (size_t m = 0; m < members.size(); ++m)
        if (members[m] == word) return Value::of(Tag::Enum, static_cast<int64_t>(m), p.type.id);
      std::string all;
      for (const auto& m : members) all += (all.empty() ? "" : ", ") + m;
      why = fmt::format("'{}' is not one of: {}", word, all);
      return std::nullopt;
    }
    default: {
      // Anything else: a unit, a hex or a number, whichever the word is.
      if (auto u = unitNamed()) return u;
      int32_t h = st.map.parse(word);
      if (h >= 0) return Value::of(Tag::Hex, h);
      if (auto v = readInteger(word)) return Value::integer(*v);
      why = fmt::format("cannot read '{}' as {}", word, p.name);
      return std::nullopt;
    }
  }
}

std::optional<std::vector<Value>> readArguments(const Session& s, int32_t action,
                                                const std::vector<std::string>& words,
                                                std::string& why) {
  const ActionInfo& a = s.program().actions.at(action);
  if (words.size() != a.params.size()) {
    std::string usage = a.name;
    for (const auto& p : a.params) usage += " " + p.name;
    why = fmt::format("{} takes {} argument{}: {}", a.name, a.params.size(),
                      a.params.size() == 1 ? "" : "s", usage);
    return std::nullopt;
  }
  std::vector<Value> values;
  for (size_t i = 0; i < words.size(); ++i) {
    auto v = readArgument(s, a.params[i], words[i], why);
    if (!v) return std::nullopt;
    values.push_back(*v);
  }
  return values;
}

std::optional<ActionCall> readAction(const Session& s, const std::vector<std::string>& words,
                                     std::string& why) {
  const auto& actions = s.program().actions;
  int32_t a = words.empty() ? -1 : indexNamed(actions, words[0]);
  if (a < 0) {
    why = fmt::format("'{}' is not an action of this ruleset", words.empty() ? "" : words[0]);
    return std::nullopt;
  }
  auto args = readArguments(s, a, std::vector<std::string>(words.begin() + 1, words.end()), why);
  if (!args) return std::nullopt;
  return ActionCall{a, std::move(*args)};
}

}  // namespace polemos::engine
