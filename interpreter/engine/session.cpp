#include "engine/session.h"

#include <fmt/format.h>

#include <algorithm>

#include "engine/reading.h"
#include "eval/coverage.h"
#include "hex/coord.h"
#include "limits/limits.h"

namespace polemos::engine {

using namespace polemos::ir;
using eval::Interpreter;
using eval::Stop;

namespace {

// splitmix64: a small, fast, well-mixed generator whose whole state is one integer, so a saved
// game restores the dice exactly.
uint64_t nextRandom(uint64_t& s) {
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::string joinCitations(const std::vector<std::string>& cs) {
  std::string s;
  for (const auto& c : cs) s += (s.empty() ? "§" : " §") + c;
  return s;
}

std::string sideName(const Program& p, int64_t i) {
  return i >= 0 && i < static_cast<int64_t>(p.sides.size()) ? p.sides[i].name : "";
}

}  // namespace

Session::Session(std::shared_ptr<const Program> program, const SessionConfig& config)
    : program_(std::move(program)),
      config_(config),
      rng_(config.seed),
      stepping_(config.stepping) {}

// A rollback puts back an earlier state of this game: the version moves on past both, so that no
// memo entry made since can be taken for the state put back. The epoch and the stamps stay those
// of the earlier state: a stamp names one content in this game's history (eval/state.h), so a
// search kept from before the attempt still holds, and one made during it does not.
void Session::replaceState(eval::GameState&& earlier) {
  uint64_t now = state_.version;
  state_ = std::move(earlier);
  state_.version = std::max(now, state_.version) + 1;
}

// The level and the options of the configuration, on a fresh state: "" if they are good, or what
// is wrong (an unknown level or option, or a value of the wrong kind).
std::string Session::applyConfig() {
  const Program& P = *program_;
  // Level.
  state_.level = 0;
  if (!config_.level.empty()) {
    auto it = std::find(P.levels.begin(), P.levels.end(), config_.level);
    if (it == P.levels.end()) {
      std::string known;
      for (const auto& l : P.levels) known += (known.empty() ? "" : ", ") + l;
      return fmt::format("unknown level '{}' (this ruleset has: {})", config_.level, known);
    }
    state_.level = static_cast<int32_t>(it - P.levels.begin());
  }
  // Options.
  for (const auto& o : P.options) state_.options.push_back(o.value);
  for (const auto& [name, text] : config_.options) {
    // Not captured by the lambda itself: clang before 16 refuses to capture a structured binding.
    const std::string& wanted = name;
    auto it = std::find_if(P.options.begin(), P.options.end(),
                           [&](const OptionInfo& o) { return o.name == wanted; });
    if (it == P.options.end()) {
      std::string known;
      for (const auto& o : P.options) known += (known.empty() ? "" : ", ") + o.name;
      return fmt::format("unknown option '{}' (this ruleset has: {})", name,
                         known.empty() ? "none" : known);
    }
    Value v;
    const Value& def = it->value;
    if (def.tag == Tag::Bool) {
      if (text == "on" || text == "true" || text == "yes" || text == "1")
        v = Value::boolean(true);
      else if (text == "off" || text == "false" || text == "no" || text == "0")
        v = Value::boolean(false);
      else
        return fmt::format("option '{}' is on or off, not '{}'", name, text);
    } else if (def.tag == Tag::Int) {
      try {
        size_t used = 0;
        long long n = std::stoll(text, &used);
        if (used != text.size()) throw std::invalid_argument("x");
        v = Value::integer(n);
      } catch (...) {
        return fmt::format("option '{}' is a number, not '{}'", name, text);
      }
    } else if (def.tag == Tag::Enum) {
      const EnumInfo& e = P.enums[def.sub];
      auto m = std::find(e.members.begin(), e.members.end(), text);
      if (m == e.members.end()) {
        std::string names;
        for (const auto& x : e.members) names += (names.empty() ? "" : ", ") + x;
        return fmt::format("option '{}' is one of {}", name, names);
      }
      v = Value::of(Tag::Enum, m - e.members.begin(), def.sub);
    } else if (def.tag == Tag::Odds) {
      // 3:1 (or 3-1).
      auto sep = text.find_first_of(":-");
      long long a = 0, b = 0;
      try {
        size_t ua = 0, ub = 0;
        if (sep == std::string::npos) throw std::invalid_argument("x");
        a = std::stoll(text.substr(0, sep), &ua);
        b = std::stoll(text.substr(sep + 1), &ub);
        if (ua != sep || ub != text.size() - sep - 1 || a <= 0 || b <= 0)
          throw std::invalid_argument("x");
      } catch (...) {
        return fmt::format("option '{}' is odds such as 3:1, not '{}'", name, text);
      }
      v = Value::odds(a, b);
    } else if (def.tag == Tag::Str) {
      v = Value::string(text);
    } else {
      return fmt::format(
          "option '{}' cannot be set from outside the rules (it holds {}); a house rule can "
          "replace it",
          name, eval::display(P, state_, def));
    }
    state_.options[it - P.options.begin()] = v;
  }
  return "";
}

std::string Session::configProblem() {
  Command command(*this);
  eval::GameState saved = std::move(state_);
  state_ = eval::GameState{};
  std::string problem = applyConfig();
  state_ = std::move(saved);
  return problem;
}

Session::Command::Command(Session& session) : s(session) {
  if (s.commandDepth_++ == 0) s.steps_.renew(Interpreter::stepBudgetFor(*s.program_, &s.memo_));
}

Session::Command::~Command() {
  --s.commandDepth_;
}

eval::StepBudget* Session::steps() {
  if (commandDepth_ == 0) steps_.renew(Interpreter::stepBudgetFor(*program_, &memo_));
  return &steps_;
}

Outcome Session::start() {
  Command command(*this);
  const Program& P = *program_;
  uint64_t version = state_.version;
  state_ = eval::GameState{};
  state_.version = version;
  state_.touch();
  state_.tracing = config_.tracing;
  if (std::string problem = applyConfig(); !problem.empty())
    return Outcome{Outcome::Error, problem, {}};
  // Map.
  state_.map.col0 = P.mapCols0;
  state_.map.col1 = P.mapCols1;
  state_.map.row0 = P.mapRows0;
  state_.map.row1 = P.mapRows1;
  state_.map.letters = P.letterLabels;
  state_.map.grid = P.grid;
  state_.map.terrain = P.mapTerrain;
  state_.map.elevation = P.mapElevation;
  state_.map.hexsides = P.mapHexsides;
  state_.map.groups = P.mapGroups;
  {
    // The hex state: every field's default in every hex, then the scenario's values.
    const size_t n = P.hexState.fields.size();
    std::vector<ir::Value> fields(n * static_cast<size_t>(state_.map.size()));
    for (size_t h = 0; h < static_cast<size_t>(state_.map.size()); ++h)
      for (size_t f = 0; f < n; ++f) fields[h * n + f] = P.hexState.fields[f].value;
    for (const auto& hv : P.mapHexState)
      if (hv.hex >= 0 && hv.hex < state_.map.size())
        fields[static_cast<size_t>(hv.hex) * n + static_cast<size_t>(hv.slot)] = hv.value;
    state_.map.hexFieldCount = static_cast<int32_t>(n);
    state_.map.hexFields = std::move(fields);
  }
  // Sides.
  for (const auto& s : P.sides) {
    eval::SideState ss;
    for (const auto& f : P.sideState.fields) ss.fields.push_back(f.value);
    for (const auto& [slot, v] : s.overrides) ss.fields[slot] = v;
    state_.sides.push_back(std::move(ss));
  }
  for (const auto& f : P.gameState.fields) state_.game.push_back(f.value);
  // Units.
  for (const auto& u : P.units) {
    eval::UnitState us;
    us.id = u.id;
    us.type = u.type;
    us.cls = P.unitTypes[u.type].cls;
    us.side = u.side;
    us.hex = u.hex;
    us.facing = u.facing;
    us.status = u.hex >= 0 ? eval::UnitStatus::OnMap : eval::UnitStatus::Off;
    us.fields = P.unitTypes[u.type].values;
    for (const auto& [slot, v] : u.overrides) us.fields[slot] = v;
    state_.units.push_back(std::move(us));
  }
  machine_ = eval::Machine{};
  machine_.frames.push_back(eval::Frame{P.sequence, 0, 0, true});
  eval::cover(P.sequence);
  machine_.stack.resize(std::max(0, P.functions[P.sequence].locals));
  return run();
}

Outcome Session::restart() {
  Command command(*this);
  const Program& P = *program_;
  state_.touch();
  state_.turn = 0;
  state_.phase = -1;
  state_.activeSide = 0;
  state_.acting = 0;
  state_.result = eval::GameResult{};
  actionStart_.reset();
  commandStart_.reset();
  machine_ = eval::Machine{};
  machine_.frames.push_back(eval::Frame{P.sequence, 0, 0, true});
  machine_.stack.resize(std::max(0, P.functions[P.sequence].locals));
  return run();
}

int64_t Session::rollDie(int32_t die) {
  const DieInfo& d = program_->dice.at(die);
  if (!forced_.empty()) {
    int64_t f = forced_.front();
    forced_.pop_front();
    return f;
  }
  uint64_t n = d.faces.size();
  // Rejection sampling keeps every face exactly equally likely.
  uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  uint64_t r;
  do r = nextRandom(rng_);
  while (r >= limit);
  return d.faces[r % n];
}

Value Session::combine(const RollInfo& r, const std::vector<int64_t>& dice) const {
  switch (r.mode) {
    case RollInfo::Sum: {
      int64_t s = 0;
      for (int64_t d : dice) s += d;
      return Value::integer(s);
    }
    case RollInfo::Highest:
      return Value::integer(*std::max_element(dice.begin(), dice.end()));
    case RollInfo::Lowest:
      return Value::integer(*std::min_element(dice.begin(), dice.end()));
    case RollInfo::Each: {
      ValueList l;
      for (int64_t d : dice) l.push_back(Value::integer(d));
      return Value::makeList(std::move(l));
    }
  }
  return Value::none();
}

std::vector<std::pair<Value, uint64_t>> Session::rollDistribution(uint64_t& total) const {
  std::vector<std::pair<Value, uint64_t>> out;
  total = 0;
  if (stop_.kind != Stop::Roll) return out;
  const RollInfo& r = program_->rolls[stop_.index];
  const auto& faces = program_->dice[r.die].faces;
  int64_t count = stop_.count;
  // Enumerates faces^count outcomes (count is at most 20, and real rolls are 1 to 3 dice).
  std::vector<size_t> idx(count, 0);
  uint64_t outcomes = 1;
  for (int64_t i = 0; i < count; ++i) {
    outcomes *= faces.size();
    if (outcomes > 10'000'000) return out;  // too many to list exactly
  }
  for (uint64_t k = 0; k < outcomes; ++k) {
    std::vector<int64_t> dice;
    for (int64_t i = 0; i < count; ++i) dice.push_back(faces[idx[i]]);
    Value v = combine(r, dice);
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& p) { return p.first == v; });
    if (it == out.end())
      out.emplace_back(v, 1);
    else
      ++it->second;
    for (int64_t i = 0; i < count; ++i) {
      if (++idx[i] < faces.size()) break;
      idx[i] = 0;
    }
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return compareValues(a.first, b.first) < 0; });
  total = outcomes;
  return out;
}

Outcome Session::resolveRoll(const Value& result) {
  Command command(*this);
  if (stop_.kind != Stop::Roll) return Outcome{Outcome::Error, "no roll is pending", {}};
  const RollInfo& r = program_->rolls[stop_.index];
  {
    // Gone before run(): an interpreter gives its steps back to the command's budget when it ends.
    Interpreter in(*program_, state_, machine_, &memo_, steps());
    in.trace(r.citations, eval::TraceKind::Roll, program_->rollText(stop_.index, stop_.count), "",
             display(result));
  }
  machine_.stack.push_back(result);
  return run();
}

Outcome Session::run() {
  for (;;) {
    // Each stop passed through within the command (a roll made, a pause gone past) costs what many
    // instructions do: charged, so that rules rolling for ever stop as a loop does.
    steps()->left -= limits::kStepsPerStop;
    Interpreter in(*program_, state_, machine_, &memo_, steps());
    if (machine_.frames.empty()) {
      stop_ = Stop{};
      stop_.kind = Stop::End;
      return Outcome{};
    }
    stop_ = in.run();
    if (stop_.kind == Stop::Pause && !stepping_) continue;  // passed through
    if (stop_.kind == Stop::Roll && autoRoll_) {
      const RollInfo& r = program_->rolls[stop_.index];
      const auto& faces = program_->dice[r.die].faces;
      std::vector<int64_t> dice;
      for (int64_t i = 0; i < stop_.count; ++i) {
        int64_t f = rollDie(r.die);
        if (std::find(faces.begin(), faces.end(), f) == faces.end()) {
          lastError_ = fmt::format("a forced die shows {}, which is not a face of {}", f,
                                   program_->dice[r.die].name);
          if (commandStart_) {
            // Put the game back as it was before the command; the forced dice are dropped.
            replaceState(std::move(commandStart_->state));
            machine_ = std::move(commandStart_->machine);
            stop_ = std::move(commandStart_->stop);
            rng_ = commandStart_->rng;
            forced_.clear();
            commandStart_.reset();
            actionStart_.reset();
            return Outcome{Outcome::Error,
                           lastError_ + " (the forced dice are dropped; nothing was done)",
                           {}};
          }
          stop_.kind = Stop::Error;
          stop_.message = lastError_;
          return Outcome{Outcome::Error, lastError_, {}};
        }
        dice.push_back(f);
      }
      Value v = combine(r, dice);
      std::string faceText;
      if (dice.size() > 1) {
        for (int64_t d : dice) faceText += (faceText.empty() ? "" : " ") + std::to_string(d);
      }
      in.trace(r.citations, eval::TraceKind::Roll,
               program_->rollText(stop_.index, static_cast<int64_t>(dice.size())), faceText,
               display(v));
      machine_.stack.push_back(v);
      continue;
    }
    if (stop_.kind == Stop::End) {
      machine_.frames.clear();
      dropActionStart();
      return Outcome{};
    }
    if (stop_.kind == Stop::Error || stop_.kind == Stop::Failed) {
      Outcome o;
      if (stop_.kind == Stop::Error) {
        std::string where;
        if (stop_.range.valid()) where = fmt::format(" (at line {})", stop_.range.begin.line);
        lastError_ = stop_.message + where;
        o = Outcome{Outcome::Error, lastError_, {}};
      } else if (actionStart_) {
        o = Outcome{Outcome::Illegal, stop_.message, stop_.citations};
      } else {
        // A requirement outside any action (in the sequence of play itself) cannot be refused:
        // the rules are inconsistent with the game, which is an error.
        std::string cite;
        for (const auto& c : stop_.citations) cite += "§" + c + " ";
        lastError_ =
            fmt::format("a requirement of the sequence of play failed: {}{}", cite, stop_.message);
        stop_.kind = Stop::Error;
        stop_.message = lastError_;
        return Outcome{Outcome::Error, lastError_, {}};
      }
      if (actionStart_) {
        // Undo the whole action, wherever it had got to.
        o.takenBack = !actionBegun_;
        replaceState(std::move(actionStart_->state));
        machine_ = std::move(actionStart_->machine);
        stop_ = std::move(actionStart_->stop);
        rng_ = actionStart_->rng;
        forced_ = std::move(actionStart_->forced);
        actionStart_.reset();
      }
      return o;
    }
    if (stop_.kind == Stop::Window) dropActionStart();  // the action, if any, is complete
    return Outcome{};
  }
}

std::string Session::phaseName() const {
  if (stop_.kind == Stop::Window) return program_->phases[stop_.index].name;
  if (state_.phase >= 0) return program_->phases[state_.phase].name;
  return "";
}

std::string Session::describeStop() const {
  const Program& P = *program_;
  auto side = [&](int32_t s) {
    return s >= 0 && s < static_cast<int32_t>(P.sides.size()) ? P.sides[s].name : "?";
  };
  switch (stop_.kind) {
    case Stop::Window: {
      const PhaseInfo& ph = P.phases[stop_.index];
      std::string cite = ph.citations.empty() ? "" : " (" + joinCitations(ph.citations) + ")";
      return fmt::format("{} to act: {} {}{}", side(stop_.player), ph.name,
                         ph.alternate ? "(alternating)" : "phase", cite);
    }
    case Stop::Choose: {
      const ChooseInfo& c = P.chooses[stop_.index];
      std::string cite = c.citations.empty() ? "" : " (" + joinCitations(c.citations) + ")";
      return fmt::format("{} to choose: {}{}", side(stop_.player), c.prompt, cite);
    }
    case Stop::Roll:
      return fmt::format("a roll is pending: {}", P.rollText(stop_.index, stop_.count));
    case Stop::End: {
      const auto& r = state_.result;
      if (!r.over) return "the game is over: the sequence of play ended without a result";
      if (r.winner < 0)
        return "the game is over: a draw" + (r.reason.empty() ? "" : " (" + r.reason + ")");
      return fmt::format("the game is over: {} wins{}{}", side(r.winner),
                         r.level.empty() ? "" : " (" + r.level + ")",
                         r.reason.empty() ? "" : ", " + r.reason);
    }
    case Stop::Error:
      return "stopped by an error: " + stop_.message;
    case Stop::Pause: {
      const auto& cites = P.pauses[stop_.index].citations;
      return fmt::format("paused: {}{} (`next` goes on)", stop_.message,
                         cites.empty() ? "" : " (" + joinCitations(cites) + ")");
    }
    default:
      return "not started";
  }
}

std::string Session::optionText(int32_t action, const std::vector<Value>& args) const {
  const ir::ActionInfo& info = program_->actions[action];
  std::string s = info.name;
  for (size_t i = 0; i < args.size(); ++i) {
    const Value& a = args[i];
    // A direction as a player writes it (N, NE, ...), read back by readArgument.
    if (i < info.params.size() && isDirectionParameter(info.params[i]) && a.tag == Tag::Int &&
        a.i >= 0 && a.i < 6)
      s += " " + std::string(hex::directionName(static_cast<hex::Direction>(a.i)));
    else
      s += " " + display(a);
  }
  return s;
}

Option Session::actionOption(int32_t action, std::vector<Value> args) const {
  Option o;
  o.kind = Option::Action;
  o.action = action;
  o.text = optionText(action, args);
  o.args = std::move(args);
  return o;
}

Option Session::endOption() const {
  Option end;
  bool alternate = stop_.kind == Stop::Window && program_->phases[stop_.index].alternate;
  end.kind = alternate ? Option::Pass : Option::End;
  end.text = alternate ? "pass" : "end";
  return end;
}

const eval::Stop* Session::sharedRefusal(int32_t action) const {
  return refused_.action == action && refused_.version == state_.version ? &refused_.failed
                                                                         : nullptr;
}

void Session::noteRefusal(int32_t action, const eval::Stop& failed) {
  const auto& shared = program_->actions[action].sharedRequires;
  if (failed.kind != Stop::Failed ||
      std::find(shared.begin(), shared.end(), failed.index) == shared.end())
    return;
  refused_ = SharedRefusal{action, state_.version, failed};
}

bool Session::guardHolds(int32_t action, const std::vector<Value>& args) {
  Command command(*this);
  // A requirement that reads no argument refused this action in this version of the game: it
  // refuses every candidate (the random player draws many in a turn without Command Points).
  if (sharedRefusal(action)) return false;
  QuietTrace quiet(state_);
  std::string err;
  Interpreter in(*program_, state_, machine_, &memo_, steps());
  eval::Stop failed;
  failed.kind = Stop::None;
  auto ok = in.tryCallPure(program_->actions[action].guard, args, err, &failed);
  noteRefusal(action, failed);
  // A requirement not met makes the option illegal; an error of the rules is said (listingError).
  if (!ok && failed.kind == Stop::None) listingError(optionText(action, args), err);
  return ok && ok->truthy();
}

void Session::listingError(const std::string& what, const std::string& err) {
  if (listingErrors_.size() >= kMaxListingErrors) return;
  std::string said = what + ": " + err;
  if (std::find(listingErrors_.begin(), listingErrors_.end(), said) == listingErrors_.end())
    listingErrors_.push_back(std::move(said));
}

Value Session::candidates(int32_t action, std::span<const Value> prefix) {
  Command command(*this);
  QuietTrace quiet(state_);
  const ActionParam& p = program_->actions[action].params[prefix.size()];
  ValueList candidates;
  if (p.domain >= 0) {
    std::string err;
    Interpreter in(*program_, state_, machine_, &memo_, steps());
    eval::Stop failed;
    failed.kind = Stop::None;
    auto v = in.tryCallRemembered(p.domain, std::vector<Value>(prefix.begin(), prefix.end()), err,
                                  &failed);
    if (!v && failed.kind == Stop::None) {
      std::string what = "the choices of " + p.name + " for " + program_->actions[action].name;
      for (const Value& v : prefix) what += " " + display(v);
      listingError(what, err);
    }
    if (!v || v->tag != Tag::List) return Value::makeList({});
    return *v;
  }
  switch (p.type.kind) {
    case TypeKind::Bool:
      candidates = {Value::boolean(true), Value::boolean(false)};
      break;
    case TypeKind::Side:
      for (size_t s = 0; s < state_.sides.size(); ++s)
        candidates.push_back(Value::of(Tag::Side, s));
      break;
    case TypeKind::Enum:
      for (size_t m = 0; m < program_->enums[p.type.id].members.size(); ++m)
        candidates.push_back(Value::of(Tag::Enum, m, p.type.id));
      break;
    case TypeKind::Unit:
      for (size_t u = 0; u < state_.units.size(); ++u)
        if (state_.units[u].status == eval::UnitStatus::OnMap)
          candidates.push_back(Value::of(Tag::Unit, u));
      break;
    case TypeKind::Hex:
      for (int32_t h = 0; h < state_.map.size(); ++h) candidates.push_back(Value::of(Tag::Hex, h));
      break;
    case TypeKind::Level:
      for (size_t l = 0; l < program_->levels.size(); ++l)
        candidates.push_back(Value::of(Tag::Level, l));
      break;
    default:
      break;  // ints without a domain cannot be listed
  }
  return Value::makeList(std::move(candidates));
}

void Session::enumerate(int32_t action, size_t i, std::vector<Value>& args,
                        std::vector<Option>& out) {
  const ActionInfo& a = program_->actions[action];
  if (i == a.params.size()) {
    if (guardHolds(action, args)) out.push_back(actionOption(action, args));
    return;
  }
  const Value list = candidates(action, args);
  for (const Value& c : list.items()) {
    args.push_back(c);
    enumerate(action, i + 1, args, out);
    args.pop_back();
  }
}

std::vector<int32_t> Session::openActions() {
  Command command(*this);
  std::vector<int32_t> out;
  if (stop_.kind != Stop::Window) return out;
  QuietTrace quiet(state_);
  for (int32_t a : program_->phases[stop_.index].actions) {
    const ActionInfo& info = program_->actions[a];
    if (info.gate >= 0) {
      std::string err;
      Interpreter in(*program_, state_, machine_, &memo_, steps());
      eval::Stop failed;
      failed.kind = Stop::None;
      auto g = in.tryCallPure(info.gate, {}, err, &failed);
      if (!g && failed.kind == Stop::None) listingError("whether " + info.name + " is open", err);
      if (!g || !g->truthy()) continue;
    }
    out.push_back(a);
  }
  return out;
}

bool Session::mayEnd() {
  Command command(*this);
  if (stop_.kind != Stop::Window) return false;
  const PhaseInfo& ph = program_->phases[stop_.index];
  if (ph.endRequires < 0) return true;
  QuietTrace quiet(state_);
  std::string err;
  Interpreter in(*program_, state_, machine_, &memo_, steps());
  Value player = Value::of(Tag::Side, stop_.player);
  eval::Stop failed;
  failed.kind = Stop::None;
  // The end condition is asked at every decision of the phase and is mostly made of answers a
  // move leaves as they were (Standard 5.32: whether each unit may end where it stands): asked
  // with its reads logged, those answers hold across moves while what they read is unchanged
  // (eval/memo, MemoCache::find), and only the units a move touched are asked again.
  eval::MemoCache::LogScope log(memo_);
  auto v = in.tryCallPure(ph.endRequires, std::vector<Value>{player}, err, &failed);
  if (!v && failed.kind == Stop::None) listingError("whether the phase may end", err);
  return v && v->truthy();
}

Outcome Session::resume() {
  Command command(*this);
  if (stop_.kind != Stop::Pause) return Outcome{Outcome::Error, "the game is not paused", {}};
  return run();
}

std::vector<Option> Session::legal() {
  Command command(*this);
  QuietTrace quiet(state_);
  listingErrors_.clear();
  std::vector<Option> out;
  if (stop_.kind == Stop::Pause) {
    Option o;
    o.kind = Option::Next;
    o.text = "next";
    out.push_back(std::move(o));
    return out;
  }
  if (stop_.kind == Stop::Choose) {
    const auto& items = stop_.options.items();
    for (size_t i = 0; i < items.size(); ++i) {
      Option o;
      o.kind = Option::Pick;
      o.args = {items[i]};
      o.text = display(items[i]);
      out.push_back(std::move(o));
    }
    return out;
  }
  if (stop_.kind != Stop::Window) return out;
  for (int32_t a : openActions()) {
    std::vector<Value> args;
    enumerate(a, 0, args, out);
  }
  if (mayEnd()) out.push_back(endOption());
  return out;
}

std::optional<Outcome> Session::checkAction(int32_t action, const std::vector<Value>& args) {
  Command command(*this);
  QuietTrace quiet(state_);
  const Program& P = *program_;
  if (stop_.kind != Stop::Window) {
    return Outcome{Outcome::Error,
                   stop_.kind == Stop::Choose ? "a choice is pending: answer it with `pick N`"
                   : stop_.kind == Stop::End  ? "the game is over"
                                              : "no action can be taken now",
                   {}};
  }
  const PhaseInfo& ph = P.phases[stop_.index];
  const ActionInfo& a = P.actions.at(action);
  if (std::find(ph.actions.begin(), ph.actions.end(), action) == ph.actions.end()) {
    std::string allowed;
    for (int32_t x : ph.actions) allowed += (allowed.empty() ? "" : ", ") + P.actions[x].name;
    return Outcome{
        Outcome::Illegal,
        fmt::format("{} is not allowed in the {} phase{}", a.name, ph.name,
                    allowed.empty() ? " (no actions are)" : " (allowed: " + allowed + ")"),
        ph.citations};
  }
  Interpreter in(*program_, state_, machine_, &memo_, steps());
  if (a.gate >= 0) {
    std::string err;
    auto g = in.tryCallPure(a.gate, {}, err);
    if (!g || !g->truthy())
      return Outcome{Outcome::Illegal,
                     fmt::format("{} is not in use at this level or with these options", a.name),
                     a.citations};
  }
  if (args.size() != a.params.size()) {
    return Outcome{
        Outcome::Error, fmt::format("{} takes {} argument(s)", a.name, a.params.size()), {}};
  }
  // The requirements first: they cite the rule that refuses the action; then whether the
  // arguments are among the action's candidates.
  auto candidates = [&]() -> std::optional<Outcome> {
    for (size_t i = 0; i < a.params.size(); ++i) {
      if (a.params[i].domain < 0) continue;
      std::string err;
      auto dom = in.tryCallRemembered(a.params[i].domain,
                                      std::vector<Value>(args.begin(), args.begin() + i), err);
      if (!dom) return Outcome{Outcome::Error, err, {}};
      const auto& items = dom->items();
      if (std::find(items.begin(), items.end(), args[i]) == items.end()) {
        return Outcome{Outcome::Illegal,
                       fmt::format("{} is not one of the possible {} for {}", display(args[i]),
                                   a.params[i].name, a.name),
                       a.citations};
      }
    }
    return std::nullopt;
  };
  if (const Stop* shared = sharedRefusal(action))
    return Outcome{Outcome::Illegal, shared->message, shared->citations};
  std::string err;
  Stop failed;
  failed.kind = Stop::None;
  auto ok = in.tryCallPure(a.guard, args, err, &failed);
  noteRefusal(action, failed);
  if (failed.kind == Stop::Failed)
    return Outcome{Outcome::Illegal, failed.message, failed.citations};
  if (!ok) {
    // A guard that cannot be evaluated for these arguments (a field the unit's class does not
    // have) is usually asked of arguments that are not candidates at all: say so.
    if (auto bad = candidates()) return bad;
    return Outcome{Outcome::Error, err, {}};
  }
  return candidates();
}

void Session::keepActionStart() {
  if (!actionStart_ && spareStart_.snapshot) {
    actionStart_ = std::move(spareStart_.snapshot);
    spareStart_.snapshot.reset();
  }
  if (!actionStart_) {
    actionStart_ = Snapshot{state_, machine_, stop_, rng_, forced_};
    return;
  }
  // Assigned member by member: each vector keeps its capacity; of the game, only what changed
  // since the last action's start (GameState::catchUp).
  Snapshot& s = *actionStart_;
  s.state.catchUp(state_);
  if (memo_.verifying() &&
      (!eval::sameUnits(s.state, state_) || s.state.hexStamps != state_.hexStamps))
    eval::MemoCache::verifyFailed("an action's snapshot brought up to date");
  s.machine = machine_;
  s.stop = stop_;
  s.rng = rng_;
  s.forced = forced_;
}

void Session::dropActionStart() {
  if (!actionStart_) return;
  spareStart_.snapshot = std::move(actionStart_);
  actionStart_.reset();
}

Outcome Session::act(int32_t action, const std::vector<Value>& args) {
  Command command(*this);
  if (auto bad = checkAction(action, args)) return *bad;
  // Keep the state to restore if a requirement deeper in the action fails, or the rules err.
  keepActionStart();
  if (!forced_.empty())
    commandStart_ = actionStart_;
  else
    commandStart_.reset();
  const ActionInfo& a = program_->actions[action];
  const Function& body = program_->functions[a.body];
  const PhaseInfo& ph = program_->phases[stop_.index];
  if (ph.alternate) {
    // Mark the window so that it hands the turn over when the action returns.
    eval::Frame& fr = machine_.frames.back();
    const Instr& in = program_->functions[fr.fn].code[fr.pc];
    machine_.stack[fr.base + in.b + 2] = Value::integer(1);
  }
  {
    Interpreter in(*program_, state_, machine_, &memo_, steps());
    in.trace(a.citations, eval::TraceKind::Action, optionText(action, args), "", "");
  }
  eval::Frame nf;
  nf.fn = a.body;
  nf.base = static_cast<int32_t>(machine_.stack.size());
  nf.discard = true;
  for (const Value& v : args) machine_.stack.push_back(v);
  machine_.stack.resize(nf.base + std::max(body.locals, body.arity));
  machine_.frames.push_back(nf);
  eval::cover(nf.fn);
  actionBegun_ = true;
  Outcome o = run();
  actionBegun_ = false;
  return o;
}

Outcome Session::endPhase() {
  Command command(*this);
  if (stop_.kind != Stop::Window)
    return Outcome{Outcome::Error, "there is no phase to end now", {}};
  if (!forced_.empty())
    commandStart_ = Snapshot{state_, machine_, stop_, rng_, forced_};
  else
    commandStart_.reset();
  const PhaseInfo& ph = program_->phases[stop_.index];
  eval::Frame& fr = machine_.frames.back();
  const Instr& in = program_->functions[fr.fn].code[fr.pc];
  // `end requires`: the condition for ending a phase, or for passing in an alternation.
  if (ph.endRequires >= 0) {
    std::string err;
    Interpreter it(*program_, state_, machine_, &memo_, steps());
    Value player = Value::of(Tag::Side, stop_.player);
    auto v = it.tryCallPure(ph.endRequires, std::vector<Value>{player}, err);
    if (!v) return Outcome{Outcome::Error, err, {}};
    if (!v->truthy()) return Outcome{Outcome::Illegal, ph.endInfo.text, ph.endInfo.citations};
  }
  if (ph.alternate) {
    Value& passes = machine_.stack[fr.base + in.b + 1];
    passes = Value::integer(passes.i + 1);
    {
      Interpreter it(*program_, state_, machine_, &memo_, steps());
      it.trace(ph.citations, eval::TraceKind::Action, "pass", sideName(*program_, stop_.player),
               fmt::format("{} in a row", passes.i));
    }
    if (passes.i >= ph.passes) {
      ++fr.pc;
    } else {
      Value& player = machine_.stack[fr.base + in.b];
      player = Value::of(Tag::Side, (player.i + 1) % std::max<size_t>(1, program_->sides.size()));
    }
    return run();
  }
  ++fr.pc;
  return run();
}

Outcome Session::pick(size_t index) {
  Command command(*this);
  if (stop_.kind != Stop::Choose) return Outcome{Outcome::Error, "no choice is pending", {}};
  const auto& items = stop_.options.items();
  if (index >= items.size())
    return Outcome{Outcome::Error, fmt::format("pick a number from 1 to {}", items.size()), {}};
  const ChooseInfo& c = program_->chooses[stop_.index];
  Value v = items[index];
  if (!forced_.empty())
    commandStart_ = Snapshot{state_, machine_, stop_, rng_, forced_};
  else
    commandStart_.reset();
  {
    Interpreter in(*program_, state_, machine_, &memo_, steps());
    in.trace(c.citations, eval::TraceKind::Choice, c.prompt, sideName(*program_, stop_.player),
             display(v));
  }
  machine_.stack.push_back(v);
  return run();
}

Outcome Session::apply(const Option& o) {
  Command command(*this);
  switch (o.kind) {
    case Option::Action:
      return act(o.action, o.args);
    case Option::End:
    case Option::Pass:
      return endPhase();
    case Option::Next:
      return resume();
    case Option::Pick: {
      const auto& items = stop_.options.items();
      auto it = std::find(items.begin(), items.end(), o.args.at(0));
      if (it == items.end()) return Outcome{Outcome::Error, "not an option", {}};
      return pick(static_cast<size_t>(it - items.begin()));
    }
  }
  return Outcome{Outcome::Error, "bad option", {}};
}

std::optional<Value> Session::callPure(int32_t fn, std::vector<Value> args, std::string& error) {
  Command command(*this);
  Interpreter in(*program_, state_, machine_, &memo_, steps());
  return in.tryCallPure(fn, args, error);
}

std::optional<Value> Session::derivedValue(int32_t fn, const Value& self, std::string& error) {
  Command command(*this);
  QuietTrace quiet(state_);
  Interpreter in(*program_, state_, machine_, &memo_, steps());
  return in.tryCallPure(fn, std::span<const Value>(&self, 1), error);
}

}  // namespace polemos::engine
