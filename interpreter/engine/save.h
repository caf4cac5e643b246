// Saving and loading a Session as JSON: the whole game state and the interpreter's continuation
// (call frames and value stack), the dice generator, forced dice and the trace.
//
// A save names the program it belongs to by a fingerprint of the lowered program; loading into a
// different program (another ruleset, an edited table, other house rules) is refused, as is any
// file that is not a well-formed save of this format version. Every index read from the file is
// checked, so a corrupt file is refused with a message and never reaches the evaluator.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/session.h"

namespace polemos::engine {

inline constexpr int kSaveFormatVersion = 1;

// A structural hash of a lowered program: its code, constants, tables, types and scenario.
uint64_t programFingerprint(const ir::Program& p);

// How a game was made, by name, so that it can be made again: a replay, a comparison.
struct GameOrigin {
  std::string ruleset, scenario;
  std::vector<std::string> houses;
  SessionConfig session;  // its seed, level and options (tracing is not part of a game)
};

// What a save holds beside the game itself: how to make the game again, and the commands that
// made it, so that it can be replayed (and saved again after a load).
struct SaveRecord {
  GameOrigin origin;
  std::vector<std::string> commands;
  // Loaded with `--trust` (not checked against its commands) at some point: its state need not be
  // one the rules can reach, and a save of it says so.
  bool edited = false;
  // The state of `auto`'s random player, so that `auto` after a load goes on as it would have.
  std::optional<uint64_t> autoPlayer;
};

// The session as JSON text (pretty-printed, stable key order: the same session gives the same
// bytes).
std::string saveSession(const Session& s);

// The session and its record, as one JSON document: the session's, with a "replay" object.
std::string writeSave(const Session& s, const SaveRecord& record);

// Replaces `into`'s state with the saved one. On failure returns the reason and leaves `into`
// exactly as it was. With `commands`, also the commands of the save's record (none if it has
// none).
// A save made by another build from the same rule files (the same sources, another program) is
// refused with `olderBuild` set: its commands can make the game again (see stateDifference).
std::optional<std::string> loadSession(const std::string& json, Session& into,
                                       std::vector<std::string>* commands = nullptr,
                                       bool* olderBuild = nullptr);

// The first way in which a save's state differs from `made`, the game its record's commands make
// ("" if none), said with names: "unit r43's strength is 7 in the file, 5 by the rules". With
// `wholeState` false (a save of another build) only what the game is, not how the program
// continues (its call frames and trace), is compared.
std::string stateDifference(const std::string& json, const Session& made, bool wholeState);

// The record of a save (for a replay, which makes the game again from it); nothing, with `why`,
// when the file is not a save with a well-formed record.
std::optional<SaveRecord> readSaveRecord(const std::string& json, std::string& why);

}  // namespace polemos::engine
