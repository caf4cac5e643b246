// Situations the benchmarks share, set up through the engine's typed edits (no REPL): the Standard
// 3:1 attack (a 12x10 sandbox, two blue infantry of 5 and 4 next to one red of 3, the blue combat
// phase) and a started Chalons game. Header-only: each benchmark program includes it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "check/loader.h"
#include "diag/diagnostics.h"
#include "engine/reading.h"
#include "engine/session.h"
#include "engine/setup.h"

namespace polemos::bench {

inline std::shared_ptr<const ir::Program> loadProgram(const char* ruleset, const char* scenario) {
  diag::SourceManager sm;
  diag::Diagnostics diags(sm);
  check::Loader loader(diags);
  return loader.load(check::LoadRequest{ruleset, scenario, {}}).program;
}

struct Situation {
  std::unique_ptr<engine::Session> game;
  int32_t attack = -1;
  std::vector<ir::Value> args;
};

// The situation is set up through the engine's typed edits: a 12x10 sandbox of Standard, three
// infantry units, the blue combat phase; traced as at the REPL, or not (as `sim` plays).
inline Situation makeSituation(bool tracing) {
  Situation x;
  diag::SourceManager sm;
  diag::Diagnostics diags(sm);
  auto loaded = check::Loader(diags).load(check::LoadRequest{"standard", "", {}});
  if (!loaded.program) return x;
  std::string why;
  engine::SessionConfig config;
  config.tracing = tracing;
  auto game =
      engine::openSandbox(*loaded.program, check::SandboxSpec{1, 12, 1, 10, {}}, config, why);
  if (!game) return x;
  const ir::Program& P = game->program();
  int32_t blue = engine::findSide(P, "blue"), red = engine::findSide(P, "red");
  int32_t inf = engine::findUnitType(P, "inf");
  const ir::Schema& cls = P.classes[P.unitTypes[inf].cls];
  int32_t strength = -1;
  for (size_t f = 0; f < cls.fields.size(); ++f)
    if (cls.fields[f].name == "strength") strength = static_cast<int32_t>(f);
  auto place = [&](int32_t side, const char* hex, const char* id, int64_t str) {
    return engine::applyEdit(*game, engine::edit::Place{side,
                                                        inf,
                                                        game->state().map.parse(hex),
                                                        -1,
                                                        id,
                                                        {{strength, ir::Value::integer(str)}}})
               .kind == engine::Outcome::Ok;
  };
  if (!place(blue, "0505", "a", 5) || !place(blue, "0606", "b", 4) || !place(red, "0506", "d", 3))
    return x;
  if (engine::gotoPhase(*game, engine::findPhase(P, "combat"), blue, false, nullptr).kind !=
      engine::Outcome::Ok)
    return x;
  x.attack = engine::findAction(P, "attack");
  x.args = {ir::Value::of(ir::Tag::Hex, game->state().map.parse("0506"))};
  x.game = std::move(game);
  return x;
}
inline Situation& situation() {
  static Situation s = makeSituation(true);
  return s;
}
inline Situation& untracedSituation() {
  static Situation s = makeSituation(false);
  return s;
}

// The attack of situation() played once on a copy of `base` (the situation's game with its trace
// restarted), the die from the generator seeded with `seed`, every choice its first option.
inline engine::Session playAttackOnce(const engine::Session& base, const Situation& s,
                                      uint64_t seed) {
  engine::Session copy = base;
  copy.setRngState(seed);
  copy.act(s.attack, s.args);
  while (copy.stop().kind == eval::Stop::Choose) copy.pick(0);
  return copy;
}

// A started Chalons game (seed 1, no trace), at its first decision.
inline std::unique_ptr<engine::Session> chalons() {
  auto program = loadProgram("standard", "chalons");
  if (!program) return nullptr;
  engine::SessionConfig cfg;
  cfg.tracing = false;
  auto s = std::make_unique<engine::Session>(program, cfg);
  if (s->start().kind != engine::Outcome::Ok) return nullptr;
  return s;
}

}  // namespace polemos::bench
