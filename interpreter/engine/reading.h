// Reading what a player types, in a Session's terms: a value of a declared type ("6", "true",
// "N", "2725", "3:1", an enum member), an action's argument (a unit id, a hex label), an action
// with its arguments, and the names of sides, unit types, terrains and hexside kinds.
//
// The REPL, the set-up of a compared situation and any other front end read words through here, so
// that a word means the same everywhere and its refusal reads the same ("'x' is not a hex of this
// map"). It does not split lines into words, and it changes nothing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/session.h"
#include "ir/program.h"

namespace polemos::engine {

// The whole of `s` as an integer, or nothing ("12x" and "" are not numbers).
std::optional<long long> readInteger(const std::string& s);

// Index by name in the program, or -1.
int32_t findSide(const ir::Program& p, const std::string& name);
int32_t findUnitType(const ir::Program& p, const std::string& name);
int32_t findTerrain(const ir::Program& p, const std::string& name);
int32_t findFeature(const ir::Program& p, const std::string& name);
int32_t findPhase(const ir::Program& p, const std::string& name);
int32_t findAction(const ir::Program& p, const std::string& name);
// A unit by its id in the game, or -1.
int32_t findUnit(const eval::GameState& s, const std::string& id);

// The same by name, with the refusal said as the prompt says it ("no side 'x'", "unknown terrain
// 'x' (this ruleset has: clear, woods)", "'9999' is not a hex of this map"): -1 and `why`.
int32_t readSide(const ir::Program& p, const std::string& name, std::string& why);
int32_t readUnitType(const ir::Program& p, const std::string& name, std::string& why);
int32_t readTerrain(const ir::Program& p, const std::string& name, std::string& why);
int32_t readFeature(const ir::Program& p, const std::string& name, std::string& why);
int32_t readPhase(const ir::Program& p, const std::string& name, std::string& why);
int32_t readHex(const eval::GameState& s, const std::string& label, std::string& why);
int32_t readUnit(const eval::GameState& s, const std::string& id, std::string& why);
// A field that can be set (not derived) of a unit's class or of the side state.
int32_t readUnitField(const ir::Program& p, int32_t cls, const std::string& name, std::string& why);
int32_t readSideField(const ir::Program& p, const std::string& name, std::string& why);
// The slot of a hex state field that can be set, or -1 with `why`.
int32_t readHexField(const ir::Program& p, const std::string& name, std::string& why);
// The slot of a game state field that can be set, or -1 with `why`.
int32_t readGameField(const ir::Program& p, const std::string& name, std::string& why);

// A value of type `t` as written at the prompt (`set`, `place`, `setside`): none, numbers,
// true/false (yes/no, on/off), odds A:B, enum members, sides, hexes, terrains, unit types, units.
std::optional<ir::Value> readValue(const Session& s, const ir::Type& t, const std::string& text,
                                   std::string& why);

// A parameter that takes a direction: an int named dir, facing, face or ..._dir (as the rulesets
// name them). It reads N, NE, SE, S, SW, NW as well as 0 to 5, and options show the letters.
bool isDirectionParameter(const ir::ActionParam& p);

// One argument of an action as the player types it (a unit id, a hex label, a number, ...).
std::optional<ir::Value> readArgument(const Session& s, const ir::ActionParam& p,
                                      const std::string& word, std::string& why);

// An action and its arguments: `words` is the action's name, then one word per parameter.
struct ActionCall {
  int32_t action = -1;
  std::vector<ir::Value> args;
};
// Nothing, with `why`, if the name is not an action of the program ("'x' is not an action of this
// ruleset"), the count of arguments is wrong or an argument cannot be read.
std::optional<ActionCall> readAction(const Session& s, const std::vector<std::string>& words,
                                     std::string& why);
// The arguments alone, for an action already found.
std::optional<std::vector<ir::Value>> readArguments(const Session& s, int32_t action,
                                                    const std::vector<std::string>& words,
                                                    std::string& why);

}  // namespace polemos::engine
