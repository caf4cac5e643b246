// The options that name the game, shared by `play`, `run`, `odds` and `sim`.
#include <fmt/format.h>

#include <algorithm>
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

std::optional<int> helpOrUnknown(const CommandLine& line, const char* who, const char* usage) {
  if (line.help) {
    std::fputs(usage, stdout);
    return 0;
  }
  if (!line.unknown.empty()) {
    fmt::print(stderr, "{}: unknown option '{}'\n{}", who, line.unknown, usage);
    return 2;
  }
  return std::nullopt;
}

const std::vector<std::string> kGameOptions = {"--seed", "--house", "--level", "--option"};

namespace {
const char* wants(const std::string& option) {
  return option == "--seed"    ? "a whole number"
         : option == "--house" ? "a file"
         : option == "--level" ? "a level name"
                               : "NAME=VALUE";
}
}  // namespace

int applyGameArgs(const CommandLine& line, const GameArgs& into, const char* who) {
  for (const std::string& v : line.values.at("--seed")) {
    if (!parseWholeNumber(v, *into.seed)) {
      fmt::print(stderr, "{}: --seed needs a whole number, not '{}'\n", who, v);
      return 2;
    }
  }
  for (const std::string& v : line.values.at("--house")) into.houses->push_back(v);
  if (line.has("--level")) *into.level = line.last("--level");
  for (const std::string& v : line.values.at("--option")) {
    if (v.find('=') == std::string::npos) {
      fmt::print(stderr, "{}: --option needs NAME=VALUE, not '{}'\n", who, v);
      return 2;
    }
    into.options->emplace_back(v.substr(0, v.find('=')), v.substr(v.find('=') + 1));
  }
  if (std::find(kGameOptions.begin(), kGameOptions.end(), line.missingValue) !=
      kGameOptions.end()) {
    fmt::print(stderr, "{}: {} needs {}\n", who, line.missingValue, wants(line.missingValue));
    return 2;
  }
  return 0;
}

}  // namespace polemos::cli
