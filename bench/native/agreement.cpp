// The native baseline does the same work as the interpreter (bench/native/standard_native.h):
// this program checks it, as the test bench.native_agrees. For every unit on the map, the native
// movement search reaches the same hexes as the interpreter's reachable(u), at the start of a
// Chalons game and at several points of a seeded random game; the native melee gives the
// interpreter's result for each face of the die. Prints the first disagreement and exits 1.
#include <cstdio>
#include <string>

#include "common/situations.h"
#include "engine/random_player.h"
#include "native/standard_native.h"

using namespace polemos;

namespace {

int failures = 0;

void fail(const std::string& what) {
  if (failures++ < 10) std::fprintf(stderr, "disagreement: %s\n", what.c_str());
}

void compareSearches(engine::Session& g, int32_t move, const std::string& when) {
  native::Board b = native::boardOf(g);
  std::vector<int> cost;
  const auto& units = g.state().units;
  for (size_t u = 0; u < units.size(); ++u) {
    if (units[u].status != eval::UnitStatus::OnMap) continue;
    // The interpreter's search starts from the MA left; the native one from the printed MA: only
    // units that have not moved this phase are compared.
    std::vector<ir::Value> prefix{ir::Value::of(ir::Tag::Unit, u)};
    std::string spent;
    auto v = g.evaluate(units[u].id.empty() ? "0" : "unit(\"" + units[u].id + "\").mp_spent");
    if (v.value && v.value->tag == ir::Tag::Int && v.value->i != 0) continue;
    std::vector<uint8_t> interpreted(static_cast<size_t>(b.size), 0);
    const ir::Value reached = g.candidates(move, prefix);
    for (const ir::Value& h : reached.items()) interpreted[static_cast<size_t>(h.i)] = 1;
    native::reach(b, static_cast<int>(u), native::viewOf(b, b.units[u].side), cost);
    for (int h = 0; h < b.size; ++h) {
      if ((cost[static_cast<size_t>(h)] >= 0) != (interpreted[static_cast<size_t>(h)] != 0)) {
        fail(when + ": " + units[u].id + " to " + g.state().map.label(h) + ": native " +
             (cost[static_cast<size_t>(h)] >= 0 ? "reaches" : "does not reach") +
             ", the interpreter " + (interpreted[static_cast<size_t>(h)] ? "does" : "does not"));
        break;
      }
    }
  }
}

void compareMelee() {
  bench::Situation& s = bench::situation();
  if (s.attack < 0) return fail("the melee situation cannot be set up");
  const char* names[] = {"AR", "AL", "EX", "DR", "DL", "none"};  // no effect: none
  int att1 = -1, att2 = -1, def = -1;
  for (size_t i = 0; i < s.game->state().units.size(); ++i) {
    const std::string& id = s.game->state().units[i].id;
    (id == "a" ? att1 : id == "b" ? att2 : def) = static_cast<int>(i);
  }
  for (int die = 1; die <= 6; ++die) {
    native::Board b = native::boardOf(*s.game);
    int r = native::resolveMelee(b, {att1, att2}, def, die);
    engine::Session copy = *s.game;
    copy.restartTrace();
    copy.forceDice({die});
    copy.act(s.attack, s.args);
    while (copy.stop().kind == eval::Stop::Choose) copy.pick(0);
    std::string result;
    for (const auto& e : copy.state().trace)
      if (e.cites("7.6") && e.kind == eval::TraceKind::Note)
        result = e.subject + " " + e.inputs + " " + e.output;
    if (result.find("result") == std::string::npos || result.find(names[r]) == std::string::npos)
      fail("melee with a " + std::to_string(die) + ": native " + names[r] +
           ", the interpreter's trace says '" + result + "'");
  }
}

}  // namespace

int main() {
  auto g = bench::chalons();
  if (!g) {
    std::fprintf(stderr, "cannot start Chalons\n");
    return 1;
  }
  int32_t move = engine::findAction(g->program(), "move");
  compareSearches(*g, move, "at the start");
  engine::RandomPlayer player = engine::RandomPlayer::forSeed(7);
  for (int decision = 1; decision <= 600 && !g->over(); ++decision) {
    player.play(*g);
    if (decision % 150 == 0)
      compareSearches(*g, move, "after " + std::to_string(decision) + " decisions");
  }
  compareMelee();
  if (failures) return 1;
  std::printf("the native rules agree with the interpreter\n");
  return 0;
}
