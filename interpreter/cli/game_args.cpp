// The options that name the game, shared by `play`, `run`, `odds` and `sim`.
#include <fmt/format.h>

#include <cstdio>
#include <stdexcept>

#include "cli/commands.h"

namespace polemos::cli {

bool parseWholeNumber(const std::string& text, uint64_t& out) {
  try {
    size_t used = 0;
    out = std::stoull(text, &used);
    return used == text.size() && !text.empty() && text[0] != '-';
  } catch (...) {
    return false;
  }
}

int takeGameArg(const std::vector<std::string>& args, size_t& i, const GameArgs& into,
                const char* who) {
  const std::string& a = args[i];
  if (a != "--seed" && a != "--house" && a != "--level" && a != "--option") return 0;
  if (i + 1 >= args.size()) {
    const char* wants = a == "--seed"    ? "a whole number"
                        : a == "--house" ? "a file"
                        : a == "--level" ? "a level name"
                                         : "NAME=VALUE";
    fmt::print(stderr, "{}: {} needs {}\n", who, a, wants);
    return 2;
  }
  const std::string& v = args[++i];
  if (a == "--seed") {
    if (!parseWholeNumber(v, *into.seed)) {
      fmt::print(stderr, "{}: --seed needs a whole number, not '{}'\n", who, v);
      return 2;
    }
  } else if (a == "--house") {
    into.houses->push_back(v);
  } else if (a == "--level") {
    *into.level = v;
  } else {
    if (v.find('=') == std::string::npos) {
      fmt::print(stderr, "{}: --option needs NAME=VALUE, not '{}'\n", who, v);
      return 2;
    }
    into.options->emplace_back(v.substr(0, v.find('=')), v.substr(v.find('=') + 1));
  }
  return 1;
}

}  // namespace polemos::cli
