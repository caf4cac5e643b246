// The checker: the hook functions of a ruleset held to their contract (ir/hooks.h). A function
// named like a hook must be a pure function of one of the hook's forms, giving what the hook
// gives; a function that nothing calls, whose name is within two letters of a hook's, is reported
// as a likely misspelling (the hex builtins find hooks by their exact name, and would ignore it).
#include "ir/hooks.h"

#include "check/compiler_internal.h"

namespace polemos::check::detail {

namespace {

// Edit distance, stopping early once it passes `limit`.
size_t distance(std::string_view a, std::string_view b, size_t limit) {
  if (a.size() > b.size() + limit || b.size() > a.size() + limit) return limit + 1;
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] =
          std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string kindName(TypeKind k) {
  return typeName(Program{}, Type::of(k));
}

std::string formText(const std::vector<TypeKind>& form) {
  std::string s;
  for (TypeKind k : form) s += (s.empty() ? "" : ", ") + kindName(k);
  return "(" + s + ")";
}

}  // namespace

void Compiler::checkHooks() {
  // Which functions are called or taken as values anywhere.
  std::vector<bool> referenced(P.functions.size(), false);
  for (const Function& f : P.functions)
    for (const Instr& in : f.code)
      if (int32_t callee = calleeOf(P, in); callee >= 0) referenced[callee] = true;
  std::vector<std::pair<std::string, int32_t>> named(P.functionByName.begin(),
                                                     P.functionByName.end());
  std::sort(named.begin(), named.end());
  for (const auto& [name, fi] : named) {
    const Function& f = P.functions[fi];
    if (const ir::HookSig* h = ir::findHook(name)) {
      if (f.kind != FuncKind::Function) {
        error(
            f.range,
            fmt::format("'{}' is a hook of the hex builtins and must be a pure `function`", name));
        continue;
      }
      bool fits = false;
      std::string forms;
      for (const auto& form : h->forms) {
        forms += (forms.empty() ? "" : " or ") + formText(form);
        if (form.size() != f.paramTypes.size()) continue;
        bool ok = true;
        for (size_t i = 0; i < form.size(); ++i)
          if (f.paramTypes[i].kind != TypeKind::Any && f.paramTypes[i].kind != form[i]) ok = false;
        fits = fits || ok;
      }
      if (!fits) {
        error(f.range, fmt::format("the hook '{}' takes {}", name, forms));
        continue;
      }
      if (f.result.kind != TypeKind::Any && f.result.kind != h->result)
        error(f.range, fmt::format("the hook '{}' gives {}{}, not {}", name, kindName(h->result),
                                   h->optional ? " (or none)" : "", typeName(P, f.result)));
      else if (f.result.optional && !h->optional)
        error(f.range,
              fmt::format("the hook '{}' gives {}, never none", name, kindName(h->result)));
      continue;
    }
    if (referenced[fi] || name.size() < 5) continue;
    for (const auto& h : ir::hooks())
      if (distance(name, h.name, 2) <= 2) {
        D.warning(f.range,
                  fmt::format(
                      "'{}' is never called, and it is not the hook '{}' (hooks are found by their "
                      "exact name): is it misspelt?",
                      name, h.name));
        break;
      }
  }
}

}  // namespace polemos::check::detail
