// REPL: The REPL's core: starting a game, reporting errors, rendering trace events.
#include "repl/repl.h"

#include <fmt/format.h>

#include <utility>

#include "analysis/provenance.h"
#include "check/loader.h"
#include "eval/interpreter.h"
#include "eval/trace.h"
#include "repl/text.h"

namespace polemos::repl {

using namespace polemos::ir;

Repl::Repl(ReplOptions options)
    : options_(std::move(options)),
      autoPlayer_(engine::RandomPlayer::forSeed(options_.session.seed)) {
  if (options_.traceResults) trace_ = TraceMode::Results;
}

Repl::Repl(const Repl& o)
    : keptScenario_(o.keptScenario_),
      options_(o.options_),
      session_(o.session_ ? std::make_unique<engine::Session>(*o.session_) : nullptr),
      history_(o.history_),
      log_(o.log_),
      currentLine_(o.currentLine_),
      carriedDice_(o.carriedDice_),
      trace_(o.trace_),
      failedExpects_(o.failedExpects_),
      errors_(o.errors_),
      firedStart_(o.firedStart_),
      firedPending_(o.firedPending_),
      firedMark_(o.firedMark_),
      lastActionTrace_(o.lastActionTrace_),
      autoPlayer_(o.autoPlayer_) {
  edited_ = o.edited_;
  for (const KeptGame& k : o.before_)
    before_.push_back(KeptGame{std::make_unique<engine::Session>(*k.session), k.history, k.log,
                               k.options, k.keptScenario, k.replacedBy, k.edited});
}

bool Repl::start(std::string& out, std::shared_ptr<const ir::Program> program) {
  diag::SourceManager sm;
  diag::Diagnostics diags(sm);
  check::Loaded loaded;
  const bool preloaded = program != nullptr && !program->sides.empty();
  if (preloaded) {
    loaded.program = std::move(program);
  } else {
    check::Loader loader(diags);
    check::LoadRequest req{options_.ruleset, options_.scenario, options_.houses};
    loaded = loader.load(req);
  }
  if (!loaded.program) {
    out += diags.render(false);
    return false;
  }
  if (loaded.program->sides.empty() && !loaded.program->terrains.empty()) {
    // A ruleset without a scenario has no sides or map: start in an empty sandbox.
    auto base = std::make_unique<engine::Session>(loaded.program, options_.session);
    if (std::string problem = base->configProblem(); !problem.empty()) {
      out += "error: " + problem + "\n";
      return false;
    }
    session_ = std::move(base);
    currentLine_ = "sandbox 12x10";
    int before = errors_;
    // The unstarted game this sandbox replaces is nothing to keep or undo back to.
    std::string autosaveFile = std::exchange(options_.autosave, "");
    size_t kept = before_.size();
    cmdSandbox({"sandbox", "12x10"}, out);
    options_.autosave = autosaveFile;
    if (before_.size() > kept)
      before_.erase(before_.begin() + static_cast<std::ptrdiff_t>(kept), before_.end());
    if (errors_ == before) return true;
    session_.reset();  // the sandbox could not start: no half-made game is kept
    return false;
  }
  session_ = std::make_unique<engine::Session>(loaded.program, options_.session);
  session_->forceDice(carriedDice_);
  newGameForExpect();
  engine::Outcome o = session_->start();
  if (o.kind != engine::Outcome::Ok) {
    out += "error: " + o.message + "\n";
    session_.reset();
    return false;
  }
  const Program& p = session_->program();
  out += fmt::format("{}{}{} ({}seed {})\n", p.title.empty() ? p.rulesetName : p.title,
                     p.scenarioName.empty() ? "" : ": ",
                     p.scenarioTitle.empty() ? p.scenarioName : p.scenarioTitle,
                     p.levels.size() > 1 ? "level " + p.levels[session_->state().level] + ", " : "",
                     options_.session.seed);
  if (!preloaded) out += analysis::provenanceLine(analysis::provenance(p, sm));
  cmdStatus(out);
  return true;
}

void Repl::error(std::string& out, const std::string& msg) {
  ++errors_;
  out += "error: " + msg + "\n";
}

std::string Repl::formatEvent(const eval::TraceEvent& e) const {
  return eval::formatEvent(e);
}

}  // namespace polemos::repl
