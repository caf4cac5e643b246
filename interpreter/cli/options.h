// Reading a subcommand's command line with CLI11: the options it declares (each with one value,
// repeatable, or a flag), --help and -h, and the positional words in order. It prints nothing: each
// command says what is wrong in its own words and exits with its own status (2: bad usage), so the
// messages stay those documented for each command.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace polemos::cli {

struct CommandLine {
  std::map<std::string, std::vector<std::string>>
      values;                            // a valued option -> its values, in order
  std::map<std::string, bool> flags;     // a flag -> given
  std::vector<std::string> positionals;  // the other words, in order
  bool help = false;                     // --help or -h came before any unknown option
  std::string unknown;                   // the first word that looks like an option and is not one
  std::string missingValue;              // a valued option given last, without its value
  bool has(const std::string& option) const {
    auto it = values.find(option);
    return it != values.end() && !it->second.empty();
  }
  const std::string& last(const std::string& option) const { return values.at(option).back(); }
  bool flag(const std::string& name) const {
    auto it = flags.find(name);
    return it != flags.end() && it->second;
  }
};

// `valued`: options that take a value ("--seed"); `flags`: options that take none ("--json").
CommandLine readCommandLine(const std::vector<std::string>& args,
                            const std::vector<std::string>& valued,
                            const std::vector<std::string>& flags);

}  // namespace polemos::cli
