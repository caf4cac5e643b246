// Fuzz target `save`: a saved game's text (JSON) loaded through Repl::loadText, as `load FILE` and
// the board's /api/load load it, onto a copy of the shipped game it names (its "ruleset" and
// "scenario"; the Chalons game if it names none). Invariants: a save refused (`error:`) leaves
// the game as it was; a save taken in is played on (status, the options, the units, the map,
// three random moves, undo) without a crash; and the game's own save of it loads again to the
// same save. Errors are answers; only crashes, sanitizer reports, aborts and timeouts are findings.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "engine/save.h"
#include "fuzz_common.h"

namespace {

// The shipped game a save names, by its "ruleset" and "scenario" fields.
size_t gameOf(const std::string& text) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object()) return 0;
  const auto& games = polemos::fuzz::games();
  for (size_t i = 0; i < games.size(); ++i) {
    auto rs = j.find("ruleset");
    auto sc = j.find("scenario");
    if (rs != j.end() && rs->is_string() && *rs == games[i].ruleset && sc != j.end() &&
        sc->is_string() && *sc == games[i].scenario)
      return i;
  }
  return 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace polemos;
  std::string text(reinterpret_cast<const char*>(data), size);
  const size_t game = gameOf(text);
  repl::Repl repl(*fuzz::started(game).repl);
  std::string before = engine::saveSession(*repl.session());
  std::string out;
  if (!repl.loadText(text, "fuzz.json", out)) {
    if (engine::saveSession(*repl.session()) != before)
      fuzz::fail("a refused save changed the game:\n" + out);
    return 0;
  }
  // The game's own save of what was loaded loads again, to the same save.
  std::string saved = repl.saveText();
  std::string once = engine::saveSession(*repl.session());
  repl::Repl again(*fuzz::started(game).repl);
  std::string out2;
  if (!again.loadText(saved, "again.json", out2))
    fuzz::fail("the save of a loaded game does not load:\n" + out2);
  if (engine::saveSession(*again.session()) != once)
    fuzz::fail("a loaded game's save loads to another game");
  for (const char* line : {"status", "legal --all", "units", "map", "map --svg -", "why", "log 5",
                           "auto 3", "undo", "redo", "units"}) {
    out.clear();
    repl.execute(line, out);
  }
  return 0;
}
