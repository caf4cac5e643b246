// `polemos diff`: the declarations that differ between two rulesets, or that a house-rule file or
// an edition changes in what it overlays. The comparison itself is analysis/diff; this file reads
// the arguments, loads both sides and prints.
#include <fmt/format.h>

#include <cstdio>

#include "analysis/diff.h"
#include "check/loader.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "diag/diagnostics.h"

namespace polemos::cli {
namespace {

const char* kDiffUsage =
    "usage: polemos diff RULESET|FILE [RULESET|FILE] [--json]\n"
    "\n"
    "Lists every declaration replaced, added or removed between two rulesets, one line each with\n"
    "its rule numbers and what changed, then a summary. Each side is a ruleset name, a ruleset\n"
    "file, or a house-rule file (the ruleset it names with the house rules over it). With one\n"
    "argument, an edition (`extends`) or a house file is compared with what it overlays.\n"
    "--json writes one JSON object per change and one for the summary.\n"
    "Exit status: 0 when the comparison was made, whether or not anything differs; 1 when a side\n"
    "could not be loaded (the errors are printed); 2 bad usage.\n";

}  // namespace

int diffCommand(const std::vector<std::string>& args) {
  CommandLine line = readCommandLine(args, {}, {"--json"});
  if (auto rc = helpOrUnknown(line, "polemos diff", kDiffUsage)) return *rc;
  const std::vector<std::string>& sides = line.positionals;
  bool json = line.flag("--json");
  if (sides.empty() || sides.size() > 2) {
    std::fputs(kDiffUsage, stderr);
    return 2;
  }
  diag::SourceManager sources;
  diag::Diagnostics diags(sources);
  check::Loader loader(diags);
  check::MergedRules a, b;
  bool ok = false;
  if (sides.size() == 2) {
    // Both sides are loaded even if the first fails, so that one run reports both.
    bool okA = loader.loadForDiff(sides[0], a);
    bool okB = loader.loadForDiff(sides[1], b);
    ok = okA && okB;
  } else if (loader.loadForDiff(sides[0], b)) {
    if (b.base.empty()) {
      fmt::print(stderr, "polemos diff: {} overlays nothing; name two rulesets to compare\n",
                 b.what);
      return 2;
    }
    ok = loader.loadForDiff(b.base, a);
  }
  if (!ok) {
    std::fputs(diags.render(false).c_str(), stderr);
    size_t n = diags.errorCount();
    fmt::print(stderr, "{} error{}\n", n, n == 1 ? "" : "s");
    return 1;
  }
  std::fputs(analysis::formatDiff(analysis::diffRules(a, b, sources), json).c_str(), stdout);
  return 0;
}

}  // namespace polemos::cli
