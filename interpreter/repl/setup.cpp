// REPL: Setting a situation up (the audit sandbox): sandbox maps, terrain, hexsides, placing,
// removing and setting units and sides, goto a phase. Each command reads its words (engine/reading)
// into a typed edit of engine/setup, which is all or nothing, and reports it.
#include "engine/setup.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "analysis/provenance.h"
#include "check/loader.h"
#include "check/sandbox.h"
#include "diag/diagnostics.h"
#include "engine/reading.h"
#include "hex/coord.h"
#include "hex/grid.h"
#include "repl/repl.h"
#include "repl/text.h"

namespace polemos::repl {

using namespace polemos::ir;

// Runs a typed edit as one step of undo and of the log; false (with the error said) if refused.
bool Repl::applyEdit(const engine::Edit& e, std::string& out) {
  pushHistory();
  engine::Outcome o = engine::applyEdit(*session_, e);
  if (o.kind != engine::Outcome::Ok) {
    history_.dropLast();
    error(out, o.message);
    return false;
  }
  record();
  return true;
}

namespace {

// The field of `schema` named `key` that can be set (not derived), or -1.
int32_t settableField(const Schema& schema, const std::string& key) {
  for (size_t f = 0; f < schema.fields.size(); ++f)
    if (schema.fields[f].name == key && schema.fields[f].derived < 0)
      return static_cast<int32_t>(f);
  return -1;
}

}  // namespace

void Repl::cmdTerrain(const std::vector<std::string>& args, std::string& out) {
  const Program& P = session_->program();
  if (args.size() != 3)
    return error(out, "terrain takes a hex and a terrain kind, as in `terrain 2725 woods`");
  std::string why;
  int32_t h = engine::readHex(session_->state(), args[1], why);
  if (h < 0) return error(out, why);
  int32_t t = engine::readTerrain(P, args[2], why);
  if (t < 0) return error(out, why);
  if (applyEdit(engine::edit::Terrain{h, t}, out))
    out += fmt::format("hex {} is now {}\n", args[1], args[2]);
}

void Repl::cmdElevation(const std::vector<std::string>& args, std::string& out) {
  if (args.size() != 3)
    return error(out, "elevation takes a hex and a level, as in `elevation 0505 2`");
  std::string why;
  int32_t h = engine::readHex(session_->state(), args[1], why);
  if (h < 0) return error(out, why);
  auto level = engine::readInteger(args[2]);
  if (!level) return error(out, fmt::format("'{}' is not a whole number", args[2]));
  if (applyEdit(engine::edit::Elevation{h, static_cast<int32_t>(*level)}, out))
    out += fmt::format("hex {} is now at elevation {}\n", args[1], *level);
}

void Repl::cmdHexside(const std::vector<std::string>& args, std::string& out) {
  const Program& P = session_->program();
  const auto& m = session_->state().map;
  if (args.size() != 4)
    return error(out,
                 "hexside takes two adjacent hexes and a kind, as in `hexside 3114 3215 ridge`");
  int32_t a = m.parse(args[1]), b = m.parse(args[2]);
  if (a < 0 || b < 0)
    return error(out, fmt::format("'{}' is not a hex of this map", a < 0 ? args[1] : args[2]));
  if (!m.adjacent(a, b))
    return error(out, fmt::format("hexes {} and {} are not adjacent", args[1], args[2]));
  std::string why;
  int32_t f = engine::readFeature(P, args[3], why);
  if (f < 0) return error(out, why);
  if (applyEdit(engine::edit::Hexside{a, b, f}, out))
    out += fmt::format("hexside {}/{} has {}\n", args[1], args[2], args[3]);
}

void Repl::cmdPlace(const std::vector<std::string>& args, std::string& out) {
  const Program& P = session_->program();
  const auto& st = session_->state();
  if (args.size() < 4)
    return error(out,
                 "place takes a side, a unit type and a hex, as in `place roman legion 2725 facing "
                 "N as l1 strength=6`");
  engine::edit::Place e;
  std::string why;
  // `off`: off the map, as a leader awaiting its placement or a reinforcement.
  bool off = args[3] == "off" && st.map.parse("off") < 0;
  if ((e.side = engine::readSide(P, args[1], why)) < 0 ||
      (e.type = engine::readUnitType(P, args[2], why)) < 0 ||
      (!off && (e.hex = engine::readHex(st, args[3], why)) < 0))
    return error(out, why);
  const Schema& cls = P.classes[P.unitTypes[e.type].cls];
  for (size_t i = 4; i < args.size(); ++i) {
    if ((args[i] == "facing" && i + 1 < args.size()) || args[i].rfind("facing=", 0) == 0) {
      auto d = hex::parseDirection(args[i] == "facing" ? args[++i] : args[i].substr(7));
      if (!d)
        return error(out, fmt::format("unknown facing '{}' (N, NE, SE, S, SW or NW)", args[i]));
      e.facing = static_cast<int32_t>(*d);
    } else if (args[i] == "as" && i + 1 < args.size()) {
      e.id = args[++i];
      if (engine::findUnit(st, e.id) >= 0)
        return error(out, fmt::format("unit id '{}' is already used", e.id));
      if (e.id.empty() || !std::isalpha(static_cast<unsigned char>(e.id[0])))
        return error(out, fmt::format("a unit id starts with a letter, not '{}'", e.id));
    } else {
      auto eq = args[i].find('=');
      if (eq == std::string::npos) return error(out, fmt::format("'{}' is not KEY=VALUE", args[i]));
      int32_t slot = settableField(cls, args[i].substr(0, eq));
      if (slot < 0)
        return error(
            out, fmt::format("unit class {} has no field '{}'", cls.name, args[i].substr(0, eq)));
      auto v = engine::readValue(*session_, cls.fields[slot].type, args[i].substr(eq + 1), why);
      if (!v) return error(out, why);
      e.fields.push_back({slot, *v});
    }
  }
  if (e.id.empty()) e.id = engine::nextUnitId(*session_, args[2]);
  std::string id = e.id;
  if (!applyEdit(e, out)) return;
  out += off ? fmt::format("placed {} ({}, {}) off the map\n", id, args[2], args[1])
             : fmt::format("placed {} ({}, {}) at {}\n", id, args[2], args[1], args[3]);
  // Stacking is the ruleset's: say who else is in the hex, so that a leader placed with a unit
  // (or a unit placed where the rules may not allow two) is seen at once.
  if (off) return;
  std::string others;
  for (const auto& u : session_->state().units)
    if (u.status == eval::UnitStatus::OnMap && u.hex == e.hex && u.id != id)
      others += (others.empty() ? "" : ", ") + u.id;
  if (!others.empty())
    out += fmt::format(
        "  {} shares {} with {} (the ruleset's stacking rules apply when it "
        "moves or fights)\n",
        id, args[3], others);
}

// `restart`: the rules' sequence runs again from its start on the situation as it stands (the
// units, hexes and fields set up by hand), forced dice first: an auditor's sandbox begins its
// first turn as a scenario would, leaders off the map awaiting their placement.
void Repl::cmdRestart(std::string& out) {
  pushHistory();
  size_t before = session_->state().trace.size();
  engine::Outcome o = session_->restart();
  if (o.kind != engine::Outcome::Ok) {
    history_.dropLast();
    return error(out, o.message);
  }
  lastActionTrace_ = before;
  record();
  printTrace(before, out);
  cmdStatus(out);
}

void Repl::cmdRemove(const std::vector<std::string>& args, std::string& out) {
  if (args.size() != 2) return error(out, "remove takes a unit id");
  std::string why;
  int32_t u = engine::readUnit(session_->state(), args[1], why);
  if (u < 0) return error(out, why);
  if (applyEdit(engine::edit::Remove{u}, out)) out += fmt::format("removed {}\n", args[1]);
}

// set UNIT KEY=VALUE... / setside SIDE KEY=VALUE...: every pair is read before any is applied,
// so a bad one leaves the game as it was; the whole command is one edit (one step of undo and of
// the log).
void Repl::cmdSet(const std::vector<std::string>& args, bool side, std::string& out) {
  const Program& P = session_->program();
  const char* usage =
      side ? "setside takes a side and KEY=VALUE..., as in `setside roman losses=40`"
           : "set takes a unit and KEY=VALUE..., as in `set l1 disrupted=true hex=0504`";
  if (args.size() < 3) return error(out, usage);
  for (size_t i = 2; i < args.size(); ++i)
    if (args[i].find('=') == std::string::npos) return error(out, usage);
  const auto& st = session_->state();
  std::string why;
  int32_t who = side ? engine::readSide(P, args[1], why) : engine::readUnit(st, args[1], why);
  if (who < 0) return error(out, why);
  engine::edit::SetSide sideEdit{who, {}};
  engine::edit::SetUnit unitEdit{who, {}};
  using Change = engine::edit::SetUnit::Change;
  std::string report;
  for (size_t i = 2; i < args.size(); ++i) {
    std::string key = args[i].substr(0, args[i].find('='));
    std::string text = args[i].substr(args[i].find('=') + 1);
    if (side) {
      int32_t slot = engine::readSideField(P, key, why);
      if (slot < 0) return error(out, why);
      auto v = engine::readValue(*session_, P.sideState.fields[slot].type, text, why);
      if (!v) return error(out, why);
      sideEdit.fields.push_back({slot, *v});
      report += fmt::format("{}.{} = {}\n", args[1], key, session_->display(*v));
    } else if (key == "facing") {
      auto d = hex::parseDirection(text);
      if (!d) return error(out, fmt::format("unknown facing '{}' (N, NE, SE, S, SW or NW)", text));
      unitEdit.changes.push_back({Change::Facing, -1, Value::integer(static_cast<int64_t>(*d))});
      report += fmt::format("{}.facing = {}\n", args[1], text);
    } else if (key == "hex") {
      int32_t h = engine::readHex(st, text, why);
      if (h < 0) return error(out, why);
      unitEdit.changes.push_back({Change::Hex, -1, Value::of(Tag::Hex, h)});
      report += fmt::format("{}.hex = {}\n", args[1], text);
    } else {
      const Schema& cls = P.classes[st.units[who].cls];
      int32_t slot = engine::readUnitField(P, st.units[who].cls, key, why);
      if (slot < 0) return error(out, why);
      auto v = engine::readValue(*session_, cls.fields[slot].type, text, why);
      if (!v) return error(out, why);
      unitEdit.changes.push_back({Change::FieldValue, slot, *v});
      report += fmt::format("{}.{} = {}\n", args[1], key, session_->display(*v));
    }
  }
  bool done = side ? applyEdit(sideEdit, out) : applyEdit(unitEdit, out);
  if (done) out += report;
}

// The KEY=VALUE pairs of args[from...] as fields of `schema` (each key's slot by `slotOf`), all
// read before any is applied; nothing, with the error written, at the first bad one. `owner`
// names what the report lines set ("0303", "game").
std::optional<std::vector<engine::edit::Field>> Repl::readFieldPairs(
    const std::vector<std::string>& args, size_t from, const Schema& schema,
    int32_t (*slotOf)(const Program&, const std::string&, std::string&), const std::string& owner,
    std::string& report, std::string& out) {
  std::vector<engine::edit::Field> fields;
  std::string why;
  for (size_t i = from; i < args.size(); ++i) {
    std::string key = args[i].substr(0, args[i].find('='));
    std::string text = args[i].substr(args[i].find('=') + 1);
    int32_t slot = slotOf(session_->program(), key, why);
    if (slot < 0) {
      error(out, why);
      return std::nullopt;
    }
    auto v = engine::readValue(*session_, schema.fields[slot].type, text, why);
    if (!v) {
      error(out, why);
      return std::nullopt;
    }
    fields.push_back({slot, *v});
    report += fmt::format("{}.{} = {}\n", owner, key, session_->display(*v));
  }
  return fields;
}

// sethex HEX KEY=VALUE...: the hex state of one hex, every pair read before any is applied.
void Repl::cmdSetHex(const std::vector<std::string>& args, std::string& out) {
  const char* usage = "sethex takes a hex and KEY=VALUE..., as in `sethex 0303 fort=150`";
  if (args.size() < 3) return error(out, usage);
  for (size_t i = 2; i < args.size(); ++i)
    if (args[i].find('=') == std::string::npos) return error(out, usage);
  std::string why, report;
  int32_t h = engine::readHex(session_->state(), args[1], why);
  if (h < 0) return error(out, why);
  auto fields = readFieldPairs(args, 2, session_->program().hexState, engine::readHexField, args[1],
                               report, out);
  if (fields && applyEdit(engine::edit::SetHex{h, *fields}, out)) out += report;
}

// setgame KEY=VALUE...: the game state, every pair read before any is applied.
void Repl::cmdSetGame(const std::vector<std::string>& args, std::string& out) {
  const char* usage = "setgame takes KEY=VALUE..., as in `setgame round=2`";
  if (args.size() < 2) return error(out, usage);
  for (size_t i = 1; i < args.size(); ++i)
    if (args[i].find('=') == std::string::npos) return error(out, usage);
  std::string report;
  auto fields = readFieldPairs(args, 1, session_->program().gameState, engine::readGameField,
                               "game", report, out);
  if (fields && applyEdit(engine::edit::SetGame{*fields}, out)) out += report;
}

void Repl::cmdSandbox(const std::vector<std::string>& given, std::string& out) {
  const Program& P = session_->program();
  const char* usage =
      "sandbox takes the map's size as COLSxROWS, from 1x1 to 200x200, and optionally its first "
      "hex (from HEX), its sides (--sides A,B), its hex labels (--letters or --numbers) and "
      "--keep-scenario, as in `sandbox 12x10`, `sandbox 55x27 from 0100 --sides hunnic,roman` or "
      "`sandbox 20x15 --letters --sides blue,red`";
  check::SandboxSpec spec;
  // --keep-scenario: the scenario's own rules, triggers and side set-up stay (its map does not).
  std::vector<std::string> args = given;
  bool keep = takeFlag(args, "--keep-scenario");
  if (args.size() < 2 || std::sscanf(args[1].c_str(), "%dx%d", &spec.columns, &spec.rows) != 2 ||
      spec.columns < 1 || spec.rows < 1 || spec.columns > check::kMaxSandboxSide ||
      spec.rows > check::kMaxSandboxSide ||
      args[1] != fmt::format("{}x{}", spec.columns, spec.rows))
    return error(out, usage);
  bool from = false;
  // The label style first: `from HEX` is read in it.
  for (size_t i = 2; i < args.size(); ++i) {
    if (args[i] == "--letters" || args[i] == "--numbers") {
      int want = args[i] == "--letters" ? 1 : 0;
      if (spec.letters >= 0 && spec.letters != want) return error(out, usage);
      spec.letters = want;
    }
  }
  bool letters = spec.letters >= 0 ? spec.letters == 1 : P.letterLabels;
  for (size_t i = 2; i < args.size(); i += 2) {
    if (args[i] == "--letters" || args[i] == "--numbers") {
      --i;  // a flag takes no value
      continue;
    }
    if (i + 1 >= args.size()) return error(out, usage);
    if ((args[i] == "from" || args[i] == "--from") && !from) {
      // `from HEX`: the map's first column and row, written as the ruleset's maps number hexes.
      from = true;
      try {
        hex::Offset o = hex::parseLabel(
            args[i + 1], letters ? hex::LabelStyle::Letters : hex::LabelStyle::Numeric);
        spec.firstColumn = o.col;
        spec.firstRow = o.row;
      } catch (const hex::HexError& e) {
        return error(out, fmt::format("'{}' is not a first hex: {}", args[i + 1], e.what()));
      }
    } else if ((args[i] == "sides" || args[i] == "--sides") && spec.sides.empty()) {
      // `sides A,B`: the sides by name (those the ruleset's game has keep their set-up).
      std::string list = args[i + 1];
      for (size_t at = 0; at <= list.size();) {
        size_t comma = list.find(',', at);
        if (comma == std::string::npos) comma = list.size();
        std::string name = list.substr(at, comma - at);
        if (name.empty())
          return error(out, "sides takes names separated by commas, as in `sides blue,red`");
        spec.sides.push_back(name);
        at = comma + 1;
      }
    } else {
      return error(out, usage);
    }
  }
  std::string why;
  // A sandbox drops the scenario: its special rules and triggers, its sides' set-up (the sides
  // keep their names unless --sides gives others); --keep-scenario keeps them. Either way the
  // rules are loaded again when the game in play does not have them as asked.
  std::shared_ptr<const Program> base = session_->programPtr();
  bool scenario = !P.scenarioName.empty() && (P.scenarioName != "sandbox" || keptScenario_);
  bool reload = keep ? !scenario && !options_.scenario.empty() : scenario;
  if (reload) {
    diag::SourceManager sm;
    diag::Diagnostics diags(sm);
    check::Loader loader(diags);
    base = loader
               .load(check::LoadRequest{options_.ruleset, keep ? options_.scenario : "",
                                        options_.houses})
               .program;
    if (!base) return error(out, "the rules do not load again:\n" + diags.render(false));
  }
  bool kept = keep && (scenario || reload);
  if (!kept && spec.sides.empty())
    for (const auto& sd : P.sides) spec.sides.push_back(sd.name);
  std::string scenarioName = P.scenarioName != "sandbox" ? P.scenarioName
                             : options_.scenario.empty() ? "the scenario"
                                                         : options_.scenario;
  autosave(out);
  takeForcedDice();
  auto s = engine::openSandbox(*base, spec, options_.session, why, carriedDice_);
  if (!s) {
    dropKeptGame();
    carriedDice_.clear();
    return error(out, why);
  }
  std::string openName = check::sandboxTerrain(s->program());
  keptScenario_ = kept;
  session_ = std::move(s);
  newGameForExpect();
  history_.clear();
  log_ = {currentLine_};
  const Program& p = session_->program();
  std::string sides;
  for (const auto& sd : p.sides) sides += (sides.empty() ? "" : ", ") + sd.name;
  std::string shown = from ? " from " + session_->state().map.label(0) : "";
  std::string note =
      kept ? "; " + scenarioName + "'s own rules kept"
      : scenario || reload
          ? "; without " + scenarioName + "'s own rules and set-up (--keep-scenario keeps them)"
          : "";
  out += fmt::format("sandbox {}x{}{} of {}, all {}; sides {}{}\n", spec.columns, spec.rows, shown,
                     p.rulesetName, openName, sides, note);
  // The map is the auditor's own; the counters placed on it take the ruleset's unit types.
  std::string unread;
  analysis::Provenance marks =
      analysis::provenance(check::LoadRequest{options_.ruleset, "", options_.houses}, unread);
  out += analysis::provenanceLine(marks);
  noteCarriedDice(out);
  cmdStatus(out);
}

// goto PHASE [SIDE] [--first]: ends phases until PHASE (of SIDE) begins. A decision on the way
// stops it, unless --first is given: then each takes its first option (Deluxe's bidding and
// leader placement before its melee step, say).
void Repl::cmdGoto(const std::vector<std::string>& given, std::string& out) {
  const Program& P = session_->program();
  std::vector<std::string> args = given;
  bool first = takeFlag(args, "--first");
  if (args.size() < 2 || args.size() > 3)
    return error(out,
                 "goto takes a phase, optionally a side and --first, as in `goto combat roman`");
  std::string why;
  int32_t phase = engine::readPhase(P, args[1], why);
  if (phase < 0) return error(out, why);
  int32_t side = args.size() == 3 ? engine::readSide(P, args[2], why) : -1;
  if (args.size() == 3 && side < 0) return error(out, why);
  pushHistory();
  size_t before = 0;
  engine::Outcome o = engine::gotoPhase(*session_, phase, side, first, &before);
  if (o.kind != engine::Outcome::Ok) {
    history_.dropLast();
    return error(out, o.message);
  }
  lastActionTrace_ = before;
  record();
  cmdStatus(out);
}

}  // namespace polemos::repl
