// REPL: Playing: status, legal options, pick, end and pass, actions with their arguments, the trace
// after a move, log, why, dice, auto, undo and redo.
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "eval/interpreter.h"
#include "eval/trace.h"
#include "limits/limits.h"
#include "repl/repl.h"
#include "repl/text.h"

namespace polemos::repl {

using namespace polemos::ir;

void Repl::printTrace(size_t from, std::string& out) {
  if (trace_ == TraceMode::Off && !options_.json) return;
  const auto& tr = session_->state().trace;
  for (size_t i = from; i < tr.size(); ++i) {
    const auto& e = tr[i];
    if (options_.json) {
      out += eval::eventJson(e) + "\n";
      continue;
    }
    if (trace_ == TraceMode::On &&
        (e.kind == eval::TraceKind::Phase || e.kind == eval::TraceKind::Step) &&
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

std::optional<Value> Repl::parseArg(const ActionParam& p, const std::string& word,
                                    std::string& why) const {
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
    error(out, fmt::format("{} takes {} argument{}: {}", a.name, a.params.size(),
                           a.params.size() == 1 ? "" : "s", usage));
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
  while (done < n && !session_->over()) {
    size_t before = session_->state().trace.size();
    engine::RandomPlayer::Move m = autoPlayer_.play(
        *session_, [&] { pushHistory(); }, [&] { undo_.pop_back(); });
    if (m.kind == engine::RandomPlayer::Move::None) break;
    if (m.kind == engine::RandomPlayer::Move::Relist) continue;
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
void Repl::cmdPick(const std::vector<std::string>& args, std::string& out) {
  auto v = args.size() == 2 ? parseInt(args[1]) : std::nullopt;
  if (!v) return error(out, "pick takes an option number, as in `pick 2` (see `legal`)");
  auto opts = session_->legal();
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
  if (args.size() != 2 || (args[1] != "on" && args[1] != "off" && args[1] != "all"))
    return error(out, "trace takes on, off or all");
  trace_ = args[1] == "on" ? TraceMode::On : args[1] == "off" ? TraceMode::Off : TraceMode::All;
  out += "trace " + args[1] + "\n";
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
void Repl::cmdDice(const std::vector<std::string>& args, std::string& out) {
  std::vector<int64_t> faces;
  for (size_t i = 1; i < args.size(); ++i) {
    auto v = parseInt(args[i]);
    if (!v) return error(out, fmt::format("'{}' is not a die face", args[i]));
    faces.push_back(*v);
  }
  if (faces.empty()) return error(out, "dice takes the faces to force, as in `dice 4 2`");
  session_->forceDice(faces);
  record();
  std::string shown;
  for (int64_t d : session_->forcedDice()) shown += (shown.empty() ? "" : " ") + std::to_string(d);
  out += fmt::format("next dice: {}\n", shown);
}

void Repl::cmdUndo(const std::vector<std::string>& args, std::string& out) {
  long long n = 1;
  if (args.size() > 1) {
    auto v = parseInt(args[1]);
    if (!v || *v < 1) return error(out, "undo takes a positive number of moves");
    n = *v;
  }
  if (undo_.empty()) return error(out, "nothing to undo");
  for (long long i = 0; i < n && !undo_.empty(); ++i) {
    redo_.push_back(Snapshot{*session_, log_});
    *session_ = std::move(undo_.back().session);
    log_ = std::move(undo_.back().log);
    undo_.pop_back();
  }
  cmdStatus(out);
}

void Repl::cmdRedo(std::string& out) {
  if (redo_.empty()) return error(out, "nothing to redo");
  undo_.push_back(Snapshot{*session_, log_});
  *session_ = std::move(redo_.back().session);
  log_ = std::move(redo_.back().log);
  redo_.pop_back();
  cmdStatus(out);
}

}  // namespace polemos::repl
