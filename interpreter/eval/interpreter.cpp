// The evaluator's loop: running a function's code on the machine (frames and value stack) until it
// returns, stops for a roll or a choice, or fails; pure calls (memoized when they may be), trigger
// frames, and the trace it writes. Value operations are in operations.cpp, the memo in memo.cpp.
#include "eval/interpreter.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "eval/builtins.h"
#include "eval/coverage.h"
#include "limits/limits.h"

namespace polemos::eval {

using namespace polemos::ir;

// A user function is memoized when it is a plain pure function whose code writes no trace (notes,
// modifier applications and table look-ups are events a player reads, so those run every time),
// and, while the game is traced, when nothing it calls writes any either (attack_total, say,
// whose modifiers a player reads every time it is computed for an attack).
bool Interpreter::memoizable(int32_t fn) const {
  const Function& f = program_.functions[fn];
  // While rule coverage is recorded, nothing is answered from the memo: an answer taken from it
  // would hide the functions (and the rules they cite) that computing it again would enter.
  if (g_coverage) return false;
  return f.kind == FuncKind::Function && !f.writesTrace && !(state_.tracing && f.tracesDeep);
}

// -----------------------------------------------------------------------------------------------
// Context
// -----------------------------------------------------------------------------------------------

Value Context::call(const Value& func, std::span<const Value> args) {
  if (func.tag != Tag::Func) fail(fmt::format("expected a function, found {}", tagName(func.tag)));
  return interp.callPure(static_cast<int32_t>(func.i), args, func.listPtr());
}

void Context::emit(int32_t event, ValueList args) {
  interp.queueEvent(event, std::move(args));
}

void Context::trace(const std::vector<std::string>& citations, TraceKind kind, std::string subject,
                    std::string inputs, std::string output) {
  interp.trace(citations, kind, std::move(subject), std::move(inputs), std::move(output));
}

void Context::charge(int64_t n) {
  interp.charge(n);
}

bool Context::pure() const {
  return interp.inPure();
}

const std::vector<std::string>& Interpreter::runningCitations() const {
  static const std::vector<std::string> kNone;
  if (machine_.frames.empty()) return kNone;
  return program_.functions.at(machine_.frames.back().fn).citations;
}

void Interpreter::trace(const std::vector<std::string>& citations, TraceKind kind,
                        std::string subject, std::string inputs, std::string output,
                        uint8_t flags) {
  if (!state_.tracing) return;
  // The same modifier applied to the same value with the same result, computed again in one
  // stretch of a computation (a melee asks for the attacker's multiplier for each of its terms),
  // is said once. The stretch ends at anything that starts a new computation: an action, choice,
  // phase, step, pause, trigger, roll or change of state. So a rule applied again after the game
  // moved on (the next quarter turn's volley) is said again, every time.
  if (kind == TraceKind::Modifier) {
    for (auto it = state_.trace.rbegin(); it != state_.trace.rend(); ++it) {
      if (it->kind != TraceKind::Modifier && it->kind != TraceKind::Table &&
          it->kind != TraceKind::Note)
        break;
      if (it->kind == TraceKind::Modifier && it->subject == subject && it->inputs == inputs &&
          it->output == output)
        return;
    }
  }
  ++state_.traceSeq;
  TraceEvent e;
  e.seq = state_.traceSeq;
  for (const auto& c : citations)
    if (auto parsed = cite::Citation::parse(c)) e.citations.push_back(*parsed);
  e.kind = kind;
  e.subject = std::move(subject);
  e.inputs = std::move(inputs);
  e.output = std::move(output);
  e.depth = static_cast<uint32_t>(machine_.frames.size());
  e.flags = flags;
  StepBudget& b = command();
  ++b.traceEvents;
  b.traceBytes += static_cast<int64_t>(e.subject.size() + e.inputs.size() + e.output.size());
  state_.trace.push_back(std::move(e), limits::kMaxTraceEvents);
  if (executing_ > 0) checkTraceLimit();
}

void Interpreter::checkTraceLimit() {
  const StepBudget& b = command();
  if (b.traceEvents > limits::kMaxTraceEventsPerCommand)
    throw RuntimeError(fmt::format(
        "the rules wrote more than {} trace events in one command; they are probably looping",
        limits::kMaxTraceEventsPerCommand));
  if (b.traceBytes > limits::kMaxTraceBytesPerCommand)
    throw RuntimeError(fmt::format(
        "the rules wrote more than {} MiB of trace in one command; they are probably looping",
        limits::kMaxTraceBytesPerCommand >> 20));
}

// -----------------------------------------------------------------------------------------------
// Execution
// -----------------------------------------------------------------------------------------------

void Interpreter::pushTriggers(Machine& m) {
  // Events fire their triggers in declaration order: push frames in reverse.
  auto events = std::move(pending_);
  pending_.clear();
  for (auto ev = events.rbegin(); ev != events.rend(); ++ev) {
    const EventInfo& info = program_.events.at(ev->first);
    for (size_t t = info.triggers.size(); t-- > 0;) {
      int32_t gate = info.triggerGates[t];
      if (gate >= 0 && !callPure(gate, ev->second).truthy()) continue;
      if (m.frames.size() >= kMaxFrames) throw RuntimeError("triggers nested too deeply");
      const Function& f = program_.functions[info.triggers[t]];
      Frame fr;
      fr.fn = info.triggers[t];
      fr.pc = 0;
      fr.base = static_cast<int32_t>(m.stack.size());
      fr.discard = true;
      for (const Value& a : ev->second) m.stack.push_back(a);
      m.stack.resize(fr.base + std::max(f.locals, f.arity));
      m.frames.push_back(fr);
      cover(fr.fn);
      if (state_.tracing) {
        std::string args;
        for (const Value& a : ev->second)
          args += (args.empty() ? "" : ", ") + display(program_, state_, a);
        trace(f.citations, TraceKind::Trigger, f.name, info.name + "(" + args + ")", "");
      }
    }
  }
}

Value Interpreter::callPure(int32_t fn, std::span<const Value> args, const ValueList* captures) {
  if (pureDepth_ >= limits::kMaxPureDepth)
    throw RuntimeError(
        fmt::format("functions nested too deeply (more than {} calls)", limits::kMaxPureDepth));
  const Function& f = program_.functions.at(fn);
  size_t ncap = captures ? captures->size() : 0;
  if (static_cast<int32_t>(args.size()) != f.arity)
    throw RuntimeError(
        fmt::format("{} takes {} argument(s), given {}", f.name, f.arity, args.size()));
  Machine& m = pureMachine();
  for (const Value& a : args) m.stack.push_back(a);
  if (captures)
    for (const Value& c : *captures) m.stack.push_back(c);
  m.stack.resize(std::max<size_t>(f.locals, args.size() + ncap));
  m.frames.push_back(Frame{fn, 0, 0, false});
  cover(fn);
  ++pureDepth_;
  struct Guard {
    int& d;
    ~Guard() { --d; }
  } guard{pureDepth_};
  Stop s = execute(m, true, 0);
  if (s.kind == Stop::Failed) {
    RuntimeError e(s.message);
    throw e;
  }
  // An error in the call is the caller's error too (a lambda dividing by zero, a hook, a call
  // nested past the limit): it is never taken for a value.
  if (s.kind == Stop::Error) {
    RuntimeError e(s.message);
    e.at = s.range;
    throw e;
  }
  if (m.stack.empty()) return Value::none();
  return std::move(m.stack.back());
}

Value Interpreter::callRemembered(int32_t fn, std::span<const Value> args) {
  if (!memo_ || !memoizable(fn) || !memo_->worthCaching(fn)) return callPure(fn, args);
  const Value* hit = memo_->find(state_, fn, args);
  memo_->counted(fn, hit != nullptr);
  if (hit) return *hit;
  return makeRemembered(fn, args);
}

Value Interpreter::makeRemembered(int32_t fn, std::span<const Value> args) {
  MemoCache::LogScope log(*memo_);
  Value v = callPure(fn, args);
  memo_->store(state_, fn, args, v, &log.closeReused());
  return v;
}

Value Interpreter::callRecorded(int32_t fn, std::span<const Value> args,
                                MemoCache::Recording& rec) {
  if (!memoizable(fn) || !memo_->worthCaching(fn)) {
    size_t at = memo_->beginLog();
    Value v = callPure(fn, args);  // on an error the search's own log closes this one
    memo_->record(rec, at, fn, args, v);
    return v;
  }
  if (const Value* hit = memo_->findRecorded(state_, fn, args, rec)) {
    memo_->counted(fn, true);
    return *hit;
  }
  memo_->counted(fn, false);
  size_t at = memo_->beginLog();
  Value v = makeRemembered(fn, args);
  memo_->record(rec, at, fn, args, v);
  return v;
}

std::optional<Value> Interpreter::fieldRead(int32_t fn, const Value& arg) {
  const Function& f = program_.functions[static_cast<size_t>(fn)];
  if (!f.fieldRead || executing_ == 0 || pureDepth_ >= limits::kMaxPureDepth ||
      budget_ < f.fieldRead->steps)
    return std::nullopt;
  ++pureDepth_;  // as the call's frame would count (a derived field is a call inside it)
  struct Guard {
    int& d;
    ~Guard() { --d; }
  } guard{pureDepth_};
  Value v;
  try {
    v = member(arg, f.fieldRead->nameId);
  } catch (const RuntimeError&) {
    return std::nullopt;
  }
  if (f.fieldRead->negated) {
    if (v.tag != Tag::Bool) return std::nullopt;
    v = Value::boolean(!v.i);
  }
  budget_ -= f.fieldRead->steps;
  cover(fn);
  return v;
}

std::optional<Value> Interpreter::lambdaForward(int32_t fn, const Value& arg) {
  const Function& f = program_.functions[static_cast<size_t>(fn)];
  if (!f.lambdaForward || executing_ == 0 || pureDepth_ >= limits::kMaxPureDepth ||
      budget_ < f.lambdaForward->steps)
    return std::nullopt;
  const ir::Forward& fw = *f.lambdaForward;
  constexpr size_t kMaxArgs = 8;
  if (fw.args.size() > kMaxArgs) return std::nullopt;
  // The target's arguments as the lambda's code makes them: the parameter, or its side or hex
  // read as Interpreter::member reads them (the hex logged, none off the map).
  Value args[kMaxArgs];
  for (size_t i = 0; i < fw.args.size(); ++i) {
    const ir::Forward::Arg& a = fw.args[i];
    if (!a.side && !a.hex) {
      args[i] = arg;
      continue;
    }
    if (arg.tag != Tag::Unit || arg.i < 0 || arg.i >= static_cast<int64_t>(state_.units.size()))
      return std::nullopt;
    const UnitState& u = state_.units[static_cast<size_t>(arg.i)];
    if (a.side) {
      args[i] = Value::of(Tag::Side, u.side);
    } else {
      if (memo_) memo_->readField(arg.i, GameState::kHexSlot);
      args[i] =
          u.status == UnitStatus::OnMap && u.hex >= 0 ? Value::of(Tag::Hex, u.hex) : Value::none();
    }
  }
  budget_ -= fw.steps;
  cover(fn);
  return callAsCode(fw.target, std::span<const Value>(args, fw.args.size()));
}

Value Interpreter::callAsCode(int32_t fn, std::span<const Value> args) {
  // As Op::Call does in execute: a hit is given, a miss made and stored (with its reads when a
  // log is open, as the frame's pending entry would be).
  if (memo_ && memoizable(fn) && memo_->worthCaching(fn)) {
    const Value* hit = memo_->find(state_, fn, args);
    memo_->counted(fn, hit != nullptr);
    if (hit) return *hit;
    if (memo_->logging()) return makeRemembered(fn, args);
    Value v = callPure(fn, args);
    memo_->store(state_, fn, args, v);
    return v;
  }
  return callPure(fn, args);
}

std::optional<Value> Interpreter::tryCallPure(int32_t fn, std::span<const Value> args,
                                              std::string& error, Stop* failed) {
  if (pureDepth_ == 0) renewOwnBudget();
  try {
    if (pureDepth_ >= limits::kMaxPureDepth)
      throw RuntimeError(
          fmt::format("functions nested too deeply (more than {} calls)", limits::kMaxPureDepth));
    const Function& f = program_.functions.at(fn);
    Machine& m = pureMachine();
    for (const Value& a : args) m.stack.push_back(a);
    m.stack.resize(std::max<size_t>(f.locals, args.size()));
    m.frames.push_back(Frame{fn, 0, 0, false});
    cover(fn);
    ++pureDepth_;
    struct Guard {
      int& d;
      ~Guard() { --d; }
    } guard{pureDepth_};
    Stop s = execute(m, true, 0);
    if (s.kind == Stop::Failed) {
      if (failed) *failed = s;
      error = s.message;
      return std::nullopt;
    }
    if (s.kind == Stop::Error) {
      error = s.message;
      return std::nullopt;
    }
    return m.stack.empty() ? Value::none() : std::move(m.stack.back());
  } catch (const RuntimeError& e) {
    error = e.what();
    return std::nullopt;
  }
}

std::optional<Value> Interpreter::tryCallRemembered(int32_t fn, std::span<const Value> args,
                                                    std::string& error, Stop* failed) {
  if (!memo_ || pureDepth_ > 0 || fn < 0 || static_cast<size_t>(fn) >= program_.functions.size() ||
      static_cast<int32_t>(args.size()) != program_.functions[fn].arity || !memoizable(fn))
    return tryCallPure(fn, args, error, failed);
  renewOwnBudget();
  try {
    return callRemembered(fn, args);
  } catch (const RuntimeError&) {
    // Nothing was stored; made again as a plain call, it fails the same way and says how.
  }
  return tryCallPure(fn, args, error, failed);
}

Machine& Interpreter::pureMachine() {
  size_t depth = static_cast<size_t>(pureDepth_);
  Machine* m;
  if (memo_) {
    m = &memo_->scratch(depth);
  } else {
    while (scratch_.size() <= depth) scratch_.push_back(std::make_unique<Machine>());
    m = scratch_[depth].get();
  }
  m->frames.clear();
  m->stack.clear();
  // A call that stopped at a failed requirement leaves the memo entries of its open calls behind;
  // they must not be completed by the next call on this machine.
  std::erase_if(pendingMemo_, [&](const PendingMemo& p) { return p.machine == m; });
  if (pendingMemo_.empty()) pendingArgs_.clear();
  return *m;
}

int64_t Interpreter::stepBudgetFor(const ir::Program& program, const MemoCache* memo) {
  int64_t b = program.stepBudget > 0 ? std::min(program.stepBudget, limits::kMaxRunStepBudget)
                                     : kStepBudget;
  return memo != nullptr && memo->verifying() ? 5 * b : b;
}

Stop Interpreter::run() {
  renewOwnBudget();
  Stop s = execute(machine_, false, 0);
  return s;
}

Stop Interpreter::execute(Machine& m, bool pure, size_t stopDepth) {
  // Every way out returns this one object (so it is made in the caller's place, not moved there:
  // a pure call returns hundreds of thousands of times a game).
  Stop result;
  // The frame on top and where it is: its index, the code of its function, and the index of the
  // next instruction, kept here rather than in the frame (an instruction's fetch reads no Frame
  // and no Function). They are loaded again only after an instruction that changes the frames (a
  // call, a return, a trigger), which first writes the pc back to its frame; so does every way
  // out of the loop (a decision, a roll, an error), so that the machine can be resumed and saved.
  int32_t codeOf = -1, codeSize = 0, pc = 0;
  const Instr* code = nullptr;
  const diag::SourceRange* ranges = nullptr;
  size_t top = 0;
  Frame* frp = nullptr;
  // Loads the frame on top; false when the run is over (no frame above stopDepth).
  auto reload = [&]() __attribute__((always_inline))->bool {
    if (m.frames.size() <= stopDepth) {
      frp = nullptr;
      return false;
    }
    top = m.frames.size() - 1;
    frp = &m.frames[top];
    if (frp->fn != codeOf) {
      const Function& f = program_.functions[frp->fn];
      codeOf = frp->fn;
      code = f.code.data();
      ranges = f.ranges.data();
      codeSize = static_cast<int32_t>(f.code.size());
    }
    pc = frp->pc;
    return true;
  };
  // The source of the instruction running (the one before pc), for an error or a failed
  // requirement.
  auto where = [&]() -> diag::SourceRange {
    return code != nullptr && pc > 0 && pc <= codeSize ? ranges[pc - 1] : diag::SourceRange{};
  };
  // Every way out of the loop but the end of the game writes the pc back to the frame on top.
  auto savePc = [&]() {
    if (frp != nullptr && top < m.frames.size()) m.frames[top].pc = pc;
  };
  ++executing_;
  struct Leave {
    int& n;
    ~Leave() { --n; }
  } leave{executing_};
  try {
    // Trace the engine wrote for this command between runs (a roll made, an action begun) counts
    // too: a command past the limit stops at its next run. (A run inside a run, a pure call made
    // by the code running, needs no look: trace written while code runs is checked as written.)
    if (executing_ == 1) checkTraceLimit();
    bool running = reload();
    while (running) {
      Frame& fr = *frp;
      // A pc out of the code (a corrupt save's, or code that does not end in a return) stops the
      // run; it is checked here, where the pc is in a register, once an instruction.
      if (static_cast<uint32_t>(pc) >= static_cast<uint32_t>(codeSize))
        throw RuntimeError("fell off the end of " + program_.functions[fr.fn].name);
      const Instr in = code[pc++];
      if (--budget_ < 0) {
        throw RuntimeError(
            fmt::format("the ruleset ran {} steps without reaching a decision; it is "
                        "probably looping (in {})",
                        stepBudget(), program_.functions[fr.fn].name));
      }
      auto& st = m.stack;
      auto pop = [&]() __attribute__((always_inline)) {
        Value v = std::move(st.back());
        st.pop_back();
        return v;
      };
      // The two values on top replaced by the operator's answer (eval/operations.cpp).
      auto binaryOnStack = [&]() __attribute__((always_inline)) {
        Value y = pop();
        Value x = pop();
        st.push_back(binary(in.op, x, y));
      };
      switch (in.op) {
        case Op::Nop:
          break;
        case Op::Const:
          st.push_back(program_.constants[in.a]);
          break;
        case Op::Load:
          st.push_back(st[fr.base + in.a]);
          break;
        // The fused pairs of ir/peephole.h: the second instruction of the pair is skipped (its
        // step counted, and its source named by an error, as if it ran). When the budget cannot
        // pay for it, the first runs alone and the second is fetched as usual (and stops there).
        case Op::LoadMember:
          if (budget_ <= 0) {
            st.push_back(st[fr.base + in.a]);
            break;
          }
          --budget_;
          ++pc;
          st.push_back(member(st[fr.base + in.a], in.b));
          break;
        case Op::LoadLoad:
          st.push_back(st[fr.base + in.a]);
          if (budget_ <= 0) break;
          --budget_;
          ++pc;
          st.push_back(st[fr.base + in.b]);
          break;
        case Op::Store:
          st[fr.base + in.a] = pop();
          break;
        case Op::LoadGlobal:
          st.push_back(program_.globals[in.a]);
          break;
        case Op::LoadOption:
          st.push_back(state_.options.at(in.a));
          break;
        case Op::Pop:
          st.pop_back();
          break;
        case Op::Dup:
          st.push_back(st.back());
          break;
        // Two plain values of one kind compared, and two numbers compared, added or subtracted,
        // in place: the answers binary() gives them, without its call and the values' moves.
        case Op::Eq:
        case Op::Ne: {
          Value& b = st.back();
          Value& a = st[st.size() - 2];
          if (a.tag == b.tag && isPlain(a.tag)) {
            const bool r = (a.i == b.i) == (in.op == Op::Eq);
            st.pop_back();
            st.back() = Value::boolean(r);
            break;
          }
          binaryOnStack();
          break;
        }
        case Op::Lt:
        case Op::Le:
        case Op::Gt:
        case Op::Ge:
        case Op::Add:
        case Op::Sub: {
          Value& b = st.back();
          Value& a = st[st.size() - 2];
          if (a.tag == Tag::Int && b.tag == Tag::Int) {
            int64_t r = 0;
            bool done = true;
            switch (in.op) {
              case Op::Lt:
                r = a.i < b.i;
                break;
              case Op::Le:
                r = a.i <= b.i;
                break;
              case Op::Gt:
                r = a.i > b.i;
                break;
              case Op::Ge:
                r = a.i >= b.i;
                break;
              case Op::Add:
                done = !__builtin_add_overflow(a.i, b.i, &r);
                break;
              default:
                done = !__builtin_sub_overflow(a.i, b.i, &r);
                break;
            }
            if (done) {
              const bool compare = in.op != Op::Add && in.op != Op::Sub;
              st.pop_back();
              st.back() = compare ? Value::boolean(r != 0) : Value::integer(r);
              break;
            }
          }
          binaryOnStack();
          break;
        }
        case Op::Mul:
        case Op::Div:
        case Op::Mod:
        case Op::In:
        case Op::NotIn:
          binaryOnStack();
          break;
        case Op::Neg: {
          Value a = pop();
          if (a.tag != Tag::Int)
            throw RuntimeError(fmt::format("unary minus needs a number, found {}", tagName(a.tag)));
          if (a.i == INT64_MIN) throw RuntimeError("integer overflow");
          st.push_back(Value::integer(-a.i));
          break;
        }
        case Op::Not: {
          Value a = pop();
          if (a.tag != Tag::Bool)
            throw RuntimeError(fmt::format("`not` needs true or false, found {}", tagName(a.tag)));
          st.push_back(Value::boolean(!a.i));
          break;
        }
        case Op::Jump:
          pc = in.a;
          break;
        case Op::JumpIfFalse: {
          Value c = pop();
          if (c.tag != Tag::Bool)
            throw RuntimeError(in.b == ir::kAndOperand
                                   ? fmt::format("`and`/`or` need true or false, found {}",
                                                 display(program_, state_, c))
                                   : fmt::format("a condition must be true or false, found {}",
                                                 display(program_, state_, c)));
          if (!c.i) pc = in.a;
          break;
        }
        case Op::JumpIfTrue: {
          Value c = pop();
          if (c.tag == Tag::Bool && c.i) pc = in.a;
          break;
        }
        case Op::AndJump:
        case Op::OrJump: {
          const Value& c = st.back();
          if (c.tag != Tag::Bool)
            throw RuntimeError(fmt::format("`and`/`or` need true or false, found {}",
                                           display(program_, state_, c)));
          bool jump = in.op == Op::AndJump ? !c.i : c.i;
          if (jump)
            pc = in.a;
          else
            st.pop_back();
          break;
        }
        case Op::MakeList: {
          ValueList items(st.end() - in.a, st.end());
          st.resize(st.size() - in.a);
          Value l = Value::makeList(std::move(items));
          l.sub = in.b;
          st.push_back(std::move(l));
          break;
        }
        case Op::MakeRange: {
          Value hi = pop();
          Value lo = pop();
          if (lo.tag != Tag::Int || hi.tag != Tag::Int) throw RuntimeError("a range needs numbers");
          ValueList items;
          if (hi.i >= lo.i) {
            // lo..hi holds hi - lo + 1 numbers, counted without overflow: hi - lo may not fit in
            // an int64_t, and a range may end at the largest integer.
            uint64_t span = static_cast<uint64_t>(hi.i) - static_cast<uint64_t>(lo.i);
            if (span >= static_cast<uint64_t>(limits::kMaxRange))
              throw RuntimeError(fmt::format("the range {}..{} has more than {} numbers", lo.i,
                                             hi.i, limits::kMaxRange));
            charge(static_cast<int64_t>(span + 1) * limits::kStepsPerRangeNumber);
            items.reserve(span + 1);
            for (uint64_t k = 0; k <= span; ++k)
              items.push_back(Value::integer(lo.i + static_cast<int64_t>(k)));
          }
          st.push_back(Value::makeList(std::move(items)));
          break;
        }
        case Op::MakeClosure: {
          if (memo_ && in.b > 0 && static_cast<size_t>(in.b) <= st.size()) {
            std::span<const Value> now(st.data() + st.size() - in.b, static_cast<size_t>(in.b));
            if (const Value* made = memo_->closureAt(codeOf, pc, in.a, now)) {
              Value v = *made;
              st.resize(st.size() - in.b);
              st.push_back(std::move(v));
              break;
            }
            if (MemoCache::closureKeepable(now)) {
              Value v = Value::closure(in.a, ValueList(now.begin(), now.end()));
              memo_->keepClosure(codeOf, pc, v);
              st.resize(st.size() - in.b);
              st.push_back(std::move(v));
              break;
            }
          }
          ValueList caps;
          if (in.b > 0) {
            caps.assign(st.end() - in.b, st.end());
            st.resize(st.size() - in.b);
          }
          st.push_back(Value::closure(in.a, std::move(caps)));
          break;
        }
        case Op::Member: {
          Value o = pop();
          st.push_back(member(o, in.a));
          break;
        }
        case Op::SetMember:
        case Op::AddMember: {
          if (pure) throw RuntimeError("a function cannot change the game state");
          Value v = pop();
          Value o = pop();
          setMember(o, in.a, v, in.op == Op::AddMember);
          break;
        }
        case Op::Index: {
          std::vector<Value> keys(st.end() - in.a, st.end());
          st.resize(st.size() - in.a);
          Value o = pop();
          st.push_back(index(o, keys));
          break;
        }
        case Op::Call:
        case Op::CallValue: {
          int32_t target = in.a;
          const ValueList* caps = nullptr;
          Value fv;
          if (in.op == Op::CallValue) {
            fv = st[st.size() - in.b - 1];
            if (fv.tag != Tag::Func)
              throw RuntimeError(fmt::format("{} cannot be called", tagName(fv.tag)));
            target = static_cast<int32_t>(fv.i);
            caps = fv.listPtr();
            st.erase(st.end() - in.b - 1);
          }
          const Function& callee = program_.functions[target];
          if (in.b != callee.arity)
            throw RuntimeError(
                fmt::format("{} takes {} argument(s), given {}", callee.name, callee.arity, in.b));
          if (memo_ && in.op == Op::Call && memoizable(target) && memo_->worthCaching(target)) {
            std::span<const Value> callArgs(st.data() + st.size() - in.b,
                                            static_cast<size_t>(in.b));
            const Value* hit = memo_->find(state_, target, callArgs);
            memo_->counted(target, hit != nullptr);
            if (hit) {
              st.resize(st.size() - in.b);
              st.push_back(*hit);
              break;
            }
            const auto argsAt = static_cast<uint32_t>(pendingArgs_.size());
            pendingArgs_.insert(pendingArgs_.end(), callArgs.begin(), callArgs.end());
            pendingMemo_.push_back(
                PendingMemo{&m, m.frames.size() + 1, target, argsAt, static_cast<uint32_t>(in.b),
                            memo_->logging() ? memo_->beginLog() : MemoCache::kNoLog});
          }
          if (pure && !callee.pure())
            throw RuntimeError(
                fmt::format("{} is a procedure; a function cannot call it", callee.name));
          if (m.frames.size() >= kMaxFrames)
            throw RuntimeError(
                fmt::format("calls nested too deeply (more than {}): runaway recursion in {}?",
                            kMaxFrames, callee.name));
          Frame nf;
          nf.fn = target;
          nf.base = static_cast<int32_t>(st.size()) - in.b;
          if (caps)
            for (const Value& c : *caps) st.push_back(c);
          st.resize(nf.base + std::max(callee.locals, callee.arity + static_cast<int32_t>(
                                                                         caps ? caps->size() : 0)));
          fr.pc = pc;
          m.frames.push_back(nf);  // `fr` is gone from here on
          cover(target);
          running = reload();
          break;
        }
        case Op::CallBuiltin: {
          const ir::BuiltinSig& bi = ir::builtin(in.a);
          fr.pc = pc;  // triggers it raises run above this frame, which resumes here
          if (pure && bi.effect)
            throw RuntimeError(
                fmt::format("{}() changes the game; a function cannot call it", bi.name));
          // The arguments move off the stack (builtins take few: no allocation for them, and
          // only as many values made in place as there are arguments).
          constexpr int kInlineArgs = 8;
          alignas(Value) unsigned char inlineRaw[kInlineArgs * sizeof(Value)];
          Value* inlineArgs = reinterpret_cast<Value*>(inlineRaw);
          struct Made {
            Value* at;
            int n = 0;
            ~Made() { std::destroy_n(at, n); }
          } made{inlineArgs};
          std::vector<Value> manyArgs;
          std::span<const Value> args;
          if (in.b <= kInlineArgs) {
            std::uninitialized_move(st.end() - in.b, st.end(), inlineArgs);
            made.n = in.b;
            args = std::span<const Value>(inlineArgs, static_cast<size_t>(in.b));
          } else {
            manyArgs.assign(std::make_move_iterator(st.end() - in.b),
                            std::make_move_iterator(st.end()));
            args = manyArgs;
          }
          st.resize(st.size() - in.b);
          // A builtin goes through the lists it is given (sum, map, filter, sort, ...): a step
          // each, so that work inside builtins counts against the budget like any other.
          for (const Value& v : args)
            if (v.tag == Tag::List)
              charge(static_cast<int64_t>(v.items().size()) * limits::kStepsPerItem);
          // The geometry builtins are pure and costly: memoized for this version of the state.
          // (`distance` and `direction` are a few arithmetic steps, cheaper than a look-up in the
          // memo: they run each time; the table of builtins keeps them just before these.)
          static const int kGeometryFirst = ir::findBuiltin("line_of_sight"),
                           kGeometryLast = ir::findBuiltin("sector");
          bool cacheable = memo_ && in.a >= kGeometryFirst && in.a <= kGeometryLast;
          const int32_t key = -1 - in.a;
          if (cacheable) {
            if (const Value* hit = memo_->find(state_, key, args)) {
              st.push_back(*hit);
              break;
            }
          }
          size_t log = cacheable && memo_->logging() ? memo_->beginLog() : MemoCache::kNoLog;
          Value r = builtinFn(in.a)(ctx_, args);
          const std::vector<int32_t>* reads =
              log != MemoCache::kNoLog ? &memo_->closeLog(log) : nullptr;
          // A list a builtin makes (hexes(), units(), map, filter) is work done like any other.
          if (r.tag == Tag::List)
            charge(static_cast<int64_t>(r.items().size()) * limits::kStepsPerItem);
          else if (r.tag == Tag::Str)
            charge(static_cast<int64_t>(r.text().size()) / limits::kStringBytesPerStep);
          // place(), eliminate(), exit_map() and restore() stamp the unit, the hexes and the roster
          // themselves (a move keeps the searches of units whose search did not look there),
          // set_active() and set_turn() the clock; every other effect is a new epoch.
          static const int kPlace = ir::findBuiltin("place"),
                           kEliminate = ir::findBuiltin("eliminate"),
                           kExit = ir::findBuiltin("exit_map"),
                           kRestore = ir::findBuiltin("restore"),
                           kSetActive = ir::findBuiltin("set_active"),
                           kSetTurn = ir::findBuiltin("set_turn");
          if (bi.effect && in.a != kPlace && in.a != kEliminate && in.a != kExit &&
              in.a != kRestore && in.a != kSetActive && in.a != kSetTurn)
            state_.touch();
          if (cacheable) memo_->store(state_, key, args, r, reads);
          st.push_back(std::move(r));
          if (!pending_.empty()) {
            if (pure) {
              pending_.clear();
            } else {
              pushTriggers(m);
              running = reload();
            }
          }
          if (!pure && state_.result.over) {
            // The rules ended the game (finish()): nothing more runs.
            m.frames.clear();
            Stop& s = result;
            s.kind = Stop::End;
            return result;
          }
          break;
        }
        case Op::Return: {
          Value r = st.size() > static_cast<size_t>(fr.base) ? std::move(st.back()) : Value::none();
          bool discard = fr.discard;
          if (!pendingMemo_.empty() && pendingMemo_.back().machine == &m &&
              pendingMemo_.back().depth == m.frames.size()) {
            PendingMemo& p = pendingMemo_.back();
            if (memo_) {
              std::span<const Value> args(pendingArgs_.data() + p.argsAt, p.argCount);
              memo_->store(state_, p.fn, args, r,
                           p.log != MemoCache::kNoLog ? &memo_->closeLog(p.log) : nullptr);
            }
            pendingArgs_.resize(p.argsAt);
            pendingMemo_.pop_back();
          }
          st.resize(fr.base);
          m.frames.pop_back();
          if (!discard) st.push_back(std::move(r));
          running = reload();
          break;
        }
        case Op::IterInit: {
          st[fr.base + in.a] = pop();
          if (st[fr.base + in.a].tag != Tag::List) throw RuntimeError("a for loop needs a list");
          st[fr.base + in.a + 1] = Value::integer(0);
          break;
        }
        case Op::IterNext: {
          const Value& list = st[fr.base + in.a];
          Value& i = st[fr.base + in.a + 1];
          if (i.i < static_cast<int64_t>(list.items().size())) {
            Value e = list.items()[i.i];
            i.i += 1;
            st.push_back(std::move(e));
          } else {
            pc = in.b;
          }
          break;
        }
        case Op::Roll: {
          if (pure) throw RuntimeError("dice cannot be rolled in a function");
          const RollInfo& r = program_.rolls[in.a];
          Stop& s = result;
          s.kind = Stop::Roll;
          s.index = in.a;
          s.count = r.count;
          if (r.dynamicCount) {
            Value n = pop();
            if (n.tag != Tag::Int || n.i < 1 || n.i > limits::kMaxDicePerRoll)
              throw RuntimeError(
                  fmt::format("roll between 1 and {} dice at a time", limits::kMaxDicePerRoll));
            s.count = n.i;
          }
          savePc();
          return result;
        }
        case Op::Choose: {
          if (pure) throw RuntimeError("a function cannot ask a player to choose");
          Value player = pop();
          Value options = pop();
          if (player.tag != Tag::Side) throw RuntimeError("`choose ... by` needs a side");
          if (options.tag != Tag::List) throw RuntimeError("`choose` needs a list of options");
          if (options.items().empty())
            throw RuntimeError(
                fmt::format("nothing to choose from ({})", program_.chooses[in.a].prompt));
          if (options.items().size() == 1) {
            // One option is no decision: take it, and say so in the trace.
            trace(program_.chooses[in.a].citations, TraceKind::Choice,
                  program_.chooses[in.a].prompt, "only option",
                  display(program_, state_, options.items()[0]));
            st.push_back(options.items()[0]);
            break;
          }
          Stop& s = result;
          s.kind = Stop::Choose;
          s.index = in.a;
          s.player = static_cast<int32_t>(player.i);
          s.options = options;
          savePc();
          return result;
        }
        case Op::Require: {
          coverRequire(in.a);
          Value c = pop();
          if (c.tag != Tag::Bool) throw RuntimeError("a requirement must be true or false");
          if (!c.i) {
            Stop& s = result;
            s.kind = Stop::Failed;
            s.index = in.a;
            s.citations = program_.requirements[in.a].citations;
            s.message = program_.requirements[in.a].text;
            s.range = where();
            savePc();
            return result;
          }
          break;
        }
        case Op::Window: {
          if (pure) throw RuntimeError("a phase cannot run inside a function");
          Value& player = st[fr.base + in.b];
          Value& justActed = st[fr.base + in.b + 2];
          const PhaseInfo& ph = program_.phases[in.a];
          if (ph.alternate && justActed.i) {
            justActed = Value::integer(0);
            st[fr.base + in.b + 1] = Value::integer(0);
            player =
                Value::of(Tag::Side, (player.i + 1) % std::max<size_t>(1, program_.sides.size()));
          }
          if (state_.result.over) {
            // The game ended inside this phase: unwind to the end.
            m.frames.clear();
            Stop& s = result;
            s.kind = Stop::End;
            return result;
          }
          if (state_.acting != static_cast<int32_t>(player.i)) state_.touchOther(GameState::kClock);
          state_.acting = static_cast<int32_t>(player.i);
          --pc;  // stay on the window: the Session moves past it when the phase ends
          Stop& s = result;
          s.kind = Stop::Window;
          s.index = in.a;
          s.player = static_cast<int32_t>(player.i);
          savePc();
          return result;
        }
        case Op::PhaseEnter: {
          state_.touchOther(GameState::kClock);
          state_.phase = in.a;
          if (st[fr.base + in.b].tag == Tag::Side)
            state_.acting = static_cast<int32_t>(st[fr.base + in.b].i);
          const PhaseInfo& ph = program_.phases[in.a];
          trace(ph.citations, TraceKind::Phase, ph.name,
                program_.sides.empty() ? "" : display(program_, state_, st[fr.base + in.b]),
                "start");
          break;
        }
        case Op::PhaseExit: {
          const PhaseInfo& ph = program_.phases[in.a];
          trace(ph.citations, TraceKind::Phase, ph.name,
                program_.sides.empty() ? "" : display(program_, state_, st[fr.base + in.b]), "end");
          state_.phase = -1;
          state_.touchOther(GameState::kClock);
          break;
        }
        case Op::StepEnter:
          trace(program_.stepCitations[in.a], TraceKind::Step, program_.steps[in.a], "", "");
          break;
        case Op::Emit: {
          if (pure) throw RuntimeError("a function cannot emit events");
          ValueList args(st.end() - in.b, st.end());
          st.resize(st.size() - in.b);
          pending_.emplace_back(in.a, std::move(args));
          fr.pc = pc;  // its triggers run above this frame, which resumes here
          pushTriggers(m);
          running = reload();
          break;
        }
        case Op::ApplyResult: {
          if (pure) throw RuntimeError("a function cannot apply results");
          std::vector<Value> args(st.end() - in.b, st.end());
          st.resize(st.size() - in.b);
          Value r = pop();
          if (r.tag == Tag::None && in.a > 0) {
            // A `-` cell: the declaration's `-` case, if it has one.
            const ResultsInfo& known = program_.results[in.a - 1];
            const auto& members = program_.enums[known.enumId].members;
            auto dash = std::find(members.begin(), members.end(), "-");
            if (dash != members.end())
              r = Value::of(Tag::Enum, dash - members.begin(), known.enumId);
          }
          if (r.tag == Tag::None) {
            trace({}, TraceKind::Effect, "result", "-", "no effect");
            break;
          }
          if (r.tag != Tag::Enum || program_.enums[r.sub].results < 0)
            throw RuntimeError(
                fmt::format("apply needs a result, found {}", display(program_, state_, r)));
          const ResultsInfo& ri = program_.results[program_.enums[r.sub].results];
          int32_t target = ri.cases.at(r.i);
          const Function& callee = program_.functions[target];
          if (static_cast<int32_t>(args.size()) != callee.arity)
            throw RuntimeError(
                fmt::format("result {} takes {} argument(s)", callee.name, callee.arity));
          trace(callee.citations, TraceKind::Effect, "result " + display(program_, state_, r),
                ri.name, "");
          if (m.frames.size() >= kMaxFrames) throw RuntimeError("calls nested too deeply");
          Frame nf;
          nf.fn = target;
          nf.base = static_cast<int32_t>(st.size());
          nf.discard = true;
          for (auto& a : args) st.push_back(a);
          st.resize(nf.base + std::max(callee.locals, callee.arity));
          fr.pc = pc;
          m.frames.push_back(nf);  // `fr` is gone from here on
          cover(target);
          running = reload();
          break;
        }
        case Op::Pause: {
          if (pure) throw RuntimeError("a function cannot pause");
          Value text = pop();
          Stop& s = result;
          s.kind = Stop::Pause;
          s.index = in.a;
          s.message = text.tag == Tag::Str ? text.text() : display(program_, state_, text);
          trace(program_.pauses[in.a].citations, TraceKind::Pause, s.message, "", "");
          savePc();
          return result;
        }
        case Op::SkipUntraced:
          // Not a step of the rules' own: a traced run counts the steps it counted before.
          ++budget_;
          if (!state_.tracing) pc = in.a;
          break;
        case Op::Note: {
          std::vector<Value> args(st.end() - in.b, st.end());
          st.resize(st.size() - in.b);
          if (state_.tracing) {
            std::string text;
            for (const Value& v : args)
              text += (text.empty() ? "" : ", ") + display(program_, state_, v);
            trace(program_.notes[in.a].citations, TraceKind::Note, text, "", "");
          }
          break;
        }
        case Op::Trace: {
          if (!state_.tracing) {  // nothing to write: drop the reasons, operand, after, before
            st.resize(st.size() - in.b - 3);
            break;
          }
          std::vector<Value> because(st.end() - in.b, st.end());
          st.resize(st.size() - in.b);
          Value operand = pop();
          Value after = pop();
          Value before = pop();
          const ModifierInfo& mi = program_.modifiers[in.a];
          std::string why;
          for (const Value& v : because)
            why += (why.empty() ? "" : ", ") + display(program_, state_, v);
          std::string op = mi.opText + display(program_, state_, operand);
          // The clause runs inside the quantity's own code: its frame's first locals are the
          // quantity's arguments. The units and hexes among them name what was changed
          // ("melee.attack(c, 0506) 4 → 8"); lists and numbers are left out.
          std::string subjects;
          const Function& qf = program_.functions[fr.fn];
          for (int32_t i = 0; i < qf.arity && fr.base + i < static_cast<int32_t>(st.size()); ++i) {
            const Value& a = st[fr.base + i];
            if (a.tag != Tag::Unit && a.tag != Tag::Hex && a.tag != Tag::Side) continue;
            subjects += (subjects.empty() ? "" : ", ") + display(program_, state_, a);
          }
          // A reason that is a terrain, hexside feature or unit type whose values a scenario's
          // exclusive rule set (`replace terrain hill §chalons:7.E`) brings that rule along:
          // it, not the ruleset's, made the number.
          std::vector<std::string> cites = mi.citations;
          for (const Value& v : because) {
            const std::vector<std::string>* kc =
                v.tag == Tag::Terrain    ? &program_.terrains[v.i].citations
                : v.tag == Tag::Feature  ? &program_.features[v.i].citations
                : v.tag == Tag::UnitType ? &program_.unitTypes[v.i].citations
                                         : nullptr;
            if (!kc) continue;
            for (const auto& c : *kc)
              if (c.find(':') != std::string::npos &&
                  std::find(cites.begin(), cites.end(), c) == cites.end())
                cites.push_back(c);
          }
          trace(cites, TraceKind::Modifier, mi.name,
                fmt::format("{}{} {}", mi.quantity, subjects.empty() ? "" : "(" + subjects + ")",
                            display(program_, state_, before)),
                fmt::format("{} ({}{})", display(program_, state_, after), op,
                            why.empty() ? "" : ", " + why));
          break;
        }
        case Op::Fail:
          throw RuntimeError(program_.messages.at(in.a));
      }
    }
  } catch (const RuntimeError& e) {
    pending_.clear();
    pendingMemo_.clear();
    pendingArgs_.clear();
    result = Stop{};  // nothing of a stop begun before the error
    Stop& s = result;
    s.kind = Stop::Error;
    s.message = e.what();
    s.range = e.at.valid() ? e.at : where();
    savePc();
    return result;
  }
  Stop& s = result;
  s.kind = pure ? Stop::None : Stop::End;
  return result;
}

}  // namespace polemos::eval
