// cli/options: a command line read with CLI11 the way every subcommand has always read it: a
// valued option takes the next word whatever it looks like, values repeat in order, an option
// given last without its value is named, the first unknown option is the first by position, and
// --help counts only when it comes before it.
#include <gtest/gtest.h>

#include "cli/options.h"

namespace polemos::cli {
namespace {

CommandLine read(std::vector<std::string> args) {
  return readCommandLine(args, {"--seed", "--house"}, {"--json"});
}

TEST(CliOptions, ValuesFlagsAndPositionalsInOrder) {
  CommandLine l = read(
      {"standard", "--house", "a.pol", "chalons", "--json", "--house", "b.pol", "--seed", "7"});
  EXPECT_EQ(l.positionals, (std::vector<std::string>{"standard", "chalons"}));
  EXPECT_EQ(l.values.at("--house"), (std::vector<std::string>{"a.pol", "b.pol"}));
  EXPECT_EQ(l.last("--seed"), "7");
  EXPECT_TRUE(l.flag("--json"));
  EXPECT_TRUE(l.unknown.empty() && l.missingValue.empty() && !l.help);
}

TEST(CliOptions, AValuedOptionTakesTheNextWordWhateverItIs) {
  EXPECT_EQ(read({"--seed", "-1"}).last("--seed"), "-1");
  CommandLine l = read({"--seed", "--json"});
  EXPECT_EQ(l.last("--seed"), "--json");
  EXPECT_FALSE(l.flag("--json"));
}

TEST(CliOptions, AnOptionLastWithoutItsValueIsNamed) {
  CommandLine l = read({"standard", "--json", "--seed"});
  EXPECT_EQ(l.missingValue, "--seed");
  EXPECT_EQ(l.positionals, (std::vector<std::string>{"standard"}));
  EXPECT_TRUE(l.flag("--json"));
  // An unknown option before it is still found (it comes first).
  EXPECT_EQ(read({"--bogus", "--seed"}).unknown, "--bogus");
}

TEST(CliOptions, TheFirstUnknownOptionAndHelpBeforeIt) {
  CommandLine l = read({"a", "--zz", "--yy"});
  EXPECT_EQ(l.unknown, "--zz");
  EXPECT_EQ(read({"-x"}).unknown, "-x");
  EXPECT_EQ(read({"--", "a"}).unknown, "--");
  EXPECT_TRUE(read({"--help", "--bogus"}).help);
  EXPECT_FALSE(read({"--bogus", "--help"}).help);
  EXPECT_TRUE(read({"a", "-h"}).help);
}

}  // namespace
}  // namespace polemos::cli
