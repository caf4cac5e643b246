// REPL: Playing: status, legal options, pick, end and pass, actions with their arguments, the trace
// after a move, log, why, dice, auto, undo and redo.
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "engine/reach.h"
#include "engine/reading.h"
#include "eval/interpreter.h"
#include "eval/trace.h"
#include "limits/limits.h"
#include "repl/repl.h"
#include "repl/text.h"

namespace polemos::repl {

using namespace polemos::ir;

// Whether trace event `event` is printed at the current level; `inAction`: it happened while an
// action was under way (after an action event, before the next phase or step), where a field set
// back to its default is a rule's result rather than what a new phase clears. Between actions,
// a bookkeeping field cleared is shown only at `all`, a marker cleared from `on`; a counter value
// changed is shown from `results`.
bool Repl::shownAt(size_t event, bool inAction) const {
  using T = eval::TraceEvent;
  const auto& e = session_->state().trace[event];
  using K = eval::TraceKind;
  bool cleared = (e.flags & T::kToDefault) != 0 && !inAction;
  bool counter = (e.flags & T::kCounter) != 0, marker = (e.flags & T::kMarker) != 0;
  switch (trace_) {
    case TraceMode::Off:
      return false;
    case TraceMode::All:
      return true;
    case TraceMode::On:
      if ((e.kind == K::Phase || e.kind == K::Step) && e.citations.empty()) return false;
      return !cleared || counter || marker;
    case TraceMode::Results:
      switch (e.kind) {
        case K::Roll:
        case K::Table:
        case K::Choice:
        case K::Note:
          return true;
        case K::Effect:
          if ((e.flags & T::kFieldChange) == 0) return true;  // a move, a result
          return counter || (marker && !cleared);
        default:
          return false;
      }
  }
  return false;
}

void Repl::printTrace(size_t from, std::string& out) {
  if (trace_ == TraceMode::Off && !options_.json) return;
  const auto& tr = session_->state().trace;
  // Under way at `from`: an action began and no phase or step since (a pick goes on with it).
  bool inAction = false;
  for (size_t i = std::min(from, tr.size()); i-- > 0;) {
    auto k = tr[i].kind;
    if (k == eval::TraceKind::Action || k == eval::TraceKind::Phase || k == eval::TraceKind::Step) {
      inAction = k == eval::TraceKind::Action;
      break;
    }
  }
  for (size_t i = from; i < tr.size(); ++i) {
    const auto& e = tr[i];
    if (e.kind == eval::TraceKind::Action) inAction = true;
    if (e.kind == eval::TraceKind::Phase || e.kind == eval::TraceKind::Step) inAction = false;
    if (options_.json) {
      out += eval::eventJson(e) + "\n";
      continue;
    }
    if (shownAt(i, inAction)) out += "  " + formatEvent(e) + "\n";
  }
}

void Repl::cmdStatus(std::string& out) {
  const auto& st = session_->state();
  if (options_.json) {
    // One JSON object per status: where the game stands, and its result once it is over.
    static const char* kKinds[] = {"none", "decision", "choice", "roll",
                                   "end",  "failed",   "error",  "pause"};
    const auto& stop = session_->stop();
    nlohmann::ordered_json j = {
        {"kind", "status"},
        {"turn", st.turn},
        {"stop", kKinds[static_cast<int>(stop.kind)]},
        {"player",
         stop.player >= 0 && stop.player < static_cast<int32_t>(session_->program().sides.size())
             ? nlohmann::ordered_json(session_->program().sides[stop.player].name)
             : nlohmann::ordered_json(nullptr)},
        {"phase", session_->phaseName()},
        {"text", session_->describeStop()}};
    if (st.result.over) {
      j["result"] = {
          {"winner", st.result.winner >= 0
                         ? nlohmann::ordered_json(session_->program().sides[st.result.winner].name)
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

// The scenario's last turn, when its attributes declare `turns` (every ruleset here does); 0 if
// not known.
int64_t Repl::lastTurn() const {
  const Program& P = session_->program();
  for (size_t f = 0; f < P.scenarioAttrs.fields.size() && f < P.scenarioValues.size(); ++f)
    if (P.scenarioAttrs.fields[f].name == "turns" && P.scenarioValues[f].tag == ir::Tag::Int)
      return P.scenarioValues[f].i;
  return 0;
}

// `status`: where the game stands (turn N of M, the phase, who acts), then the standing the
// ruleset declares: the game state's and each side's counter values and the markers set
// (victory points, losses against the demoralization levels, panic ratings, command points,
// attacks still owed). Once the game is over, the first line says its result.
void Repl::cmdStatusFull(std::string& out) {
  const auto& st = session_->state();
  const Program& P = session_->program();
  int64_t last = lastTurn();
  auto gameFields = engine::gameFields(*session_);
  std::vector<std::vector<engine::ShownField>> sideFields;
  for (size_t s = 0; s < P.sides.size(); ++s)
    sideFields.push_back(engine::sideFields(*session_, static_cast<int32_t>(s)));
  if (options_.json) {
    std::string line;
    cmdStatus(line);
    auto j = nlohmann::ordered_json::parse(line);
    j["turns"] = last > 0 ? nlohmann::ordered_json(last) : nlohmann::ordered_json(nullptr);
    auto fieldsJson = [](const std::vector<engine::ShownField>& fs) {
      nlohmann::ordered_json c = nlohmann::ordered_json::object(),
                             m = nlohmann::ordered_json::object();
      for (const auto& f : fs) {
        if (f.role == ir::Display::Counter) c[f.label] = f.value;
        if (f.role == ir::Display::Marker && f.set) m[f.label] = f.value;
      }
      return nlohmann::ordered_json{{"counters", c}, {"markers", m}};
    };
    j["game"] = fieldsJson(gameFields);
    nlohmann::ordered_json sides = nlohmann::ordered_json::object();
    for (size_t s = 0; s < P.sides.size(); ++s) sides[P.sides[s].name] = fieldsJson(sideFields[s]);
    j["sides"] = sides;
    out += j.dump() + "\n";
    return;
  }
  std::string turn = st.turn <= 0 ? "setup"
                     : last > 0   ? fmt::format("turn {} of {}", st.turn, last)
                                  : fmt::format("turn {}", st.turn);
  out += fmt::format("{}: {}\n", turn, session_->describeStop());
  auto standing = [&](const std::string& who, const std::vector<engine::ShownField>& fs) {
    std::string c = engine::countersText(fs), m = engine::markersText(fs);
    if (c.empty() && m.empty()) return;
    std::string line = "  " + who + ":";
    if (!c.empty()) line += " " + c;
    if (!m.empty()) line += (c.empty() ? " [" : "  [") + m + "]";
    out += line + "\n";
  };
  standing("game", gameFields);
  for (size_t s = 0; s < P.sides.size(); ++s) standing(P.sides[s].name, sideFields[s]);
}

// `legal [UNIT]`: the options, numbered as `pick` takes them; with a unit, only the options that
// name it (their numbers unchanged).
void Repl::cmdLegal(const std::vector<std::string>& given, std::string& out) {
  // --all: every option numbered even at a terminal, where a long list is summarised.
  std::vector<std::string> args = given;
  bool all = takeFlag(args, "--all");
  if (args.size() > 2) return error(out, "legal takes a unit and --all, as in `legal r43`");
  int32_t unit = -1;
  if (args.size() > 1) {
    const auto& units = session_->state().units;
    for (size_t u = 0; u < units.size(); ++u)
      if (units[u].id == args[1]) unit = static_cast<int32_t>(u);
    if (unit < 0) return error(out, fmt::format("no unit '{}'", args[1]));
  }
  auto opts = session_->legal();
  // An error of the rules while listing is said, never swallowed: an option may be missing.
  struct SayErrors {
    Repl& r;
    std::string& out;
    ~SayErrors() {
      for (const auto& e : r.session_->listingErrors())
        r.error(out, "the rules failed while listing the options (one may be missing): " + e);
    }
  } sayErrors{*this, out};
  if (opts.empty()) {
    out += session_->over() ? "the game is over: nothing is legal\n" : "no options\n";
    return;
  }
  // At a terminal, more options than a screen holds are summarised by action and first argument
  // (`move r43: 45 options`), the others numbered as ever.
  if (!all && unit < 0 && options_.width > 0 && opts.size() > kLegalScreen) {
    std::vector<std::pair<std::string, size_t>> groups;
    for (size_t i = 0; i < opts.size(); ++i) {
      std::vector<std::string> w = splitWords(opts[i].text);
      if (opts[i].kind != engine::Option::Action || w.size() < 3) {
        out += fmt::format("{:>3}. {}\n", i + 1, opts[i].text);
        continue;
      }
      std::string key = w[0] + " " + w[1];
      if (groups.empty() || groups.back().first != key) groups.emplace_back(key, 0);
      ++groups.back().second;
    }
    for (const auto& [key, n] : groups)
      out += fmt::format("     {}: {} option{} (`legal {}`)\n", key, n, n == 1 ? "" : "s",
                         splitWords(key)[1]);
    out += fmt::format("{} options in all: `legal --all` numbers every one\n", opts.size());
    return;
  }
  size_t shown = 0;
  for (size_t i = 0; i < opts.size(); ++i) {
    if (unit >= 0 &&
        std::none_of(opts[i].args.begin(), opts[i].args.end(),
                     [&](const ir::Value& v) { return v.tag == ir::Tag::Unit && v.i == unit; }))
      continue;
    out += fmt::format("{:>3}. {}\n", i + 1, opts[i].text);
    ++shown;
  }
  if (unit >= 0 && shown == 0) out += fmt::format("no option names {} now\n", args[1]);
}

void Repl::pushHistory() {
  history_.push(*session_, log_);
}

void Repl::afterMove(const engine::Outcome& o, size_t traceBefore, std::string& out) {
  if (o.kind == engine::Outcome::Illegal) {
    std::string cite;
    for (const auto& c : o.citations) cite += "§" + c + " ";
    out += "illegal: " + cite + o.message + "\n";
    if (!o.takenBack) {
      history_.dropLast();  // nothing changed
      return;
    }
    // The refusal took back the action an earlier command began: the game changed, so the
    // command is a move of the game (undone by `undo`, made again by a replay).
    out += "the action is taken back\n";
    record();
    cmdStatus(out);
    return;
  }
  if (o.kind == engine::Outcome::Error) {
    history_.dropLast();
    error(out, o.message);
    return;
  }
  lastActionTrace_ = traceBefore;
  record();
  printTrace(traceBefore, out);
  cmdStatus(out);
}

bool Repl::cmdAction(int32_t action, const std::vector<std::string>& args, std::string& out) {
  std::string why;
  auto values = engine::readArguments(*session_, action, args, why);
  if (!values) {
    error(out, why);
    return true;
  }
  pushHistory();
  size_t before = session_->state().trace.size();
  engine::Outcome o = session_->act(action, *values);
  afterMove(o, before, out);
  if (o.kind == engine::Outcome::Illegal) out += movementReason(action, *values);
  return true;
}

// After an illegal `move UNIT HEX` (the action every board ruleset here names `move`): why the
// unit cannot get there, in numbers (the cheapest way's cost against its allowance) or by the
// step that is prohibited; nothing if the movement rules would let it get there.
std::string Repl::movementReason(int32_t action, const std::vector<ir::Value>& args) {
  if (session_->program().actions[action].name != "move") return "";
  int32_t unit = -1, hex = -1;
  for (const auto& v : args) {
    if (v.tag == Tag::Unit && unit < 0) unit = static_cast<int32_t>(v.i);
    if (v.tag == Tag::Hex) hex = static_cast<int32_t>(v.i);
  }
  if (unit < 0 || hex < 0) return "";
  std::string why = engine::whyUnreachable(*session_, unit, hex);
  return why.empty() ? "" : "  (" + why + ")\n";
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
  for (size_t i = from; i < tr.size(); ++i)
    out += fmt::format("{:>5} {}\n", tr[i].seq, formatEvent(tr[i]));
}

void Repl::cmdAuto(const std::vector<std::string>& args, std::string& out) {
  // Without a number, to the end of the game, but no further than the limit: a game that never
  // ends stops rather than hangs.
  long long n = limits::kMaxAutoMoves;
  bool toTheEnd = args.size() <= 1;
  if (!toTheEnd) {
    auto v = parseInt(args[1]);
    if (!v || *v < 1) {
      error(out, "auto takes a positive number of moves");
      return;
    }
    if (*v > limits::kMaxAutoMoves) {
      error(out, fmt::format("auto makes at most {} moves at a time", limits::kMaxAutoMoves));
      return;
    }
    n = *v;
  }
  // A seeded player: the same seed and commands give the same moves.
  long long done = 0;
  session_->takeListingErrors();
  // An error of the rules while the player drew its move is said, never swallowed: the option it
  // hid could not be drawn.
  auto sayListingErrors = [&] {
    for (const auto& e : session_->takeListingErrors())
      error(out, "the rules failed while a move was drawn (an option may be missing): " + e);
  };
  while (done < n && !session_->over()) {
    size_t before = session_->state().trace.size();
    engine::RandomPlayer::Move m = autoPlayer_.play(
        *session_, [&] { pushHistory(); }, [&] { history_.dropLast(); });
    sayListingErrors();
    if (m.kind == engine::RandomPlayer::Move::None) break;
    if (m.kind == engine::RandomPlayer::Move::Relist) {
      // A refused option that took back the action under way changed the game: recorded, so that
      // a replay takes it back too.
      if (m.outcome.takenBack) {
        currentLine_ = m.option.kind == engine::Option::Pick ? fmt::format("pick {}", m.index + 1)
                                                             : m.option.text;
        out += "auto: " + m.option.text + " (illegal: the action is taken back)\n";
        record();
      }
      continue;
    }
    if (m.kind != engine::RandomPlayer::Move::Played) {
      // Every option was refused: the decision is stuck, which is a fault of the rules.
      error(out, m.kind == engine::RandomPlayer::Move::Failed
                     ? m.outcome.message
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
  }
  if (toTheEnd && done == n && !session_->over())
    out += fmt::format("auto stopped after {} moves; the game is not over\n", n);
  cmdStatus(out);
}
// `pick N`: option N of `legal`.
// `pick N` takes option N; `pick TEXT` the option written TEXT (`pick 0303`, `pick 1004`,
// `pick roman`). A plain number (no leading zero) that is an option's number is that option.
void Repl::cmdPick(const std::vector<std::string>& args, std::string& out) {
  auto opts = session_->legal();
  auto n = args.size() == 2 ? parseInt(args[1]) : std::nullopt;
  bool isIndex =
      n && args[1] == std::to_string(*n) && *n >= 1 && *n <= static_cast<long long>(opts.size());
  // Not an option's number: the option as `legal` writes it, in one word or several (`pick 0303`,
  // `pick move r43 2621`).
  std::string written;
  for (size_t i = 1; i < args.size(); ++i) written += (i > 1 ? " " : "") + args[i];
  if (args.size() >= 2 && !isIndex) {
    for (size_t i = 0; i < opts.size(); ++i) {
      if (opts[i].text != written) continue;
      pushHistory();
      size_t before = session_->state().trace.size();
      afterMove(session_->apply(opts[i]), before, out);
      return;
    }
  }
  auto v = args.size() == 2 ? parseInt(args[1]) : std::nullopt;
  if (!v && args.size() >= 2)
    return error(out, fmt::format("no option is written '{}' (see `legal`)", written));
  if (!v) return error(out, "pick takes an option number, as in `pick 2` (see `legal`)");
  if (*v < 1 || *v > static_cast<long long>(opts.size()))
    return error(out, opts.empty() ? "there is nothing to pick"
                                   : fmt::format("pick a number from 1 to {}", opts.size()));
  pushHistory();
  size_t before = session_->state().trace.size();
  afterMove(session_->apply(opts[*v - 1]), before, out);
}

// `end` (a phase) and `pass` (a turn in an alternation).
void Repl::cmdEnd(const std::vector<std::string>& args, std::string& out) {
  const std::string& cmd = args[0];
  if (session_->stop().kind != eval::Stop::Window)
    return error(out, fmt::format("there is no phase to {} now", cmd));
  bool alternate = session_->program().phases[session_->stop().index].alternate;
  if (alternate != (cmd == "pass"))
    return error(out, alternate ? "this is an alternation: `pass` ends your turn in it"
                                : "use `end` to end this phase");
  pushHistory();
  size_t before = session_->state().trace.size();
  afterMove(session_->endPhase(), before, out);
}

void Repl::cmdTrace(const std::vector<std::string>& args, std::string& out) {
  static const char* kNames[] = {"off", "results", "on", "all"};
  if (args.size() == 1) {
    out += fmt::format("trace {}\n", kNames[static_cast<int>(trace_)]);
    return;
  }
  for (int level = 0; level < 4; ++level) {
    if (args[1] != kNames[level]) continue;
    trace_ = static_cast<TraceMode>(level);
    out += "trace " + args[1] + "\n";
    return;
  }
  error(out, "trace takes off, results, on or all");
}

// `why`: the events of the last command that moved the game, indented by depth.
void Repl::cmdWhy(std::string& out) {
  const auto& tr = session_->state().trace;
  if (lastActionTrace_ >= tr.size()) {
    out += "nothing has happened yet\n";
    return;
  }
  for (size_t i = lastActionTrace_; i < tr.size(); ++i)
    out += std::string(2 * std::min<uint32_t>(tr[i].depth, 8), ' ') + formatEvent(tr[i]) + "\n";
}

// `dice N N ...`: the faces the next rolls will show.
// `dice`: the forced queue; `dice N N ...`: force more; `dice --clear`: none forced.
void Repl::cmdDice(const std::vector<std::string>& args, std::string& out) {
  auto queue = [&] {
    std::string shown;
    for (int64_t d : session_->forcedDice())
      shown += (shown.empty() ? "" : " ") + std::to_string(d);
    return shown;
  };
  if (args.size() == 1) {
    std::string q = queue();
    out += q.empty() ? "no dice forced: the next rolls come from the game's seed\n"
                     : fmt::format("next dice: {}\n", q);
    return;
  }
  if (args.size() == 2 && args[1] == "--clear") {
    session_->clearForcedDice();
    record();
    out += "no dice forced: the next rolls come from the game's seed\n";
    return;
  }
  if (options_.fair)
    return error(out, "a fair game (--fair) rolls its dice from its seed: they cannot be forced");
  std::vector<int64_t> faces;
  for (size_t i = 1; i < args.size(); ++i) {
    auto v = parseInt(args[i]);
    if (!v) return error(out, fmt::format("'{}' is not a die face", args[i]));
    faces.push_back(*v);
  }
  session_->forceDice(faces);
  record();
  out += fmt::format("next dice: {}\n", queue());
}

void Repl::cmdUndo(const std::vector<std::string>& args, std::string& out) {
  long long n = 1;
  if (args.size() > 1) {
    auto v = parseInt(args[1]);
    if (!v || *v < 1) return error(out, "undo takes a positive number of moves");
    n = *v;
  }
  if (!history_.canUndo()) {
    // Nothing left in this game: the game a new one replaced comes back.
    if (undoNewGame(out)) return;
    return error(out, "nothing to undo");
  }
  std::deque<int64_t> before = session_->forcedDice();
  const eval::TraceLog trace = session_->state().trace;  // a cheap copy (shared chunks)
  long long done = 0;
  for (; done < n && history_.undo(*session_, log_); ++done) {
  }
  if (options_.fair) {
    // A fair game: a die rolled in what would be undone stays rolled; the undo is taken back.
    size_t kept = std::min(session_->state().trace.size(), trace.size());
    bool rolled = std::any_of(trace.at(kept), trace.end(), [](const eval::TraceEvent& e) {
      return e.kind == eval::TraceKind::Roll;
    });
    if (rolled) {
      for (long long i = 0; i < done && history_.redo(*session_, log_); ++i) {
      }
      out += "illegal: in a fair game (--fair) a move whose dice were rolled cannot be undone\n";
      return;
    }
  }
  // Undo puts the whole game back, the forced dice with it: said aloud, never silently.
  if (session_->forcedDice() != before) {
    std::string shown;
    for (int64_t d : session_->forcedDice())
      shown += (shown.empty() ? "" : " ") + std::to_string(d);
    out += shown.empty() ? "the forced dice are as they were then: none\n"
                         : fmt::format(
                               "the forced dice are as they were then: {} (`dice --clear` "
                               "drops them)\n",
                               shown);
  }
  cmdStatus(out);
}

// `next`: at a pause of the rules, goes on to the next stop (one step of undo); anywhere else the
// game already stands at its next decision, and `next` says where.
void Repl::cmdNext(std::string& out) {
  if (session_->stop().kind != eval::Stop::Pause) return cmdStatus(out);
  pushHistory();
  size_t before = session_->state().trace.size();
  afterMove(session_->resume(), before, out);
}

void Repl::cmdStep(const std::vector<std::string>& args, std::string& out) {
  if (args.size() == 1) {
    out += fmt::format("step {}\n", options_.session.stepping ? "on" : "off");
    return;
  }
  if (args.size() != 2 || (args[1] != "on" && args[1] != "off"))
    return error(out, "step takes on or off");
  options_.session.stepping = args[1] == "on";
  session_->setStepping(options_.session.stepping);
  out += fmt::format(
      "step {}: pauses of the rules {}\n", args[1],
      options_.session.stepping ? "stop the game (`next` goes on)" : "are passed through");
}

void Repl::cmdRedo(std::string& out) {
  if (!history_.redo(*session_, log_)) return error(out, "nothing to redo");
  cmdStatus(out);
}

}  // namespace polemos::repl
