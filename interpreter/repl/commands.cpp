// The REPL's command table and its dispatcher: one row per command (name, usage, help text,
// handler), the help, and the completion of command names. Each handler lives with its concern
// (play.cpp, expect.cpp, setup.cpp, views.cpp, svg.cpp, files.cpp, rules.cpp, compare.cpp) and
// only parses its arguments, calls the engine or an analysis, and renders.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "engine/reading.h"
#include "repl/repl.h"
#include "repl/text.h"
#include "syntax/text.h"

namespace polemos::repl {

const std::vector<Repl::Command>& Repl::commands() {
  static const std::vector<Command> kCommands = {
      {"status", "status",
       "where the game stands: turn N of M, phase, who must act and how; then the standing the "
       "ruleset declares (victory points, losses, panic, command points, what is still owed)",
       [](Repl& r, const Line& l, std::string& out) { r.cmdStatusFull(out); }, 0},
      {"legal", "legal [UNIT] [--all]",
       "the numbered legal options at the current decision (with UNIT: those that name it); at a "
       "terminal more than 40 are summarised by action and unit unless --all",
       [](Repl& r, const Line& l, std::string& out) { r.cmdLegal(l.args, out); }, 2},
      {"pick", "pick N|OPTION",
       "take option N of `legal` (or of a pending choice), or the option written OPTION (`pick "
       "0303`)",
       [](Repl& r, const Line& l, std::string& out) { r.cmdPick(l.args, out); }},
      {"end", "end", "end the current phase (if its end requirements hold)",
       [](Repl& r, const Line& l, std::string& out) { r.cmdEnd(l.args, out); }, 0},
      {"pass", "pass", "pass in an alternation (two passes in a row end it)",
       [](Repl& r, const Line& l, std::string& out) { r.cmdEnd(l.args, out); }, 0},
      {"next", "next",
       "run to the next decision (dice are rolled as they come); at a pause, go on to the next "
       "stop",
       [](Repl& r, const Line& l, std::string& out) { r.cmdNext(out); }, 0},
      {"step", "step [on|off]",
       "stop at each pause of the rules (the quarter turns of an events phase) and show the "
       "state there; alone: says which",
       [](Repl& r, const Line& l, std::string& out) { r.cmdStep(l.args, out); }, 1},
      {"auto", "auto [N]", "a random legal player acts N times (default: to the end of the game)",
       [](Repl& r, const Line& l, std::string& out) { r.cmdAuto(l.args, out); }, 1},
      {"trace", "trace [off|results|on|all]",
       "how much of what the rules did is shown after each command: results (rolls, tables, "
       "choices, notes, moves, eliminations and changes of what a player sees; the default of "
       "`polemos play`), on (every rule that fired; the default of scripts), all (with phases "
       "and the bookkeeping a new phase clears), off; alone: says which",
       [](Repl& r, const Line& l, std::string& out) { r.cmdTrace(l.args, out); }, 1},
      {"log", "log [N]", "the last N trace events (default 20)",
       [](Repl& r, const Line& l, std::string& out) { r.cmdLog(l.args, out); }, 1},
      {"why", "why", "the chain of events behind the last result",
       [](Repl& r, const Line& l, std::string& out) { r.cmdWhy(out); }, 0},
      {"dice", "dice [N N ... | --clear]",
       "force the next dice rolls, in order (carried into a new game started next); alone: the "
       "forced queue; --clear: none forced",
       [](Repl& r, const Line& l, std::string& out) { r.cmdDice(l.args, out); }},
      {"eval", "eval EXPR", "evaluate an expression of the language on the current game",
       [](Repl& r, const Line& l, std::string& out) { r.cmdExpect(l.args, l.rest, out); }},
      {"expect", "expect EXPR | expect [not] fired §N [TEXT] | expect illegal|error COMMAND",
       "print ok if EXPR is true, or FAILED with its value; `fired` checks that rule N fired (with "
       "TEXT "
       "in its trace line) in the commands since the previous `expect fired`; `illegal`/`error` "
       "run COMMAND and check "
       "that it is refused",
       [](Repl& r, const Line& l, std::string& out) { r.cmdExpect(l.args, l.rest, out); }},
      {"units", "units [SIDE]", "list units with their hexes, facing, counter values and markers",
       [](Repl& r, const Line& l, std::string& out) { r.cmdUnits(l.args, out); }, 1},
      {"sandbox", "sandbox COLSxROWS [from HEX] [--sides A,B] [--letters|--numbers]",
       "a new empty map under the current ruleset (its first hex 0101, or HEX; its sides the "
       "game's, or A, B; its hexes labelled as the ruleset's maps are, or by letters (A1) or "
       "numbers (0101)), for setting up a situation",
       [](Repl& r, const Line& l, std::string& out) { r.cmdSandbox(l.args, out); }},
      {"terrain", "terrain HEX KIND", "set a hex's terrain",
       [](Repl& r, const Line& l, std::string& out) { r.cmdTerrain(l.args, out); }, 2},
      {"elevation", "elevation HEX N", "set a hex's elevation (Warfare: N steps of 10 m)",
       [](Repl& r, const Line& l, std::string& out) { r.cmdElevation(l.args, out); }, 2},
      {"hexside", "hexside HEX HEX KIND",
       "add a feature (stream, ridge, ...) to the hexside between two hexes",
       [](Repl& r, const Line& l, std::string& out) { r.cmdHexside(l.args, out); }, 3},
      {"restart", "restart",
       "run the rules' sequence again from its start on the situation as it stands (units, "
       "hexes, fields set up by hand), forced dice first: a sandbox begins its first turn",
       [](Repl& r, const Line& l, std::string& out) { r.cmdRestart(out); }, 0},
      {"place", "place SIDE TYPE HEX|off [facing DIR] [as ID] [KEY=VALUE...]",
       "put a new unit on the map",
       [](Repl& r, const Line& l, std::string& out) { r.cmdPlace(l.args, out); }},
      {"remove", "remove UNIT", "take a unit off the map",
       [](Repl& r, const Line& l, std::string& out) { r.cmdRemove(l.args, out); }, 1},
      {"set", "set UNIT KEY=VALUE...",
       "change fields of a unit (strength, disrupted, facing, hex, ...), all or none",
       [](Repl& r, const Line& l, std::string& out) { r.cmdSet(l.args, false, out); }},
      {"setside", "setside SIDE KEY=VALUE...",
       "change a side's state (losses, demoralized level, ...), all or none",
       [](Repl& r, const Line& l, std::string& out) { r.cmdSet(l.args, true, out); }},
      {"setgame", "setgame KEY=VALUE...", "change the game state (the weather, ...), all or none",
       [](Repl& r, const Line& l, std::string& out) { r.cmdSetGame(l.args, out); }},
      {"sethex", "sethex HEX KEY=VALUE...",
       "change a hex's hex state (a fort's strength, a village afire, ...), all or none",
       [](Repl& r, const Line& l, std::string& out) { r.cmdSetHex(l.args, out); }},
      {"goto", "goto PHASE [SIDE] [--first]",
       "end phases until PHASE (of SIDE) begins (--first: take the first option of each decision "
       "on the way)",
       [](Repl& r, const Line& l, std::string& out) { r.cmdGoto(l.args, out); }, 3},
      {"ruleset", "ruleset NAME",
       "start a new game under another ruleset (its default scenario, if named)",
       [](Repl& r, const Line& l, std::string& out) { r.cmdNewGame(l.args, out); }, 1},
      {"scenario", "scenario NAME", "start a new game of another scenario of this ruleset",
       [](Repl& r, const Line& l, std::string& out) { r.cmdNewGame(l.args, out); }, 1},
      {"house", "house [FILE | --clear]",
       "the house-rule files in effect, or start a new game with FILE added to them (--clear: "
       "none)",
       [](Repl& r, const Line& l, std::string& out) { r.cmdHouse(l.args, out); }, 1},
      {"level", "level [NAME]",
       "the level being played, or start a new game of this ruleset and scenario at level NAME",
       [](Repl& r, const Line& l, std::string& out) { r.cmdNewGame(l.args, out); }, 1},
      {"compare", "compare TARGET... [--level L] [--map FROM=TO]... -- ACTION ARGS [--policy P]",
       "the odds of ACTION here and in the same situation under each TARGET (a ruleset or a "
       "house-rule file), side by side, with the rules that differ",
       [](Repl& r, const Line& l, std::string& out) { r.cmdCompare(l.args, out); }},
      {"tables", "tables",
       "the ruleset's tables (name, title, rules, size), those whose values are ours marked "
       "RECONSTRUCTED",
       [](Repl& r, const Line& l, std::string& out) { r.cmdTables(l.args, out); }, 0},
      {"table", "table NAME",
       "one table printed as on a player aid card: row keys down the left, column keys across",
       [](Repl& r, const Line& l, std::string& out) { r.cmdTables(l.args, out); }, 1},
      {"rule", "rule N",
       "rule N (7.43 or §7.43) of this game's rules: the declarations (file:line) and the test "
       "scripts that cite it",
       [](Repl& r, const Line& l, std::string& out) { r.cmdRule(l.args, out); }, 1},
      {"diff", "diff [OTHER | A B]",
       "the rules that differ from this game's (with its house rules) to OTHER, a ruleset or file; "
       "alone: what the house rules change",
       [](Repl& r, const Line& l, std::string& out) { r.cmdDiff(l.args, out); }, 2},
      {"odds",
       "odds [ACTION ARGS...] [--policy first|last|random] [--split] [--picks N,N...] [--json]",
       "the exact probability of every outcome of ACTION (alone: of the action under way), every "
       "roll enumerated "
       "to the end of its resolution; decisions by the policy (default first), or each option "
       "apart with --split; "
       "the game is not changed",
       [](Repl& r, const Line& l, std::string& out) { r.cmdOdds(l.args, out); }},
      {"map", "map [UNIT | HEX..HEX] | map --svg FILE [--reach UNIT] [--zoc UNIT] [--los HEX HEX]",
       "the map as text (terrain letters and elevation, units by full id with facing; under it "
       "the stacks, markers and hexside features), around a unit or over a region, cut to the "
       "window; or as an SVG picture (FILE - writes it out here)",
       [](Repl& r, const Line& l, std::string& out) { r.cmdMap(l.args, out); }},
      {"reach", "reach UNIT",
       "the hexes UNIT can move to now, each with the cheapest cost of getting there (the "
       "ruleset's movement rules, as a move is held to them), on the map around it",
       [](Repl& r, const Line& l, std::string& out) { r.cmdReach(l.args, out); }, 1},
      {"show", "show UNIT|SIDE|HEX [--all]",
       "one unit (facing, counter values, markers), one side (its standing) or one hex; --all: "
       "a unit's or a side's bookkeeping fields too",
       [](Repl& r, const Line& l, std::string& out) { r.cmdShow(l.args, out); }, 2},
      {"undo", "undo [N]",
       "take back the last N moves (default 1); with none left, go back to the game a new one "
       "replaced",
       [](Repl& r, const Line& l, std::string& out) { r.cmdUndo(l.args, out); }, 1},
      {"redo", "redo", "put back a move taken back",
       [](Repl& r, const Line& l, std::string& out) { r.cmdRedo(out); }, 0},
      {"save", "save FILE", "save the game (JSON)",
       [](Repl& r, const Line& l, std::string& out) { r.cmdSave(l.args, out); }, 1},
      {"load", "load FILE [--trust] | load --autosave",
       "load a saved game of this ruleset and scenario, checked by playing its commands again "
       "(a state they do not make is refused); --trust: load it unchecked, as an edited game; "
       "--autosave: the game a new one last replaced (sandbox, scenario, ruleset, level, house), "
       "under its own rules",
       [](Repl& r, const Line& l, std::string& out) { r.cmdLoad(l.args, out); }, 2},
      {"replay", "replay FILE",
       "replay a saved game from its start (same seed, same commands), showing each move",
       [](Repl& r, const Line& l, std::string& out) { r.cmdReplay(l.args, out); }, 1},
      {"help", "help [COMMAND|ACTION]", "this list, or one command or one ruleset action",
       [](Repl& r, const Line& l, std::string& out) { r.cmdHelp(l.args, out); }, 1},
      {"quit", "quit", "leave", nullptr, 0},
  };
  return kCommands;
}

namespace {

// What an argument word of a command's usage takes, with an example.
const std::map<std::string, std::string>& argumentHelp() {
  static const std::map<std::string, std::string> kArgs = {
      {"UNIT", "a unit's id, as `units` lists them (r43)"},
      {"HEX", "a hex label: column then row (2624), or letter then row on a lettered map (C3)"},
      {"SIDE", "a side's name, as `status` lists them (roman)"},
      {"TYPE", "a unit type of the ruleset (legion)"},
      {"N", "a whole number (2)"},
      {"FILE", "a file's path (game.json)"},
      {"EXPR", "an expression of the rule language (distance(2624, 2725), unit(\"r43\").hits)"},
      {"DIR", "a direction: N, NE, SE, S, SW or NW (or 0 to 5)"},
      {"ID", "a new unit's id, starting with a letter (x1)"},
      {"KEY=VALUE", "a field and its value (hits=2, disrupted=true)"},
      {"PHASE", "a phase of the ruleset's sequence (combat)"},
      {"NAME", "a name (a ruleset, a scenario, a level, a table)"},
      {"COLSxROWS", "a map's size (12x10)"},
      {"OPTION", "an option as `legal` writes it (move r43 2621)"},
      {"ACTION", "an action of the ruleset with its arguments (attack 0304)"},
      {"COMMAND", "a command or an action (help move)"},
      {"TEXT", "words to find in the trace line"},
      {"TERRAIN", "a terrain of the ruleset (woods)"},
      {"FEATURE", "a hexside feature of the ruleset (stream)"},
      {"TARGET", "a ruleset, or a house-rule file over this game's rules"},
      {"§N", "a rule number (§7.6 or 7.6)"},
  };
  return kArgs;
}

// Text wrapped to `width` columns (0: not wrapped), continuation lines indented by `indent`.
std::string wrapped(const std::string& text, size_t width, size_t indent) {
  if (width == 0 || width <= indent + 20) return text;
  std::string out, line;
  for (const auto& word : splitWords(text)) {
    if (!line.empty() && line.size() + 1 + word.size() > width - indent) {
      out += line + "\n" + std::string(indent, ' ');
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  return out + line;
}

}  // namespace

// `help`: every command and action; `help COMMAND`: its usage, what it does and what each of its
// arguments takes; `help ACTION`: its parameters with their types and an example from the legal
// options now; `help §7.6`: the declarations that implement a rule (as `rule 7.6`).
void Repl::cmdHelp(const std::vector<std::string>& args, std::string& out) {
  const size_t width = options_.width > 0 ? static_cast<size_t>(options_.width) : 0;
  if (args.size() > 1) {
    const std::string& what = args[1];
    if (what.rfind("§", 0) == 0 ||
        (!what.empty() && std::isdigit(static_cast<unsigned char>(what[0]))))
      return cmdRule({"rule", what}, out);
    for (const auto& h : commands())
      if (what == h.name) {
        out += fmt::format("{}\n  {}\n", h.usage, wrapped(h.text, width, 2));
        std::string usage = h.usage;
        for (char& c : usage)
          if (c == '[' || c == ']' || c == '|' || c == '.') c = ' ';
        std::vector<std::string> seen;
        for (const auto& w : splitWords(usage)) {
          auto it = argumentHelp().find(w);
          if (it == argumentHelp().end() || std::find(seen.begin(), seen.end(), w) != seen.end())
            continue;
          seen.push_back(w);
          out += fmt::format("  {}: {}\n", w, wrapped(it->second, width, 4 + w.size()));
        }
        return;
      }
    if (session_) {
      const auto& P = session_->program();
      for (size_t ai = 0; ai < P.actions.size(); ++ai) {
        const auto& a = P.actions[ai];
        if (a.name != what) continue;
        std::string usage = a.name;
        for (const auto& p : a.params) usage += " " + p.name;
        std::string cite;
        for (const auto& c : a.citations) cite += " §" + c;
        out += fmt::format("{}{}\n  {}\n", usage, cite,
                           a.description.empty() ? "a ruleset action" : a.description);
        for (const auto& p : a.params)
          out += fmt::format("  {}: {}{}\n", p.name, ir::typeName(P, p.type),
                             p.domain >= 0 ? " (from the candidates the rules list)" : "");
        for (const auto& o : session_->legal())
          if (o.kind == engine::Option::Action && o.action == static_cast<int32_t>(ai)) {
            out += fmt::format("  example, legal now: {}\n", o.text);
            return;
          }
        out += "  (not legal now)\n";
        return;
      }
    }
    error(out, fmt::format("no command or action '{}' (type help for the list)", what));
    return;
  }
  out += "commands:\n";
  for (const auto& h : commands())
    out += fmt::format("  {:<22} {}\n", h.usage, wrapped(h.text, width, 25));
  if (session_ && !session_->program().actions.empty()) {
    out += "actions of this ruleset:\n";
    for (const auto& a : session_->program().actions) {
      std::string usage = a.name;
      for (const auto& p : a.params) usage += " " + p.name;
      out += fmt::format("  {:<22} {}\n", usage, wrapped(a.description, width, 25));
    }
  }
  out += "help COMMAND: its arguments; help §7.6: the rules' declarations of a rule\n";
}

// With --json every line a command prints is a JSON object: trace events and the status are
// already; any other line is wrapped as {"kind": "text"|"error"|"illegal", "command", "text"}.
bool Repl::execute(const std::string& rawLine, std::string& out) {
  if (!options_.json) return executeText(rawLine, out);
  std::string text;
  bool more = executeText(rawLine, text);
  std::string command = trim(rawLine);
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(at, end - at);
    at = end + 1;
    if (!line.empty() && line[0] == '{') {
      out += line + "\n";
      continue;
    }
    std::string kind = line.rfind("error:", 0) == 0     ? "error"
                       : line.rfind("illegal:", 0) == 0 ? "illegal"
                                                        : "text";
    // A line refused for not being UTF-8 is shown with its bad bytes replaced.
    out += nlohmann::ordered_json{{"kind", kind}, {"command", command}, {"text", line}}.dump(
               -1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) +
           "\n";
  }
  return more;
}

bool Repl::executeText(const std::string& rawLine, std::string& out) {
  std::string line = trim(rawLine);
  if (line.empty() || line[0] == '#') return true;
  // A command is text: a line that is not UTF-8 is refused before it reaches the game, its log or
  // a save (JSON, which must be UTF-8: a unit placed `as x\x88` once made `save` abort).
  if (syntax::validateUtf8(line)) {
    error(out, "a command is UTF-8 text (nothing was done)");
    return true;
  }
  currentLine_ = line;
  Line l{splitWords(line), ""};
  const std::string& cmd = l.args[0];
  l.rest = trim(line.substr(cmd.size()));
  // Only `quit` (and end of input) leaves: `exit` is the ruleset's action of that name if it has
  // one (Deluxe 8.6: `exit UNIT HEX`), and a slip of the fingers never ends a game.
  bool exitAction =
      cmd == "exit" && session_ &&
      std::any_of(session_->program().actions.begin(), session_->program().actions.end(),
                  [](const ir::ActionInfo& a) { return a.name == "exit"; });
  if (cmd == "quit") {
    if (l.args.size() == 1) return false;
    error(out, "quit takes no arguments (nothing was done)");
    return true;
  }
  if (cmd == "exit" && !exitAction) {
    error(out, "to leave, type quit (or press Ctrl-D); exit does not end the game");
    return true;
  }
  if (cmd == "help" && l.args.size() > 2) {
    error(out, "help takes at most one argument: help [COMMAND|ACTION] (nothing was done)");
    return true;
  }
  if (cmd == "help") {
    cmdHelp(l.args, out);
    return true;
  }
  if (!session_) {
    error(out, "no game is loaded");
    return true;
  }
  for (const Command& c : commands())
    if (cmd == c.name && c.run) {
      if (c.maxArgs >= 0 && static_cast<int>(l.args.size()) - 1 > c.maxArgs) {
        error(out, fmt::format("{} takes {}: {} (nothing was done)", cmd,
                               c.maxArgs == 0   ? "no arguments"
                               : c.maxArgs == 1 ? "at most one argument"
                                                : fmt::format("at most {} arguments", c.maxArgs),
                               c.usage));
        return true;
      }
      c.run(*this, l, out);
      return true;
    }
  const auto& actions = session_->program().actions;
  for (size_t a = 0; a < actions.size(); ++a)
    if (actions[a].name == cmd)
      return cmdAction(static_cast<int32_t>(a),
                       std::vector<std::string>(l.args.begin() + 1, l.args.end()), out);
  error(out,
        fmt::format("unknown command '{}' (type help for the commands and this ruleset's actions)",
                    cmd));
  return true;
}

std::vector<std::string> Repl::completions(const std::string& prefix) const {
  std::vector<std::string> out;
  for (const auto& h : commands())
    if (std::string(h.name).rfind(prefix, 0) == 0) out.push_back(h.name);
  if (session_) {
    for (const auto& a : session_->program().actions)
      if (a.name.rfind(prefix, 0) == 0) out.push_back(a.name);
    for (const auto& u : session_->state().units)
      if (u.id.rfind(prefix, 0) == 0) out.push_back(u.id);
    // Hex labels, once the prefix is long enough to be worth listing.
    const auto& m = session_->state().map;
    if (prefix.size() >= 2)
      for (int32_t h = 0; h < m.size(); ++h)
        if (m.label(h).rfind(prefix, 0) == 0) out.push_back(m.label(h));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Completion that knows what each argument takes: after an action's name and the arguments typed
// so far, the next words of its legal options now (the targets of `attack`, the hexes a unit can
// move to); after `pick`, the options' words; file names after `load`, `save`, `replay` and
// `house`; units, sides and hexes after the commands that look at them.
std::vector<std::string> Repl::completions(const std::string& before, const std::string& prefix) {
  std::vector<std::string> words = splitWords(before);
  if (words.empty() || !session_) return completions(prefix);
  std::vector<std::string> out;
  auto add = [&](const std::string& w) {
    if (w.rfind(prefix, 0) == 0) out.push_back(w);
  };
  const std::string& cmd = words[0];
  const auto& P = session_->program();
  bool action = engine::findAction(P, cmd) >= 0 &&
                std::none_of(commands().begin(), commands().end(),
                             [&](const Command& c) { return cmd == c.name; });
  if (action || cmd == "pick") {
    // The legal options' words after those typed (for `pick`, the option's own words).
    size_t skip = cmd == "pick" ? 1 : 0;
    for (const auto& o : session_->legal()) {
      std::vector<std::string> ow = splitWords(o.text);
      if (ow.size() + skip <= words.size()) continue;
      bool match = true;
      for (size_t k = skip; k < words.size() && match; ++k) match = ow[k - skip] == words[k];
      if (match) add(ow[words.size() - skip]);
    }
  } else if (cmd == "load" || cmd == "save" || cmd == "replay" || cmd == "house") {
    namespace fs = std::filesystem;
    std::string dir = prefix.find('/') == std::string::npos
                          ? std::string()
                          : prefix.substr(0, prefix.rfind('/') + 1);
    std::error_code ec;
    for (auto it = fs::directory_iterator(dir.empty() ? "." : dir, ec);
         !ec && it != fs::directory_iterator(); it.increment(ec)) {
      std::string name = dir + it->path().filename().string();
      add(it->is_directory(ec) ? name + "/" : name);
    }
  } else if (cmd == "show" || cmd == "reach" || cmd == "map" || cmd == "set" || cmd == "remove" ||
             cmd == "legal" || cmd == "units" || cmd == "setside") {
    if (cmd != "units" && cmd != "setside")
      for (const auto& u : session_->state().units) add(u.id);
    if (cmd == "show" || cmd == "units" || cmd == "setside")
      for (const auto& sd : P.sides) add(sd.name);
    if ((cmd == "show" || cmd == "map") && prefix.size() >= 2) {
      const auto& m = session_->state().map;
      for (int32_t h = 0; h < m.size(); ++h) add(m.label(h));
    }
  } else {
    return completions(prefix);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace polemos::repl
