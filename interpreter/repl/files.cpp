// REPL: Games and files: a new game under another ruleset, scenario, level or house rules; save,
// load, replay.
#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "engine/save.h"
#include "repl/repl.h"
#include "repl/text.h"

namespace polemos::repl {

using namespace polemos::ir;

bool Repl::restart(std::string& out) {
  auto old = std::move(session_);
  if (!start(out)) {
    ++errors_;
    session_ = std::move(old);
    out += "error: the current game is unchanged\n";
    return false;
  }
  history_.clear();
  log_.clear();
  return true;
}

void Repl::cmdSave(const std::vector<std::string>& args, std::string& out) {
  if (args.size() != 2) return error(out, "save takes a file name");
  // The game itself, plus how to replay it: the set-up and the commands since the start.
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(engine::saveSession(*session_));
  nlohmann::ordered_json setup = {{"ruleset", options_.ruleset},
                                  {"scenario", options_.scenario},
                                  {"houses", options_.houses},
                                  {"seed", options_.session.seed},
                                  {"level", options_.session.level}};
  nlohmann::ordered_json opts = nlohmann::ordered_json::array();
  for (const auto& [k, v] : options_.session.options) opts.push_back(k + "=" + v);
  setup["options"] = opts;
  j["replay"] = {{"setup", setup}, {"commands", log_}};
  std::ofstream f(args[1]);
  if (!f || !(f << j.dump(1) << "\n")) return error(out, fmt::format("cannot write '{}'", args[1]));
  out += fmt::format("saved to {}\n", args[1]);
}

void Repl::cmdReplay(const std::vector<std::string>& args, std::string& out) {
  if (args.size() != 2) return error(out, "replay takes a saved game's file name");
  std::ifstream f(args[1], std::ios::binary);
  if (!f) return error(out, fmt::format("cannot read '{}'", args[1]));
  std::stringstream ss;
  ss << f.rdbuf();
  ReplOptions o = options_;
  std::vector<std::string> commands;
  try {
    auto j = nlohmann::json::parse(ss.str());
    const auto& r = j.at("replay");
    const auto& setup = r.at("setup");
    o.ruleset = setup.at("ruleset").get<std::string>();
    o.scenario = setup.at("scenario").get<std::string>();
    o.houses = setup.at("houses").get<std::vector<std::string>>();
    o.session.seed = setup.at("seed").get<uint64_t>();
    o.session.level = setup.at("level").get<std::string>();
    o.session.options.clear();
    for (const auto& kv : setup.at("options")) {
      std::string t = kv.get<std::string>();
      auto eq = t.find('=');
      if (eq == std::string::npos) throw std::runtime_error("an option is not NAME=VALUE");
      o.session.options.emplace_back(t.substr(0, eq), t.substr(eq + 1));
    }
    commands = r.at("commands").get<std::vector<std::string>>();
  } catch (const std::exception& e) {
    return error(
        out,
        fmt::format(
            "{} cannot be replayed: it is not a saved game with its commands ({}); the current "
            "game is unchanged",
            args[1], e.what()));
  }
  // Replays in a fresh REPL; the current game is replaced only if every command replays cleanly.
  Repl fresh(o);
  std::string log;
  if (!fresh.start(log))
    return error(out, fmt::format("{} cannot be replayed: {}", args[1], trim(log)));
  for (const auto& c : commands) {
    if (c.rfind("replay", 0) == 0 || c.rfind("load", 0) == 0 || c.rfind("save", 0) == 0) continue;
    log += "> " + c + "\n";
    int before = fresh.errors();
    fresh.execute(c, log);
    if (fresh.errors() > before)
      return error(out,
                   fmt::format("{} cannot be replayed: '{}' failed; the current game is unchanged",
                               args[1], c));
  }
  out += log;
  pushHistory();
  options_ = o;
  *session_ = *fresh.session_;
  log_ = fresh.log_;
  out += fmt::format("replayed {} ({} commands)\n", args[1], commands.size());
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
  if (!restart(out)) options_ = saved;
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
  if (!restart(out)) options_ = saved;
}

// `load FILE`: a saved game of this ruleset and scenario; a bad file leaves the game as it was.
void Repl::cmdLoad(const std::vector<std::string>& args, std::string& out) {
  if (args.size() != 2) return error(out, "load takes a file name");
  std::ifstream f(args[1], std::ios::binary);
  if (!f) return error(out, fmt::format("cannot read '{}'", args[1]));
  std::stringstream ss;
  ss << f.rdbuf();
  engine::Session candidate = *session_;
  if (auto err = engine::loadSession(ss.str(), candidate))
    return error(
        out, fmt::format("{} was not loaded: {}; the current game is unchanged", args[1], *err));
  pushHistory();
  *session_ = std::move(candidate);
  // The commands that made the saved game, so that it can be saved and replayed again.
  log_.clear();
  try {
    auto j = nlohmann::json::parse(ss.str());
    if (j.contains("replay")) log_ = j["replay"].at("commands").get<std::vector<std::string>>();
  } catch (const std::exception&) {
    log_.clear();
  }
  out += fmt::format("loaded {}\n", args[1]);
  cmdStatus(out);
}

}  // namespace polemos::repl
