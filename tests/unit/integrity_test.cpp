// Integrity at every decision: seeded random games of every shipped scenario in which, at random
// decisions, the game is saved and loaded (checked against its commands, into a new REPL that
// plays on), undone N moves and redone N, and cloned, each compared byte for byte with the game
// as it was; at the end the interrupted game is compared byte for byte with the same game played
// without interruption. POLEMOS_INTEGRITY_GAMES sets the games per scenario (default 2; the long
// run behind -DPOLEMOS_LONG_TESTS=ON plays 20) and POLEMOS_INTEGRITY_MOVES the moves per game
// (default 150; 0: to the end of the game).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "engine/save.h"
#include "repl/repl.h"

using namespace polemos;

namespace {

struct Scenario {
  const char* ruleset;
  const char* scenario;
};

std::string run(repl::Repl& r, const std::string& line) {
  std::string out;
  r.execute(line, out);
  return out;
}

long envNumber(const char* name, long fallback) {
  const char* v = std::getenv(name);
  return v ? std::strtol(v, nullptr, 10) : fallback;
}

struct Rng {
  uint64_t s;
  uint64_t below(uint64_t n) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return (s >> 33) % n;
  }
};

class Integrity : public ::testing::TestWithParam<Scenario> {};

TEST_P(Integrity, SaveLoadUndoRedoAndCloneChangeNothing) {
  const Scenario sc = GetParam();
  const long games = envNumber("POLEMOS_INTEGRITY_GAMES", 2);
  const long moves = envNumber("POLEMOS_INTEGRITY_MOVES", 150);
  for (long g = 0; g < games; ++g) {
    repl::ReplOptions o;
    o.ruleset = sc.ruleset;
    o.scenario = sc.scenario;
    o.session.seed = 1000 + static_cast<uint64_t>(g);
    auto played = std::make_unique<repl::Repl>(o);
    repl::Repl straight(o);
    std::string out;
    ASSERT_TRUE(played->start(out)) << out;
    ASSERT_TRUE(straight.start(out)) << out;
    Rng rng{static_cast<uint64_t>(g) * 7919 + 3};
    int saves = 0, undos = 0, clones = 0;
    for (long m = 0; (moves == 0 || m < moves) && !played->session()->over(); ++m) {
      int errorsBefore = played->errors();
      std::string said = run(*played, "auto 1");
      ASSERT_EQ(said, run(straight, "auto 1")) << sc.scenario << " game " << g << " move " << m;
      ASSERT_EQ(played->errors(), errorsBefore) << said;
      switch (rng.below(12)) {
        case 0: {  // saved, and loaded (checked) into a new REPL that plays on
          std::string text = played->saveText();
          auto loaded = std::make_unique<repl::Repl>(o);
          std::string msg;
          ASSERT_TRUE(loaded->start(msg)) << msg;
          ASSERT_TRUE(loaded->loadText(text, "the saved game", msg))
              << sc.scenario << " game " << g << " move " << m << ": " << msg;
          ASSERT_TRUE(loaded->saveText() == text)
              << sc.scenario << " game " << g << " move " << m << ": the loaded game differs";
          played = std::move(loaded);
          ++saves;
          break;
        }
        case 1: {  // undone N moves and redone N
          std::string before = played->saveText();
          long n = 1 + static_cast<long>(rng.below(4));
          run(*played, "undo " + std::to_string(n));
          for (long i = 0; i < n; ++i) run(*played, "redo");
          ASSERT_TRUE(played->saveText() == before)
              << sc.scenario << " game " << g << " move " << m << ": undo " << n << " and redo "
              << n << " changed the game";
          ++undos;
          break;
        }
        case 2: {  // cloned: the copy is the same game
          engine::Session copy = *played->session();
          ASSERT_TRUE(engine::saveSession(copy) == engine::saveSession(*played->session()))
              << sc.scenario << " game " << g << " move " << m << ": the clone differs";
          ++clones;
          break;
        }
        default:
          break;
      }
    }
    EXPECT_TRUE(played->saveText() == straight.saveText())
        << sc.scenario << " game " << g
        << ": the interrupted game differs from the same game played straight through";
    EXPECT_GT(saves + undos + clones, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Shipped, Integrity,
    ::testing::Values(Scenario{"standard", "chalons"}, Scenario{"fourbattles", "cannae"},
                      Scenario{"deluxe", "phalanx"}, Scenario{"warfare", "pydna"},
                      Scenario{"warfare", "drill"}, Scenario{"warfare", "cicero"}),
    [](const auto& info) { return std::string(info.param.ruleset) + "_" + info.param.scenario; });

}  // namespace
