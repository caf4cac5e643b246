// REPL: what a board front end (the page of `polemos serve`) asks of the game besides commands:
// the options of the decision in front of it, and the command a click on the board means. Both
// only read the game; the board then plays through execute() like any command line.
#include "engine/board.h"

#include <fmt/format.h>

#include "engine/reading.h"
#include "repl/repl.h"

namespace polemos::repl {

std::vector<engine::Option> Repl::legalOptions() {
  if (!session_) return {};
  return session_->legal();
}

std::optional<std::string> Repl::clickCommand(const std::string& unit, const std::string& hex,
                                              std::string& why) {
  if (!session_) {
    why = "no game";
    return std::nullopt;
  }
  const auto& st = session_->state();
  int32_t u = engine::readUnit(st, unit, why);
  if (u < 0) return std::nullopt;
  int32_t h = st.map.parse(hex);
  if (h < 0) {
    why = fmt::format("no hex '{}' on this map", hex);
    return std::nullopt;
  }
  return engine::commandForClick(*session_, u, h, why);
}

}  // namespace polemos::repl
