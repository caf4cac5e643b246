#include "repl/repl.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "analysis/coverage_table.h"
#include "analysis/diff.h"
#include "analysis/odds.h"
#include "analysis/rule_index.h"
#include "check/compiler.h"
#include "check/loader.h"
#include "cite/citation.h"
#include "engine/random_player.h"
#include "engine/save.h"
#include "eval/interpreter.h"
#include "eval/trace.h"
#include "hex/grid.h"
#include "hex/coord.h"
#include "syntax/parse.h"

namespace polemos::repl {

using namespace polemos::ir;

namespace {

std::vector<std::string> splitWords(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  size_t b = s.find_last_not_of(" \t\r\n");
  return s.substr(a, b - a + 1);
}

std::optional<long long> parseInt(const std::string& s) {
  try {
    size_t used = 0;
    long long v = std::stoll(s, &used);
    if (used != s.size()) return std::nullopt;
    return v;
  } catch (...) {
    return std::nullopt;
  }
}

struct CommandHelp {
  const char* name;
  const char* usage;
  const char* text;
};

const std::vector<CommandHelp>& commandHelp() {
  static const std::vector<CommandHelp> kHelp = {
      {"status", "status", "where the game stands: turn, phase, who must act and how"},
      {"legal", "legal", "the numbered legal options at the current decision"},
      {"pick", "pick N", "take option N of `legal` (or of a pending choice)"},
      {"end", "end", "end the current phase (if its end requirements hold)"},
      {"pass", "pass", "pass in an alternation (two passes in a row end it)"},
      {"next", "next", "run to the next decision (dice are rolled as they come)"},
      {"auto", "auto [N]", "a random legal player acts N times (default: to the end of the game)"},
      {"trace", "trace on|off|all", "show the rules that fire after each command (all: with phases)"},
      {"log", "log [N]", "the last N trace events (default 20)"},
      {"why", "why", "the chain of events behind the last result"},
      {"dice", "dice N N ...", "force the next dice rolls, in order"},
      {"eval", "eval EXPR", "evaluate an expression of the language on the current game"},
      {"expect", "expect EXPR | expect [not] fired §N [TEXT] | expect illegal|error COMMAND",
       "print ok if EXPR is true, or FAILED with its value; `fired` checks that rule N fired (with TEXT "
       "in its trace line) in the commands since the previous `expect fired`; `illegal`/`error` run COMMAND and check "
       "that it is refused"},
      {"units", "units [SIDE]", "list units with their hexes and state"},
      {"sandbox", "sandbox COLSxROWS", "a new empty map under the current ruleset, for setting up a situation"},
      {"terrain", "terrain HEX KIND", "set a hex's terrain"},
      {"hexside", "hexside HEX HEX KIND", "add a feature (stream, ridge, ...) to the hexside between two hexes"},
      {"place", "place SIDE TYPE HEX [facing DIR] [as ID] [KEY=VALUE...]", "put a new unit on the map"},
      {"remove", "remove UNIT", "take a unit off the map"},
      {"set", "set UNIT KEY=VALUE...", "change fields of a unit (strength, disrupted, facing, hex, ...), all or none"},
      {"setside", "setside SIDE KEY=VALUE...", "change a side's state (losses, demoralized level, ...), all or none"},
      {"goto", "goto PHASE [SIDE] [--first]", "end phases until PHASE (of SIDE) begins (--first: take the first option of each decision on the way)"},
      {"ruleset", "ruleset NAME", "start a new game under another ruleset (its default scenario, if named)"},
      {"scenario", "scenario NAME", "start a new game of another scenario of this ruleset"},
      {"house", "house [FILE | --clear]", "the house-rule files in effect, or start a new game with FILE added to them (--clear: none)"},
      {"level", "level [NAME]", "the level being played, or start a new game of this ruleset and scenario at level NAME"},
      {"compare", "compare TARGET... [--level L] [--map FROM=TO]... -- ACTION ARGS [--policy P]",
       "the odds of ACTION here and in the same situation under each TARGET (a ruleset or a house-rule file), side by side, with the rules that differ"},
      {"rule", "rule N", "rule N (7.43 or §7.43) of this game's rules: the declarations (file:line) and the test scripts that cite it"},
      {"diff", "diff [OTHER]", "the rules that differ from this game's (with its house rules) to OTHER, a ruleset or file; alone: what the house rules change"},
      {"odds", "odds [ACTION ARGS...] [--policy first|last|random] [--split] [--picks N,N...] [--json]",
       "the exact probability of every outcome of ACTION (alone: of the action under way), every roll enumerated "
       "to the end of its resolution; decisions by the policy (default first), or each option apart with --split; "
       "the game is not changed"},
      {"map", "map [HEX..HEX] | map --svg FILE [--zoc UNIT] [--los HEX HEX]", "the map as text (terrain letters, units by id with facing), or as an SVG picture"},
      {"show", "show UNIT|HEX", "everything about one unit or one hex"},
      {"undo", "undo [N]", "take back the last N moves (default 1)"},
      {"redo", "redo", "put back a move taken back"},
      {"save", "save FILE", "save the game (JSON)"},
      {"load", "load FILE", "load a saved game of this ruleset and scenario"},
      {"replay", "replay FILE", "replay a saved game from its start (same seed, same commands), showing each move"},
      {"help", "help [COMMAND|ACTION]", "this list, or one command or one ruleset action"},
      {"quit", "quit", "leave"},
  };
  return kHelp;
}

}  // namespace

Repl::Repl(ReplOptions options)
    : options_(std::move(options)), autoPlayer_(engine::RandomPlayer::forSeed(options_.session.seed)) {}

bool Repl::start(std::string& out) {
  diag::SourceManager sm;
  diag::Diagnostics diags(sm);
  check::Loader loader(diags);
  check::LoadRequest req{options_.ruleset, options_.scenario, options_.houses};
  check::Loaded loaded = loader.load(req);
  if (!loaded.program) {
    out += diags.render(false);
    return false;
  }
  if (loaded.program->sides.empty() && !loaded.program->terrains.empty()) {
    // A ruleset without a scenario has no sides or map: start in an empty sandbox.
    auto base = std::make_unique<engine::Session>(loaded.program, options_.session);
    if (std::string problem = base->configProblem(); !problem.empty()) {
      out += "error: " + problem + "\n";
      return false;
    }
    session_ = std::move(base);
    currentLine_ = "sandbox 12x10";
    int before = errors_;
    cmdSandbox({"sandbox", "12x10"}, out);
    if (errors_ == before) return true;
    session_.reset();  // the sandbox could not start: no half-made game is kept
    return false;
  }
  session_ = std::make_unique<engine::Session>(loaded.program, options_.session);
  engine::Outcome o = session_->start();
  if (o.kind != engine::Outcome::Ok) {
    out += "error: " + o.message + "\n";
    session_.reset();
    return false;
  }
  const Program& p = session_->program();
  out += fmt::format("{}{}{} ({}seed {})\n", p.title.empty() ? p.rulesetName : p.title,
                     p.scenarioName.empty() ? "" : ": ", p.scenarioTitle.empty() ? p.scenarioName : p.scenarioTitle,
                     p.levels.size() > 1 ? "level " + p.levels[session_->state().level] + ", " : "",
                     options_.session.seed);
  cmdStatus(out);
  return true;
}

void Repl::error(std::string& out, const std::string& msg) {
  ++errors_;
  out += "error: " + msg + "\n";
}

std::string Repl::formatEvent(const eval::TraceEvent& e) const { return eval::formatEvent(e); }

void Repl::printTrace(size_t from, std::string& out) {
  if (trace_ == TraceMode::Off && !options_.json) return;
  const auto& tr = session_->state().trace;
  for (size_t i = from; i < tr.size(); ++i) {
    const auto& e = tr[i];
    if (options_.json) {
      out += eval::eventJson(e) + "\n";
      continue;
    }
    if (trace_ == TraceMode::On && (e.kind == eval::TraceKind::Phase || e.kind == eval::TraceKind::Step) &&
        e.citations.empty())
      continue;
    out += "  " + formatEvent(e) + "\n";
  }
}

void Repl::cmdStatus(std::string& out) {
  const auto& st = session_->state();
  if (options_.json) {
    // One JSON object per status: where the game stands, and its result once it is over.
    static const char* kKinds[] = {"none", "decision", "choice", "roll", "end", "failed", "error"};
    const auto& stop = session_->stop();
    nlohmann::ordered_json j = {{"kind", "status"},
                                {"turn", st.turn},
                                {"stop", kKinds[static_cast<int>(stop.kind)]},
                                {"player", stop.player >= 0 && stop.player < static_cast<int32_t>(session_->program().sides.size())
                                               ? nlohmann::ordered_json(session_->program().sides[stop.player].name)
                                               : nlohmann::ordered_json(nullptr)},
                                {"phase", session_->phaseName()},
                                {"text", session_->describeStop()}};
    if (st.result.over) {
      j["result"] = {{"winner", st.result.winner >= 0 ? nlohmann::ordered_json(session_->program().sides[st.result.winner].name)
                                                      : nlohmann::ordered_json(nullptr)},
                     {"level", st.result.level},
                     {"reason", st.result.reason}};
    }
    out += j.dump() + "\n";
    return;
  }
  std::string turn = st.turn > 0 ? fmt::format("turn {}", st.turn) : "setup";
  out += fmt::format("{}: {}\n", turn, session_->describeStop());
}

void Repl::cmdLegal(std::string& out) {
  auto opts = session_->legal();
  if (opts.empty()) {
    out += session_->over() ? "the game is over: nothing is legal\n" : "no options\n";
    return;
  }
  for (size_t i = 0; i < opts.size(); ++i) out += fmt::format("{:>3}. {}\n", i + 1, opts[i].text);
}

void Repl::pushHistory() {
  undo_.push_back(Snapshot{*session_, log_});
  redo_.clear();
  // The history is bounded so that a long game does not hold thousands of copies.
  if (undo_.size() > 500) undo_.erase(undo_.begin());
}

void Repl::afterMove(const engine::Outcome& o, size_t traceBefore, std::string& out) {
  if (o.kind == engine::Outcome::Illegal) {
    std::string cite;
    for (const auto& c : o.citations) cite += "§" + c + " ";
    out += "illegal: " + cite + o.message + "\n";
    undo_.pop_back();  // nothing changed
    return;
  }
  if (o.kind == engine::Outcome::Error) {
    undo_.pop_back();
    error(out, o.message);
    return;
  }
  lastActionTrace_ = traceBefore;
  record();
  printTrace(traceBefore, out);
  cmdStatus(out);
}

std::optional<Value> Repl::parseArg(const ActionParam& p, const std::string& word, std::string& why) const {
  const auto& st = session_->state();
  const Program& P = session_->program();
  auto unitNamed = [&]() -> std::optional<Value> {
    for (size_t u = 0; u < st.units.size(); ++u)
      if (st.units[u].id == word) return Value::of(Tag::Unit, static_cast<int64_t>(u));
    return std::nullopt;
  };
  switch (p.type.kind) {
    case TypeKind::Unit:
      if (auto u = unitNamed()) return u;
      why = fmt::format("no unit '{}'", word);
      return std::nullopt;
    case TypeKind::Hex: {
      int32_t h = st.map.parse(word);
      if (h >= 0) return Value::of(Tag::Hex, h);
      why = fmt::format("'{}' is not a hex of this map", word);
      return std::nullopt;
    }
    case TypeKind::Int:
      if (auto v = parseInt(word)) return Value::integer(*v);
      why = fmt::format("'{}' is not a number", word);
      return std::nullopt;
    case TypeKind::Bool:
      if (word == "yes" || word == "true" || word == "on") return Value::boolean(true);
      if (word == "no" || word == "false" || word == "off") return Value::boolean(false);
      why = fmt::format("'{}' is not yes or no", word);
      return std::nullopt;
    case TypeKind::Side:
      for (size_t s = 0; s < P.sides.size(); ++s)
        if (P.sides[s].name == word) return Value::of(Tag::Side, static_cast<int64_t>(s));
      why = fmt::format("no side '{}'", word);
      return std::nullopt;
    case TypeKind::Enum: {
      const auto& members = P.enums[p.type.id].members;
      for (size_t m = 0; m < members.size(); ++m)
        if (members[m] == word) return Value::of(Tag::Enum, static_cast<int64_t>(m), p.type.id);
      why = fmt::format("'{}' is not one of: {}", word, [&] {
        std::string s;
        for (const auto& m : members) s += (s.empty() ? "" : ", ") + m;
        return s;
      }());
      return std::nullopt;
    }
    default: {
      // Anything else: a unit, a hex or a number, whichever the word is.
      if (auto u = unitNamed()) return u;
      int32_t h = st.map.parse(word);
      if (h >= 0) return Value::of(Tag::Hex, h);
      if (auto v = parseInt(word)) return Value::integer(*v);
      why = fmt::format("cannot read '{}' as {}", word, p.name);
      return std::nullopt;
    }
  }
}

bool Repl::cmdAction(int32_t action, const std::vector<std::string>& args, std::string& out) {
  const ActionInfo& a = session_->program().actions[action];
  if (args.size() != a.params.size()) {
    std::string usage = a.name;
    for (const auto& p : a.params) usage += " " + p.name;
    error(out, fmt::format("{} takes {} argument{}: {}", a.name, a.params.size(), a.params.size() == 1 ? "" : "s", usage));
    return true;
  }
  std::vector<Value> values;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string why;
    auto v = parseArg(a.params[i], args[i], why);
    if (!v) {
      error(out, why);
      return true;
    }
    values.push_back(*v);
  }
  pushHistory();
  size_t before = session_->state().trace.size();
  afterMove(session_->act(action, values), before, out);
  return true;
}

void Repl::cmdLog(const std::vector<std::string>& args, std::string& out) {
  size_t n = 20;
  if (args.size() > 1) {
    auto v = parseInt(args[1]);
    if (!v || *v < 1) {
      error(out, "log takes a positive number of events");
      return;
    }
    n = static_cast<size_t>(*v);
  }
  const auto& tr = session_->state().trace;
  size_t from = tr.size() > n ? tr.size() - n : 0;
  for (size_t i = from; i < tr.size(); ++i) out += fmt::format("{:>5} {}\n", tr[i].seq, formatEvent(tr[i]));
}

std::optional<Value> Repl::evaluate(const std::string& text, const char* origin, std::string& diagnostics,
                                    std::string& error, std::string* shown) {
  diag::SourceManager sm;
  diag::Diagnostics diags(sm);
  diag::FileId f = sm.add(origin, text);
  auto expr = syntax::parseExpression(diags, f);
  if (!expr || diags.hasErrors()) {
    diagnostics = diags.render(false);
    return std::nullopt;
  }
  // Compile against a copy of the program, so the shared one stays untouched; units placed in
  // the sandbox are named too.
  Program copy = session_->program();
  for (size_t u = copy.units.size(); u < session_->state().units.size(); ++u) {
    const auto& us = session_->state().units[u];
    UnitSetup setup;
    setup.id = us.id;
    setup.type = us.type;
    setup.side = us.side;
    copy.units.push_back(setup);
  }
  int32_t fn = check::compileExpression(diags, *expr, copy);
  if (fn < 0) {
    diagnostics = diags.render(false);
    return std::nullopt;
  }
  eval::GameState state = session_->state();
  state.tracing = false;
  eval::Machine machine;
  eval::Interpreter in(copy, state, machine);
  auto v = in.tryCallPure(fn, {}, error);
  if (v && shown) *shown = eval::display(copy, state, *v);
  return v;
}

void Repl::cmdEval(const std::string& text, bool expect, std::string& out) {
  std::string diagnostics, err, shown;
  auto v = evaluate(text, expect ? "<expect>" : "<eval>", diagnostics, err, &shown);
  if (!diagnostics.empty()) {
    ++errors_;
    out += diagnostics;
    return;
  }
  if (!v) {
    if (expect) {
      ++failedExpects_;
      out += "FAILED: " + text + ": error: " + err + "\n";
    } else {
      error(out, err);
    }
    return;
  }
  if (!expect) {
    out += shown + "\n";
    return;
  }
  if (v->tag == Tag::Bool && v->i) {
    out += "ok\n";
  } else {
    ++failedExpects_;
    out += fmt::format("FAILED: {} (is {})\n", text, shown);
  }
}

// `expect [not] fired §N [TEXT]`: whether a trace event citing rule N (and whose line contains
// TEXT) was recorded by the commands since the previous `expect fired` (checks in a row share
// one stretch of commands). The rule number must match one citation of
// the event exactly ("7.8" does not match "7.82").
void Repl::cmdExpectFired(const std::vector<std::string>& args, std::string& out) {
  bool negate = args[1] == "not";
  size_t at = negate ? 3 : 2;
  if (at >= args.size()) {
    error(out, "expect fired takes a rule number, as in `expect fired §7.82 displaced`");
    return;
  }
  auto parsed = cite::Citation::parse(args[at]);
  if (!parsed) {
    error(out, fmt::format("'{}' is not a rule number (write §7.82)", args[at]));
    return;
  }
  std::string rule = parsed->number();
  std::string text;
  for (size_t i = at + 1; i < args.size(); ++i) text += (text.empty() ? "" : " ") + args[i];
  const auto& tr = session_->state().trace;
  uint64_t end = tr.empty() ? 0 : tr.back().seq + 1;
  // Checks in a row look at the same stretch; once new events come, the stretch starts after the
  // events already checked. After undo, load or a new game (sandbox, level, ...) the events already
  // checked are no longer the trace's (it is shorter, or the event at the mark is another one):
  // look at all of it.
  auto markOf = [&](uint64_t seq) -> std::string {
    for (auto it = tr.rbegin(); it != tr.rend(); ++it)
      if (it->seq == seq) return formatEvent(*it);
    return {};
  };
  bool sameGame = firedPending_ == 0 || (end >= firedPending_ && markOf(firedPending_ - 1) == firedMark_);
  if (!sameGame) firedStart_ = 0;
  else if (end > firedPending_) firedStart_ = firedPending_;
  firedPending_ = end;
  firedMark_ = end == 0 ? std::string() : markOf(end - 1);
  bool found = false;
  for (const auto& e : tr) {
    if (e.seq < firedStart_) continue;
    bool cites = e.cites(rule);
    if (cites && (text.empty() || formatEvent(e).find(text) != std::string::npos)) found = true;
  }
  std::string what = fmt::format("§{}{}", rule, text.empty() ? "" : " " + text);
  if (found != negate) {
    out += "ok\n";
  } else {
    ++failedExpects_;
    out += fmt::format("FAILED: {} {}\n", what, negate ? "fired" : "did not fire");
  }
}

void Repl::cmdUnits(const std::vector<std::string>& args, std::string& out) {
  const auto& st = session_->state();
  const Program& P = session_->program();
  int32_t side = -1;
  if (args.size() > 1) {
    for (size_t s = 0; s < P.sides.size(); ++s)
      if (P.sides[s].name == args[1]) side = static_cast<int32_t>(s);
    if (side < 0) {
      error(out, fmt::format("no side '{}'", args[1]));
      return;
    }
  }
  for (const auto& u : st.units) {
    if (side >= 0 && u.side != side) continue;
    std::string where = u.status == eval::UnitStatus::OnMap ? st.map.label(u.hex)
                        : u.status == eval::UnitStatus::Eliminated ? "eliminated"
                        : u.status == eval::UnitStatus::Exited     ? "exited"
                                                                   : "off map";
    out += fmt::format("{:<10} {:<8} {:<14} {}\n", u.id, P.sides[u.side].name, P.unitTypes[u.type].name, where);
  }
}

// The map as text. Columns of flat-topped hexes: odd columns sit half a hex lower, so each map row
// is printed as two text lines, the even columns' hexes on the first and the odd columns' on the
// second. A hex shows its units (the first unit's id, then its facing as an arrow) or its terrain's
// first letter ('.' for the map's commonest terrain); a legend follows.
void Repl::cmdMap(const std::vector<std::string>& args, std::string& out) {
  if (args.size() > 1 && args[1] == "--svg") return cmdMapSvg(args, out);
  const auto& st = session_->state();
  const Program& P = session_->program();
  const eval::MapState& m = st.map;
  if (m.size() == 0) {
    error(out, "this game has no map");
    return;
  }
  int c0 = m.col0, c1 = m.col1, r0 = m.row0, r1 = m.row1;
  if (args.size() > 1) {
    auto dots = args[1].find("..");
    int32_t a = dots == std::string::npos ? -1 : m.parse(args[1].substr(0, dots));
    int32_t b = dots == std::string::npos ? -1 : m.parse(args[1].substr(dots + 2));
    if (a < 0 || b < 0) {
      error(out, fmt::format("map takes a region of two corner hexes, as in `map {}..{}`", m.label(0),
                             m.label(std::min(m.size() - 1, m.rows() * 3 + 3))));
      return;
    }
    c0 = std::min(m.colOf(a), m.colOf(b));
    c1 = std::max(m.colOf(a), m.colOf(b));
    r0 = std::min(m.rowOf(a), m.rowOf(b));
    r1 = std::max(m.rowOf(a), m.rowOf(b));
  }
  std::vector<int> counts(P.terrains.size() + 1, 0);
  for (int32_t t : m.terrain) counts[t >= 0 ? t : P.terrains.size()]++;
  int common = static_cast<int>(std::max_element(counts.begin(), counts.end() - 1) - counts.begin());
  std::map<char, std::string> legend;
  auto cell = [&](int32_t h) {
    for (const auto& u : st.units) {
      if (u.status != eval::UnitStatus::OnMap || u.hex != h) continue;
      std::string id = u.id.substr(0, 3);
      std::string face = u.facing >= 0 ? std::string(1, "^>>v<<"[u.facing]) : " ";
      return fmt::format("{:<3}{}", id, face);
    }
    int32_t t = m.terrain[h];
    if (t < 0 || t == common) return std::string(" .  ");
    char ch = P.terrains[t].name.empty() ? '?' : P.terrains[t].name[0];
    std::string& names = legend[ch];
    if (("/" + names + "/").find("/" + P.terrains[t].name + "/") == std::string::npos)
      names += (names.empty() ? "" : "/") + P.terrains[t].name;
    return fmt::format(" {}  ", ch);
  };
  // Header: column numbers, each centred on its cell.
  std::string head = "     ";
  for (int c = c0; c <= c1; ++c) head += fmt::format("{:<4}", m.letters ? m.label(m.index(c, r0)).substr(0, m.label(m.index(c, r0)).find_first_of("0123456789")) : fmt::format("{:02d}", c));
  while (!head.empty() && head.back() == ' ') head.pop_back();
  out += head + "\n";
  for (int r = r0; r <= r1; ++r) {
    for (int parity : {0, 1}) {
      std::string line = parity == 0 ? fmt::format("{:>3}  ", r) : "     ";
      for (int c = c0; c <= c1; ++c) {
        bool lowered = c % 2 != 0;  // odd columns sit half a hex lower
        if (lowered != (parity == 1)) {
          line += "    ";
          continue;
        }
        line += cell(m.index(c, r));
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
  }
  std::string key = fmt::format("  . {}", P.terrains.empty() ? "" : P.terrains[common].name);
  for (const auto& [ch, names] : legend) key += fmt::format("   {} {}", ch, names);
  out += key + "   units: id, facing ^ N, > NE/SE, v S, < SW/NW\n";
}

bool Repl::restart(std::string& out) {
  auto old = std::move(session_);
  if (!start(out)) {
    ++errors_;
    session_ = std::move(old);
    out += "error: the current game is unchanged\n";
    return false;
  }
  undo_.clear();
  redo_.clear();
  log_.clear();
  return true;
}

std::optional<Value> Repl::parseFieldValue(const Type& t, const std::string& text, std::string& why) const {
  const Program& P = session_->program();
  const auto& st = session_->state();
  if (text == "none" && (t.optional || t.kind == TypeKind::Any)) return Value::none();
  switch (t.kind) {
    case TypeKind::Int:
      if (auto v = parseInt(text)) return Value::integer(*v);
      break;
    case TypeKind::Bool:
      if (text == "true" || text == "yes" || text == "on") return Value::boolean(true);
      if (text == "false" || text == "no" || text == "off") return Value::boolean(false);
      break;
    case TypeKind::Str: return Value::string(text);
    case TypeKind::Enum: {
      const auto& m = P.enums[t.id].members;
      auto it = std::find(m.begin(), m.end(), text);
      if (it != m.end()) return Value::of(Tag::Enum, it - m.begin(), t.id);
      break;
    }
    case TypeKind::Side:
      for (size_t i = 0; i < P.sides.size(); ++i)
        if (P.sides[i].name == text) return Value::of(Tag::Side, static_cast<int64_t>(i));
      break;
    case TypeKind::Hex:
      if (int32_t h = st.map.parse(text); h >= 0) return Value::of(Tag::Hex, h);
      break;
    case TypeKind::Terrain:
      for (size_t i = 0; i < P.terrains.size(); ++i)
        if (P.terrains[i].name == text) return Value::of(Tag::Terrain, static_cast<int64_t>(i));
      break;
    case TypeKind::UnitType:
      for (size_t i = 0; i < P.unitTypes.size(); ++i)
        if (P.unitTypes[i].name == text) return Value::of(Tag::UnitType, static_cast<int64_t>(i));
      break;
    case TypeKind::Unit:
      for (size_t i = 0; i < st.units.size(); ++i)
        if (st.units[i].id == text) return Value::of(Tag::Unit, static_cast<int64_t>(i));
      break;
    case TypeKind::Odds: {
      auto colon = text.find(':');
      auto a = parseInt(text.substr(0, colon));
      auto b = colon == std::string::npos ? std::nullopt : parseInt(text.substr(colon + 1));
      if (a && b && *a > 0 && *b > 0) return Value::odds(*a, *b);
      break;
    }
    default:
      if (auto v = parseInt(text)) return Value::integer(*v);
      if (text == "true" || text == "false") return Value::boolean(text == "true");
      return Value::string(text);
  }
  static const char* kNames[] = {"any", "none", "true or false", "a whole number", "odds such as 3:1", "text",
                                 "enum", "a unit", "a side", "a hex", "a terrain", "a hexside kind", "a unit type",
                                 "a level", "a table", "a column", "a die", "a list", "a function", "nothing"};
  std::string want = t.kind == TypeKind::Enum ? "one of " + [&] {
    std::string m;
    for (const auto& x : P.enums[t.id].members) m += (m.empty() ? "" : ", ") + x;
    return m;
  }() : kNames[static_cast<int>(t.kind)];
  why = fmt::format("'{}' is not {}", text, want);
  return std::nullopt;
}

void Repl::cmdTerrain(const std::vector<std::string>& args, std::string& out) {
  const Program& P = session_->program();
  auto& m = session_->mutableState().map;
  if (args.size() != 3) return error(out, "terrain takes a hex and a terrain kind, as in `terrain 2725 woods`");
  int32_t h = m.parse(args[1]);
  if (h < 0) return error(out, fmt::format("'{}' is not a hex of this map", args[1]));
  for (size_t t = 0; t < P.terrains.size(); ++t) {
    if (P.terrains[t].name != args[2]) continue;
    pushHistory();
    session_->mutableState().map.terrain[h] = static_cast<int32_t>(t);
    record();
    out += fmt::format("hex {} is now {}\n", args[1], args[2]);
    return;
  }
  std::string known;
  for (const auto& t : P.terrains) known += (known.empty() ? "" : ", ") + t.name;
  error(out, fmt::format("unknown terrain '{}' (this ruleset has: {})", args[2], known));
}

void Repl::cmdHexside(const std::vector<std::string>& args, std::string& out) {
  const Program& P = session_->program();
  const auto& m = session_->state().map;
  if (args.size() != 4) return error(out, "hexside takes two adjacent hexes and a kind, as in `hexside 3114 3215 ridge`");
  int32_t a = m.parse(args[1]), b = m.parse(args[2]);
  if (a < 0 || b < 0) return error(out, fmt::format("'{}' is not a hex of this map", a < 0 ? args[1] : args[2]));
  if (!m.adjacent(a, b))
    return error(out, fmt::format("hexes {} and {} are not adjacent", args[1], args[2]));
  for (size_t f = 0; f < P.features.size(); ++f) {
    if (P.features[f].name != args[3]) continue;
    pushHistory();
    auto& list = session_->mutableState().map.hexsides[{std::min(a, b), std::max(a, b)}];
    if (std::find(list.begin(), list.end(), static_cast<int32_t>(f)) == list.end()) list.push_back(static_cast<int32_t>(f));
    record();
    out += fmt::format("hexside {}/{} has {}\n", args[1], args[2], args[3]);
    return;
  }
  std::string known;
  for (const auto& f : P.features) known += (known.empty() ? "" : ", ") + f.name;
  error(out, fmt::format("unknown hexside kind '{}' (this ruleset has: {})", args[3], known.empty() ? "none" : known));
}

void Repl::cmdPlace(const std::vector<std::string>& args, std::string& out) {
  const Program& P = session_->program();
  const auto& st = session_->state();
  if (args.size() < 4)
    return error(out, "place takes a side, a unit type and a hex, as in `place roman legion 2725 facing N as l1 strength=6`");
  int32_t side = -1;
  for (size_t i = 0; i < P.sides.size(); ++i)
    if (P.sides[i].name == args[1]) side = static_cast<int32_t>(i);
  if (side < 0) return error(out, fmt::format("no side '{}'", args[1]));
  int32_t type = -1;
  for (size_t i = 0; i < P.unitTypes.size(); ++i)
    if (P.unitTypes[i].name == args[2]) type = static_cast<int32_t>(i);
  if (type < 0) return error(out, fmt::format("no unit type '{}'", args[2]));
  int32_t h = st.map.parse(args[3]);
  if (h < 0) return error(out, fmt::format("'{}' is not a hex of this map", args[3]));
  eval::UnitState u;
  u.type = type;
  u.cls = P.unitTypes[type].cls;
  u.side = side;
  u.hex = h;
  u.status = eval::UnitStatus::OnMap;
  u.fields = P.unitTypes[type].values;
  const Schema& cls = P.classes[u.cls];
  for (size_t i = 4; i < args.size(); ++i) {
    if ((args[i] == "facing" && i + 1 < args.size()) || args[i].rfind("facing=", 0) == 0) {
      auto d = hex::parseDirection(args[i] == "facing" ? args[++i] : args[i].substr(7));
      if (!d) return error(out, fmt::format("unknown facing '{}' (N, NE, SE, S, SW or NW)", args[i]));
      u.facing = static_cast<int32_t>(*d);
    } else if (args[i] == "as" && i + 1 < args.size()) {
      u.id = args[++i];
      for (const auto& other : st.units)
        if (other.id == u.id) return error(out, fmt::format("unit id '{}' is already used", u.id));
      if (u.id.empty() || !std::isalpha(static_cast<unsigned char>(u.id[0])))
        return error(out, fmt::format("a unit id starts with a letter, not '{}'", u.id));
    } else {
      auto eq = args[i].find('=');
      if (eq == std::string::npos) return error(out, fmt::format("'{}' is not KEY=VALUE", args[i]));
      int32_t slot = -1;
      for (size_t f = 0; f < cls.fields.size(); ++f)
        if (cls.fields[f].name == args[i].substr(0, eq) && cls.fields[f].derived < 0) slot = static_cast<int32_t>(f);
      if (slot < 0) return error(out, fmt::format("unit class {} has no field '{}'", cls.name, args[i].substr(0, eq)));
      std::string why;
      auto v = parseFieldValue(cls.fields[slot].type, args[i].substr(eq + 1), why);
      if (!v) return error(out, why);
      u.fields[slot] = *v;
    }
  }
  if (u.id.empty()) {
    for (int n = 1;; ++n) {
      std::string id = fmt::format("{}{}", args[2].substr(0, 3), n);
      if (std::none_of(st.units.begin(), st.units.end(), [&](const eval::UnitState& o) { return o.id == id; })) {
        u.id = id;
        break;
      }
    }
  }
  pushHistory();
  record();
  out += fmt::format("placed {} ({}, {}) at {}\n", u.id, args[2], args[1], args[3]);
  session_->mutableState().units.push_back(std::move(u));
}

void Repl::cmdRemove(const std::vector<std::string>& args, std::string& out) {
  if (args.size() != 2) return error(out, "remove takes a unit id");
  auto& units = session_->mutableState().units;
  for (auto& u : units) {
    if (u.id != args[1]) continue;
    if (u.status != eval::UnitStatus::OnMap) return error(out, fmt::format("{} is not on the map", u.id));
    pushHistory();
    auto& w = session_->mutableState().units[&u - units.data()];
    w.status = eval::UnitStatus::Off;
    w.hex = -1;
    record();
    out += fmt::format("removed {}\n", args[1]);
    return;
  }
  error(out, fmt::format("no unit '{}'", args[1]));
}

// set UNIT KEY=VALUE... / setside SIDE KEY=VALUE...: every pair is checked before any is applied,
// so a bad one leaves the game as it was; the whole command is one step of undo and of the log.
void Repl::cmdSet(const std::vector<std::string>& args, bool side, std::string& out) {
  const Program& P = session_->program();
  const char* usage = side ? "setside takes a side and KEY=VALUE..., as in `setside roman losses=40`"
                           : "set takes a unit and KEY=VALUE..., as in `set l1 disrupted=true hex=0504`";
  if (args.size() < 3) return error(out, usage);
  for (size_t i = 2; i < args.size(); ++i)
    if (args[i].find('=') == std::string::npos) return error(out, usage);
  const auto& st = session_->state();
  int32_t who = -1;
  if (side) {
    for (size_t i = 0; i < P.sides.size(); ++i)
      if (P.sides[i].name == args[1]) who = static_cast<int32_t>(i);
    if (who < 0) return error(out, fmt::format("no side '{}'", args[1]));
  } else {
    for (size_t i = 0; i < st.units.size(); ++i)
      if (st.units[i].id == args[1]) who = static_cast<int32_t>(i);
    if (who < 0) return error(out, fmt::format("no unit '{}'", args[1]));
  }
  std::vector<std::function<void(eval::GameState&)>> changes;
  std::string report;
  for (size_t i = 2; i < args.size(); ++i) {
    std::string key = args[i].substr(0, args[i].find('='));
    std::string text = args[i].substr(args[i].find('=') + 1);
    std::string why;
    if (side) {
      int32_t slot = P.sideState.find(P.nameIds.count(key) ? P.nameIds.at(key) : -1);
      if (slot < 0 || P.sideState.fields[slot].derived >= 0)
        return error(out, fmt::format("the side state has no field '{}' that can be set", key));
      auto v = parseFieldValue(P.sideState.fields[slot].type, text, why);
      if (!v) return error(out, why);
      changes.push_back([who, slot, v = *v](eval::GameState& g) { g.sides[who].fields[slot] = v; });
      report += fmt::format("{}.{} = {}\n", args[1], key, session_->display(*v));
    } else if (key == "facing") {
      auto d = hex::parseDirection(text);
      if (!d) return error(out, fmt::format("unknown facing '{}' (N, NE, SE, S, SW or NW)", text));
      changes.push_back([who, d = static_cast<int32_t>(*d)](eval::GameState& g) { g.units[who].facing = d; });
      report += fmt::format("{}.facing = {}\n", args[1], text);
    } else if (key == "hex") {
      int32_t h = st.map.parse(text);
      if (h < 0) return error(out, fmt::format("'{}' is not a hex of this map", text));
      changes.push_back([who, h](eval::GameState& g) {
        g.units[who].hex = h;
        g.units[who].status = eval::UnitStatus::OnMap;
      });
      report += fmt::format("{}.hex = {}\n", args[1], text);
    } else {
      const Schema& cls = P.classes[st.units[who].cls];
      int32_t slot = -1;
      for (size_t f = 0; f < cls.fields.size(); ++f)
        if (cls.fields[f].name == key && cls.fields[f].derived < 0) slot = static_cast<int32_t>(f);
      if (slot < 0) return error(out, fmt::format("unit class {} has no field '{}' that can be set", cls.name, key));
      auto v = parseFieldValue(cls.fields[slot].type, text, why);
      if (!v) return error(out, why);
      changes.push_back([who, slot, v = *v](eval::GameState& g) { g.units[who].fields[slot] = v; });
      report += fmt::format("{}.{} = {}\n", args[1], key, session_->display(*v));
    }
  }
  pushHistory();
  for (const auto& change : changes) change(session_->mutableState());
  record();
  out += report;
}

void Repl::cmdSandbox(const std::vector<std::string>& args, std::string& out) {
  const Program& P = session_->program();
  int cols = 0, rows = 0;
  if (args.size() != 2 || std::sscanf(args[1].c_str(), "%dx%d", &cols, &rows) != 2 || cols < 1 || rows < 1 ||
      cols > 99 || rows > 99)
    return error(out, "sandbox takes the map's size as COLSxROWS, from 1x1 to 99x99, as in `sandbox 12x10`");
  if (P.terrains.empty()) return error(out, "this ruleset declares no terrain, so it has no map to make");
  auto p = std::make_shared<Program>(P);
  p->scenarioName = "sandbox";
  p->scenarioTitle = fmt::format("sandbox {}x{}", cols, rows);
  p->mapCols0 = 1;
  p->mapCols1 = cols;
  p->mapRows0 = 1;
  p->mapRows1 = rows;
  hex::GridSpec spec;
  spec.firstColumn = 1;
  spec.columns = cols;
  spec.firstRow = 1;
  spec.rows = rows;
  spec.labels = p->letterLabels ? hex::LabelStyle::Letters : hex::LabelStyle::Numeric;
  p->grid = std::make_shared<const hex::Grid>(spec);
  int32_t open = 0;
  for (size_t t = 0; t < P.terrains.size(); ++t)
    if (P.terrains[t].name == "clear" || P.terrains[t].name == "open") open = static_cast<int32_t>(t);
  p->mapTerrain.assign(cols * rows, open);
  p->mapElevation.assign(cols * rows, 0);
  p->mapHexsides.clear();
  p->mapGroups.clear();
  p->units.clear();
  if (p->sides.empty()) {
    for (const char* n : {"blue", "red"}) {
      SideSetup s;
      s.name = s.title = n;
      p->sides.push_back(s);
    }
  }
  if (p->scenarioValues.size() != p->scenarioAttrs.fields.size()) {
    p->scenarioValues.clear();
    for (const auto& f : p->scenarioAttrs.fields) p->scenarioValues.push_back(f.value);
  }
  auto s = std::make_unique<engine::Session>(p, options_.session);
  engine::Outcome o = s->start();
  if (o.kind == engine::Outcome::Error) return error(out, "the sandbox could not start: " + o.message);
  // `P` belongs to the old game, which is about to go: take what is needed first.
  std::string openName = P.terrains[open].name;
  session_ = std::move(s);
  undo_.clear();
  redo_.clear();
  log_ = {currentLine_};
  out += fmt::format("sandbox {}x{} of {}, all {}; sides {}\n", cols, rows, p->rulesetName, openName, [&] {
    std::string n;
    for (const auto& sd : p->sides) n += (n.empty() ? "" : ", ") + sd.name;
    return n;
  }());
  cmdStatus(out);
}

// goto PHASE [SIDE] [--first]: ends phases until PHASE (of SIDE) begins. A decision on the way
// stops it, unless --first is given: then each takes its first option (Deluxe's bidding and
// leader placement before its melee step, say).
void Repl::cmdGoto(const std::vector<std::string>& given, std::string& out) {
  const Program& P = session_->program();
  std::vector<std::string> args;
  bool first = false;
  for (const auto& a : given) {
    if (a == "--first") first = true;
    else args.push_back(a);
  }
  if (args.size() < 2 || args.size() > 3)
    return error(out, "goto takes a phase, optionally a side and --first, as in `goto combat roman`");
  if (std::none_of(P.phases.begin(), P.phases.end(), [&](const PhaseInfo& ph) { return ph.name == args[1]; }))
    return error(out, fmt::format("this ruleset has no phase '{}'", args[1]));
  int32_t side = -1;
  if (args.size() == 3) {
    for (size_t i = 0; i < P.sides.size(); ++i)
      if (P.sides[i].name == args[2]) side = static_cast<int32_t>(i);
    if (side < 0) return error(out, fmt::format("no side '{}'", args[2]));
  }
  // Ends phases (no actions taken) on a copy until the phase begins; the game changes only if it
  // gets there.
  engine::Session s = *session_;
  size_t before = s.state().trace.size();
  auto at = [&] {
    return s.stop().kind == eval::Stop::Window && P.phases[s.stop().index].name == args[1] &&
           (side < 0 || s.stop().player == side);
  };
  // A choice or roll in the `on start` of the phase asked for counts as getting there: the
  // phase has begun (the latest phase event of the trace is its start).
  auto begun = [&] {
    const auto& tr = s.state().trace;
    for (size_t k = tr.size(); k-- > before;) {
      if (tr[k].kind != eval::TraceKind::Phase) continue;
      std::string line = formatEvent(tr[k]);
      std::string want = "phase " + args[1] + " (" + (side < 0 ? std::string() : P.sides[side].name);
      return line.find(want) != std::string::npos && line.find(": start") != std::string::npos;
    }
    return false;
  };
  for (int i = 0; i < 10000 && !at(); ++i) {
    if (s.stop().kind != eval::Stop::Window) {
      if (begun()) break;
      if (first && s.stop().kind == eval::Stop::Choose) {
        engine::Outcome o = s.pick(0);
        if (o.kind != engine::Outcome::Ok)
          return error(out, fmt::format("cannot go to {}: the first option was refused ({})", args[1], o.message));
        continue;
      }
      return error(out, fmt::format("cannot go to {}: {}{}", args[1], s.describeStop(),
                                    s.stop().kind == eval::Stop::Choose ? " (--first takes the first option of each decision)" : ""));
    }
    engine::Outcome o = s.endPhase();
    if (o.kind != engine::Outcome::Ok) {
      std::string cite;
      for (const auto& c : o.citations) cite += "§" + c + " ";
      return error(out, fmt::format("cannot go to {}: the {} phase cannot end ({}{})", args[1], s.phaseName(), cite, o.message));
    }
  }
  if (!at() && !begun()) return error(out, fmt::format("cannot go to {}: it did not begin", args[1]));
  pushHistory();
  *session_ = std::move(s);
  lastActionTrace_ = before;
  record();
  cmdStatus(out);
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
    return error(out, fmt::format("{} cannot be replayed: it is not a saved game with its commands ({}); the current "
                                  "game is unchanged", args[1], e.what()));
  }
  // Replays in a fresh REPL; the current game is replaced only if every command replays cleanly.
  Repl fresh(o);
  std::string log;
  if (!fresh.start(log)) return error(out, fmt::format("{} cannot be replayed: {}", args[1], trim(log)));
  for (const auto& c : commands) {
    if (c.rfind("replay", 0) == 0 || c.rfind("load", 0) == 0 || c.rfind("save", 0) == 0) continue;
    log += "> " + c + "\n";
    int before = fresh.errors();
    fresh.execute(c, log);
    if (fresh.errors() > before)
      return error(out, fmt::format("{} cannot be replayed: '{}' failed; the current game is unchanged", args[1], c));
  }
  out += log;
  pushHistory();
  options_ = o;
  *session_ = *fresh.session_;
  log_ = fresh.log_;
  out += fmt::format("replayed {} ({} commands)\n", args[1], commands.size());
}

// The map as an SVG picture: flat-topped hexes filled by terrain, hexside features as coloured
// edges, units as counters in their side's colour with type, strength and a facing tick; on
// request one unit's zone of control (shaded) and one line of sight (a line, green or red).
void Repl::cmdMapSvg(const std::vector<std::string>& args, std::string& out) {
  const auto& st = session_->state();
  const Program& P = session_->program();
  const eval::MapState& m = st.map;
  if (args.size() < 3) return error(out, "map --svg takes a file name, as in `map --svg chalons.svg`");
  if (m.size() == 0) return error(out, "this game has no map");
  std::string file = args[2];
  std::vector<int32_t> zocHexes;
  std::optional<std::pair<int32_t, int32_t>> los;
  bool losClear = false;
  for (size_t i = 3; i < args.size(); ++i) {
    if (args[i] == "--zoc" && i + 1 < args.size()) {
      std::string diagnostics, err;
      auto v = evaluate("zoc(unit(\"" + args[++i] + "\"))", "<zoc>", diagnostics, err);
      if (!v || v->tag != Tag::List)
        return error(out, fmt::format("no zone of control for '{}': {}", args[i], err.empty() ? "no such unit" : err));
      for (const auto& h : v->items()) zocHexes.push_back(static_cast<int32_t>(h.i));
    } else if (args[i] == "--los" && i + 2 < args.size()) {
      int32_t a = m.parse(args[i + 1]), b = m.parse(args[i + 2]);
      if (a < 0 || b < 0) return error(out, "--los takes two hexes of this map");
      std::string diagnostics, err;
      auto v = evaluate("line_of_sight(hex(\"" + args[i + 1] + "\"), hex(\"" + args[i + 2] + "\"))", "<los>",
                        diagnostics, err);
      if (!v) return error(out, "line of sight: " + (err.empty() ? diagnostics : err));
      los = std::make_pair(a, b);
      losClear = v->truthy();
      i += 2;
    } else {
      return error(out, fmt::format("unknown map option '{}' (use --zoc UNIT or --los HEX HEX)", args[i]));
    }
  }
  const double s = 24, h3 = std::sqrt(3.0) * s;
  auto centre = [&](int32_t h) {
    int c = m.colOf(h) - m.col0, r = m.rowOf(h) - m.row0;
    // The map's Grid says which columns sit half a hex lower.
    bool odd = m.colOf(h) % 2 != 0;
    bool lowered = m.grid && m.grid->spec().shift == hex::ColumnShift::EvenDown ? !odd : odd;
    return std::make_pair(s + 4 + c * 1.5 * s, h3 / 2 + 4 + r * h3 + (lowered ? h3 / 2 : 0));
  };
  auto corner = [&](std::pair<double, double> c, int k) {
    double a = M_PI / 3 * k;
    return std::make_pair(c.first + s * std::cos(a), c.second + s * std::sin(a));
  };
  static const char* kTerrainColours[] = {"#eef2d8", "#9cc58a", "#d8c49a", "#c8d8ef", "#b8a58a", "#e0d0e8", "#f0e0c0", "#a0b0a0"};
  static const char* kFeatureColours[] = {"#2a6fd6", "#8a5a2a", "#444444", "#d62a2a", "#2ad66f", "#d6a22a"};
  static const char* kSideColours[] = {"#c0392b", "#2c6fbb", "#27ae60", "#8e44ad"};
  double width = s * 2 + 8 + (m.cols() - 1) * 1.5 * s, height = h3 * (m.rows() + 0.5) + 8;
  std::string svg = fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" "
                                "font-family=\"sans-serif\" font-size=\"8\">\n", width, height);
  for (int32_t h = 0; h < m.size(); ++h) {
    auto c = centre(h);
    std::string pts;
    for (int k = 0; k < 6; ++k) {
      auto v = corner(c, k);
      pts += fmt::format("{:.1f},{:.1f} ", v.first, v.second);
    }
    int32_t t = m.terrain[h];
    const char* fill = t >= 0 ? kTerrainColours[t % 8] : "#ffffff";
    svg += fmt::format("<polygon points=\"{}\" fill=\"{}\" stroke=\"#888\" stroke-width=\"0.5\"><title>{} {}</title></polygon>\n",
                       pts, fill, m.label(h), t >= 0 ? P.terrains[t].name : "");
    if (std::find(zocHexes.begin(), zocHexes.end(), h) != zocHexes.end())
      svg += fmt::format("<polygon points=\"{}\" fill=\"#000\" fill-opacity=\"0.18\"/>\n", pts);
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" fill=\"#666\" font-size=\"6\">{}</text>\n",
                       c.first, c.second - h3 / 2 + 8, m.label(h));
  }
  for (const auto& [k, fs] : m.hexsides) {
    auto a = centre(k.first), b = centre(k.second);
    // The shared edge is perpendicular to the line between the centres, through its midpoint.
    double mx = (a.first + b.first) / 2, my = (a.second + b.second) / 2;
    double dx = b.first - a.first, dy = b.second - a.second, len = std::hypot(dx, dy);
    double ex = -dy / len * s / 2, ey = dx / len * s / 2;
    for (size_t i = 0; i < fs.size(); ++i)
      svg += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"{}\"><title>{}</title></line>\n",
                         mx - ex, my - ey, mx + ex, my + ey, kFeatureColours[fs[i] % 6], 4 - static_cast<int>(i), P.features[fs[i]].name);
  }
  int32_t strengthId = P.nameIds.count("strength") ? P.nameIds.at("strength") : -1;
  for (const auto& u : st.units) {
    if (u.status != eval::UnitStatus::OnMap || u.hex < 0) continue;
    auto c = centre(u.hex);
    const char* colour = kSideColours[u.side % 4];
    svg += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" rx=\"2\" fill=\"{}\" stroke=\"#222\"><title>{}</title></rect>\n",
                       c.first - s * 0.55, c.second - s * 0.45, s * 1.1, s * 0.9, colour, u.id);
    int32_t slot = strengthId >= 0 ? P.classes[u.cls].find(strengthId) : -1;
    std::string strength = slot >= 0 ? session_->display(u.fields[slot]) : "";
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" fill=\"#fff\">{}</text>\n", c.first,
                       c.second - 1, P.unitTypes[u.type].name.substr(0, 6));
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" fill=\"#fff\">{} {}</text>\n", c.first,
                       c.second + 8, u.id, strength);
    if (u.facing >= 0) {
      // A tick toward the faced hexside (N is up; directions go clockwise).
      double a = -M_PI / 2 + M_PI / 3 * u.facing;
      svg += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#000\" stroke-width=\"2\"/>\n",
                         c.first + std::cos(a) * s * 0.45, c.second + std::sin(a) * s * 0.45,
                         c.first + std::cos(a) * s * 0.8, c.second + std::sin(a) * s * 0.8);
    }
  }
  if (los) {
    auto a = centre(los->first), b = centre(los->second);
    svg += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"2\" stroke-dasharray=\"4 2\"/>\n",
                       a.first, a.second, b.first, b.second, losClear ? "#1a9c3a" : "#d62a2a");
  }
  svg += "</svg>\n";
  std::ofstream f(file);
  if (!f || !(f << svg)) return error(out, fmt::format("cannot write '{}'", file));
  out += fmt::format("wrote {} ({} hexes, {} units{}{})\n", file, m.size(),
                     std::count_if(st.units.begin(), st.units.end(), [](const eval::UnitState& u) { return u.status == eval::UnitStatus::OnMap; }),
                     zocHexes.empty() ? "" : fmt::format(", zone of control of {} hexes", zocHexes.size()),
                     los ? (losClear ? ", line of sight clear" : ", line of sight blocked") : "");
}

void Repl::cmdShow(const std::vector<std::string>& args, std::string& out) {
  if (args.size() != 2) {
    error(out, "show takes a unit id or a hex, as in `show h12` or `show 2725`");
    return;
  }
  const auto& st = session_->state();
  const Program& P = session_->program();
  for (const auto& u : st.units) {
    if (u.id != args[1]) continue;
    out += fmt::format("{} ({}, {}), {}\n", u.id, P.unitTypes[u.type].name, P.sides[u.side].name,
                       u.status == eval::UnitStatus::OnMap ? "at " + st.map.label(u.hex) : "not on the map");
    const Schema& cls = P.classes[u.cls];
    for (size_t f = 0; f < cls.fields.size(); ++f) {
      if (cls.fields[f].derived >= 0) continue;
      out += fmt::format("  {}{} = {}\n", cls.fields[f].isState ? "state " : "", cls.fields[f].name,
                         session_->display(u.fields[f]));
    }
    return;
  }
  int32_t h = st.map.parse(args[1]);
  if (h < 0) {
    error(out, fmt::format("'{}' is neither a unit nor a hex of this map", args[1]));
    return;
  }
  out += fmt::format("hex {}: {}\n", args[1], st.map.terrain[h] >= 0 ? P.terrains[st.map.terrain[h]].name : "no terrain");
  for (const auto& [k, fs] : st.map.hexsides) {
    if (k.first != h && k.second != h) continue;
    std::string names;
    for (int32_t f : fs) names += (names.empty() ? "" : ", ") + P.features[f].name;
    out += fmt::format("  hexside {}/{}: {}\n", st.map.label(k.first), st.map.label(k.second), names);
  }
  for (const auto& u : st.units)
    if (u.status == eval::UnitStatus::OnMap && u.hex == h)
      out += fmt::format("  {} ({}, {})\n", u.id, P.unitTypes[u.type].name, P.sides[u.side].name);
}

void Repl::cmdAuto(const std::vector<std::string>& args, std::string& out) {
  long long n = -1;
  if (args.size() > 1) {
    auto v = parseInt(args[1]);
    if (!v || *v < 1) {
      error(out, "auto takes a positive number of moves");
      return;
    }
    n = *v;
  }
  // A seeded player: the same seed and commands give the same moves.
  long long done = 0;
  while ((n < 0 || done < n) && !session_->over()) {
    size_t before = session_->state().trace.size();
    engine::RandomPlayer::Move m = autoPlayer_.play(*session_, [&] { pushHistory(); }, [&] { undo_.pop_back(); });
    if (m.kind == engine::RandomPlayer::Move::None) break;
    if (m.kind == engine::RandomPlayer::Move::Relist) continue;
    if (m.kind != engine::RandomPlayer::Move::Played) {
      // Every option was refused: the decision is stuck, which is a fault of the rules.
      error(out, m.kind == engine::RandomPlayer::Move::Failed ? m.outcome.message
                                                                : "every legal option was refused; the game is stuck");
      break;
    }
    const engine::Option& o = m.option;
    out += "auto: " + o.text + "\n";
    lastActionTrace_ = before;
    if (o.kind == engine::Option::Pick) {
      currentLine_ = fmt::format("pick {}", m.index + 1);
    } else {
      currentLine_ = o.text;
    }
    record();
    if (trace_ == TraceMode::All) printTrace(before, out);
    ++done;
    if (done > 1'000'000) break;  // a game that never ends: stop rather than hang
  }
  cmdStatus(out);
}

void Repl::cmdHelp(const std::vector<std::string>& args, std::string& out) {
  if (args.size() > 1) {
    for (const auto& h : commandHelp())
      if (args[1] == h.name) {
        out += fmt::format("{}\n  {}\n", h.usage, h.text);
        return;
      }
    if (session_) {
      for (const auto& a : session_->program().actions) {
        if (a.name != args[1]) continue;
        std::string usage = a.name;
        for (const auto& p : a.params) usage += " " + p.name;
        std::string cite;
        for (const auto& c : a.citations) cite += " §" + c;
        out += fmt::format("{}{}\n  {}\n", usage, cite, a.description.empty() ? "a ruleset action" : a.description);
        return;
      }
    }
    error(out, fmt::format("no command or action '{}' (type help for the list)", args[1]));
    return;
  }
  out += "commands:\n";
  for (const auto& h : commandHelp()) out += fmt::format("  {:<22} {}\n", h.usage, h.text);
  if (session_ && !session_->program().actions.empty()) {
    out += "actions of this ruleset:\n";
    for (const auto& a : session_->program().actions) {
      std::string usage = a.name;
      for (const auto& p : a.params) usage += " " + p.name;
      out += fmt::format("  {:<22} {}\n", usage, a.description);
    }
  }
}

// `rule N`: where rule N is written in this game's rules and which tests cite it (the citation
// index of analysis/rule_index). Reads the files afresh; the game is not touched.
void Repl::cmdRule(const std::vector<std::string>& args, std::string& out) {
  std::string rule = args.size() == 2 ? analysis::ruleNumber(args[1]) : "";
  if (rule.empty()) {
    error(out, "rule takes one rule number, as in `rule 7.43`");
    return;
  }
  analysis::RuleIndex index;
  std::string errors;
  if (!analysis::loadRuleIndex(check::LoadRequest{options_.ruleset, options_.scenario, options_.houses}, index, errors)) {
    ++errors_;
    out += errors;
    return;
  }
  out += analysis::formatRule(index, rule) + analysis::statusOf(index, rule);
}

void Repl::cmdDiff(const std::vector<std::string>& args, std::string& out) {
  if (args.size() > 3) {
    error(out, "diff takes at most two rulesets or files: `diff`, `diff OTHER` or `diff A B`");
    return;
  }
  // The game's rules as they were loaded: the ruleset and the house files, not the scenario's
  // special rules (the other side has no scenario).
  check::LoadRequest current{options_.ruleset, "", options_.houses};
  if (args.size() == 1 && options_.houses.empty()) {
    out += fmt::format("no house rules are in effect: the rules are those of ruleset {} (`diff OTHER` "
                       "compares them with another ruleset or file)\n",
                       session_->program().rulesetName);
    return;
  }
  diag::SourceManager sm;
  diag::Diagnostics diags(sm);
  check::Loader loader(diags);
  check::MergedRules a, b;
  bool ok = false;
  if (args.size() == 1) {
    ok = loader.load(check::LoadRequest{options_.ruleset, "", {}}, &a).program && loader.load(current, &b).program;
  } else if (args.size() == 2) {
    ok = loader.load(current, &a).program && loader.loadForDiff(args[1], b);
  } else {
    ok = loader.loadForDiff(args[1], a) && loader.loadForDiff(args[2], b);
  }
  if (!ok) {
    ++errors_;
    out += diags.render(false);
    return;
  }
  out += analysis::formatDiff(analysis::diffRules(a, b, sm), options_.json);
}

std::optional<analysis::OddsReport> Repl::computeOdds(const std::vector<std::string>& words,
                                                     const analysis::OddsRequest& req, std::string& why) {
  if (words.empty()) {
    if (session_->stop().kind != eval::Stop::Choose) {
      why = "odds takes an action, as in `odds attack 0506`, or alone asks about the action under way (none is)";
      return std::nullopt;
    }
    return analysis::oddsFromHere(*session_, req);
  }
  const auto& actions = session_->program().actions;
  auto it = std::find_if(actions.begin(), actions.end(), [&](const ActionInfo& a) { return a.name == words[0]; });
  if (it == actions.end()) {
    why = fmt::format("odds: '{}' is not an action of this ruleset", words[0]);
    return std::nullopt;
  }
  const ActionInfo& a = *it;
  if (words.size() - 1 != a.params.size()) {
    std::string usage = a.name;
    for (const auto& p : a.params) usage += " " + p.name;
    why = fmt::format("{} takes {} argument{}: {}", a.name, a.params.size(), a.params.size() == 1 ? "" : "s", usage);
    return std::nullopt;
  }
  std::vector<Value> values;
  for (size_t i = 1; i < words.size(); ++i) {
    auto v = parseArg(a.params[i - 1], words[i], why);
    if (!v) return std::nullopt;
    values.push_back(*v);
  }
  return analysis::oddsOfAction(*session_, static_cast<int32_t>(it - actions.begin()), values, req);
}

// `compare` re-creates the situation in a sandbox of another ruleset with these commands. Every
// unit, terrain, hexside, side field and the phase are written by name; what the other ruleset
// lacks makes its sub-game refuse the command, which `compare` reports (never silently).
std::vector<std::string> Repl::situationScript(std::string& why) const {
  const Program& P = session_->program();
  const auto& st = session_->state();
  std::vector<std::string> cmds;
  if (st.map.col0 != 1 || st.map.row0 != 1 || st.map.letters || st.map.size() == 0) {
    why = "compare re-creates a sandbox situation (a map numbered from 0101: `sandbox COLSxROWS`)";
    return {};
  }
  cmds.push_back(fmt::format("sandbox {}x{}", st.map.cols(), st.map.rows()));
  for (int32_t h = 0; h < st.map.size(); ++h)
    cmds.push_back(fmt::format("terrain {} {}", st.map.label(h), P.terrains[st.map.terrain[h]].name));
  for (const auto& [ab, kinds] : st.map.hexsides)
    for (int32_t k : kinds)
      cmds.push_back(fmt::format("hexside {} {} {}", st.map.label(ab.first), st.map.label(ab.second), P.features[k].name));
  // The fields come after the phase is reached: the steps on the way (a Command Points roll, say)
  // may set them.
  std::vector<std::string> fields;
  for (const auto& u : st.units) {
    if (u.status != eval::UnitStatus::OnMap) continue;
    std::string place = fmt::format("place {} {} {} as {}", P.sides[u.side].name, P.unitTypes[u.type].name,
                                    st.map.label(u.hex), u.id);
    if (u.facing >= 0) place += fmt::format(" facing={}", hex::directionName(static_cast<hex::Direction>(u.facing)));
    cmds.push_back(place);
    const Schema& cls = P.classes[u.cls];
    const auto& defaults = P.unitTypes[u.type].values;
    for (size_t f = 0; f < cls.fields.size() && f < u.fields.size(); ++f) {
      if (cls.fields[f].derived >= 0) continue;
      if (f < defaults.size() && defaults[f] == u.fields[f]) continue;
      fields.push_back(fmt::format("set {} {}={}", u.id, cls.fields[f].name, eval::display(P, st, u.fields[f])));
    }
  }
  for (size_t sd = 0; sd < st.sides.size(); ++sd)
    for (size_t f = 0; f < P.sideState.fields.size() && f < st.sides[sd].fields.size(); ++f) {
      if (P.sideState.fields[f].derived >= 0) continue;
      // Only what differs from the declared default (the situation, not the ruleset's constants).
      if (P.sideState.fields[f].init < 0 && P.sideState.fields[f].value == st.sides[sd].fields[f]) continue;
      fields.push_back(fmt::format("setside {} {}={}", P.sides[sd].name, P.sideState.fields[f].name,
                                   eval::display(P, st, st.sides[sd].fields[f])));
    }
  if (session_->stop().kind == eval::Stop::Window)
    cmds.push_back(fmt::format("goto {} {} --first", P.phases[session_->stop().index].name,
                               P.sides[session_->stop().player].name));
  cmds.insert(cmds.end(), fields.begin(), fields.end());
  return cmds;
}

// `compare TARGET... -- ACTION ARGS [--policy P]`: the same question (the odds of an action)
// asked of this game and of the same situation under each TARGET (a ruleset, or a house-rule
// file over this game's rules), side by side, with the rules that differ listed under the table.
void Repl::cmdCompare(const std::vector<std::string>& args, std::string& out) {
  auto sep = std::find(args.begin(), args.end(), "--");
  std::vector<std::string> targets(args.begin() + 1, sep);
  std::vector<std::string> question = sep == args.end() ? std::vector<std::string>{} : std::vector<std::string>(sep + 1, args.end());
  analysis::OddsRequest req;
  std::string level;
  for (size_t i = 0; i < question.size();) {
    if (question[i] == "--policy" && i + 1 < question.size()) {
      auto p = analysis::parsePolicy(question[i + 1]);
      if (!p) return error(out, "--policy takes first, last or random");
      req.policy = *p;
      question.erase(question.begin() + static_cast<std::ptrdiff_t>(i), question.begin() + static_cast<std::ptrdiff_t>(i) + 2);
    } else {
      ++i;
    }
  }
  std::map<std::string, std::string> mapping;  // --map FROM=TO: a unit type or terrain by another name
  for (size_t i = 0; i < targets.size();) {
    if (targets[i] == "--level" && i + 1 < targets.size()) {
      level = targets[i + 1];
      targets.erase(targets.begin() + static_cast<std::ptrdiff_t>(i), targets.begin() + static_cast<std::ptrdiff_t>(i) + 2);
    } else if (targets[i] == "--map" && i + 1 < targets.size() && targets[i + 1].find('=') != std::string::npos) {
      const std::string& m = targets[i + 1];
      mapping[m.substr(0, m.find('='))] = m.substr(m.find('=') + 1);
      targets.erase(targets.begin() + static_cast<std::ptrdiff_t>(i), targets.begin() + static_cast<std::ptrdiff_t>(i) + 2);
    } else {
      ++i;
    }
  }
  if (targets.empty() || question.empty())
    return error(out, "compare takes rulesets or house files, then `--` and an action: `compare fourbattles -- attack 0506`");
  std::string why;
  auto script = situationScript(why);
  if (script.empty()) return error(out, why);
  // The explicit mapping, applied to the unit types of `place` and the kinds of `terrain`.
  std::vector<std::string> mapped;
  for (auto& cmd : script) {
    auto w = splitWords(cmd);
    size_t at = w[0] == "place" && w.size() > 2 ? 2 : w[0] == "terrain" && w.size() > 2 ? 2 : std::string::npos;
    if (at != std::string::npos && mapping.count(w[at])) {
      std::string note = fmt::format("{} {} → {}", w[0] == "place" ? "unit type" : "terrain", w[at], mapping[w[at]]);
      if (std::find(mapped.begin(), mapped.end(), note) == mapped.end()) mapped.push_back(note);
      w[at] = mapping[w[at]];
      cmd.clear();
      for (const auto& x : w) cmd += (cmd.empty() ? "" : " ") + x;
    }
  }
  struct Column {
    std::string name;
    std::map<std::string, long double> p;  // result -> probability
    std::string problem;  // why it could not be compared
    std::string dropped;  // what of the situation it has no place for
  };
  std::vector<Column> cols;
  auto ask = [&](Repl& r, Column& c) {
    std::string err;
    auto rep = r.computeOdds(question, req, err);
    if (!rep) c.problem = err;
    else if (!rep->error.empty()) c.problem = rep->error;
    else
      for (const auto& o : rep->outcomes) c.p[o.result.empty() ? "(no result)" : o.result] += o.p.value;
  };
  Column here;
  here.name = "this game (" + options_.ruleset + [&] {
    std::string h;
    for (const auto& f : options_.houses) h += " + " + f;
    return h;
  }() + ")";
  ask(*this, here);
  cols.push_back(here);
  for (const auto& t : targets) {
    ReplOptions o = options_;
    o.scenario.clear();
    o.json = false;
    // A house-rule file is one whose first declaration is `house` (comments aside).
    bool house = [&] {
      diag::SourceManager sm;
      diag::Diagnostics diags(sm);
      std::ifstream in(check::Loader(diags).findHouse(t));
      for (std::string line; std::getline(in, line);) {
        line = trim(line);
        if (line.empty() || line.rfind("//", 0) == 0) continue;
        return line.rfind("house ", 0) == 0;
      }
      return false;
    }();
    if (house) {
      o.houses.push_back(t);
    } else {
      o.ruleset = t;
      o.houses.clear();
      o.session.level = level;
    }
    Column c;
    c.name = t;
    Repl sub(o);
    std::string subOut;
    if (!sub.start(subOut)) {
      c.problem = "does not load: " + subOut.substr(0, subOut.find('\n'));
    } else {
      for (const auto& cmd : script) {
        std::string o2;
        int before = sub.errors();
        sub.execute(cmd, o2);
        if (sub.errors() > before || o2.rfind("illegal:", 0) == 0) {
          std::string line = "`" + cmd + "`: " + o2.substr(0, o2.find('\n'));
          // A field the other ruleset does not have is left out (and said); a unit type, terrain,
          // hexside or phase it does not have stops the comparison.
          bool field = cmd.rfind("set ", 0) == 0 || cmd.rfind("setside ", 0) == 0;
          std::string& into = field ? c.dropped : c.problem;
          into += (into.empty() ? "" : "; ") + line;
        }
      }
      if (c.problem.empty()) ask(sub, c);
    }
    cols.push_back(std::move(c));
  }
  // The table: one row per result, one column per game.
  std::vector<std::string> results;
  for (const auto& c : cols)
    for (const auto& [r, p] : c.p)
      if (std::find(results.begin(), results.end(), r) == results.end()) results.push_back(r);
  std::sort(results.begin(), results.end());
  std::string q;
  for (const auto& w : question) q += (q.empty() ? "" : " ") + w;
  out += fmt::format("compare: odds of {} (follow-on decisions: {})\n", q, analysis::policyName(req.policy));
  for (const auto& m : mapped) out += "mapped in the other rulesets: " + m + "\n";
  out += "| result |";
  for (const auto& c : cols) out += " " + c.name + " |";
  out += "\n| --- |";
  for (size_t i = 0; i < cols.size(); ++i) out += " --- |";
  out += "\n";
  for (const auto& r : results) {
    out += "| " + r + " |";
    for (const auto& c : cols) {
      auto it = c.p.find(r);
      out += c.problem.empty() ? fmt::format(" {:.2f}% |", it == c.p.end() ? 0.0 : static_cast<double>(it->second * 100))
                               : std::string(" - |");
    }
    out += "\n";
  }
  for (const auto& c : cols) {
    if (!c.problem.empty()) out += fmt::format("{}: not compared: {}\n", c.name, c.problem);
    if (!c.dropped.empty()) out += fmt::format("{}: left out (no such field): {}\n", c.name, c.dropped);
  }
  // The rules that differ, from `diff`.
  // Under a whole other edition that is hundreds of lines: the first ones, the count, and `diff`
  // for the rest.
  constexpr size_t kDiffLines = 40;
  for (const auto& t : targets) {
    std::string d;
    cmdDiff({"diff", t}, d);
    std::vector<std::string> lines;
    std::istringstream in(d);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    out += "rules that differ under " + t + ":\n";
    if (lines.size() <= kDiffLines + 2) {
      out += d;
    } else {
      for (size_t i = 0; i < kDiffLines; ++i) out += lines[i] + "\n";
      out += fmt::format("… {} more lines: `diff {}` lists them all\n", lines.size() - kDiffLines - 1, t);
      out += lines.back() + "\n";
    }
  }
}

void Repl::cmdOdds(const std::vector<std::string>& args, std::string& out) {
  analysis::OddsRequest req;
  bool json = options_.json;
  std::vector<std::string> words;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--split") {
      req.split = true;
    } else if (a == "--json") {
      json = true;
    } else if (a == "--policy") {
      auto p = i + 1 < args.size() ? analysis::parsePolicy(args[i + 1]) : std::nullopt;
      if (!p) {
        error(out, "--policy takes first, last or random");
        return;
      }
      req.policy = *p;
      ++i;
    } else if (a == "--picks") {
      std::string list = i + 1 < args.size() ? args[++i] : "";
      std::istringstream in(list);
      std::string one;
      while (std::getline(in, one, ',')) {
        auto v = parseInt(one);
        if (!v || *v < 1) {
          error(out, "--picks takes option numbers from 1, separated by commas, as in `--picks 1,2`");
          return;
        }
        req.picks.push_back(static_cast<size_t>(*v - 1));
      }
      if (req.picks.empty()) {
        error(out, "--picks takes option numbers from 1, separated by commas, as in `--picks 1,2`");
        return;
      }
    } else if (a.size() > 1 && a[0] == '-' && a[1] == '-') {
      error(out, fmt::format("odds: unknown option '{}' (--policy, --split, --picks, --json)", a));
      return;
    } else {
      words.push_back(a);
    }
  }
  std::string why;
  auto report = computeOdds(words, req, why);
  if (!report) {
    error(out, why);
    return;
  }
  analysis::OddsReport& r = *report;
  if (!r.error.empty()) ++errors_;
  std::string text = analysis::formatOdds(r, json);
  // A refused question reads as an error line, like any other command's.
  if (!r.error.empty() && !json) text = "error: odds of " + r.question + ": " + r.error + "\n";
  out += text;
}

bool Repl::execute(const std::string& rawLine, std::string& out) {
  std::string line = trim(rawLine);
  if (line.empty() || line[0] == '#') return true;
  currentLine_ = line;
  auto args = splitWords(line);
  const std::string& cmd = args[0];
  // `exit` alone leaves, like `quit`; with arguments it is the ruleset's action of that name if it
  // has one (Deluxe 8.6: `exit UNIT HEX`).
  bool exitAction = cmd == "exit" && args.size() > 1 && session_ &&
                    std::any_of(session_->program().actions.begin(), session_->program().actions.end(),
                                [](const ActionInfo& a) { return a.name == "exit"; });
  if (cmd == "quit" || (cmd == "exit" && !exitAction)) return false;
  if (cmd == "help") {
    cmdHelp(args, out);
    return true;
  }
  if (!session_) {
    error(out, "no game is loaded");
    return true;
  }
  auto rest = [&]() { return trim(line.substr(cmd.size())); };
  if (cmd == "status") {
    cmdStatus(out);
  } else if (cmd == "legal") {
    cmdLegal(out);
  } else if (cmd == "pick") {
    auto v = args.size() == 2 ? parseInt(args[1]) : std::nullopt;
    if (!v) {
      error(out, "pick takes an option number, as in `pick 2` (see `legal`)");
      return true;
    }
    auto opts = session_->legal();
    if (*v < 1 || *v > static_cast<long long>(opts.size())) {
      error(out, opts.empty() ? "there is nothing to pick" : fmt::format("pick a number from 1 to {}", opts.size()));
      return true;
    }
    pushHistory();
    size_t before = session_->state().trace.size();
    afterMove(session_->apply(opts[*v - 1]), before, out);
  } else if (cmd == "end" || cmd == "pass") {
    if (session_->stop().kind != eval::Stop::Window) {
      error(out, fmt::format("there is no phase to {} now", cmd));
      return true;
    }
    bool alternate = session_->program().phases[session_->stop().index].alternate;
    if (alternate != (cmd == "pass")) {
      error(out, alternate ? "this is an alternation: `pass` ends your turn in it" : "use `end` to end this phase");
      return true;
    }
    pushHistory();
    size_t before = session_->state().trace.size();
    afterMove(session_->endPhase(), before, out);
  } else if (cmd == "next") {
    cmdStatus(out);
  } else if (cmd == "auto") {
    cmdAuto(args, out);
  } else if (cmd == "trace") {
    if (args.size() != 2 || (args[1] != "on" && args[1] != "off" && args[1] != "all")) {
      error(out, "trace takes on, off or all");
      return true;
    }
    trace_ = args[1] == "on" ? TraceMode::On : args[1] == "off" ? TraceMode::Off : TraceMode::All;
    out += "trace " + args[1] + "\n";
  } else if (cmd == "log") {
    cmdLog(args, out);
  } else if (cmd == "why") {
    const auto& tr = session_->state().trace;
    if (lastActionTrace_ >= tr.size()) {
      out += "nothing has happened yet\n";
      return true;
    }
    for (size_t i = lastActionTrace_; i < tr.size(); ++i)
      out += std::string(2 * std::min<uint32_t>(tr[i].depth, 8), ' ') + formatEvent(tr[i]) + "\n";
  } else if (cmd == "dice") {
    std::vector<int64_t> faces;
    for (size_t i = 1; i < args.size(); ++i) {
      auto v = parseInt(args[i]);
      if (!v) {
        error(out, fmt::format("'{}' is not a die face", args[i]));
        return true;
      }
      faces.push_back(*v);
    }
    if (faces.empty()) {
      error(out, "dice takes the faces to force, as in `dice 4 2`");
      return true;
    }
    session_->forceDice(faces);
    record();
    out += fmt::format("next dice: {}\n", [&] {
      std::string s;
      for (int64_t d : session_->forcedDice()) s += (s.empty() ? "" : " ") + std::to_string(d);
      return s;
    }());
  } else if (cmd == "eval" || cmd == "expect") {
    if (rest().empty()) {
      error(out, fmt::format("{} takes an expression, as in `{} 1 + 2`", cmd, cmd));
      return true;
    }
    if (cmd == "expect" && args.size() >= 3 && (args[1] == "illegal" || args[1] == "error")) {
      // `expect illegal CMD` / `expect error CMD`: the command must be refused (and so leave the
      // game as it was); its own error does not count as one of the script's errors.
      int errorsBefore = errors_;
      std::string inner;
      std::string sub = trim(rest().substr(args[1].size()));
      execute(sub, inner);
      errors_ = errorsBefore;
      out += inner;
      std::string want = args[1] + ":";
      bool refused = inner.rfind(want, 0) == 0 || inner.find("\n" + want) != std::string::npos;
      if (refused) {
        out += "ok\n";
      } else {
        ++failedExpects_;
        out += fmt::format("FAILED: `{}` was not refused with {}\n", sub, want);
      }
    } else if (cmd == "expect" && args.size() >= 2 && (args[1] == "fired" || (args[1] == "not" && args.size() >= 3 && args[2] == "fired")))
      cmdExpectFired(args, out);
    else
      cmdEval(rest(), cmd == "expect", out);
  } else if (cmd == "map") {
    cmdMap(args, out);
  } else if (cmd == "terrain") {
    cmdTerrain(args, out);
  } else if (cmd == "hexside") {
    cmdHexside(args, out);
  } else if (cmd == "place") {
    cmdPlace(args, out);
  } else if (cmd == "remove") {
    cmdRemove(args, out);
  } else if (cmd == "set") {
    cmdSet(args, false, out);
  } else if (cmd == "setside") {
    cmdSet(args, true, out);
  } else if (cmd == "sandbox") {
    cmdSandbox(args, out);
  } else if (cmd == "goto") {
    cmdGoto(args, out);
  } else if (cmd == "house" && args.size() == 1) {
    if (options_.houses.empty()) out += "no house rules\n";
    for (const auto& h : options_.houses) out += "house " + h + "\n";
  } else if (cmd == "house") {
    if (args.size() != 2) {
      error(out, "house takes a file, as in `house rulesets/house/no_displacement.pol`, or --clear");
      return true;
    }
    ReplOptions saved = options_;
    if (args[1] == "--clear") options_.houses.clear();
    else options_.houses.push_back(args[1]);
    if (!restart(out)) options_ = saved;
  } else if (cmd == "level" && args.size() == 1) {
    const Program& P = session_->program();
    std::string all;
    for (const auto& l : P.levels) all += (all.empty() ? "" : " < ") + l;
    out += fmt::format("level {}{}\n", P.levels.empty() ? "standard" : P.levels[session_->state().level],
                       P.levels.size() > 1 ? " (levels: " + all + ")" : "");
  } else if (cmd == "ruleset" || cmd == "scenario" || cmd == "level") {
    if (args.size() != 2) {
      error(out, fmt::format("{} takes a name", cmd));
      return true;
    }
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
  } else if (cmd == "diff") {
    cmdDiff(args, out);
  } else if (cmd == "rule") {
    cmdRule(args, out);
  } else if (cmd == "odds") {
    cmdOdds(args, out);
  } else if (cmd == "compare") {
    cmdCompare(args, out);
  } else if (cmd == "units") {
    cmdUnits(args, out);
  } else if (cmd == "show") {
    cmdShow(args, out);
  } else if (cmd == "undo") {
    long long n = 1;
    if (args.size() > 1) {
      auto v = parseInt(args[1]);
      if (!v || *v < 1) {
        error(out, "undo takes a positive number of moves");
        return true;
      }
      n = *v;
    }
    if (undo_.empty()) {
      error(out, "nothing to undo");
      return true;
    }
    for (long long i = 0; i < n && !undo_.empty(); ++i) {
      redo_.push_back(Snapshot{*session_, log_});
      *session_ = std::move(undo_.back().session);
      log_ = std::move(undo_.back().log);
      undo_.pop_back();
    }
    cmdStatus(out);
  } else if (cmd == "redo") {
    if (redo_.empty()) {
      error(out, "nothing to redo");
      return true;
    }
    undo_.push_back(Snapshot{*session_, log_});
    *session_ = std::move(redo_.back().session);
    log_ = std::move(redo_.back().log);
    redo_.pop_back();
    cmdStatus(out);
  } else if (cmd == "save") {
    cmdSave(args, out);
  } else if (cmd == "replay") {
    cmdReplay(args, out);
  } else if (cmd == "load") {
    if (args.size() != 2) {
      error(out, "load takes a file name");
      return true;
    }
    std::ifstream f(args[1], std::ios::binary);
    if (!f) {
      error(out, fmt::format("cannot read '{}'", args[1]));
      return true;
    }
    std::stringstream ss;
    ss << f.rdbuf();
    engine::Session candidate = *session_;
    if (auto err = engine::loadSession(ss.str(), candidate)) {
      error(out, fmt::format("{} was not loaded: {}; the current game is unchanged", args[1], *err));
      return true;
    }
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
  } else {
    const auto& actions = session_->program().actions;
    for (size_t a = 0; a < actions.size(); ++a)
      if (actions[a].name == cmd) return cmdAction(static_cast<int32_t>(a), std::vector<std::string>(args.begin() + 1, args.end()), out);
    error(out, fmt::format("unknown command '{}' (type help for the commands and this ruleset's actions)", cmd));
  }
  return true;
}

std::vector<std::string> Repl::completions(const std::string& prefix) const {
  std::vector<std::string> out;
  for (const auto& h : commandHelp())
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

}  // namespace polemos::repl
