// A ruleset given as text, written to a file of its own in a temporary folder and loaded (as
// ruleset and scenario both), for unit tests that need a small game of their own; the folder
// goes with the object.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "check/loader.h"
#include "diag/diagnostics.h"

namespace polemos::test_helpers {

struct TempRules {
  std::filesystem::path dir;
  std::shared_ptr<const ir::Program> program;  // null if the text does not load
  // `tag` names the folder (with the process id), so that tests running at once keep apart.
  TempRules(const std::string& text, const std::string& tag) {
    dir = std::filesystem::temp_directory_path() /
          ("polemos_" + tag + "_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "t.pol").string();
    std::ofstream(path) << text;
    diag::SourceManager sources;
    diag::Diagnostics diags(sources);
    program = check::Loader(diags).load(check::LoadRequest{path, path, {}}).program;
  }
  TempRules(const TempRules&) = delete;
  TempRules& operator=(const TempRules&) = delete;
  ~TempRules() { std::filesystem::remove_all(dir); }
};

}  // namespace polemos::test_helpers
