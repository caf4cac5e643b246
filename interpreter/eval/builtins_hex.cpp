// Hex builtins: the battlefield library (interpreter/hex/) exposed to rulesets.
//
// Every rule-specific choice comes from the ruleset, through optional hook functions that it
// declares by name (all pure `function`s):
//   move_cost(u: unit, from: hex, to: hex): int?   cost to enter `to` from `from`; none =
//   prohibited
//                                                  (default: 1)
//   stops_movement(u: unit, h: hex): bool          entering h ends the move (an enemy ZOC)
//   may_not_leave(u: unit, h: hex): bool           u may not leave its start hex (5.13)
//   movement_allowance(u: unit): int               the budget (default: the unit's `ma` field)
//   los_blocks(h: hex): bool                       h blocks line of sight (default: nothing does)
//   los_blocks_side(a: hex, b: hex): bool          the hexside a|b blocks line of sight
//   exerts_zoc(u: unit): bool                      u projects a zone of control (default: true)
//   zoc_front_only(u: unit): bool                  only into its three front hexes (Deluxe 8.2)
//   zoc_into(u: unit, from: hex, to: hex): bool    the ZOC crosses from->to (no rivers, 6.6)
//   facing_sectors(): int                          3 (Four Battles 16.1) or 4 (Deluxe 8.2, default)
//   rotation_cost(u, at: hex, from: int, to: int): int?   prices a change of facing in a hex; when
//                                                  declared, movement searches hex + facing
//                                                  (Deluxe 8.4)
//   turns_to_move(u: unit): bool                   a move turns the unit to face its direction
//   move_cost(u, from, to, facing: int): int?      the four-parameter form sees the mover's facing
//   move_directions(u, facing: int): list<int>     with facing: the only directions (0-5) a step
//                                                  is priced in (Deluxe 8.3: the front); the rest
//                                                  are refused without asking move_cost
//   los_blocks(h, from, to): bool                  the three-parameter form sees the firer and
//   target
// A builtin may also take a lambda in place of a hook, e.g. line_of_sight(a, b, h -> ...).
// path_cost(u, h, facing) prices a move that ends in h with that facing (facing mode only).
// path(u, h, step_ok) is the cheapest legal path whose every step satisfies a predicate.
#include "eval/builtins_hex.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>

#include "eval/coverage.h"
#include "eval/hex_set.h"
#include "eval/interpreter.h"
#include "hex/facing.h"
#include "hex/grid.h"
#include "hex/los.h"
#include "hex/path.h"

namespace polemos::eval {

using namespace polemos::ir;
using Args = std::span<const Value>;

namespace {

const hex::Grid& grid(Context& c, const char* fn) {
  if (!c.program.grid)
    c.fail(fmt::format("{}() needs a map: load a scenario or make a sandbox", fn));
  return *c.program.grid;
}

// A hex argument: a hex, or a number read as its xxyy label (so `distance(2725, 2426)` works at
// the REPL as a player writes it).
int32_t hexArg(Context& c, const Value& v, const char* fn) {
  if (v.tag == Tag::Int) {
    int32_t h = c.state.map.parse(fmt::format("{:04d}", v.i));
    if (h < 0) c.fail(fmt::format("{}(): {:04d} is not a hex of this map", fn, v.i));
    return h;
  }
  if (v.tag != Tag::Hex || v.i < 0 || v.i >= c.state.map.size())
    c.fail(fmt::format("{}() needs a hex, found {}", fn, tagName(v.tag)));
  return static_cast<int32_t>(v.i);
}

// A unit argument. `whole`: the builtin may read any of its fields, logged as a read of the
// whole unit (MemoCache::readUnit); otherwise the caller logs the fields it reads.
const UnitState& unitArg(Context& c, const Value& v, const char* fn, bool whole = true) {
  if (v.tag != Tag::Unit || v.i < 0 || v.i >= static_cast<int64_t>(c.state.units.size()))
    c.fail(fmt::format("{}() needs a unit, found {}", fn, tagName(v.tag)));
  if (MemoCache* memo = c.interp.memo(); memo && whole) memo->readUnit(v.i);
  return c.state.units[v.i];
}

Value hexValue(const hex::Grid& g, hex::Hex h) {
  return Value::of(Tag::Hex, g.indexOf(h));
}
// A step's two hexes as values, by the indices the search gives with it (hex::Step).
Value fromValue(const hex::Grid& g, const hex::Step& s) {
  return s.fromIndex >= 0 ? Value::of(Tag::Hex, s.fromIndex) : hexValue(g, s.from);
}
Value toValue(const hex::Grid& g, const hex::Step& s) {
  return s.toIndex >= 0 ? Value::of(Tag::Hex, s.toIndex) : hexValue(g, s.to);
}

// Calls a hook by name if the ruleset declares it; `fallback` otherwise.
Value hook(Context& c, const char* name, std::initializer_list<Value> args, Value fallback) {
  int32_t fn = c.program.findFunction(name);
  if (fn < 0) return fallback;
  std::vector<Value> a(args);
  return c.call(Value::of(Tag::Func, fn), a);
}

bool hookBool(Context& c, const char* name, std::initializer_list<Value> args, bool fallback) {
  Value v = hook(c, name, args, Value::boolean(fallback));
  if (v.tag != Tag::Bool)
    c.fail(fmt::format("{}() must give true or false, gave {}", name, tagName(v.tag)));
  return v.i != 0;
}

// A movement search consults the hooks for every step it tries: that is exploring, not applying
// a rule, so the calls write no trace events (the rules trace the step a unit takes when they
// price it themselves). With tracing off the answers may also come from the memo. Quiet: tracing
// off for a scope.
class Quiet {
 public:
  explicit Quiet(GameState& s) : s_(s), was_(s.tracing) { s.tracing = false; }
  Quiet(const Quiet&) = delete;
  Quiet& operator=(const Quiet&) = delete;
  ~Quiet() { s_.tracing = was_; }

 private:
  GameState& s_;
  bool was_;
};

// A hook's call, quietly: `f` a function value (a lambda brings its captures); with
// `remembered`, function `f.i` through the memo, as the code of a function calls another (a
// hook's forward).
Value quietCall(Context& c, const Value& f, std::span<const Value> args, bool remembered = false) {
  Quiet quiet(c.state);
  return remembered && f.tag == Tag::Func && f.listPtr() == nullptr
             ? c.interp.callRemembered(static_cast<int32_t>(f.i), args)
             : c.call(f, args);
}

// The arguments of a forwarded call (ir/forwarding.h), made in place: a search forwards hundreds
// of calls, and a hook has few arguments.
class ForwardedArgs {
 public:
  static constexpr size_t kMax = 8;
  ForwardedArgs() = default;
  ForwardedArgs(const ForwardedArgs&) = delete;
  ForwardedArgs& operator=(const ForwardedArgs&) = delete;
  ~ForwardedArgs() { std::destroy_n(at(), n_); }
  void push(Value v) { new (at() + n_++) Value(std::move(v)); }
  std::span<const Value> span() const { return {at(), n_}; }

 private:
  Value* at() { return reinterpret_cast<Value*>(raw_); }
  const Value* at() const { return reinterpret_cast<const Value*>(raw_); }
  alignas(Value) unsigned char raw_[kMax * sizeof(Value)];
  size_t n_ = 0;
};

// A call a search makes for a hook: with `known` (the answers of the unit's kept search in this
// version) its answer is taken from there; with `rec` (a search to be kept, see
// MemoCache::Recording) it is recorded with its answer and what it read. `remembered`: through
// the memo, as the code of a function calls another.
Value recordedCall(Context& c, MemoCache::Recording* rec, const MemoCache::Answers* known,
                   int32_t fn, std::span<const Value> args, bool remembered) {
  auto call = [&]() { return quietCall(c, Value::of(Tag::Func, fn), args, remembered); };
  MemoCache* memo = c.interp.memo();
  if (known && memo) {
    // The unit's kept search made this very call, and its answer holds in this version (see
    // movementAnswers); with POLEMOS_VERIFY_KEPT it is made again and compared.
    if (const Value* v = known->find(fn, args)) {
      if (!memo->verifying()) return *v;
      Value fresh = call();
      if (!(fresh == *v)) MemoCache::verifyFailed("a hook's answer taken from a kept search");
      return fresh;
    }
  }
  if (!rec || !memo) return call();
  if (remembered) {
    Quiet quiet(c.state);  // through the memo, recorded (Interpreter::callRecorded)
    return c.interp.callRecorded(fn, args, *rec);
  }
  size_t at = memo->beginLog();
  Value v = call();  // on an error the search's own log closes this one
  memo->record(*rec, at, fn, args, v);
  return v;
}

// Whether a hook's forward holds for these arguments, and if so the target's arguments, as the
// hook's own code would make them (a unit's side or hex; the answers of the nested calls, made
// in the code's order through `nested`; the unit's hex, compared with the hex parameter, is read
// as the code would read it). Anything the code would refuse (a value of another kind, a unit
// off the map where its hex is an argument) is left to the code.
template <class Nested>
bool forwardArgs(Context& c, const ir::Forward& fw, std::span<const Value> args, ForwardedArgs& out,
                 Nested nested) {
  if (fw.args.size() > ForwardedArgs::kMax) return false;
  for (const ir::Forward::Call& call : fw.calls)
    if (call.args.size() > ForwardedArgs::kMax) return false;
  auto unitAt = [&](int32_t param) -> const UnitState* {
    if (param < 0 || static_cast<size_t>(param) >= args.size()) return nullptr;
    const Value& v = args[static_cast<size_t>(param)];
    if (v.tag != Tag::Unit || v.i < 0 || v.i >= static_cast<int64_t>(c.state.units.size()))
      return nullptr;
    return &c.state.units[static_cast<size_t>(v.i)];
  };
  MemoCache* memo = c.interp.memo();
  auto hexOf = [&](int32_t param) -> std::optional<Value> {
    const UnitState* u = unitAt(param);
    if (u == nullptr) return std::nullopt;
    if (memo) memo->readField(args[static_cast<size_t>(param)].i, GameState::kHexSlot);
    if (u->status != UnitStatus::OnMap || u->hex < 0) return std::nullopt;
    return Value::of(Tag::Hex, u->hex);
  };
  if (fw.hexParam >= 0) {
    if (unitAt(fw.unitParam) == nullptr || static_cast<size_t>(fw.hexParam) >= args.size())
      return false;
    const Value& h = args[static_cast<size_t>(fw.hexParam)];
    if (h.tag != Tag::Hex) return false;
    auto own = hexOf(fw.unitParam);
    if (own && own->i == h.i) return false;
  }
  // The arguments of the target or of a nested call (whose answers are in `answers`).
  auto make = [&](const std::vector<ir::Forward::Arg>& from, std::span<const Value> answers,
                  ForwardedArgs& into) {
    for (const ir::Forward::Arg& a : from) {
      if (a.call >= 0) {
        if (static_cast<size_t>(a.call) >= answers.size()) return false;
        into.push(answers[static_cast<size_t>(a.call)]);
      } else if (a.hex) {
        auto h = hexOf(a.param);
        if (!h) return false;
        into.push(*h);
      } else if (a.side) {
        const UnitState* u = unitAt(a.param);
        if (u == nullptr) return false;
        into.push(Value::of(Tag::Side, u->side));
      } else {
        if (a.param < 0 || static_cast<size_t>(a.param) >= args.size()) return false;
        into.push(args[static_cast<size_t>(a.param)]);
      }
    }
    return true;
  };
  ForwardedArgs answers;
  for (const ir::Forward::Call& call : fw.calls) {
    if (answers.span().size() >= ForwardedArgs::kMax) return false;
    ForwardedArgs callArgs;
    if (!make(call.args, {}, callArgs)) return false;
    answers.push(nested(call.target, callArgs.span(), call.ofUnit));
  }
  return make(fw.args, answers.span(), out);
}

// A hook call of a search (see recordedCall). A hook that forwards (ir/forwarding.h) is
// answered by its target, called through the memo as the hook's code would call it, and that is
// the call recorded: the hook's own code is not run (it would only have made that call), but it
// counts as run for rule coverage. A nested call whose answer is an argument of the target is
// recorded too; once a search when its arguments are the moving unit's side or hex (within one
// search it has one answer).
Value stepCall(Context& c, MemoCache::Recording* rec, const MemoCache::Answers* known, int32_t fn,
               std::span<const Value> args) {
  ForwardedArgs forwarded;
  bool remembered = false;
  // `ofUnit`: its arguments are the moving unit's side or hex, the same at every step.
  auto nested = [&](int32_t target, std::span<const Value> a, bool ofUnit) -> Value {
    if (!rec || !ofUnit) return recordedCall(c, rec, known, target, a, true);
    if (const Value* v = rec->findShared(target, a)) return *v;
    const size_t before = rec->calls.size();
    Value v = recordedCall(c, rec, known, target, a, true);
    if (rec->calls.size() == before + 1) rec->shared.push_back(static_cast<uint32_t>(before));
    return v;
  };
  if (const ir::Function& h = c.program.functions[static_cast<size_t>(fn)];
      h.forward && static_cast<int32_t>(args.size()) == h.arity &&
      forwardArgs(c, *h.forward, args, forwarded, nested)) {
    cover(fn);
    fn = h.forward->target;
    args = forwarded.span();
    remembered = true;
  }
  return recordedCall(c, rec, known, fn, args, remembered);
}

// A hook as one movement search calls it, step after step: stepCall, with a way round it for
// the calls that make up most of a search (a forwarded call of a search being kept, answered
// from the memo). What the forward needs of the moving unit (its side, its hex) and the answers
// of its nested calls are the same for every call of one search, so they are worked out at the
// first call that forwards, logged and recorded as stepCall would log and record them then; each
// call after that checks the hex its forward depends on, makes the target's arguments and looks
// the target up (MemoCache::findRecorded). Anything else goes to stepCall.
class HookCaller {
 public:
  HookCaller(Context& c, int32_t fn, MemoCache::Recording* rec, const MemoCache::Answers* known)
      : c_(c), fn_(fn), rec_(rec), known_(known) {}
  HookCaller(const HookCaller&) = delete;
  HookCaller& operator=(const HookCaller&) = delete;
  int32_t fn() const { return fn_; }
  Value operator()(std::span<const Value> args) {
    if (const Value* v = fromMemo(args)) return *v;
    return stepCall(c_, rec_, known_, fn_, args);
  }
  // The answer of a planned call (see fromMemo) found by its arguments' numbers in the target's
  // dense table (MemoCache::findRecordedAt): the same answer and record as fromMemo's, without
  // making the target's arguments into a key. `dir`: the step's direction, for a target whose
  // argument is a step (a hex next to the one before it, as `side_move_cost(s, from, to)`); -1
  // when the call is not a step's. Null: ask operator() (which plans on the first call).
  const Value* direct(std::span<const Value> args, int dir) {
    if (direct_ == Direct::No || plan_ != Plan::Yes || !answered_) return nullptr;
    // As fromMemo: a call that does not fit the plan, or a target the memo calls directly for
    // now, makes no nested call here.
    const ir::Forward& fw = *forward_;
    if (!planFits(args)) return nullptr;
    MemoCache* memo = c_.interp.memo();
    if (memo->skipping(fw.target)) return nullptr;
    if (direct_ == Direct::Unknown && !makeDirect(args)) {
      direct_ = Direct::No;
      return nullptr;
    }
    direct_ = Direct::Yes;
    constantAnswers(args);
    // The target's arguments, each a side or a hex (checked below, before it is written): values
    // that hold nothing to release, made in place and left without a destructor's call.
    alignas(Value) unsigned char raw[MemoCache::DenseRoute::kMaxArgs * sizeof(Value)];
    Value* t = reinterpret_cast<Value*>(raw);
    size_t at = 0;
    for (size_t k = 0; k < routeArgs_; ++k) {
      const int32_t from = routeFrom_[k];
      const Value& v = from == -1  ? side_
                       : from >= 0 ? args[static_cast<size_t>(from)]
                                   : answers_[static_cast<size_t>(-2 - from)];
      int64_t n = v.i;
      if (routeKinds_[k].step) {
        // The hex next to the argument before, across direction `dir`.
        if (dir < 0 || dir >= hex::kDirectionCount || v.tag != Tag::Hex || t[k - 1].i < 0 ||
            t[k - 1].i >= grid_->size() ||
            grid_->neighbourIndices(static_cast<int32_t>(t[k - 1].i))[static_cast<size_t>(dir)] !=
                v.i)
          return nullptr;
        n = dir;
      } else if (v.tag != routeKinds_[k].tag || v.sub != 0) {
        return nullptr;
      }
      if (n < 0 || n >= route_.size[k]) return nullptr;
      at += static_cast<size_t>(n) * route_.stride[k];
      new (t + k) Value(v);
    }
    const Value* v = memo->findRecordedAt(c_.state, fw.target, route_, at, {t, routeArgs_}, *rec_);
    if (!v) return nullptr;
    memo->counted(fw.target, true);
    cover(fn_);
    if (numbers_ == Numbers::Unknown) planNumbers();
    return v;
  }
  // The answer of a hook that asks whether a hex is in a list (ir::Membership: the hook itself,
  // or the function it forwards to, as Standard's `stops_movement(u, h) = in_enemy_zoc(u.side,
  // h)` and `in_enemy_zoc(s, h) = h in enemy_zoc(s)`), given by its parameters' numbers as
  // directNumbers is: the list is asked for at the first call, through the memo and recorded as
  // the code would ask it (recordedCall), and each hex is looked up in it, so that the search
  // depends on the list alone, not on one answer a hex. -1: not such a call (ask directNumbers).
  int memberNumbers(std::span<const int64_t> params) {
    if (member_ == Member::Unknown) planMember(params);
    if (member_ != Member::Yes) return -1;
    if (params[static_cast<size_t>(memberUnitParam_)] != memberUnit_) return -1;
    const int64_t h = params[static_cast<size_t>(memberElement_)];
    if (h < 0) return -1;
    cover(fn_);
    if (memberVia_ >= 0) cover(memberVia_);
    return inList_->has(h) ? 1 : 0;
  }
  // direct() for a call given by its parameters' numbers (the unit's index, each hex's grid index,
  // in parameter order), as a search has them at hand: the same answer and record, the target's
  // slot found without making the hook's arguments into values and looking at how each is made
  // (planned once direct() has answered a call). Null: ask direct().
  const Value* directNumbers(std::span<const int64_t> params, int dir) {
    if (numbers_ != Numbers::Yes) return nullptr;
    if (unitParam_ >= 0 && params[static_cast<size_t>(unitParam_)] != unit_) return nullptr;
    const int32_t hexParam = forward_->hexParam;
    if (hexParam >= 0 && ownHex_ >= 0 && params[static_cast<size_t>(hexParam)] == ownHex_)
      return nullptr;
    MemoCache* memo = c_.interp.memo();
    if (memo->skipping(forward_->target)) return nullptr;
    alignas(Value) unsigned char raw[MemoCache::DenseRoute::kMaxArgs * sizeof(Value)];
    Value* t = reinterpret_cast<Value*>(raw);
    size_t at = fixedAt_;
    for (size_t k = 0; k < routeArgs_; ++k) {
      const int32_t from = routeFrom_[k];
      if (from < 0) {  // the unit's side or a nested call's answer: the same at every call
        new (t + k) Value(fixed_[k]);
        continue;
      }
      const int64_t n = params[static_cast<size_t>(from)];
      if (routeKinds_[k].step) {
        if (dir < 0 || dir >= hex::kDirectionCount || t[k - 1].i < 0 ||
            t[k - 1].i >= grid_->size() ||
            grid_->neighbourIndices(static_cast<int32_t>(t[k - 1].i))[static_cast<size_t>(dir)] !=
                n)
          return nullptr;
        at += static_cast<size_t>(dir) * route_.stride[k];
      } else {
        if (n < 0 || n >= route_.size[k]) return nullptr;
        at += static_cast<size_t>(n) * route_.stride[k];
      }
      new (t + k) Value(Value::of(routeKinds_[k].tag, n));
    }
    const Value* v =
        memo->findRecordedAt(c_.state, forward_->target, route_, at, {t, routeArgs_}, *rec_);
    if (!v) return nullptr;
    memo->counted(forward_->target, true);
    cover(fn_);
    return v;
  }

 private:
  // Whether a call fits the plan: the unit it was made for, and (where the forward depends on
  // it) a hex other than that unit's own.
  bool planFits(std::span<const Value> args) const {
    if (unitParam_ >= 0) {
      const Value& u = args[static_cast<size_t>(unitParam_)];
      if (u.tag != Tag::Unit || u.i != unit_) return false;
    }
    if (forward_->hexParam >= 0) {
      const Value& h = args[static_cast<size_t>(forward_->hexParam)];
      if (h.tag != Tag::Hex || (ownHex_ >= 0 && h.i == ownHex_)) return false;
    }
    return true;
  }
  // The answer of a forwarded call found in the memo, recorded; null: stepCall makes the call.
  const Value* fromMemo(std::span<const Value> args) {
    if (plan_ == Plan::No) return nullptr;
    if (plan_ == Plan::Unknown && !makePlan(args)) {
      plan_ = Plan::No;
      return nullptr;
    }
    plan_ = Plan::Yes;
    const ir::Forward& fw = *forward_;
    if (!planFits(args)) return nullptr;
    MemoCache* memo = c_.interp.memo();
    if (!answered_) {
      // The nested calls' answers, once stepCall has made and recorded them (the first call
      // that forwards goes there); a constant call's are asked at each call, below.
      for (size_t i = 0; i < fw.calls.size(); ++i) {
        if (!fw.calls[i].ofUnit) continue;
        ForwardedArgs callArgs;
        for (const ir::Forward::Arg& a : fw.calls[i].args)
          callArgs.push(a.hex ? Value::of(Tag::Hex, ownHex_) : side_);
        const Value* v = rec_->findShared(fw.calls[i].target, callArgs.span());
        if (!v) return nullptr;
        answers_[i] = *v;
      }
      answered_ = true;
    }
    // While the memo calls the target directly (MemoCache::worthCaching), so does stepCall.
    if (memo->skipping(fw.target)) return nullptr;
    constantAnswers(args);
    ForwardedArgs t;
    for (const ir::Forward::Arg& a : fw.args) {
      if (a.call >= 0)
        t.push(answers_[static_cast<size_t>(a.call)]);
      else if (a.hex)
        t.push(Value::of(Tag::Hex, ownHex_));
      else if (a.side)
        t.push(side_);
      else
        t.push(args[static_cast<size_t>(a.param)]);
    }
    const Value* v = memo->findRecorded(c_.state, fw.target, t.span(), *rec_);
    if (!v) return nullptr;
    memo->counted(fw.target, true);
    cover(fn_);
    return v;
  }
  // Whether this hook's calls can take the way round, worked out at its first call: a forward
  // whose unit arguments are all one parameter, in a search being kept (not a charge route,
  // which asks a kept search's answers first), its target answered from the memo.
  bool makePlan(std::span<const Value> args);
  // Whether direct() can take a planned call's answer by its numbers, worked out at its first
  // call (`args`): a forward whose target's arguments are the unit's side, the hook's own
  // parameters and the answers of its nested calls of the unit (one answer a search, known once
  // the first forwarded call made them), the target's answers in a dense table of that layout
  // on the search's map (a hex right after a hex perhaps a step of it).
  bool makeDirect(std::span<const Value> args) {
    const ir::Forward& fw = *forward_;
    // The search's hexes are numbered on the program's map, the table's on the game's: one map.
    if (!answered_ || fw.args.size() > MemoCache::DenseRoute::kMaxArgs || !onTheSearchMap())
      return false;
    for (const ir::Forward::Call& call : fw.calls)
      if (!call.ofUnit && !call.constant) return false;
    grid_ = c_.program.grid.get();
    const ir::Function& h = c_.program.functions[static_cast<size_t>(fn_)];
    // The constant calls' answers for these arguments, as direct() makes them at each call.
    constantAnswers(args);
    routeArgs_ = fw.args.size();
    for (size_t k = 0; k < routeArgs_; ++k) {
      const ir::Forward::Arg& a = fw.args[k];
      if (a.hex) return false;
      if (a.call >= 0) {
        if (static_cast<size_t>(a.call) >= answers_.size()) return false;
        routeFrom_[k] = -2 - a.call;
        routeKinds_[k] = {answers_[static_cast<size_t>(a.call)].tag, false};
      } else if (a.side) {
        if (unitParam_ < 0 || a.param != unitParam_) return false;
        routeFrom_[k] = -1;
        routeKinds_[k] = {Tag::Side, false};
      } else {
        if (a.param < 0 || a.param >= h.arity || static_cast<size_t>(a.param) >= args.size())
          return false;
        routeFrom_[k] = a.param;
        routeKinds_[k] = {args[static_cast<size_t>(a.param)].tag, false};
      }
    }
    MemoCache* memo = c_.interp.memo();
    std::span<const MemoCache::DenseKind> kinds{routeKinds_.data(), routeArgs_};
    if (memo->denseRoute(fw.target, grid_, kinds, route_)) return true;
    // A hex parameter right after another may be a step of it (the table says which).
    for (size_t k = 1; k < routeArgs_; ++k) {
      if (routeFrom_[k] < 0 || routeFrom_[k - 1] < 0 || routeKinds_[k].tag != Tag::Hex ||
          routeKinds_[k - 1].tag != Tag::Hex)
        continue;
      routeKinds_[k].step = true;
      if (memo->denseRoute(fw.target, grid_, kinds, route_)) return true;
      routeKinds_[k].step = false;
    }
    return false;
  }
  // Whether memberNumbers answers this hook's calls, and the list it looks in, worked out at its
  // first call (`params`): a membership whose element is a hex parameter of the hook and whose
  // list's arguments are all the side or hex of one unit parameter (one list a search), the list
  // a list of the map's hexes.
  void planMember(std::span<const int64_t> params) {
    member_ = Member::No;
    MemoCache* memo = c_.interp.memo();
    if (!memo || !onTheSearchMap()) return;
    const ir::Function& h = c_.program.functions[static_cast<size_t>(fn_)];
    const ir::Membership* m = nullptr;
    // The hook's parameter for each parameter of the function that asks (itself, or the target
    // of its forward).
    std::vector<ir::Forward::Arg> through;
    if (h.membership) {
      m = &*h.membership;
      for (int32_t k = 0; k < h.arity; ++k)
        through.push_back(ir::Forward::Arg{k, false, false, -1});
    } else if (h.forward && h.forward->calls.empty() && h.forward->hexParam < 0) {
      const ir::Function& t = c_.program.functions[static_cast<size_t>(h.forward->target)];
      if (!t.membership) return;
      m = &*t.membership;
      memberVia_ = h.forward->target;
      through = h.forward->args;
    }
    if (!m || static_cast<size_t>(m->element) >= through.size()) return;
    const ir::Forward::Arg& element = through[static_cast<size_t>(m->element)];
    if (element.side || element.hex || element.call >= 0 || element.param < 0 ||
        static_cast<size_t>(element.param) >= params.size() ||
        static_cast<size_t>(element.param) >= h.paramTypes.size() ||
        h.paramTypes[static_cast<size_t>(element.param)].kind != ir::TypeKind::Hex)
      return;
    // The list's arguments: each the side or hex of one unit parameter of the hook.
    int32_t unitParam = -1;
    ForwardedArgs listArgs;
    for (const ir::Forward::Arg& a : m->list.args) {
      if (a.call >= 0 || a.param < 0 || static_cast<size_t>(a.param) >= through.size()) return;
      // In the hook's terms: what it passes for that parameter, or (the side or hex of a unit
      // parameter) that of the unit it passes there.
      ir::Forward::Arg from = through[static_cast<size_t>(a.param)];
      if (a.side || a.hex) {
        if (from.side || from.hex || from.call >= 0) return;
        from.side = a.side;
        from.hex = a.hex;
      }
      if (!(from.side || from.hex) || from.call >= 0 || from.param < 0 ||
          static_cast<size_t>(from.param) >= params.size() ||
          (unitParam >= 0 && unitParam != from.param))
        return;
      unitParam = from.param;
      const int64_t u = params[static_cast<size_t>(unitParam)];
      if (u < 0 || u >= static_cast<int64_t>(c_.state.units.size())) return;
      const UnitState& us = c_.state.units[static_cast<size_t>(u)];
      if (from.side) {
        listArgs.push(Value::of(Tag::Side, us.side));
      } else {
        memo->readField(u, GameState::kHexSlot);  // as the code reads the unit's hex
        if (us.status != UnitStatus::OnMap || us.hex < 0) return;
        listArgs.push(Value::of(Tag::Hex, us.hex));
      }
    }
    if (unitParam < 0) return;
    {
      Quiet quiet(c_.state);  // as the list is asked for
      if (!c_.interp.memoizable(m->list.target)) return;
    }
    const Value list = recordedCall(c_, rec_, known_, m->list.target, listArgs.span(), true);
    if (list.tag != Tag::List) return;
    inList_ = HexBits::of(list);  // as `h in list` asks: a hex of that index among the elements
    if (!inList_) return;
    memberElement_ = element.param;
    memberUnitParam_ = unitParam;
    memberUnit_ = params[static_cast<size_t>(unitParam)];
    member_ = Member::Yes;
  }
  // Whether the game's map is the program's, on which a search numbers its hexes.
  bool onTheSearchMap() const {
    return c_.program.grid && c_.state.map.grid.get() == c_.program.grid.get();
  }
  // Whether directNumbers may take calls, worked out once direct() has answered one (the way
  // and the nested calls' answers are then known): when no nested call is constant (each of the
  // unit: answered once a search), every argument of the target is the unit's side, a nested
  // call's answer (each checked here once, as direct() checks it at every call) or a parameter of
  // the hook that is a unit or a hex (given by its number).
  void planNumbers() {
    numbers_ = Numbers::No;
    for (const ir::Forward::Call& call : forward_->calls)
      if (!call.ofUnit) return;
    fixedAt_ = 0;
    for (size_t k = 0; k < routeArgs_; ++k) {
      const int32_t from = routeFrom_[k];
      if (from >= 0) {
        const Tag tag = routeKinds_[k].tag;
        if (tag != Tag::Hex && tag != Tag::Unit) return;
        continue;
      }
      const Value& v = from == -1 ? side_ : answers_[static_cast<size_t>(-2 - from)];
      if (routeKinds_[k].step || v.tag != routeKinds_[k].tag || v.sub != 0 || v.i < 0 ||
          v.i >= route_.size[k])
        return;
      fixed_[k] = v;
      fixedAt_ += static_cast<size_t>(v.i) * route_.stride[k];
    }
    numbers_ = Numbers::Yes;
  }
  // Every constant nested call's answer for these arguments, in answers_ (in the calls' order:
  // one new for these arguments is made and recorded then, before the target is looked up).
  void constantAnswers(std::span<const Value> args) {
    for (size_t i = 0; i < forward_->calls.size(); ++i)
      if (!forward_->calls[i].ofUnit) answers_[i] = constantAnswer(i, args);
  }
  // The answer of constant nested call `i` (ir::Forward::Call::constant) for this hook call's
  // arguments. It reads nothing of the game, so one answer serves the whole search: the first
  // time for these arguments it is made and recorded as stepCall makes it, then kept here
  // (recording it again would add nothing a kept search could ever need to ask again).
  Value constantAnswer(size_t i, std::span<const Value> args) {
    const ir::Forward::Call& call = forward_->calls[i];
    ForwardedArgs a;
    for (const ir::Forward::Arg& arg : call.args) a.push(args[static_cast<size_t>(arg.param)]);
    const size_t slot = MemoCache::hash(call.target, a.span()) & (kConstantSlots - 1);
    ConstantAnswer& e = constants_[slot];
    if (e.call != static_cast<int32_t>(i) ||
        !std::equal(e.args.begin(), e.args.end(), a.span().begin(), a.span().end())) {
      Value v = recordedCall(c_, rec_, known_, call.target, a.span(), true);  // may fail
      e.call = static_cast<int32_t>(i);
      e.args.assign(a.span().begin(), a.span().end());
      e.value = std::move(v);
    }
    return e.value;
  }

  Context& c_;
  int32_t fn_;
  MemoCache::Recording* rec_;
  const MemoCache::Answers* known_;
  enum class Plan : uint8_t { Unknown, Yes, No } plan_ = Plan::Unknown;
  const ir::Forward* forward_ = nullptr;
  int32_t unitParam_ = -1;  // the unit parameter the forward reads, if any
  int64_t unit_ = -1;       // and the unit it was planned for
  int32_t ownHex_ = -1;     // that unit's hex (-1: off the map)
  Value side_;
  bool answered_ = false;  // the nested calls' answers are in answers_
  std::vector<Value> answers_;
  // Constant nested calls' answers, by the hash of their arguments (see constantAnswer).
  static constexpr size_t kConstantSlots = 64;
  struct ConstantAnswer {
    int32_t call = -1;
    std::vector<Value> args;
    Value value;
  };
  std::vector<ConstantAnswer> constants_;
  // direct()'s way: per target argument where it comes from (a parameter of the hook; -1: the
  // unit's side; -2 - i: the answer of nested call i, of the unit or constant) and its kind in
  // the target's dense table.
  enum class Direct : uint8_t { Unknown, Yes, No } direct_ = Direct::Unknown;
  const hex::Grid* grid_ = nullptr;
  size_t routeArgs_ = 0;
  std::array<int32_t, MemoCache::DenseRoute::kMaxArgs> routeFrom_{};
  std::array<MemoCache::DenseKind, MemoCache::DenseRoute::kMaxArgs> routeKinds_{};
  MemoCache::DenseRoute route_;
  // directNumbers' way (see planNumbers): the slot's part and the values of the target's
  // arguments that are the same at every call.
  enum class Numbers : uint8_t { Unknown, Yes, No } numbers_ = Numbers::Unknown;
  // memberNumbers' way (see planMember): the list's hexes; the hook's element and
  // unit parameters and the unit; the function the hook forwards to (-1: none).
  enum class Member : uint8_t { Unknown, Yes, No } member_ = Member::Unknown;
  std::optional<HexBits> inList_;
  int32_t memberElement_ = -1, memberUnitParam_ = -1, memberVia_ = -1;
  int64_t memberUnit_ = -1;
  size_t fixedAt_ = 0;
  std::array<Value, MemoCache::DenseRoute::kMaxArgs> fixed_{};
};

bool HookCaller::makePlan(std::span<const Value> args) {
  MemoCache* memo = c_.interp.memo();
  if (!rec_ || known_ || !memo) return false;
  const ir::Function& h = c_.program.functions[static_cast<size_t>(fn_)];
  if (!h.forward || static_cast<int32_t>(args.size()) != h.arity) return false;
  const ir::Forward& fw = *h.forward;
  if (fw.args.size() > ForwardedArgs::kMax) return false;
  {
    Quiet quiet(c_.state);  // as the target is called
    if (!c_.interp.memoizable(fw.target)) return false;
  }
  // One unit parameter for every side and hex argument and for the hex the forward depends on;
  // a nested call's arguments all of them a side or a hex (its answer is then one a search).
  int32_t unitParam = fw.hexParam >= 0 ? fw.unitParam : -1;
  bool readsHex = fw.hexParam >= 0, hexArg = false;
  auto ofUnit = [&](const ir::Forward::Arg& a) {
    if (a.hex) readsHex = hexArg = true;
    if (unitParam >= 0 && unitParam != a.param) return false;
    unitParam = a.param;
    return true;
  };
  for (const ir::Forward::Arg& a : fw.args)
    if (a.call < 0 && (a.side || a.hex) && !ofUnit(a)) return false;
  for (const ir::Forward::Call& call : fw.calls) {
    if (call.args.size() > ForwardedArgs::kMax) return false;
    if (call.ofUnit) {
      for (const ir::Forward::Arg& a : call.args)
        if (!ofUnit(a)) return false;
    } else if (call.constant) {
      for (const ir::Forward::Arg& a : call.args)
        if (a.param < 0 || static_cast<size_t>(a.param) >= args.size()) return false;
    } else {
      return false;
    }
  }
  if (unitParam >= 0) {
    if (static_cast<size_t>(unitParam) >= args.size()) return false;
    const Value& u = args[static_cast<size_t>(unitParam)];
    if (u.tag != Tag::Unit || u.i < 0 || u.i >= static_cast<int64_t>(c_.state.units.size()))
      return false;
    const UnitState& us = c_.state.units[static_cast<size_t>(u.i)];
    unit_ = u.i;
    side_ = Value::of(Tag::Side, us.side);
    ownHex_ = us.status == UnitStatus::OnMap && us.hex >= 0 ? us.hex : -1;
    // What stepCall logs at this first call (the forward's reads of the unit's hex).
    if (readsHex) memo->readField(u.i, GameState::kHexSlot);
    if (hexArg && ownHex_ < 0) return false;
  }
  forward_ = &fw;
  unitParam_ = unitParam;
  answers_.resize(fw.calls.size());
  answered_ = std::none_of(fw.calls.begin(), fw.calls.end(),
                           [](const ir::Forward::Call& call) { return call.ofUnit; });
  if (std::any_of(fw.calls.begin(), fw.calls.end(),
                  [](const ir::Forward::Call& call) { return !call.ofUnit; }))
    constants_.resize(kConstantSlots);
  return true;
}

// A move planned from somewhere else than where the unit stands (Warfare 4.1: a unit's second to
// fourth orders start where the one before leaves it): the start hex, the facing there, the budget.
struct Projected {
  int32_t hex = -1;
  int32_t facing = -1;  // -1: the unit's own facing
  int64_t budget = 0;
};

// A step's weight for the search from move_cost's answer: none or a negative number, impassable.
int stepWeight(Context& c, const Value& v) {
  if (v.isNone()) return hex::kImpassable;
  if (v.tag != Tag::Int) c.fail("move_cost() must give a number or none");
  return v.i < 0 ? hex::kImpassable : static_cast<int>(std::min<int64_t>(v.i, 100000));
}

hex::MoveSpec moveSpec(Context& c, const Value& unit, const char* fn,
                       const Projected* from = nullptr, MemoCache::Recording* rec = nullptr,
                       const MemoCache::Answers* known = nullptr) {
  // The search reads the unit's hex, its facing and perhaps its `ma` (its side, type and status
  // change only with a new epoch); the hooks log their own reads.
  const UnitState& u = unitArg(c, unit, fn, false);
  MemoCache* memo = c.interp.memo();
  if (memo) {
    memo->readField(unit.i, GameState::kHexSlot);
    memo->readField(unit.i, GameState::kFacingSlot);
  }
  if (!from && (u.status != UnitStatus::OnMap || u.hex < 0))
    c.fail(fmt::format("{}(): {} is not on the map", fn, u.id));
  const hex::Grid& g = grid(c, fn);
  hex::MoveSpec spec;
  spec.start = g.hexAt(from ? from->hex : u.hex);
  Value budget =
      from ? Value::integer(from->budget) : hook(c, "movement_allowance", {unit}, Value::none());
  if (budget.isNone()) {
    int32_t nameId = -1;
    auto it = c.program.nameIds.find("ma");
    if (it != c.program.nameIds.end()) nameId = it->second;
    int32_t slot = nameId >= 0 ? c.program.classes[u.cls].find(nameId) : -1;
    if (slot < 0)
      c.fail(fmt::format("{}(): {} has no `ma` field; declare movement_allowance(u)", fn, u.id));
    if (memo)
      memo->readField(unit.i, slot < static_cast<int32_t>(GameState::kHexSlot)
                                  ? static_cast<size_t>(slot)
                                  : GameState::kWholeUnit);
    budget = u.fields[slot];
  }
  if (budget.tag != Tag::Int)
    c.fail(fmt::format("{}(): the movement allowance is not a number", fn));
  spec.budget = static_cast<int>(std::clamp<int64_t>(budget.i, 0, 1000));
  int32_t cost = c.program.findFunction("move_cost");
  int32_t stops = c.program.findFunction("stops_movement");
  int32_t stay = c.program.findFunction("may_not_leave");
  auto caller = [&](int32_t fn) { return std::make_shared<HookCaller>(c, fn, rec, known); };
  spec.stepCost = [unit, cost, &g, &c, call = caller(cost)](const hex::Step& s) -> int {
    if (cost < 0) return 1;
    if (s.fromIndex >= 0 && s.toIndex >= 0) {
      const int64_t numbers[3] = {unit.i, s.fromIndex, s.toIndex};
      if (const Value* known = call->directNumbers(numbers, static_cast<int>(s.direction)))
        return stepWeight(c, *known);
    }
    Value args[3] = {unit, fromValue(g, s), toValue(g, s)};
    const Value* known = call->direct(args, static_cast<int>(s.direction));
    return stepWeight(c, known ? *known : (*call)(args));
  };
  if (stops >= 0) {
    spec.stopsIn = [unit, &g, &c, call = caller(stops)](hex::Hex h) {
      const int32_t at = g.indexOf(h);
      const int64_t numbers[2] = {unit.i, at};
      if (const int in = call->memberNumbers(numbers); in >= 0) {
        // POLEMOS_VERIFY_KEPT: the answer the hook's own call gives, compared.
        if (c.interp.memo()->verifying()) {
          Value args[2] = {unit, Value::of(Tag::Hex, at)};
          if (stepCall(c, nullptr, nullptr, call->fn(), args).truthy() != (in == 1))
            MemoCache::verifyFailed("a hook's answer looked up in its list");
        }
        return in == 1;
      }
      if (const Value* known = call->directNumbers(numbers, -1)) return known->truthy();
      Value args[2] = {unit, Value::of(Tag::Hex, at)};
      if (const Value* known = call->direct(args, -1)) return known->truthy();
      return (*call)(args).truthy();
    };
  }
  // Facing mode (Deluxe 8.4): the state is hex + facing when the ruleset prices rotations.
  int32_t rotate = c.program.findFunction("rotation_cost");
  if (rotate >= 0) {
    int32_t facing = from && from->facing >= 0 ? from->facing : u.facing;
    spec.facing = static_cast<hex::Direction>(facing >= 0 ? facing : 0);
    spec.rotationCost = [unit, &g, &c, call = caller(rotate)](hex::Hex at, hex::Direction from,
                                                              hex::Direction to) -> int {
      Value args[4] = {unit, hexValue(g, at), Value::integer(static_cast<int>(from)),
                       Value::integer(static_cast<int>(to))};
      const Value* known = call->direct(args, -1);
      Value v = known ? *known : (*call)(args);
      if (v.isNone()) return hex::kImpassable;
      if (v.tag != Tag::Int) c.fail("rotation_cost() must give a number or none");
      return v.i < 0 ? hex::kImpassable : static_cast<int>(std::min<int64_t>(v.i, 100000));
    };
    spec.afterMove = hookBool(c, "turns_to_move", {unit}, false) ? hex::FacingAfterMove::TurnToMove
                                                                 : hex::FacingAfterMove::Keep;
    // move_directions(u, facing): the only directions a step is priced in (Deluxe 8.3: the
    // front), asked once per facing; the other steps are refused without asking move_cost.
    if (int32_t dirs = c.program.findFunction("move_directions"); dirs >= 0) {
      spec.stepDirections = [unit, &c, call = caller(dirs)](hex::Direction f) -> uint8_t {
        Value args[2] = {unit, Value::integer(static_cast<int>(f))};
        Value v = (*call)(args);
        if (v.tag != Tag::List) c.fail("move_directions() must give a list of directions");
        uint8_t mask = 0;
        for (const Value& d : v.items()) {
          if (d.tag != Tag::Int || d.i < 0 || d.i >= hex::kDirectionCount)
            c.fail("move_directions() must give directions from 0 to 5");
          mask = static_cast<uint8_t>(mask | 1u << d.i);
        }
        return mask;
      };
    }
    if (cost >= 0 && c.program.functions[cost].arity == 4) {
      // move_cost(u, from, to, facing): the step may depend on the mover's facing (front hex only).
      spec.stepCost = [unit, &g, &c, call = caller(cost)](const hex::Step& s) -> int {
        Value args[4] = {unit, fromValue(g, s), toValue(g, s),
                         Value::integer(s.facing ? static_cast<int>(*s.facing) : 0)};
        const Value* known = call->direct(args, static_cast<int>(s.direction));
        Value v = known ? *known : (*call)(args);
        if (v.isNone()) return hex::kImpassable;
        if (v.tag != Tag::Int) c.fail("move_cost() must give a number or none");
        return v.i < 0 ? hex::kImpassable : static_cast<int>(std::min<int64_t>(v.i, 100000));
      };
    }
  }
  if (stay >= 0) {
    spec.mayNotLeave = [unit, &g, call = caller(stay)](hex::Hex h) {
      Value args[2] = {unit, hexValue(g, h)};
      return (*call)(args).truthy();
    };
  }
  return spec;
}

}  // namespace

Value bDistance(Context& c, Args a) {
  const hex::Grid& g = grid(c, "distance");
  return Value::integer(
      hex::distance(g.hexAt(hexArg(c, a[0], "distance")), g.hexAt(hexArg(c, a[1], "distance"))));
}

Value bDirection(Context& c, Args a) {
  const hex::Grid& g = grid(c, "direction");
  auto d = hex::directionBetween(g.hexAt(hexArg(c, a[0], "direction")),
                                 g.hexAt(hexArg(c, a[1], "direction")));
  return d ? Value::integer(static_cast<int64_t>(*d)) : Value::none();
}

Value bLineOfSight(Context& c, Args a) {
  const hex::Grid& g = grid(c, "line_of_sight");
  hex::Hex from = g.hexAt(hexArg(c, a[0], "line_of_sight"));
  hex::Hex to = g.hexAt(hexArg(c, a[1], "line_of_sight"));
  Value blocker = a.size() > 2 ? a[2] : Value::none();
  int32_t hexHook = c.program.findFunction("los_blocks");
  int32_t sideHook = c.program.findFunction("los_blocks_side");
  // Hooks and lambdas take the hex, or the hex with the firer's and the target's hexes (for rules
  // such as Deluxe 10.4, where a firer on a hill sees over what would block on the flat).
  Value ends[2] = {hexValue(g, from), hexValue(g, to)};
  auto callBlocks = [&](const Value& f, int arity, hex::Hex h) {
    Value args[3] = {hexValue(g, h), ends[0], ends[1]};
    return c.call(f, std::span<const Value>(args, arity == 3 ? 3 : 1)).truthy();
  };
  int blockerArity = blocker.tag == Tag::Func ? c.program.functions.at(blocker.i).arity : 0;
  int hookArity = hexHook >= 0 ? c.program.functions[hexHook].arity : 0;
  hex::HexBlocks hb = [&](hex::Hex h) {
    if (blocker.tag == Tag::Func) return callBlocks(blocker, blockerArity, h);
    if (hexHook >= 0) return callBlocks(Value::of(Tag::Func, hexHook), hookArity, h);
    return false;
  };
  hex::SideBlocks sb;
  if (sideHook >= 0) {
    sb = [&](hex::Hexside s) {
      Value args[2] = {hexValue(g, s.first()), hexValue(g, s.second())};
      if (args[0].i < 0 || args[1].i < 0) return false;
      return c.call(Value::of(Tag::Func, sideHook), args).truthy();
    };
  }
  return Value::boolean(hex::lineOfSight(g, from, to, hb, sb).clear);
}

// A list computed once per unit and version of the game and kept in the memo under a private key
// (no builtin has one); without a memo it lives in `fallback` until the next call.
// A search is also kept across changes of the game while what it read and what its hooks
// answered are unchanged (see MemoCache::kept); with POLEMOS_VERIFY_KEPT set in the environment
// every search taken so is made again and compared, and a difference is an error (a test runs
// games so, and the process stops at the first difference). `compute` gets the recording to pass
// to moveSpec.
// The private keys of the searches memoizedList keeps: a unit's movement search, with facing,
// and from a projected position.
constexpr int32_t kReachKey = -100000, kReachFacingKey = -100001, kReachFromKey = -100002;

template <class Compute>
const Value& memoizedList(Context& c, int32_t privateKey, std::vector<Value> keyArgs,
                          Value& fallback, Compute compute) {
  MemoCache* memo = c.interp.memo();
  if (!memo) {
    fallback = compute(nullptr);
    return fallback;
  }
  MemoCache::Key key{privateKey, std::move(keyArgs)};
  if (const Value* hit = memo->find(c.state, key)) return *hit;
  // A call asked again as the search made it: a forwarded one (stepCall) through the memo.
  auto recall = [&c](int32_t fn, std::span<const Value> args) {
    return quietCall(c, Value::of(Tag::Func, fn), args,
                     c.program.functions[static_cast<size_t>(fn)].forwardTarget);
  };
  if (MemoCache::Kept* k = memo->kept(c.state, key, recall)) {
    Value list = k->value;
    if (memo->verifying()) {
      size_t at = memo->beginLog();
      Value fresh = compute(nullptr);
      memo->endLog(at, false);
      if (!(fresh == list)) MemoCache::verifyFailed("a movement search");
    }
    // The answer names what the search read; the look-up adds it to an outer log.
    std::vector<int32_t> reads = memo->readsAsOne(*k);
    memo->store(c.state, key, std::move(list), &reads);
    return *memo->find(c.state, key);
  }
  MemoCache::LogScope log(*memo);
  MemoCache::Recording rec = memo->spareRecording();
  Value list = compute(&rec);
  std::vector<int32_t> base = log.close(false);
  std::vector<int32_t> reads =
      memo->readsAsOne(memo->keep(c.state, key, list, std::move(base), std::move(rec)));
  memo->store(c.state, key, std::move(list), &reads);
  return *memo->find(c.state, key);
}

// A movement search as packed numbers (Tag::Packed): the hexes it reached and a row of numbers
// for each, cells [width, n, hex_1 .. hex_n (grid indices, ascending), row_1 .. row_n]. Without
// facing a row is the hex's cost and the hex before it on its chosen path (width 2; the start is
// not a row), so that path(u, h) is read from the same search; with facing, the cost of ending
// in the hex in each of the six facings, -1 where that facing is not reached (width 6; the start
// is a row: turning in place has its price). A search reaches some forty hexes of a map of
// 1,485: it is written, read and freed in a few hundred bytes, not a list of two values a hex.
class SearchRows {
 public:
  static constexpr int32_t kPlainWidth = 2, kFacingWidth = 6;
  explicit SearchRows(const Value& search) : c_(search.cells()) {}
  size_t size() const { return c_.size() < 2 ? 0 : static_cast<size_t>(c_[1]); }
  int32_t hexAt(size_t r) const { return c_[2 + r]; }
  const int32_t* rowAt(size_t r) const {
    return c_.data() + 2 + size() + r * static_cast<size_t>(c_[0]);
  }
  // The row of grid index h, or null when the search did not reach it.
  const int32_t* row(int64_t h) const {
    const auto first = c_.begin() + (c_.size() < 2 ? 0 : 2), last = first + size();
    const auto it = std::lower_bound(first, last, h);
    return it == last || *it != h ? nullptr : rowAt(static_cast<size_t>(it - first));
  }
  // The cost of reaching grid index h (without facing; with facing, of ending there facing f), or
  // -1.
  int64_t cost(int64_t h, size_t f = 0) const {
    const int32_t* r = row(h);
    return r ? r[f] : -1;
  }

  // The packed numbers of `hexes` (ascending), with `fill(h, row)` writing each hex's row.
  template <class Fill>
  static Value pack(int32_t width, const std::vector<int32_t>& hexes, Fill fill) {
    std::vector<int32_t> cells;
    cells.reserve(2 + hexes.size() * (1 + static_cast<size_t>(width)));
    cells.push_back(width);
    cells.push_back(static_cast<int32_t>(hexes.size()));
    cells.insert(cells.end(), hexes.begin(), hexes.end());
    cells.resize(cells.size() + hexes.size() * static_cast<size_t>(width), -1);
    int32_t* rows = cells.data() + 2 + hexes.size();
    for (size_t r = 0; r < hexes.size(); ++r) fill(hexes[r], rows + r * static_cast<size_t>(width));
    return Value::packed(std::move(cells));
  }

 private:
  const std::vector<int32_t>& c_;
};

// A search without facing rows (SearchRows): the hexes reached but the start, each with its cost
// and, without facing, the hex before it on its chosen path (-1 with facing: path_from then
// searches again).
Value searchList(const hex::Grid& g, const hex::MoveSpec& spec) {
  hex::Reach r = hex::reachable(g, spec);
  std::vector<int32_t> hexes = r.reachedIndices();
  const int32_t start = g.indexOf(spec.start);
  hexes.erase(std::remove(hexes.begin(), hexes.end(), start), hexes.end());
  return SearchRows::pack(SearchRows::kPlainWidth, hexes, [&](int32_t h, int32_t* row) {
    row[0] = r.costAt(h);
    if (!spec.facing) row[1] = r.previousIndex(h);
  });
}

// The hexes reached, in grid order, from a search (SearchRows), but `skip` (-1: none).
Value reachedHexes(const Value& search, int64_t skip = -1) {
  const SearchRows rows(search);
  ValueList out;
  out.reserve(rows.size());
  for (size_t r = 0; r < rows.size(); ++r)
    if (rows.hexAt(r) != skip) out.push_back(Value::of(Tag::Hex, rows.hexAt(r)));
  return Value::makeList(std::move(out));
}

// The chosen path from `start` to `to` (its hexes, the start first; empty if not reached), from a
// search made without facing: the same as hex::cheapestPath on the same search.
Value pathOf(const hex::Grid& g, const Value& search, int32_t start, int32_t to) {
  const SearchRows rows(search);
  ValueList out;
  if (to != start && !rows.row(to)) return Value::makeList({});
  for (int64_t h = to; h >= 0;) {
    out.push_back(hexValue(g, g.hexAt(static_cast<int32_t>(h))));
    if (h == start) break;
    const int32_t* row = rows.row(h);
    h = row ? row[1] : -1;
  }
  std::reverse(out.begin(), out.end());
  return Value::makeList(std::move(out));
}

// Whether the ruleset's searches track facing (a search list then has no path half).
bool facingSearch(Context& c) {
  return c.program.findFunction("rotation_cost") >= 0;
}

// The cost of reaching every hex of the map for one unit and its paths (searchList), made by one
// search and kept: `reachable(u)`, every `path_cost(u, h)` and `path(u, h)` of a turn read it.
const Value& reachSearch(Context& c, const Value& unit, const char* fn) {
  static thread_local Value fallback;
  return memoizedList(c, kReachKey, {unit}, fallback, [&](MemoCache::Recording* rec) {
    const hex::Grid& g = grid(c, fn);
    return searchList(g, moveSpec(c, unit, fn, nullptr, rec));
  });
}

// The hexes a search list reached (what `make` works out of it), kept with the kept search that
// made the list (asked for at every decision, the same while the search holds). `key`: the
// search's key in the memo.
enum DerivedKind : size_t { kReachedHexes = 0, kReachedFacingHexes = 1 };
template <class Make>
Value derivedOf(Context& c, const MemoCache::Key& key, const Value& search, DerivedKind kind,
                Make make) {
  MemoCache* memo = c.interp.memo();
  return memo ? memo->derived(c.state, key, search, kind, make) : make();
}

const Value& reachFacingSearch(Context& c, const Value& unit, const char* fn);

// With facing (Deluxe 8.4), one search of (hex, facing) states answers reachable(u) and
// path_cost(u, h) as well: a hex is reached when one of its facings is, at the least cost of its
// facings (hex::Reach::cost(h) is that minimum). It is the search path_cost(u, h, facing) keeps,
// so a unit is searched once, not once for its hexes and again for its facings.
Value bReachable(Context& c, Args a) {
  if (!facingSearch(c)) {
    const Value& search = reachSearch(c, a[0], "reachable");
    return derivedOf(c, MemoCache::Key{kReachKey, {a[0]}}, search, kReachedHexes,
                     [&] { return reachedHexes(search); });
  }
  const Value& search = reachFacingSearch(c, a[0], "reachable");
  // The unit's own hex is left out: the search list of facings includes it (turning in place),
  // and the unit stands there for as long as the list holds (its hex is read by the search).
  const int64_t start = unitArg(c, a[0], "reachable").hex;
  return derivedOf(c, MemoCache::Key{kReachFacingKey, {a[0]}}, search, kReachedFacingHexes,
                   [&] { return reachedHexes(search, start); });
}

// The cost of ending a move in every (hex, facing) reached, for rulesets with facing
// (rotation_cost declared): rows of six (SearchRows), -1 where that state cannot be reached. The
// unit's own hex is included, so turning in place has its price. Kept in the memo like
// reachSearch.
const Value& reachFacingSearch(Context& c, const Value& unit, const char* fn) {
  static thread_local Value fallback;
  return memoizedList(c, kReachFacingKey, {unit}, fallback, [&](MemoCache::Recording* rec) {
    const hex::Grid& g = grid(c, fn);
    hex::MoveSpec spec = moveSpec(c, unit, fn, nullptr, rec);
    if (!spec.facing)
      c.fail(fmt::format("{}(u, h, facing) needs movement with facing: declare rotation_cost", fn));
    hex::Reach r = hex::reachable(g, spec);
    return SearchRows::pack(SearchRows::kFacingWidth, r.reachedIndices(),
                            [&](int32_t h, int32_t* row) {
                              for (int f = 0; f < 6; ++f)
                                row[f] = r.costAt(h, static_cast<hex::Direction>(f));
                            });
  });
}

Value bPathCost(Context& c, Args a) {
  int32_t to = hexArg(c, a[1], "path_cost");
  const UnitState& u = unitArg(c, a[0], "path_cost");
  if (a.size() == 3) {
    // path_cost(u, h, facing): the cheapest move that ends in h facing that way (Deluxe 8.4).
    if (a[2].tag != Tag::Int) c.fail("path_cost(u, h, facing): the facing must be a number 0..5");
    int64_t f = ((a[2].i % 6) + 6) % 6;
    const int64_t cost =
        SearchRows(reachFacingSearch(c, a[0], "path_cost")).cost(to, static_cast<size_t>(f));
    return cost >= 0 ? Value::integer(cost) : Value::none();
  }
  if (u.status == UnitStatus::OnMap && u.hex == to) return Value::integer(0);
  if (facingSearch(c)) {
    const int32_t* row = SearchRows(reachFacingSearch(c, a[0], "path_cost")).row(to);
    int64_t best = -1;
    for (size_t f = 0; row && f < 6; ++f)
      if (row[f] >= 0 && (best < 0 || row[f] < best)) best = row[f];
    return best >= 0 ? Value::integer(best) : Value::none();
  }
  const int64_t cost = SearchRows(reachSearch(c, a[0], "path_cost")).cost(to);
  return cost >= 0 ? Value::integer(cost) : Value::none();
}

// The answers of the hook calls of the unit's movement search, when it is in the memo for this
// version (it is: the options of a move were listed from it), for a search of the same unit that
// leaves steps out (path(u, h, step_ok)) and asks many of the same calls. Not inside a logged
// computation (a kept search's, whose reads would have to name those calls' reads too), and
// nothing is searched for it: without the unit's search at hand every call is made. The kept
// search outlives the search that uses its answers: no state change happens inside a pure call,
// so the version, and with it every kept search, stays as it is.
std::optional<MemoCache::Answers> movementAnswers(Context& c, const Value& unit) {
  MemoCache* memo = c.interp.memo();
  if (!memo || memo->logging()) return std::nullopt;
  MemoCache::Key key{facingSearch(c) ? kReachFacingKey : kReachKey, {unit}};
  const Value* list = memo->find(c.state, key);
  if (!list) return std::nullopt;
  const MemoCache::Kept* k = memo->keptOf(c.state, key, *list);
  if (!k) return std::nullopt;
  return MemoCache::Answers(*memo, *k);
}

Value bPath(Context& c, Args a) {
  const hex::Grid& g = grid(c, "path");
  if (a.size() == 2 && !facingSearch(c)) {
    // The unit's kept search has the path (hex::cheapestPath gives the same one).
    const Value& search = reachSearch(c, a[0], "path");
    const UnitState& u = unitArg(c, a[0], "path");
    return pathOf(g, search, u.hex, hexArg(c, a[1], "path"));
  }
  if (a.size() == 3 && a[2].tag != Tag::Func)
    c.fail("path(u, h, step_ok): step_ok must be a function of two hexes");
  // path(u, h, step_ok): only steps for which step_ok(from, to) holds, on top of the movement
  // hooks (Standard 14.2: a way to the charge hex that crosses no stream or ridge). A plain
  // function (Standard's charge_step_ok, of the map alone) is answered from the memo: every
  // charge route of the game asks about the same few hundred hexsides.
  const Value ok = a.size() == 3 ? a[2] : Value::none();
  const bool remembered = !c.state.tracing;
  auto allowed = [&c, ok, remembered](const Value& from, const Value& to) {
    Value args[2] = {from, to};
    return quietCall(c, ok, args, remembered).truthy();
  };
  if (a.size() == 3 && !facingSearch(c)) {
    // The unit's cheapest path (its kept search's), when every step of it passes step_ok, is the
    // path the search restricted to such steps finds: those steps are a subset of the same map
    // with the same costs, so nothing cheaper appears, and every hex of that path keeps its cost
    // and its parent, each hex's parent being the first of its equally cheap ways by the order
    // the search breaks ties in, among fewer ways. A hex the unit cannot reach at all it cannot
    // reach by fewer steps either. Only when a step fails is the restricted search made.
    const Value& search = reachSearch(c, a[0], "path");
    const UnitState& u = unitArg(c, a[0], "path");
    Value p = pathOf(g, search, u.hex, hexArg(c, a[1], "path"));
    const ValueList& hexes = p.items();
    bool passes = true;
    for (size_t i = 1; passes && i < hexes.size(); ++i) passes = allowed(hexes[i - 1], hexes[i]);
    if (passes) return p;
  }
  const std::optional<MemoCache::Answers> known =
      a.size() == 3 ? movementAnswers(c, a[0]) : std::nullopt;
  hex::MoveSpec spec = moveSpec(c, a[0], "path", nullptr, nullptr, known ? &*known : nullptr);
  if (a.size() == 3) {
    hex::StepCostFn inner = spec.stepCost;
    spec.stepCost = [allowed, inner, &g](const hex::Step& s) -> int {
      if (!allowed(fromValue(g, s), toValue(g, s))) return hex::kImpassable;
      return inner(s);
    };
  }
  auto p = hex::cheapestPath(g, spec, g.hexAt(hexArg(c, a[1], "path")));
  ValueList out;
  if (p)
    for (hex::Hex h : p->hexes()) out.push_back(hexValue(g, h));
  return Value::makeList(std::move(out));
}

// reachable_from(u, start, facing, budget) and the like: the same search from a projected position.
// The arguments are checked here; a facing of none (or in a ruleset without facing) is the
// unit's own.
Projected projectedArg(Context& c, Args a, size_t at, const char* fn) {
  Projected p;
  p.hex = hexArg(c, a[at], fn);
  if (a[at + 1].tag == Tag::Int)
    p.facing = static_cast<int32_t>(((a[at + 1].i % 6) + 6) % 6);
  else if (!a[at + 1].isNone())
    c.fail(fmt::format("{}(): the facing must be a number 0..5 or none", fn));
  const Value& b = a[at + 2];
  if (b.tag != Tag::Int) c.fail(fmt::format("{}(): the budget must be a number", fn));
  p.budget = std::clamp<int64_t>(b.i, 0, 1000);
  return p;
}

std::vector<Value> reachFromArgs(const Value& unit, const Projected& p) {
  return {unit, Value::of(Tag::Hex, p.hex), Value::integer(p.facing), Value::integer(p.budget)};
}

const Value& reachSearchFrom(Context& c, const Value& unit, const Projected& p, const char* fn) {
  static thread_local Value fallback;
  return memoizedList(c, kReachFromKey, reachFromArgs(unit, p), fallback,
                      [&](MemoCache::Recording* rec) {
                        return searchList(grid(c, fn), moveSpec(c, unit, fn, &p, rec));
                      });
}

Value bReachableFrom(Context& c, Args a) {
  Projected p = projectedArg(c, a, 1, "reachable_from");
  const Value& search = reachSearchFrom(c, a[0], p, "reachable_from");
  return derivedOf(c, MemoCache::Key{kReachFromKey, reachFromArgs(a[0], p)}, search, kReachedHexes,
                   [&] { return reachedHexes(search); });
}

Value bPathCostFrom(Context& c, Args a) {
  Projected p = projectedArg(c, a, 1, "path_cost_from");
  int32_t to = hexArg(c, a[4], "path_cost_from");
  if (to == p.hex) return Value::integer(0);
  const int64_t cost = SearchRows(reachSearchFrom(c, a[0], p, "path_cost_from")).cost(to);
  return cost >= 0 ? Value::integer(cost) : Value::none();
}

Value bPathFrom(Context& c, Args a) {
  Projected p = projectedArg(c, a, 1, "path_from");
  const hex::Grid& g = grid(c, "path_from");
  if (!facingSearch(c))
    return pathOf(g, reachSearchFrom(c, a[0], p, "path_from"), p.hex, hexArg(c, a[4], "path_from"));
  hex::MoveSpec spec = moveSpec(c, a[0], "path_from", &p);
  auto path = hex::cheapestPath(g, spec, g.hexAt(hexArg(c, a[4], "path_from")));
  ValueList out;
  if (path)
    for (hex::Hex h : path->hexes()) out.push_back(hexValue(g, h));
  return Value::makeList(std::move(out));
}

Value bZoc(Context& c, Args a) {
  const hex::Grid& g = grid(c, "zoc");
  // What the zone reads of the unit is where it is (on the map or not) and its facing; the hooks
  // log what they read of it themselves (a unit disrupted or spent keeps its zone and the answers
  // made of it).
  const UnitState& u = unitArg(c, a[0], "zoc", false);
  if (MemoCache* memo = c.interp.memo()) {
    memo->readField(a[0].i, GameState::kHexSlot);
    memo->readField(a[0].i, GameState::kFacingSlot);
  }
  if (u.status != UnitStatus::OnMap || !hookBool(c, "exerts_zoc", {a[0]}, true))
    return Value::makeList({});
  bool front = hookBool(c, "zoc_front_only", {a[0]}, false);
  hex::Direction facing = static_cast<hex::Direction>(u.facing >= 0 ? u.facing : 0);
  int32_t into = c.program.findFunction("zoc_into");
  Value unit = a[0];
  hex::ZocFilter filter;
  if (into >= 0) {
    filter = [&](hex::Hex from, hex::Hex to, hex::Direction) {
      Value args[3] = {unit, hexValue(g, from), hexValue(g, to)};
      return c.call(Value::of(Tag::Func, into), args).truthy();
    };
  }
  auto hexes = hex::zoneOfControl(g, g.hexAt(u.hex), facing,
                                  front ? hex::kFrontThreeMask : hex::kAllSixMask, filter);
  ValueList out;
  for (hex::Hex h : hexes) out.push_back(hexValue(g, h));
  return Value::makeList(std::move(out));
}

// The sector scheme the ruleset chose (hook facing_sectors).
const hex::SectorScheme& sectorScheme(Context& c) {
  Value n = hook(c, "facing_sectors", {}, Value::integer(4));
  return n.tag == Tag::Int && n.i == 3 ? hex::kThreeSectorScheme : hex::kFourSectorScheme;
}

// sector_toward(u, dir): the sector of u's hexside in direction dir (0..5). Needs no other hex, so
// it also places an attacker imagined beyond the map edge (Deluxe 8.7.3).
Value bSectorToward(Context& c, Args a) {
  const UnitState& u = unitArg(c, a[0], "sector_toward");
  if (u.facing < 0) c.fail(fmt::format("sector_toward(): {} has no facing", u.id));
  if (a[1].tag != Tag::Int || a[1].i < 0 || a[1].i >= hex::kDirectionCount)
    c.fail("sector_toward() needs a direction 0..5 (N, NE, SE, S, SW, NW)");
  hex::Sector s = hex::sectorOf(sectorScheme(c), static_cast<hex::Direction>(u.facing),
                                static_cast<hex::Direction>(a[1].i));
  return Value::string(std::string(hex::sectorName(s)));
}

Value bSector(Context& c, Args a) {
  const hex::Grid& g = grid(c, "sector");
  const UnitState& d = unitArg(c, a[0], "sector");
  const UnitState& at = unitArg(c, a[1], "sector");
  if (d.hex < 0 || at.hex < 0) c.fail("sector(): both units must be on the map");
  if (d.facing < 0) c.fail(fmt::format("sector(): {} has no facing", d.id));
  const hex::SectorScheme& scheme = sectorScheme(c);
  try {
    hex::Sector s = hex::arcSector(g, g.hexAt(d.hex), static_cast<hex::Direction>(d.facing),
                                   g.hexAt(at.hex), scheme, hex::BoundaryRule::TowardRear);
    std::string name(hex::sectorName(s));
    return Value::string(name);
  } catch (const std::exception& e) {
    c.fail(e.what());
  }
}

}  // namespace polemos::eval
