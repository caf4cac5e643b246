// Forwarding functions (ir/forwarding.h says what is found and why the answer is the same).
#include "ir/forwarding.h"

#include <vector>

namespace polemos::ir {

namespace {

// What is known of a value on the stack.
struct Known {
  enum Kind : uint8_t { Param, SideOf, HexOf, False, True, Called };
  Kind kind;
  int32_t param = -1;  // Param, SideOf, HexOf: which parameter; Called: which nested call
};

// How far the code is followed: the forwards looked for are a handful of instructions.
constexpr int kMaxSteps = 64;

// Whether pure function `fn` reads nothing of the game: its code only moves its arguments, its
// locals and constants about, works them with arithmetic and comparisons, jumps and calls other
// such functions (Deluxe's `turn_cost(from, to)`: the 8.4 price of a turn). No member, no
// builtin, no option, no list of the game's: its answer is the same in every state. `depth`
// bounds the calls followed (a call deeper, or back into itself, is taken as reading).
bool readsNothing(const Program& p, int32_t fn, int depth) {
  if (fn < 0 || static_cast<size_t>(fn) >= p.functions.size() || depth > 8) return false;
  const Function& f = p.functions[static_cast<size_t>(fn)];
  if (f.kind != FuncKind::Function) return false;
  for (const Instr& in : f.code) {
    switch (in.op) {
      case Op::Nop:
      case Op::Const:
      case Op::Load:
      case Op::LoadLoad:
      case Op::Store:
      case Op::LoadGlobal:
      case Op::Pop:
      case Op::Dup:
      case Op::Add:
      case Op::Sub:
      case Op::Mul:
      case Op::Div:
      case Op::Mod:
      case Op::Neg:
      case Op::Not:
      case Op::Eq:
      case Op::Ne:
      case Op::Lt:
      case Op::Le:
      case Op::Gt:
      case Op::Ge:
      case Op::Jump:
      case Op::JumpIfFalse:
      case Op::JumpIfTrue:
      case Op::AndJump:
      case Op::OrJump:
      case Op::Return:
        break;
      case Op::Call:
        if (in.a == fn || !readsNothing(p, in.a, depth + 1)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

// A unit's own property read by member `nameId` (its side or its hex), unless some class
// declares a field of that name (a class field is read before the property,
// eval/operations.cpp).
std::optional<Known::Kind> unitProperty(const Program& p, int32_t nameId) {
  if (nameId < 0 || static_cast<size_t>(nameId) >= p.nameKinds.size()) return std::nullopt;
  for (const Schema& c : p.classes)
    if (c.find(nameId) >= 0) return std::nullopt;
  switch (p.nameKinds[static_cast<size_t>(nameId)]) {
    case BuiltinName::Side:
      return Known::SideOf;
    case BuiltinName::Hex:
      return Known::HexOf;
    default:
      return std::nullopt;
  }
}

// The forward of function `fn`'s code, followed as findForward says. `untyped`: a parameter of
// no declared type (a lambda's) may be read as a unit; the caller checks that its value is one.
std::optional<Forward> follow(const Program& p, int32_t fn, bool untyped) {
  const Function& f = p.functions[static_cast<size_t>(fn)];
  const std::vector<Instr>& code = f.code;
  const int32_t n = static_cast<int32_t>(code.size());
  auto kindOf = [&](int32_t param) {
    return param >= 0 && param < f.arity && static_cast<size_t>(param) < f.paramTypes.size()
               ? f.paramTypes[static_cast<size_t>(param)].kind
               : TypeKind::Any;
  };
  auto unitParam = [&](int32_t param) {
    const TypeKind k = kindOf(param);
    return k == TypeKind::Unit || (untyped && k == TypeKind::Any);
  };
  auto property = [&](int32_t nameId) { return unitProperty(p, nameId); };
  std::vector<Known> st;
  Forward fw;
  auto load = [&](int32_t param) {
    if (param < 0 || param >= f.arity) return false;
    st.push_back(Known{Known::Param, param});
    return true;
  };
  auto member = [&](int32_t nameId) {
    if (st.empty() || st.back().kind != Known::Param || !unitParam(st.back().param)) return false;
    auto k = property(nameId);
    if (!k) return false;
    st.back().kind = *k;
    return true;
  };
  auto truth = [&](size_t at) -> std::optional<bool> {
    if (at >= st.size()) return std::nullopt;
    if (st[at].kind == Known::False) return false;
    if (st[at].kind == Known::True) return true;
    return std::nullopt;
  };
  int32_t pc = 0;
  for (int steps = 0; steps < kMaxSteps; ++steps) {
    if (pc < 0 || pc >= n) return std::nullopt;
    const Instr in = code[static_cast<size_t>(pc++)];
    ++fw.steps;
    switch (in.op) {
      case Op::Nop:
        break;
      case Op::Load:
        if (!load(in.a)) return std::nullopt;
        break;
      case Op::LoadLoad:  // the second Load stays in place and is skipped
        if (!load(in.a) || !load(in.b)) return std::nullopt;
        ++pc;
        ++fw.steps;
        break;
      case Op::Member:
        if (!member(in.a)) return std::nullopt;
        break;
      case Op::LoadMember:  // the Member stays in place and is skipped
        if (!load(in.a) || !member(in.b)) return std::nullopt;
        ++pc;
        ++fw.steps;
        break;
      case Op::Eq:
      case Op::Ne: {
        if (st.size() < 2) return std::nullopt;
        Known a = st[st.size() - 2], b = st.back();
        if (a.kind == Known::HexOf) std::swap(a, b);
        // A hex parameter against a unit parameter's hex: known under the assumption.
        if (a.kind != Known::Param || kindOf(a.param) != TypeKind::Hex || b.kind != Known::HexOf)
          return std::nullopt;
        if (fw.hexParam >= 0 && (fw.hexParam != a.param || fw.unitParam != b.param))
          return std::nullopt;
        fw.hexParam = a.param;
        fw.unitParam = b.param;
        st.pop_back();
        st.back() = Known{in.op == Op::Eq ? Known::False : Known::True};
        break;
      }
      case Op::Not: {
        auto t = truth(st.size() - 1);
        if (!t) return std::nullopt;
        st.back() = Known{*t ? Known::False : Known::True};
        break;
      }
      case Op::AndJump:
      case Op::OrJump: {
        auto t = truth(st.size() - 1);
        if (!t) return std::nullopt;
        if (*t == (in.op == Op::OrJump))
          pc = in.a;  // the value stays: it is the whole `and`'s (`or`'s)
        else
          st.pop_back();
        break;
      }
      case Op::JumpIfFalse:
      case Op::JumpIfTrue: {
        auto t = truth(st.size() - 1);
        if (!t) return std::nullopt;
        st.pop_back();
        if (*t == (in.op == Op::JumpIfTrue)) pc = in.a;
        break;
      }
      case Op::Jump:
        pc = in.a;
        break;
      case Op::Call: {
        if (in.a < 0 || static_cast<size_t>(in.a) >= p.functions.size()) return std::nullopt;
        const Function& target = p.functions[static_cast<size_t>(in.a)];
        if (!target.pure() || target.arity != in.b || in.b < 0 ||
            static_cast<int32_t>(st.size()) < in.b)
          return std::nullopt;
        auto argOf = [](const Known& k) -> std::optional<Forward::Arg> {
          switch (k.kind) {
            case Known::Param:
              return Forward::Arg{k.param, false, false, -1};
            case Known::SideOf:
              return Forward::Arg{k.param, true, false, -1};
            case Known::HexOf:
              return Forward::Arg{k.param, false, true, -1};
            case Known::Called:
              return Forward::Arg{-1, false, false, k.param};
            default:
              return std::nullopt;
          }
        };
        // The answer returned at once (through jumps that lead to the return) is the forward;
        // every value on the stack is then its argument (nothing is left under the answer).
        bool returned = false;
        int32_t after = 0;  // the instructions from the call's to the return, that one included
        for (int32_t at = pc, hops = 0; hops < kMaxSteps && at >= 0 && at < n; ++hops) {
          const Instr& next = code[static_cast<size_t>(at)];
          ++after;
          if (next.op == Op::Jump) {
            at = next.a;
          } else if (next.op == Op::Nop) {
            ++at;
          } else {
            returned = next.op == Op::Return;
            break;
          }
        }
        if (returned) {
          fw.steps += after;
          if (static_cast<int32_t>(st.size()) != in.b) return std::nullopt;
          for (const Known& k : st) {
            auto a = argOf(k);
            if (!a) return std::nullopt;
            fw.args.push_back(*a);
          }
          fw.target = in.a;
          return fw;
        }
        // Otherwise a nested call, whose answer is an argument of the forward: its own
        // arguments are known without a call, and the code goes on.
        Forward::Call call{in.a, {}, true, true};
        for (size_t i = st.size() - static_cast<size_t>(in.b); i < st.size(); ++i) {
          auto a = argOf(st[i]);
          if (!a || a->call >= 0) return std::nullopt;
          call.args.push_back(*a);
          call.ofUnit = call.ofUnit && (a->side || a->hex);
          call.constant = call.constant && !a->side && !a->hex;
        }
        call.constant = call.constant && readsNothing(p, in.a, 0);
        st.resize(st.size() - static_cast<size_t>(in.b));
        st.push_back(Known{Known::Called, static_cast<int32_t>(fw.calls.size())});
        fw.calls.push_back(std::move(call));
        break;
      }
      default:
        return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<Forward> findForward(const Program& p, int32_t fn) {
  if (fn < 0 || static_cast<size_t>(fn) >= p.functions.size()) return std::nullopt;
  if (p.functions[static_cast<size_t>(fn)].kind != FuncKind::Function) return std::nullopt;
  return follow(p, fn, false);
}

std::optional<Forward> findLambdaForward(const Program& p, int32_t fn) {
  if (fn < 0 || static_cast<size_t>(fn) >= p.functions.size()) return std::nullopt;
  const Function& f = p.functions[static_cast<size_t>(fn)];
  if (f.kind != FuncKind::Lambda || f.arity != 1) return std::nullopt;
  auto fw = follow(p, fn, true);
  if (!fw || !fw->calls.empty() || fw->hexParam >= 0) return std::nullopt;
  return fw;
}

std::optional<FieldRead> findFieldRead(const Program& p, int32_t fn) {
  if (fn < 0 || static_cast<size_t>(fn) >= p.functions.size()) return std::nullopt;
  const Function& f = p.functions[static_cast<size_t>(fn)];
  if ((f.kind != FuncKind::Function && f.kind != FuncKind::Lambda) || f.arity != 1)
    return std::nullopt;
  const std::vector<Instr>& c = f.code;
  FieldRead r;
  size_t at = 0;
  if (c.size() >= 2 && c[0].op == Op::LoadMember && c[0].a == 0 && c[1].op == Op::Member &&
      c[1].a == c[0].b) {
    r.nameId = c[0].b;  // the Member stays in place and is skipped
  } else if (c.size() >= 2 && c[0].op == Op::Load && c[0].a == 0 && c[1].op == Op::Member) {
    r.nameId = c[1].a;
  } else {
    return std::nullopt;
  }
  at = 2;
  if (at < c.size() && c[at].op == Op::Not) {
    r.negated = true;
    ++at;
  }
  if (at >= c.size() || c[at].op != Op::Return) return std::nullopt;
  r.steps = static_cast<int32_t>(at + 1);
  return r;
}

std::optional<Membership> findMembership(const Program& p, int32_t fn) {
  if (fn < 0 || static_cast<size_t>(fn) >= p.functions.size()) return std::nullopt;
  const Function& f = p.functions[static_cast<size_t>(fn)];
  if (f.kind != FuncKind::Function) return std::nullopt;
  const std::vector<Instr>& c = f.code;
  // The element and the list's arguments loaded (a parameter, or a unit parameter's side or hex),
  // in that order; then the list's call, `in`, and the answer returned.
  std::vector<Known> st;
  auto load = [&](int32_t param) {
    if (param < 0 || param >= f.arity) return false;
    st.push_back(Known{Known::Param, param});
    return true;
  };
  auto member = [&](int32_t nameId) {
    if (st.empty() || st.back().kind != Known::Param) return false;
    const int32_t param = st.back().param;
    if (static_cast<size_t>(param) >= f.paramTypes.size() ||
        f.paramTypes[static_cast<size_t>(param)].kind != TypeKind::Unit)
      return false;
    auto k = unitProperty(p, nameId);
    if (!k) return false;
    st.back().kind = *k;
    return true;
  };
  size_t at = 0;
  for (; at < c.size(); ++at) {
    const Instr& in = c[at];
    bool ok = true;
    if (in.op == Op::Load) {
      ok = load(in.a);
    } else if (in.op == Op::Member) {
      ok = member(in.a);
    } else if (in.op == Op::LoadLoad || in.op == Op::LoadMember) {  // the second stays in place
      ok = load(in.a) && (in.op == Op::LoadLoad ? load(in.b) : member(in.b));
      ++at;
    } else {
      break;
    }
    if (!ok) return std::nullopt;
  }
  if (at + 2 >= c.size() || c[at].op != Op::Call || c[at + 1].op != Op::In ||
      c[at + 2].op != Op::Return)
    return std::nullopt;
  const int32_t target = c[at].a;
  if (target < 0 || static_cast<size_t>(target) >= p.functions.size() || target == fn)
    return std::nullopt;
  const Function& list = p.functions[static_cast<size_t>(target)];
  if (list.kind != FuncKind::Function || list.arity != c[at].b ||
      static_cast<int32_t>(st.size()) != list.arity + 1 || st[0].kind != Known::Param)
    return std::nullopt;
  Membership m;
  m.element = st[0].param;
  m.list.target = target;
  for (size_t k = 1; k < st.size(); ++k)
    m.list.args.push_back(
        Forward::Arg{st[k].param, st[k].kind == Known::SideOf, st[k].kind == Known::HexOf, -1});
  return m;
}

void findForwards(Program& p) {
  for (Function& f : p.functions) f.forwardTarget = false;
  for (size_t i = 0; i < p.functions.size(); ++i) {
    p.functions[i].membership = findMembership(p, static_cast<int32_t>(i));
    if (const auto& m = p.functions[i].membership)
      p.functions[static_cast<size_t>(m->list.target)].forwardTarget = true;
    p.functions[i].forward = findForward(p, static_cast<int32_t>(i));
    p.functions[i].fieldRead = findFieldRead(p, static_cast<int32_t>(i));
    p.functions[i].lambdaForward = findLambdaForward(p, static_cast<int32_t>(i));
    if (const auto& fw = p.functions[i].forward) {
      p.functions[static_cast<size_t>(fw->target)].forwardTarget = true;
      for (const Forward::Call& c : fw->calls)
        p.functions[static_cast<size_t>(c.target)].forwardTarget = true;
    }
  }
}

}  // namespace polemos::ir
