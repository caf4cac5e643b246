// Property test of the REPL on random command lines: nothing crashes or hangs, and every command
// refused (`error: ...`, `illegal: ...`) leaves the game exactly as it was (its save is the same).
// Lines are made of the REPL's commands, the ruleset's actions, its unit ids, hex labels (on and
// off the map), numbers, KEY=VALUE pairs, flags and junk, from a fixed seed so that a failure can
// be replayed (a failure prints the lines so far as a script). POLEMOS_FUZZ_LINES sets the number
// of lines per game (default 150; the soak run behind -DPOLEMOS_LONG_TESTS=ON uses 3000) and
// POLEMOS_FUZZ_SEED moves the seeds.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/save.h"
#include "repl/repl.h"

namespace polemos {
namespace {

struct Rng {
  uint64_t s;
  uint64_t next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return s >> 33;
  }
  size_t below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(next() % n); }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[below(v.size())];
  }
};

// Commands that read or write files, start other games or may run long are left out: they have
// tests of their own.
const std::vector<std::string> kCommands = {"status",
                                            "legal",
                                            "pick",
                                            "end",
                                            "pass",
                                            "next",
                                            "auto 1",
                                            "trace",
                                            "log",
                                            "why",
                                            "dice",
                                            "eval",
                                            "expect",
                                            "units",
                                            "sandbox",
                                            "terrain",
                                            "hexside",
                                            "place",
                                            "remove",
                                            "set",
                                            "setside",
                                            "goto",
                                            "level",
                                            "diff",
                                            "odds",
                                            "map",
                                            "show",
                                            "undo",
                                            "redo",
                                            "help",
                                            "expect illegal",
                                            "expect error",
                                            "expect fired",
                                            "expect not fired"};
const std::vector<std::string> kJunk = {"",
                                        "-",
                                        "--",
                                        "--first",
                                        "--policy",
                                        "random",
                                        "--split",
                                        "--json",
                                        "=",
                                        "==",
                                        "x=",
                                        "=1",
                                        "§",
                                        "§7.4",
                                        "0",
                                        "-1",
                                        "99999999999999999999",
                                        "1.5",
                                        "3:1",
                                        "N",
                                        "SE",
                                        "facing",
                                        "as",
                                        "on",
                                        "off",
                                        "all",
                                        "none",
                                        "true",
                                        "false",
                                        "[",
                                        "]",
                                        "(",
                                        ")",
                                        "\"",
                                        "'",
                                        "0101",
                                        "0000",
                                        "9999",
                                        "A1",
                                        "Z99",
                                        "..",
                                        "0101..0303",
                                        "strength=3",
                                        "hits=x",
                                        "facing=UP",
                                        "disordered=true",
                                        "cp=2",
                                        "mark=red_mark",
                                        "hex=0505",
                                        "hex=Q9",
                                        "units(",
                                        "1 +",
                                        "unit(\"nobody\").hex",
                                        "sides()[5]",
                                        "1/0",
                                        "turn()",
                                        "legal_moves"};

std::string randomLine(Rng& r, const repl::Repl& repl) {
  const engine::Session& s = *repl.session();
  const auto& P = s.program();
  const auto& st = s.state();
  std::vector<std::string> words;
  // A fifth of the lines take an option of the decision at hand, so the games go on into their
  // middle turns (a number past the options is refused like any other).
  if (r.below(5) == 0) return "pick " + std::to_string(1 + r.below(8));
  if (r.below(3) == 0 && !P.actions.empty())
    words.push_back(P.actions[r.below(P.actions.size())].name);
  else
    words.push_back(r.pick(kCommands));
  size_t n = r.below(5);
  for (size_t i = 0; i < n; ++i) {
    switch (r.below(6)) {
      case 0:
        if (!st.units.empty()) words.push_back(st.units[r.below(st.units.size())].id);
        break;
      case 1:
        if (st.map.size() > 0)
          words.push_back(
              st.map.label(static_cast<int32_t>(r.below(static_cast<size_t>(st.map.size())))));
        break;
      case 2:
        words.push_back(std::to_string(static_cast<int64_t>(r.below(12)) - 1));
        break;
      case 3:
        if (!P.sides.empty()) words.push_back(P.sides[r.below(P.sides.size())].name);
        break;
      case 4:
        if (!P.unitTypes.empty()) words.push_back(P.unitTypes[r.below(P.unitTypes.size())].name);
        break;
      default:
        words.push_back(r.pick(kJunk));
    }
  }
  std::string line;
  for (const auto& w : words) line += (line.empty() ? "" : " ") + w;
  return line;
}

// The save without the queue of forced dice: a forced die that is not a face of the die rolled
// refuses the command and drops the queue (said in the message), which is all it may change.
std::string withoutForcedDice(const std::string& save) {
  auto j = nlohmann::json::parse(save);
  j.erase("forced_dice");
  return j.dump();
}

void fuzz(const std::string& ruleset, const std::string& scenario, uint64_t seed) {
  int lines = 150;
  if (const char* env = std::getenv("POLEMOS_FUZZ_LINES")) lines = std::max(1, std::atoi(env));
  repl::ReplOptions o;
  o.ruleset = ruleset;
  o.scenario = scenario;
  repl::Repl repl(o);
  std::string out;
  ASSERT_TRUE(repl.start(out)) << out;
  if (const char* env = std::getenv("POLEMOS_FUZZ_SEED"))
    seed += static_cast<uint64_t>(std::atoll(env)) * 1000;
  Rng r{seed};
  std::string script =
      "# ruleset: " + ruleset + "\n" + (scenario.empty() ? "" : "# scenario: " + scenario + "\n");
  for (int i = 0; i < lines; ++i) {
    std::string line = randomLine(r, repl);
    std::string before = engine::saveSession(*repl.session());
    out.clear();
    // `quit` (or `exit` alone) asks to leave, and changes nothing: left out of the replay script.
    if (repl.execute(line, out)) script += line + "\n";
    bool refused = out.rfind("error:", 0) == 0 || out.rfind("illegal:", 0) == 0;
    if (refused && out.find("the forced dice are dropped") != std::string::npos) {
      ASSERT_EQ(withoutForcedDice(engine::saveSession(*repl.session())), withoutForcedDice(before))
          << ruleset << " seed " << seed << ", line " << i << ": `" << line << "` was refused ("
          << out << ") but changed the game. The script so far (for polemos run):\n"
          << script;
    } else if (refused) {
      ASSERT_EQ(engine::saveSession(*repl.session()), before)
          << ruleset << " seed " << seed << ", line " << i << ": `" << line << "` was refused ("
          << out << ") but changed the game. The script so far (for polemos run):\n"
          << script;
    }
  }
}

TEST(ReplFuzz, StandardSandbox) {
  fuzz("standard", "", 11);
}
TEST(ReplFuzz, FourBattlesCannae) {
  fuzz("fourbattles", "cannae", 12);
}
TEST(ReplFuzz, DeluxePhalanx) {
  fuzz("deluxe", "phalanx", 13);
}
TEST(ReplFuzz, DeluxeSandbox) {
  fuzz("deluxe", "", 14);
}
TEST(ReplFuzz, StandardChalons) {
  fuzz("standard", "chalons", 15);
}

}  // namespace
}  // namespace polemos
