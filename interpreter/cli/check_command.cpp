#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "check/check_files.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "diag/diagnostics.h"

namespace polemos::cli {
namespace fs = std::filesystem;

namespace {

const char* kCheckUsage =
    "usage: polemos check [--threads T] PATH...\n"
    "\n"
    "Checks rulesets, scenarios, house-rule files and stdlib modules. A directory is searched\n"
    "for *.pol files. Errors are printed as file:line:col: error: message, with the source line\n"
    "and a caret. Exit status: 0 clean, 1 errors, 2 bad usage.\n"
    "\n"
    "Several files are checked on T threads at once (default: one per core); what is printed\n"
    "is the same whatever T.\n";

}  // namespace

int checkCommand(const std::vector<std::string>& args) {
  CommandLine line = readCommandLine(args, {"--threads"}, {});
  if (auto rc = helpOrUnknown(line, "polemos check", kCheckUsage)) return *rc;
  const std::vector<std::string>& paths = line.positionals;
  if (paths.empty()) {
    std::fputs(kCheckUsage, stderr);
    return 2;
  }
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  if (!readThreads(line, threads))
    return fmt::print(stderr, "polemos check: --threads needs 1 to 256\n"), 2;
  std::vector<fs::path> files;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<fs::path> found;
      for (auto it = fs::recursive_directory_iterator(p, ec); !ec && it != fs::end(it);
           it.increment(ec)) {
        if (it->is_regular_file(ec) && it->path().extension() == ".pol")
          found.push_back(it->path());
      }
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::exists(p, ec)) {
      files.emplace_back(p);
    } else {
      fmt::print(stderr, "polemos check: no such file or directory: {}\n", p);
      return 2;
    }
  }
  std::vector<std::string> names;
  for (const fs::path& f : files) names.push_back(f.string());
  check::FilesChecked result = check::checkFiles(names, threads);
  std::fputs(result.rendered.c_str(), stdout);
  if (result.errors > 0) {
    fmt::print("{} error{} in {} file{}\n", result.errors, result.errors == 1 ? "" : "s",
               files.size(), files.size() == 1 ? "" : "s");
    return 1;
  }
  return 0;
}

}  // namespace polemos::cli
