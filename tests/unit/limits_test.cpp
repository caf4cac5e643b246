// limits/limits.h: every limit named once; at their edges (the value at the limit works, one past
// it is refused with a clear message and changes nothing) the map size, the moves of one `auto`
// and the units of a saved game. The other edges have tests of their own: the dice per roll
// (tests/lang/limits/limit_dice_per_roll_edge.pol, tests/errors/limit_dice_per_roll_over.pol), the
// call depth (tests/lang/limits/recursion_limit.pol), the pure-call depth
// (tests/lang/limits/pure_depth_edge.pol, pure_depth_over.pol), the numbers in a range
// (tests/lang/limits/range_*.pol), the step budget (tests/lang/limits/runaway_loop_budget.pol),
// nesting and file size (syntax_robustness_test.cpp).
#include "limits/limits.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "check/loader.h"
#include "check/sandbox.h"
#include "diag/diagnostics.h"
#include "engine/save.h"
#include "repl/repl.h"

namespace polemos {
namespace {

TEST(Limits, EachIsNamedOnceWithItsReason) {
  std::set<std::string> names;
  for (const auto& l : limits::all()) {
    EXPECT_TRUE(names.insert(l.name).second) << l.name;
    EXPECT_GT(l.value, 0) << l.name;
    EXPECT_FALSE(std::string(l.what).empty()) << l.name;
  }
  EXPECT_EQ(limits::all().size(), 23u);
}

TEST(Limits, MapAtTheEdge) {
  diag::SourceManager sources;
  diag::Diagnostics diags(sources);
  check::Loader loader(diags);
  auto program = loader.load(check::LoadRequest{"standard", "", {}}).program;
  ASSERT_TRUE(program);
  std::string why;
  check::SandboxSpec edge{1, limits::kMaxMapSide, 1, 2, {}, -1};
  EXPECT_NE(check::sandboxProgram(*program, edge, why), nullptr) << why;
  check::SandboxSpec over{2, limits::kMaxMapSide, 1, 2, {}, -1};
  EXPECT_EQ(check::sandboxProgram(*program, over, why), nullptr);
  EXPECT_NE(why.find("numbered up to 200"), std::string::npos) << why;
  check::SandboxSpec wide{1, limits::kMaxMapSide + 1, 1, 2, {}, -1};
  EXPECT_EQ(check::sandboxProgram(*program, wide, why), nullptr);
}

// The duel of the REPL transcripts: two sides strike in turn for two turns, then the game ends.
std::unique_ptr<repl::Repl> startDuel() {
  repl::ReplOptions o;
  o.ruleset = std::string(POLEMOS_TEST_DIR) + "/golden/duel.pol";
  o.scenario = o.ruleset;
  auto r = std::make_unique<repl::Repl>(o);
  std::string out;
  EXPECT_TRUE(r->start(out)) << out;
  return r;
}

std::string run(repl::Repl& r, const std::string& command) {
  std::string out;
  r.execute(command, out);
  return out;
}

TEST(Limits, AutoMovesAtTheEdge) {
  ASSERT_EQ(limits::kMaxAutoMoves, 1'000'000);
  auto owner = startDuel();
  repl::Repl& r = *owner;
  // One move past the limit is refused before any move is made.
  std::string before = engine::saveSession(*r.session());
  std::string out = run(r, "auto 1000001");
  EXPECT_EQ(out, "error: auto makes at most 1000000 moves at a time\n");
  EXPECT_EQ(engine::saveSession(*r.session()), before);
  EXPECT_EQ(r.errors(), 1);
  // The limit itself is accepted: the random player plays the duel to its end, well within it.
  out = run(r, "auto 1000000");
  EXPECT_EQ(out.find("error:"), std::string::npos) << out;
  EXPECT_EQ(out.rfind("auto: ", 0), 0u) << out;
  EXPECT_TRUE(r.session()->over()) << out;
  EXPECT_EQ(r.errors(), 1);
}

// A save of the duel with its units made up to `count` (copies of its first unit, named x4, x5...
// after the scenario's four, as units placed in a sandbox come after the scenario's), written to
// `path`.
void writeSaveWithUnits(const std::string& save, size_t count, const std::filesystem::path& path) {
  nlohmann::json j = nlohmann::json::parse(save);
  nlohmann::json& units = j["units"];
  nlohmann::json proto = units.at(0);
  for (size_t i = units.size(); i < count; ++i) {
    proto["id"] = "x" + std::to_string(i);
    units.push_back(proto);
  }
  std::ofstream(path) << j.dump();
}

TEST(Limits, SavedUnitsAtTheEdge) {
  ASSERT_EQ(limits::kMaxSavedUnits, 100'000u);
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("polemos_limits_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto owner = startDuel();
  repl::Repl& r = *owner;
  std::string save = engine::saveSession(*r.session());
  std::string edge = (dir / "edge.json").string(), over = (dir / "over.json").string();
  writeSaveWithUnits(save, limits::kMaxSavedUnits, edge);
  writeSaveWithUnits(save, limits::kMaxSavedUnits + 1, over);

  // One unit past the limit: refused with the reason, the game as it was.
  std::string out = run(r, "load " + over);
  EXPECT_EQ(out, fmt::format("error: {} was not loaded: the save has 100001 units, more than the "
                             "100000 a saved game may have; the current game is unchanged\n",
                             over));
  EXPECT_EQ(engine::saveSession(*r.session()), save);

  // At the limit: loaded (unchecked: a crafted save has no commands that make it), every unit
  // there.
  out = run(r, "load --trust " + edge);
  EXPECT_EQ(out.rfind("loaded " + edge + " unchecked", 0), 0u) << out.substr(0, 300);
  ASSERT_EQ(r.session()->state().units.size(), limits::kMaxSavedUnits);
  EXPECT_EQ(r.session()->state().units.back().id, "x99999");

  // A game at the limit cannot grow past it: `place` refuses, so every game can be saved and
  // loaded again.
  std::string full = engine::saveSession(*r.session());
  out = run(r, "place red fighter 0202 as extra");
  EXPECT_EQ(out, "error: a game has at most 100000 units (the most a saved game may have)\n");
  EXPECT_EQ(engine::saveSession(*r.session()), full);
  EXPECT_EQ(r.errors(), 2);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace polemos
