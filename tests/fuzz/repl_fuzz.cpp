// Fuzz target `repl`: a script of command lines played through repl::Repl on a shipped game. The
// first byte picks the game (fuzz_common.h: each scenario, then each ruleset's sandbox); the rest
// is cut into at most 64 lines of at most 256 bytes. Lines that would read or write files, or run
// long by design, are skipped (LineFilter). Invariant, as tests/unit/repl_fuzz_test.cpp holds it:
// a command refused (its answer starts with `error:` or `illegal:`) leaves the game as it was (its
// save the same, but for the queue of forced dice that such a refusal may drop, and but for a pick
// refused in the middle of an action, which takes the action back).
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "engine/save.h"
#include "fuzz_common.h"

namespace {

std::string withoutForcedDice(const std::string& save) {
  auto j = nlohmann::json::parse(save, nullptr, false);
  if (j.is_object()) j.erase("forced_dice");
  return j.dump();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace polemos;
  if (size == 0) return 0;
  const size_t game = data[0] % fuzz::games().size();
  repl::Repl repl(*fuzz::started(game).repl);
  fuzz::LineFilter filter;
  for (const std::string& line : fuzz::lines(data + 1, size - 1, 64, 256)) {
    if (!filter.allows(line)) continue;
    std::string before = repl.session() ? engine::saveSession(*repl.session()) : "";
    std::string out;
    bool more = repl.execute(line, out);
    if (!repl.session()) fuzz::fail("no game after `" + line + "`");
    bool refused = out.rfind("error:", 0) == 0 || out.rfind("illegal:", 0) == 0;
    // A pick refused in the middle of an action takes the whole action back, by design (the
    // action is illegal with that choice: tests/rules/standard/7_52_never_voluntarily.script).
    if (refused && fuzz::command(line) != "pick") {
      std::string after = engine::saveSession(*repl.session());
      bool dropped = out.find("the forced dice are dropped") != std::string::npos;
      if (dropped ? withoutForcedDice(after) != withoutForcedDice(before) : after != before)
        fuzz::fail("`" + line + "` was refused but changed the game:\n" + out);
    }
    if (!more) break;
  }
  return 0;
}
