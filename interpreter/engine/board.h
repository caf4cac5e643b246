// What a click on the board means: a unit chosen and a hex clicked, read as the move the rules
// would make of it. Front ends with a board (the web page of `polemos serve`) ask this and play
// the answer through the same commands as the REPL; the rules decide, not the board.
//
// It only reads the game: it lists the legal options of the current decision (as the REPL's
// `legal` does) and picks the one the click names; it never acts.
#pragma once

#include <optional>
#include <string>

#include "engine/session.h"

namespace polemos::engine {

// The command a click means, as a player types it ("move r43 2621", "move h1 NE", "pick 2").
// In order: a legal option of the unit whose hex argument is the hex (a `move` first, and one that
// keeps the unit's facing where the option also says a facing); a legal
// option of the unit whose direction argument leads from its hex to the hex; else, when the
// ruleset has an action named `move` taking the unit and a hex, that move (the rules then say why
// it is illegal). Nothing, with `why`, when no action of the unit takes the hex.
std::optional<std::string> commandForClick(Session& s, int32_t unit, int32_t hex, std::string& why);

}  // namespace polemos::engine
