// Loading and checking: from a ruleset name (plus scenario and house files) to a lowered Program.
//
// The loader finds files (rulesets/NAME/NAME.pol, its `include`s, the rulesets it `extends`, the
// stdlib modules it `uses`, scenarios under rulesets/NAME/scenarios/, house files), parses them,
// merges overlays in order (base, extensions, house files, scenario rules) and hands the merged
// declarations to the compiler. Every problem is a diagnostic; nothing throws past this API.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ast/ast.h"
#include "diag/diagnostics.h"
#include "ir/program.h"

namespace polemos::check {

struct LoadRequest {
  std::string ruleset;                  // a name (`standard`) or a path to a .pol file
  std::string scenario;                 // a name (`chalons`), a path, or empty
  std::vector<std::string> houseFiles;  // paths
};

// One change made by an overlay, for `polemos diff` and for traces of house rules.
struct OverlayChange {
  enum Kind { Added, Replaced, Removed } kind = Added;
  std::string declKind;  // "modifier", "table", ...
  std::string name;
  std::string layer;     // the ruleset, house file or scenario that made it
  std::vector<std::string> citations;
  diag::SourceRange range;
};

struct Loaded {
  std::shared_ptr<const ir::Program> program;
  std::vector<OverlayChange> changes;
};

class Loader {
 public:
  explicit Loader(diag::Diagnostics& diags);

  // Directories searched for rulesets/ and stdlib/: $POLEMOS_PATH (colon-separated), then the
  // source tree the binary was built from.
  void addSearchRoot(std::string dir) { roots_.push_back(std::move(dir)); }
  const std::vector<std::string>& roots() const { return roots_; }

  // Loads and checks; returns a Program, or null with errors in the diagnostics.
  Loaded load(const LoadRequest& req);

  // Checks one file as a user would expect from `polemos check FILE`: a ruleset is loaded with
  // its bases and modules, a house file with the ruleset it names, a scenario with its ruleset,
  // a `part of` file with the ruleset that includes it, a module on its own.
  void checkFile(const std::string& path);

  // Names of the rulesets and scenarios found under the search roots.
  std::vector<std::string> rulesetNames() const;
  std::vector<std::string> scenarioNames(const std::string& ruleset) const;

 private:
  struct Impl;
  diag::Diagnostics& diags_;
  std::vector<std::string> roots_;
};

}  // namespace polemos::check
