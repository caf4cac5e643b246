// Trace events as a player and a program read them: the one text rendering (`§7.41 terrain_defense:
// melee.defense(d) 2 → 4 (x2, woods, DD)`) used by the REPL, `why`, `log`, odds and the web page,
// and the one JSON rendering of `--json` (`{"seq", "citation", "kind", "subject", "inputs",
// "output"}`). Events are recorded by the interpreter (eval/interpreter.h); this file only names
// and renders them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "eval/state.h"

namespace polemos::eval {

// "phase", "roll", ... (as JSON lines and saves write the kind).
std::string_view traceKindName(TraceKind k);
std::optional<TraceKind> traceKindFromName(std::string_view name);

// One line, citations first ("§7.41 §7.42 "), never cut short.
std::string formatEvent(const TraceEvent& e);
// One JSON object on one line.
std::string eventJson(const TraceEvent& e);

}  // namespace polemos::eval
