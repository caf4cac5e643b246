// Setting a situation up: typed edits of a game (terrain, hexside features, placing, removing and
// setting units and sides), sandbox games on a map of any size, and going to a phase.
//
// Each edit is all or nothing: it is checked whole (every index, every value against its field's
// type) before anything changes, and a refused edit leaves the Session exactly as it was. An edit
// changes the game the way a ruleset's own code would not: the memo of pure calls is invalidated
// and no trace event is written. Undo is by value (a Session is copyable; engine/history keeps the
// copies). This module does not read words (engine/reading does) and does not print.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "check/sandbox.h"
#include "engine/session.h"

namespace polemos::engine {

namespace edit {

// One field of a unit's class or of the side state, by its index in the schema.
struct Field {
  int32_t slot = -1;
  ir::Value value;
};

struct Terrain {
  int32_t hex = -1;
  int32_t terrain = -1;
};

// Sets a hex's elevation (in the ruleset's steps: Warfare counts 10 m a step).
struct Elevation {
  int32_t hex = -1;
  int32_t level = 0;
};

// Adds a hexside feature between two adjacent hexes (a feature already there stays once).
struct Hexside {
  int32_t a = -1, b = -1;
  int32_t feature = -1;
};

// A new unit on the map: its type's values, then `fields` over them.
struct Place {
  int32_t side = -1;
  int32_t type = -1;
  int32_t hex = -1;     // -1: off the map (a leader awaiting placement, a reinforcement)
  int32_t facing = -1;  // -1: none
  std::string id;       // unique, starting with a letter (nextUnitId gives one)
  std::vector<Field> fields;
};

// Takes a unit on the map off it.
struct Remove {
  int32_t unit = -1;
};

// Changes of one unit, applied in order: fields, its hex (which puts it on the map), its facing.
struct SetUnit {
  struct Change {
    enum What { FieldValue, Hex, Facing } what = FieldValue;
    int32_t slot = -1;  // FieldValue
    ir::Value value;    // FieldValue: the value; Hex: a hex; Facing: a direction 0-5
  };
  int32_t unit = -1;
  std::vector<Change> changes;
};

struct SetSide {
  int32_t side = -1;
  std::vector<Field> fields;
};

// Fields of one hex's hex state (a fort's strength, a village afire).
struct SetHex {
  int32_t hex = -1;
  std::vector<Field> fields;
};

// Fields of the game state (the weather, a visibility).
struct SetGame {
  std::vector<Field> fields;
};

}  // namespace edit

using Edit = std::variant<edit::Terrain, edit::Elevation, edit::Hexside, edit::Place, edit::Remove,
                          edit::SetUnit, edit::SetSide, edit::SetHex, edit::SetGame>;

// Applies `e` to `s`, all or nothing. Ok, or Error with the reason (the game unchanged).
Outcome applyEdit(Session& s, const Edit& e);

// Whether `v` is a value of type `t` in the game `st` of program `P` (indices in range), and of
// field `f` of a schema: its type and its range (`in LO..HI`). A set-up edit and a saved game are
// checked with them.
bool fitsType(const ir::Program& P, const eval::GameState& st, const ir::Type& t,
              const ir::Value& v);
bool fitsField(const ir::Program& P, const eval::GameState& st, const ir::FieldInfo& f,
               const ir::Value& v);

// An id for a new unit of type `typeName` that no unit of the game has: the type's first three
// letters and the first free number ("leg1", "leg2").
std::string nextUnitId(const Session& s, const std::string& typeName);

// A new game of `base`'s rules (and its scenario's sides and set-up, if it has one) on an open map
// of the given size: the checker builds the program, then it starts. Nothing, with `why`, when it
// cannot be made or does not start.
// `forced`: dice to force before the sandbox starts (those the player forced before asking for it).
std::unique_ptr<Session> openSandbox(const ir::Program& base, const check::SandboxSpec& spec,
                                     const SessionConfig& config, std::string& why,
                                     const std::vector<int64_t>& forced = {});

// Ends phases until PHASE (of SIDE, or of any side when -1) begins, taking no actions. A decision
// on the way stops it, unless `takeFirst`: then each takes its first option. All or nothing: on an
// Error (why it could not get there) the game is unchanged; on Ok, `traceStart` is the first trace
// event of the way.
Outcome gotoPhase(Session& s, int32_t phase, int32_t side, bool takeFirst, size_t* traceStart);

}  // namespace polemos::engine
