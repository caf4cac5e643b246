// The `polemos` command: subcommand dispatch. Each subcommand lives in interpreter/cli/.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/commands.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return polemos::cli::dispatch(args);
}
