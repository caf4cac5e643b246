// REPL: Games and files: a new game under another ruleset, scenario, level or house rules; save,
// load, replay.
#include <fmt/format.h>

#include <fstream>
#include <set>
#include <sstream>

#include "diag/read_file.h"
#include "engine/save.h"
#include "limits/limits.h"
#include "repl/repl.h"
#include "repl/text.h"

namespace polemos::repl {

using namespace polemos::ir;

bool Repl::startNewGame(std::string& out) {
  autosave(out);
  takeForcedDice();
  auto old = std::move(session_);
  if (!start(out)) {
    ++errors_;
    dropKeptGame();
    session_ = std::move(old);
    carriedDice_.clear();
    out += "error: the current game is unchanged\n";
    return false;
  }
  history_.clear();
  log_.clear();
  edited_ = false;
  noteCarriedDice(out);
  return true;
}

// This REPL's options with a saved game's origin: its rules, scenario, seed, level and options.
ReplOptions Repl::optionsOf(const engine::GameOrigin& origin) const {
  ReplOptions o = options_;
  o.ruleset = origin.ruleset;
  o.scenario = origin.scenario;
  o.houses = origin.houses;
  o.session.seed = origin.session.seed;
  o.session.level = origin.session.level;
  o.session.options = origin.session.options;
  return o;
}

void Repl::keepGame() {
  if (!session_) return;
  KeptGame k{std::make_unique<engine::Session>(*session_),
             history_,
             log_,
             options_,
             keptScenario_,
             currentLine_,
             edited_};
  before_.push_back(std::move(k));
  if (before_.size() > kKeptGames) before_.erase(before_.begin());
}

void Repl::dropKeptGame() {
  if (!before_.empty()) before_.pop_back();
}

// `undo` with nothing left to undo: back to the game the current one replaced, as it was then,
// with its own undo history.
bool Repl::undoNewGame(std::string& out) {
  if (before_.empty()) return false;
  KeptGame k = std::move(before_.back());
  before_.pop_back();
  session_ = std::move(k.session);
  history_ = std::move(k.history);
  log_ = std::move(k.log);
  options_ = std::move(k.options);
  keptScenario_ = k.keptScenario;
  edited_ = k.edited;
  newGameForExpect();
  out += fmt::format("back to the game that `{}` replaced\n", k.replacedBy);
  cmdStatus(out);
  return true;
}

// Before a new game replaces the one in play: kept for `undo` (in memory) and, at a terminal, in
// the autosave file for `load --autosave`.
void Repl::autosave(std::string& out) {
  keepGame();
  if (options_.autosave.empty() || !session_) return;
  std::string text = engine::writeSave(*session_, saveRecord());
  std::string why;
  if (!diag::writeFileWhole(options_.autosave, text, why)) {
    out += fmt::format("note: the game before could not be kept ({})\n", why);
    return;
  }
  out += fmt::format("the game before is kept in {} (`load --autosave` puts it back)\n",
                     options_.autosave);
}

// `load --autosave`: the game kept when a new one replaced it, under its own ruleset and scenario
// (read from the save's record); a bad or missing file leaves the game as it is.
void Repl::loadAutosave(std::string& out) {
  if (options_.autosave.empty())
    return error(out, "no game is kept here (`polemos play` keeps one at a terminal)");
  std::string text, unread;
  if (!diag::readFileBounded(options_.autosave, limits::kMaxSaveBytes, text, unread))
    return error(out, fmt::format("no game is kept in {} ({})", options_.autosave, unread));
  std::string why;
  auto record = engine::readSaveRecord(text, why);
  if (!record)
    return error(out, fmt::format("{} cannot be read ({}); the current game is unchanged",
                                  options_.autosave, why));
  ReplOptions o = optionsOf(record->origin);
  Repl fresh(o);
  std::string log;
  if (!fresh.start(log))
    return error(out, fmt::format("{} cannot be restored: {}", options_.autosave, trim(log)));
  // A kept sandbox: its first command makes the map again.
  if (!record->commands.empty() && record->commands.front().rfind("sandbox", 0) == 0)
    fresh.execute(record->commands.front(), log);
  std::vector<std::string> commands;
  if (auto err = engine::loadSession(text, *fresh.session_, &commands))
    return error(out, fmt::format("{} was not loaded: {}; the current game is unchanged",
                                  options_.autosave, *err));
  autosave(out);  // the game being left is kept in its turn
  options_ = o;
  session_ = std::move(fresh.session_);
  history_.clear();
  newGameForExpect();
  log_ = std::move(commands);
  edited_ = record->edited;
  if (record->autoPlayer) autoPlayer_ = engine::RandomPlayer(*record->autoPlayer);
  out += fmt::format("loaded {}\n", options_.autosave);
  cmdStatus(out);
}

void Repl::takeForcedDice() {
  carriedDice_.clear();
  if (session_) carriedDice_.assign(session_->forcedDice().begin(), session_->forcedDice().end());
}

// The new game's log starts with the dice carried over, so that a replay forces them too.
void Repl::noteCarriedDice(std::string& out) {
  if (carriedDice_.empty()) return;
  std::string shown;
  for (int64_t d : carriedDice_) shown += (shown.empty() ? "" : " ") + std::to_string(d);
  log_.push_back("dice " + shown);
  out += fmt::format("forced dice carried into the new game: {}\n", shown);
  carriedDice_.clear();
}

void Repl::cmdSave(const std::vector<std::string>& args, std::string& out) {
  if (args.size() != 2) return error(out, "save takes a file name");
  std::string why;
  if (!diag::writeFileWhole(args[1], saveText(), why)) return error(out, why);
  out += fmt::format("saved to {}\n", args[1]);
}

// Why a recorded command may not be replayed ("" if it may): only the game's moves and set-up are,
// never a command that reads or writes a file.
std::string Repl::replayable(const Repl& game, const std::string& command) {
  std::vector<std::string> words = splitWords(trim(command));
  if (words.empty()) return "";
  const std::string& cmd = words[0];
  static const std::set<std::string> kMoves = {
      "end",     "pass",  "pick",    "next",   "undo",    "redo",    "dice",      "auto",
      "goto",    "step",  "place",   "remove", "set",     "terrain", "elevation", "hexside",
      "sandbox", "level", "restart", "trace",  "setside", "sethex",  "setgame"};
  if (kMoves.count(cmd)) return "";
  if (cmd == "ruleset" || cmd == "scenario") {
    // By name from the search path only, not by a path of the save's choosing.
    bool named = words.size() == 2 && words[1].find_first_of("/\\.") == std::string::npos;
    return named ? "" : "names a file";
  }
  if (game.session_)
    for (const auto& a : game.session_->program().actions)
      if (a.name == cmd) return "";
  return "is not a move of the game (a save replays only moves and set-up)";
}

std::unique_ptr<Repl> Repl::makeFromRecord(const engine::SaveRecord& record, std::string& why,
                                           std::string* log,
                                           std::shared_ptr<const ir::Program> program) const {
  auto fresh = std::make_unique<Repl>(optionsOf(record.origin));
  std::string said;
  if (!fresh->start(said, std::move(program))) {
    why = trim(said);
    return nullptr;
  }
  for (const auto& c : record.commands) {
    // Read as the prompt reads it; a command that is not a move of the game (one that reads or
    // writes a file, or a ruleset or scenario named by path) stops it: a save cannot make the
    // program touch files.
    if (std::string bad = replayable(*fresh, c); !bad.empty()) {
      why = fmt::format("'{}' {}", c, bad);
      return nullptr;
    }
    said += "> " + c + "\n";
    int before = fresh->errors();
    fresh->execute(c, said);
    if (fresh->errors() > before) {
      why = fmt::format("'{}' is refused when its commands are played again", c);
      return nullptr;
    }
  }
  if (record.autoPlayer) fresh->autoPlayer_ = engine::RandomPlayer(*record.autoPlayer);
  if (log) *log = std::move(said);
  return fresh;
}

void Repl::cmdReplay(const std::vector<std::string>& args, std::string& out) {
  if (args.size() != 2) return error(out, "replay takes a saved game's file name");
  std::string text, why;
  if (!diag::readFileBounded(args[1], limits::kMaxSaveBytes, text, why)) return error(out, why);
  auto record = engine::readSaveRecord(text, why);
  if (!record)
    return error(
        out,
        fmt::format(
            "{} cannot be replayed: it is not a saved game with its commands ({}); the current "
            "game is unchanged",
            args[1], why));
  // Replays in a fresh REPL; the current game is replaced only if every command replays cleanly.
  std::string log;
  auto fresh = makeFromRecord(*record, why, &log);
  if (!fresh)
    return error(
        out, fmt::format("{} cannot be replayed: {}; the current game is unchanged", args[1], why));
  out += log;
  pushHistory();
  options_ = fresh->options_;
  *session_ = *fresh->session_;
  newGameForExpect();
  log_ = fresh->log_;
  edited_ = false;
  autoPlayer_ = fresh->autoPlayer_;
  out += fmt::format("replayed {} ({} commands)\n", args[1], record->commands.size());
}
// `house` alone: the house files in effect; `house FILE` or `house --clear`: a new game with them.
void Repl::cmdHouse(const std::vector<std::string>& args, std::string& out) {
  if (args.size() == 1) {
    if (options_.houses.empty()) out += "no house rules\n";
    for (const auto& h : options_.houses) out += "house " + h + "\n";
    return;
  }
  if (args.size() != 2)
    return error(
        out, "house takes a file, as in `house rulesets/house/no_displacement.pol`, or --clear");
  ReplOptions saved = options_;
  if (args[1] == "--clear")
    options_.houses.clear();
  else
    options_.houses.push_back(args[1]);
  if (!startNewGame(out)) options_ = saved;
}

// `ruleset NAME`, `scenario NAME`, `level NAME`: a new game; `level` alone: the level played.
void Repl::cmdNewGame(const std::vector<std::string>& args, std::string& out) {
  const std::string& cmd = args[0];
  if (cmd == "level" && args.size() == 1) {
    const Program& P = session_->program();
    std::string all;
    for (const auto& l : P.levels) all += (all.empty() ? "" : " < ") + l;
    out += fmt::format("level {}{}\n",
                       P.levels.empty() ? "standard" : P.levels[session_->state().level],
                       P.levels.size() > 1 ? " (levels: " + all + ")" : "");
    return;
  }
  if (args.size() != 2) return error(out, fmt::format("{} takes a name", cmd));
  ReplOptions saved = options_;
  if (cmd == "ruleset") {
    options_.ruleset = args[1];
    options_.scenario.clear();
    options_.session.level.clear();  // levels belong to a ruleset: start at the new one's first
  } else if (cmd == "level") {
    options_.session.level = args[1];
  } else {
    options_.scenario = args[1];
  }
  if (!startNewGame(out)) options_ = saved;
}

// `load FILE`: a saved game of this ruleset and scenario; a bad file leaves the game as it was.
void Repl::cmdLoad(const std::vector<std::string>& args, std::string& out) {
  bool trust = false;
  std::vector<std::string> rest;
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--trust")
      trust = true;
    else
      rest.push_back(args[i]);
  }
  if (rest.size() != 1)
    return error(out, "load takes a file name (with --trust to load it unchecked), or --autosave");
  if (rest[0] == "--autosave") {
    if (trust) return error(out, "load --autosave takes no --trust");
    return loadAutosave(out);
  }
  std::string text, why;
  if (!diag::readFileBounded(rest[0], limits::kMaxSaveBytes, text, why)) return error(out, why);
  loadText(text, rest[0], out, trust);
}

bool Repl::loadText(const std::string& text, const std::string& name, std::string& out,
                    bool trust) {
  auto refuse = [&](const std::string& why) {
    error(out, fmt::format("{} was not loaded: {}; the current game is unchanged", name, why));
    return false;
  };
  engine::Session candidate = *session_;
  std::vector<std::string> commands;
  bool olderBuild = false;
  auto err = engine::loadSession(text, candidate, &commands, &olderBuild);
  if (err && !olderBuild) return refuse(*err);
  std::string unread;
  auto record = engine::readSaveRecord(text, unread);
  // Checked (§ saves): the save's commands, played again from its set-up, must make exactly the
  // state it holds. A save of another build from the same rules is made from its commands.
  if (!trust || olderBuild) {
    if (!record)
      return refuse(fmt::format(
          "it holds no {}record of the commands that made it{}, so it cannot be checked{}",
          text.find("\"replay\"") == std::string::npos ? "" : "well-formed ",
          text.find("\"replay\"") == std::string::npos ? "" : " (" + unread + ")",
          olderBuild ? "" : fmt::format(" (`load --trust {}` loads it unchecked)", name)));
    if (record->edited && !olderBuild)
      return refuse(fmt::format(
          "it is an edited game (loaded unchecked before), not one its commands make; `load "
          "--trust {}` loads it as such",
          name));
    std::string why;
    // The save was made by this very program (its fingerprint matched) from the game's own
    // ruleset, scenario and house files: the check plays its commands on the program in play
    // instead of loading the files again (a third of a second for Chalons).
    const auto& origin = record->origin;
    bool same = !olderBuild && !origin.scenario.empty() && origin.ruleset == options_.ruleset &&
                origin.scenario == options_.scenario && origin.houses == options_.houses &&
                session_->program().scenarioName != "sandbox";
    auto made = makeFromRecord(*record, why, nullptr, same ? session_->programPtr() : nullptr);
    if (!made) return refuse("its commands do not make a game here: " + why);
    std::string diff = engine::stateDifference(text, *made->session_, !olderBuild);
    if (!diff.empty()) {
      if (olderBuild)
        return refuse(fmt::format(
            "it was made by another build of Polemos, and this one plays its commands to a "
            "different game: {}",
            diff));
      return refuse(fmt::format(
          "it is not a game the rules can reach: {} (`load --trust {}` loads it unchecked, as an "
          "edited game)",
          diff, name));
    }
    if (olderBuild) {
      candidate = *made->session_;
      commands = made->log_;
    }
  }
  pushHistory();
  *session_ = std::move(candidate);
  newGameForExpect();
  // The commands that made the saved game, so that it can be saved and replayed again; and how it
  // was made (its seed, level, options and house files), so that saving it again records the same
  // game, not the one it replaced.
  log_ = std::move(commands);
  if (record) {
    options_.session.seed = record->origin.session.seed;
    options_.session.level = record->origin.session.level;
    options_.session.options = record->origin.session.options;
    options_.houses = record->origin.houses;
    if (record->autoPlayer) autoPlayer_ = engine::RandomPlayer(*record->autoPlayer);
  }
  edited_ = trust || (record && record->edited);
  out += fmt::format("loaded {}{}\n", name,
                     trust        ? " unchecked, as an edited game (--trust)"
                     : olderBuild ? " (made by another build: played again from its commands)"
                                  : "");
  cmdStatus(out);
  return true;
}

std::string Repl::saveText() const {
  // The game itself, plus how to replay it: the set-up and the commands since the start.
  return engine::writeSave(*session_, saveRecord());
}

engine::SaveRecord Repl::saveRecord() const {
  engine::SaveRecord r;
  r.origin = origin();
  r.commands = log_;
  r.edited = edited_;
  r.autoPlayer = autoPlayer_.state();
  return r;
}

}  // namespace polemos::repl
