#include "cli/options.h"

#include <CLI/CLI.hpp>
#include <algorithm>

namespace polemos::cli {

CommandLine readCommandLine(const std::vector<std::string>& args,
                            const std::vector<std::string>& valued,
                            const std::vector<std::string>& flags) {
  CommandLine out;
  CLI::App app;
  app.set_help_flag();     // the commands print their own usage
  app.allow_extras(true);  // an unknown option is the command's to report
  for (const auto& name : valued) {
    out.values[name];
    app.add_option(name, out.values[name])
        ->type_size(1)
        ->expected(1)
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  }
  for (const auto& name : flags) app.add_flag(name, out.flags[name]);
  bool help = false;
  app.add_flag("-h,--help", help);
  app.add_option("words", out.positionals);
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 reads a reversed vector
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError&) {
    // A valued option with nothing after it is the only way this parse fails: it is the last word.
    // The words before it are read again, so that what comes first is reported first.
    std::vector<std::string> before(args.begin(), args.end() - (args.empty() ? 0 : 1));
    CommandLine rest = readCommandLine(before, valued, flags);
    rest.missingValue = args.empty() ? std::string() : args.back();
    return rest;
  }
  // What CLI11 did not take: an unknown option (or `--`), reported at its first place.
  size_t unknownAt = args.size();
  for (const auto& w : app.remaining()) {
    if (w.empty() || w[0] != '-') continue;
    size_t at = static_cast<size_t>(std::find(args.begin(), args.end(), w) - args.begin());
    if (at < unknownAt) unknownAt = at;
  }
  if (unknownAt < args.size()) out.unknown = args[unknownAt];
  // Help counts when it comes before the first unknown option (the commands read in order).
  for (size_t i = 0; i < unknownAt; ++i)
    if (args[i] == "--help" || args[i] == "-h") out.help = true;
  return out;
}

}  // namespace polemos::cli
