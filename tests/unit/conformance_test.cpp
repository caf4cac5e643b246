// Conformance of every shipped scenario (as OpenSpiel's random-simulation tests): seeded random
// games of each ruleset, level and scenario found under rulesets/, in which, at every decision,
//   - a clone of the game equals the original, and stays equal when both take the same option;
//   - the game saved and loaded back saves to the same bytes, and goes on exactly as the original;
//   - undo then redo (the copy from before the decision, given the same option) gives the same
//   game;
// and at the end the replay of the whole game (same seed, same options) reproduces the final state
// and the trace byte for byte. A few short games per scenario by default; POLEMOS_CONFORMANCE_GAMES
// and POLEMOS_CONFORMANCE_DECISIONS (0: no limit) set more, as the long-test option does. It does
// not judge the rules themselves: the rule scripts do that.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "check/loader.h"
#include "engine/random_player.h"
#include "engine/save.h"
#include "engine/session.h"

namespace polemos {
namespace {

namespace fs = std::filesystem;

struct Case {
  std::string ruleset, scenario, level;
  std::string name() const {
    std::string n = ruleset + "_" + scenario + (level.empty() ? "" : "_" + level);
    for (char& c : n)
      if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return n;
  }
};

std::shared_ptr<const ir::Program> load(const std::string& ruleset, const std::string& scenario,
                                        std::string& errors) {
  static diag::SourceManager sm;  // the programs keep no pointers into it, but diagnostics do
  diag::Diagnostics diags(sm);
  check::Loader loader(diags);
  auto loaded = loader.load(check::LoadRequest{ruleset, scenario, {}});
  if (!loaded.program) errors = diags.render(false);
  return loaded.program;
}

// Whether this run's --gtest_filter may select a Shipped/Conformance case. ctest runs each test in
// a process of its own, filtered to that one test by name; loading every shipped scenario (to name
// a case per level) cost each of those processes over two seconds of CPU under the sanitizers
// (scripts/test --sanitize), so a run that cannot select one names none.
bool filterMaySelectConformance() {
  const std::string filter = GTEST_FLAG_GET(filter);
  if (filter.find_first_of("*?-") != std::string::npos) return true;
  std::string_view rest = filter;
  while (true) {
    size_t colon = rest.find(':');
    if (rest.substr(0, colon).starts_with("Shipped/Conformance")) return true;
    if (colon == std::string_view::npos) return false;
    rest.remove_prefix(colon + 1);
  }
}

// Every ruleset/scenarios/NAME.pol of the source tree, at each level its ruleset declares (none
// when the filter cannot select them).
std::vector<Case> shippedCases() {
  std::vector<Case> out;
  if (!filterMaySelectConformance()) return out;
  fs::path root = fs::path(POLEMOS_SOURCE_DIR) / "rulesets";
  std::vector<fs::path> files;
  for (const auto& r : fs::directory_iterator(root)) {
    fs::path sc = r.path() / "scenarios";
    if (!fs::is_directory(sc)) continue;
    for (const auto& f : fs::directory_iterator(sc))
      if (f.path().extension() == ".pol") files.push_back(f.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    std::string ruleset = f.parent_path().parent_path().filename().string();
    std::string scenario = f.stem().string();
    std::string errors;
    auto p = load(ruleset, scenario, errors);
    if (!p || p->levels.size() <= 1) {
      out.push_back(Case{ruleset, scenario, ""});  // a load failure is reported by the test
      continue;
    }
    for (const auto& level : p->levels) out.push_back(Case{ruleset, scenario, level});
  }
  return out;
}

uint64_t envNumber(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

// Lets GoogleTest name a case by its words rather than its bytes.
void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name();
}

class Conformance : public ::testing::TestWithParam<Case> {};

TEST_P(Conformance, RandomGamesCloneSaveUndoReplay) {
  const Case& c = GetParam();
  std::string errors;
  auto program = load(c.ruleset, c.scenario, errors);
  ASSERT_TRUE(program) << errors;
  const uint64_t games = envNumber("POLEMOS_CONFORMANCE_GAMES", 2);
  const uint64_t cap = envNumber("POLEMOS_CONFORMANCE_DECISIONS", 60);
  for (uint64_t g = 0; g < games; ++g) {
    engine::SessionConfig config;
    config.seed = 1000 + g;
    config.level = c.level;
    engine::Session s(program, config);
    ASSERT_EQ(s.start().kind, engine::Outcome::Ok) << c.name();
    std::vector<std::string> played;  // the options taken, as the player types them
    engine::RandomPlayer player(config.seed * 2654435761ull + 7);
    uint64_t decisions = 0;
    while (!s.over() && (cap == 0 || decisions < cap)) {
      const std::string where = c.name() + " seed " + std::to_string(config.seed) + " decision " +
                                std::to_string(decisions) + " (" + s.describeStop() + ")";
      const std::string before = engine::saveSession(s);
      // A clone equals the original.
      engine::Session clone = s;
      ASSERT_EQ(engine::saveSession(clone), before) << "clone differs at " << where;
      // Saved and loaded back, the game saves to the same bytes.
      engine::Session loaded(program, config);
      ASSERT_EQ(loaded.start().kind,
                engine::Outcome::Ok);  // a save loads into a game of its scenario
      auto problem = engine::loadSession(before, loaded);
      ASSERT_FALSE(problem) << *problem << " at " << where;
      ASSERT_EQ(engine::saveSession(loaded), before) << "save/load round trip differs at " << where;
      // A random legal option, by the engine's random player (one refused is set aside and
      // another tried; a refusal must leave the game as it was at this decision).
      engine::Session undo = s;  // the game before the decision
      std::string refusedChange;
      engine::RandomPlayer::Move m = player.play(
          s, [&] { undo = s; },
          [&] {
            if (s.stop().kind == undo.stop().kind && s.stop().index == undo.stop().index &&
                s.stop().player == undo.stop().player && s.stop().count == undo.stop().count &&
                engine::saveSession(s) != engine::saveSession(undo))
              refusedChange = "a refusal changed the game at " + where;
          });
      ASSERT_TRUE(refusedChange.empty()) << refusedChange;
      ASSERT_NE(m.kind, engine::RandomPlayer::Move::None) << "no legal option at " << where;
      ASSERT_NE(m.kind, engine::RandomPlayer::Move::Failed)
          << m.outcome.message << " (" << m.option.text << ") at " << where;
      ASSERT_NE(m.kind, engine::RandomPlayer::Move::Stuck) << "every option refused at " << where;
      if (m.kind == engine::RandomPlayer::Move::Relist) continue;
      const engine::Option& o = m.option;
      std::string taken = o.text;
      const std::string after = engine::saveSession(s);
      // The clone and the loaded game, given the same option, go on exactly as the original.
      ASSERT_EQ(clone.apply(o).kind, engine::Outcome::Ok) << where;
      ASSERT_EQ(engine::saveSession(clone), after)
          << "clone diverged after '" << taken << "' at " << where;
      ASSERT_EQ(loaded.apply(o).kind, engine::Outcome::Ok) << where;
      ASSERT_EQ(engine::saveSession(loaded), after)
          << "loaded game diverged after '" << taken << "' at " << where;
      // Undo then redo: the game from before the decision, given the same option again.
      ASSERT_EQ(undo.apply(o).kind, engine::Outcome::Ok) << where;
      ASSERT_EQ(engine::saveSession(undo), after)
          << "undo and redo of '" << taken << "' differ at " << where;
      played.push_back(taken);
      ++decisions;
    }
    // The replay: the same seed and the same options give the same game, trace included.
    engine::Session replay(program, config);
    ASSERT_EQ(replay.start().kind, engine::Outcome::Ok);
    for (size_t k = 0; k < played.size(); ++k) {
      auto options = replay.legal();
      auto it = std::find_if(options.begin(), options.end(),
                             [&](const engine::Option& o) { return o.text == played[k]; });
      ASSERT_NE(it, options.end()) << "replay: '" << played[k] << "' is not an option at decision "
                                   << k << " of " << c.name() << " seed " << config.seed;
      ASSERT_EQ(replay.apply(*it).kind, engine::Outcome::Ok)
          << "replay refused '" << played[k] << "'";
    }
    EXPECT_EQ(engine::saveSession(replay), engine::saveSession(s))
        << "the replay of " << c.name() << " seed " << config.seed << " differs";
  }
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Conformance);
INSTANTIATE_TEST_SUITE_P(Shipped, Conformance, ::testing::ValuesIn(shippedCases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.name();
                         });

}  // namespace
}  // namespace polemos
