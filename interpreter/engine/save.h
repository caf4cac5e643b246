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

#include "engine/session.h"

namespace polemos::engine {

inline constexpr int kSaveFormatVersion = 1;

// A structural hash of a lowered program: its code, constants, tables, types and scenario.
uint64_t programFingerprint(const ir::Program& p);

// The session as JSON text (pretty-printed, stable key order: the same session gives the same
// bytes).
std::string saveSession(const Session& s);

// Replaces `into`'s state with the saved one. On failure returns the reason and leaves `into`
// exactly as it was.
std::optional<std::string> loadSession(const std::string& json, Session& into);

}  // namespace polemos::engine
