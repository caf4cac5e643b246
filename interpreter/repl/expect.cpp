// REPL: Checking a script: eval and expect of expressions, `expect fired` over the trace, `expect
// illegal|error`.
#include <fmt/format.h>

#include "cite/citation.h"
#include "eval/interpreter.h"
#include "eval/trace.h"
#include "repl/repl.h"
#include "repl/text.h"

namespace polemos::repl {

using namespace polemos::ir;

std::optional<Value> Repl::evaluate(const std::string& text, const char* origin,
                                    std::string& diagnostics, std::string& error,
                                    std::string* shown) {
  engine::Session::Evaluation e = session_->evaluate(text, origin);
  diagnostics = e.diagnostics;
  error = e.error;
  if (e.value && shown) *shown = e.shown;
  return e.value;
}

void Repl::cmdEval(const std::string& text, bool expect, std::string& out) {
  std::string diagnostics, err, shown;
  auto v = evaluate(text, expect ? "<expect>" : "<eval>", diagnostics, err, &shown);
  if (!diagnostics.empty()) {
    ++errors_;
    out += diagnostics;
    return;
  }
  if (!v) {
    if (expect) {
      ++failedExpects_;
      out += "FAILED: " + text + ": error: " + err + "\n";
    } else {
      error(out, err);
    }
    return;
  }
  if (!expect) {
    out += shown + "\n";
    return;
  }
  if (v->tag == Tag::Bool && v->i) {
    out += "ok\n";
  } else {
    ++failedExpects_;
    out += fmt::format("FAILED: {} (is {})\n", text, shown);
  }
}

// `expect [not] fired §N [TEXT]`: whether a trace event citing rule N (and whose line contains
// TEXT) was recorded by the commands since the previous `expect fired` (checks in a row share
// one stretch of commands). The rule number must match one citation of
// the event exactly ("7.8" does not match "7.82").
void Repl::cmdExpectFired(const std::vector<std::string>& args, std::string& out) {
  bool negate = args[1] == "not";
  size_t at = negate ? 3 : 2;
  if (at >= args.size()) {
    error(out, "expect fired takes a rule number, as in `expect fired §7.82 displaced`");
    return;
  }
  auto parsed = cite::Citation::parse(args[at]);
  if (!parsed) {
    error(out, fmt::format("'{}' is not a rule number (write §7.82)", args[at]));
    return;
  }
  std::string rule = parsed->number();
  std::string text;
  for (size_t i = at + 1; i < args.size(); ++i) text += (text.empty() ? "" : " ") + args[i];
  const auto& tr = session_->state().trace;
  uint64_t end = tr.empty() ? 0 : tr.back().seq + 1;
  // Checks in a row look at the same stretch; once new events come, the stretch starts after the
  // events already checked. After undo, load or a new game (sandbox, level, ...) the events already
  // checked are no longer the trace's (it is shorter, or the event at the mark is another one):
  // look at all of it.
  auto markOf = [&](uint64_t seq) -> std::string {
    for (auto it = tr.rbegin(); it != tr.rend(); ++it)
      if (it->seq == seq) return formatEvent(*it);
    return {};
  };
  bool sameGame =
      firedPending_ == 0 || (end >= firedPending_ && markOf(firedPending_ - 1) == firedMark_);
  if (!sameGame)
    firedStart_ = 0;
  else if (end > firedPending_)
    firedStart_ = firedPending_;
  firedPending_ = end;
  firedMark_ = end == 0 ? std::string() : markOf(end - 1);
  bool found = false;
  for (const auto& e : tr) {
    if (e.seq < firedStart_) continue;
    bool cites = e.cites(rule);
    if (cites && (text.empty() || formatEvent(e).find(text) != std::string::npos)) found = true;
  }
  std::string what = fmt::format("§{}{}", rule, text.empty() ? "" : " " + text);
  if (found != negate) {
    out += "ok\n";
  } else {
    ++failedExpects_;
    out += fmt::format("FAILED: {} {}\n", what, negate ? "fired" : "did not fire");
  }
}
// `eval EXPR`, `expect EXPR`, `expect [not] fired §N [TEXT]`, `expect illegal|error COMMAND`.
void Repl::cmdExpect(const std::vector<std::string>& args, const std::string& rest,
                     std::string& out) {
  const std::string& cmd = args[0];
  if (rest.empty())
    return error(out, fmt::format("{} takes an expression, as in `{} 1 + 2`", cmd, cmd));
  if (cmd == "expect" && args.size() >= 3 && (args[1] == "illegal" || args[1] == "error")) {
    // `expect illegal CMD` / `expect error CMD`: the command must be refused (and so leave the
    // game as it was); its own error does not count as one of the script's errors.
    int errorsBefore = errors_;
    std::string inner;
    std::string sub = trim(rest.substr(args[1].size()));
    executeText(sub, inner);
    errors_ = errorsBefore;
    out += inner;
    std::string want = args[1] + ":";
    bool refused = inner.rfind(want, 0) == 0 || inner.find("\n" + want) != std::string::npos;
    if (refused) {
      out += "ok\n";
    } else {
      ++failedExpects_;
      out += fmt::format("FAILED: `{}` was not refused with {}\n", sub, want);
    }
  } else if (cmd == "expect" && args.size() >= 2 &&
             (args[1] == "fired" || (args[1] == "not" && args.size() >= 3 && args[2] == "fired"))) {
    cmdExpectFired(args, out);
  } else {
    cmdEval(rest, cmd == "expect", out);
  }
}

}  // namespace polemos::repl
