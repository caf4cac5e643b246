// Session::evaluate: parse an expression, compile it against the game's program (with the units
// set up since it was checked named too), and run it as a pure function on a copy of the state.
#include "check/compiler.h"
#include "diag/diagnostics.h"
#include "engine/session.h"
#include "syntax/parse.h"

namespace polemos::engine {

Session::Evaluation Session::evaluate(const std::string& text, const std::string& origin) const {
  Evaluation out;
  diag::SourceManager sm;
  diag::Diagnostics diags(sm);
  diag::FileId f = sm.add(origin, text);
  auto expr = syntax::parseExpression(diags, f);
  if (!expr || diags.hasErrors()) {
    out.diagnostics = diags.render(false);
    return out;
  }
  // Compile against a copy of the program, so the shared one stays untouched; units placed in
  // a sandbox are named too.
  ir::Program copy = *program_;
  for (size_t u = copy.units.size(); u < state_.units.size(); ++u) {
    const auto& us = state_.units[u];
    ir::UnitSetup setup;
    setup.id = us.id;
    setup.type = us.type;
    setup.side = us.side;
    copy.units.push_back(setup);
  }
  int32_t fn = check::compileExpression(diags, *expr, copy);
  if (fn < 0) {
    out.diagnostics = diags.render(false);
    return out;
  }
  eval::GameState state = state_;
  state.tracing = false;
  eval::Machine machine;
  eval::Interpreter in(copy, state, machine);
  out.value = in.tryCallPure(fn, {}, out.error);
  if (out.value) out.shown = eval::display(copy, state, *out.value);
  return out;
}

}  // namespace polemos::engine
