#include "eval/trace.h"

#include <fmt/format.h>

#include <array>
#include <nlohmann/json.hpp>

namespace polemos::eval {

namespace {
constexpr std::array<std::string_view, 11> kKindNames = {"phase",   "step",     "action", "roll",
                                                         "choice",  "modifier", "table",  "effect",
                                                         "trigger", "note",     "pause"};
}  // namespace

std::string_view traceKindName(TraceKind k) {
  return kKindNames.at(static_cast<size_t>(k));
}

std::optional<TraceKind> traceKindFromName(std::string_view name) {
  for (size_t i = 0; i < kKindNames.size(); ++i)
    if (kKindNames[i] == name) return static_cast<TraceKind>(i);
  return std::nullopt;
}

std::string formatEvent(const TraceEvent& e) {
  std::string cite = cite::formatList(e.citations);
  if (!cite.empty()) cite += " ";
  switch (e.kind) {
    case TraceKind::Modifier:
      return fmt::format("{}{}: {} → {}", cite, e.subject, e.inputs, e.output);
    case TraceKind::Roll:
      return fmt::format("{}roll {}: {}{}", cite, e.subject, e.output,
                         e.inputs.empty() ? "" : " (" + e.inputs + ")");
    case TraceKind::Table:
      return fmt::format("{}table {}: {} → {}", cite, e.subject, e.inputs, e.output);
    case TraceKind::Phase:
      return fmt::format("{}phase {}{}: {}", cite, e.subject,
                         e.inputs.empty() ? "" : " (" + e.inputs + ")", e.output);
    case TraceKind::Step:
      return fmt::format("{}step {}", cite, e.subject);
    case TraceKind::Action:
      return fmt::format("{}{}{}", cite, e.subject,
                         e.inputs.empty()
                             ? ""
                             : " (" + e.inputs + (e.output.empty() ? "" : ", " + e.output) + ")");
    case TraceKind::Choice:
      return fmt::format("{}{}: {} → {}", cite, e.subject, e.inputs, e.output);
    case TraceKind::Trigger:
      return fmt::format("{}trigger {}: {}", cite, e.subject, e.inputs);
    case TraceKind::Note:
      return fmt::format("{}{}", cite, e.subject);
    case TraceKind::Pause:
      return fmt::format("{}pause: {}", cite, e.subject);
    case TraceKind::Effect:
      break;
  }
  // A line is never cut short: an event with no output (a result applied) reads "result DE:
  // MeleeResult", not "... → " with nothing after the arrow.
  if (e.output.empty())
    return fmt::format("{}{}{}", cite, e.subject, e.inputs.empty() ? "" : ": " + e.inputs);
  return fmt::format("{}{}: {} → {}", cite, e.subject, e.inputs, e.output);
}

std::string eventJson(const TraceEvent& e) {
  nlohmann::ordered_json j = {{"seq", e.seq},
                              {"citation", cite::numberList(e.citations)},
                              {"kind", std::string(traceKindName(e.kind))},
                              {"subject", e.subject},
                              {"inputs", e.inputs},
                              {"output", e.output}};
  return j.dump();
}

}  // namespace polemos::eval
