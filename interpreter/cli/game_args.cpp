// The options that name the game, shared by `play`, `run`, `odds` and `sim`.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <stdexcept>

#include "check/loader.h"
#include "cli/commands.h"
#include "diag/diagnostics.h"

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

bool readThreads(const CommandLine& line, unsigned& threads) {
  if (line.missingValue == "--threads") return false;
  auto it = line.values.find("--threads");
  if (it == line.values.end()) return true;
  for (const std::string& v : it->second) {
    uint64_t n = 0;
    if (!parseWholeNumber(v, n) || n == 0 || n > 256) return false;
    threads = static_cast<unsigned>(n);
  }
  return true;
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

// A seed nobody chose: the system's entropy, kept to 9 digits so that a player can type it back.
uint64_t freshSeed() {
  std::random_device rd;
  uint64_t v = (static_cast<uint64_t>(rd()) << 32) ^ rd();
  return v % 1000000000ull + 1;
}

void chooseGame(repl::ReplOptions& o, const std::vector<std::string>& pos, bool sandbox,
                const char* command) {
  if (!pos.empty()) o.ruleset = pos[0];
  o.scenario = pos.size() > 1 ? pos[1] : (pos.empty() ? "chalons" : "");
  // A ruleset named alone opens its battle (the first of its scenarios by name, the others said);
  // the audit sandbox only when asked.
  if (pos.size() == 1 && !sandbox) {
    diag::SourceManager sm;
    diag::Diagnostics diags(sm);
    check::Loader loader(diags);
    auto names = loader.scenarioNames(o.ruleset);
    if (!names.empty()) {
      o.scenario = names.front();
      if (names.size() > 1) {
        std::string others;
        for (size_t i = 1; i < names.size(); ++i) others += (i > 1 ? ", " : "") + names[i];
        fmt::print(
            "{}: opening {} (also: {}; `polemos {} {} NAME` for another, --sandbox for an empty "
            "map)\n",
            o.ruleset, o.scenario, others, command, o.ruleset);
      }
    }
  } else if (sandbox && pos.size() <= 1) {
    o.scenario = "";
  }
}

}  // namespace polemos::cli
