// Loading and checking: from a ruleset name (plus scenario and house files) to a lowered Program.
//
// The loader finds files (rulesets/NAME/NAME.pol, its `include`s, the rulesets it `extends`, the
// stdlib modules it `uses`, scenarios under rulesets/NAME/scenarios/, house files), parses them,
// merges overlays in order (base, extensions, house files, scenario rules) and hands the merged
// declarations to the compiler. Every problem is a diagnostic; nothing throws past this API.
#pragma once

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "ast/ast.h"
#include "check/compiler.h"
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
  std::string layer;  // the ruleset, house file or scenario that made it
  std::vector<std::string> citations;
  diag::SourceRange range;
};

struct Loaded {
  std::shared_ptr<const ir::Program> program;
  std::vector<OverlayChange> changes;
};

// The merged declarations of one load, for tools that compare rules (`polemos diff`): the
// declarations point into syntax trees that `trees` keeps alive, and their ranges into the
// SourceManager of the Diagnostics the loader reported to (the caller keeps that alive).
struct MergedRules {
  std::string ruleset;              // the name of the last ruleset of the chain
  std::string what;                 // for headings: "ruleset fourbattles (extends standard)"
  std::string base;                 // what this overlays, loadable by loadForDiff (may be empty)
  std::vector<std::string> layers;  // layer names; MergedDecl::layer indexes this
  std::vector<MergedDecl> decls;    // in merged order: modules first, then the ruleset chain
  std::vector<OverlayChange> changes;
  // The scenario block of the load, if any (its map, sides, forces and settings cite rules too).
  const ast::Block* scenario = nullptr;
  std::shared_ptr<const void> trees;  // owns the ASTs the declarations point into
};

// What a declaration is called in messages and in a diff: its kind ("unit type", "modifier") and
// its name (a quantity's dotted name; empty for `sequence` and `levels`).
std::string declKindWord(const ast::Decl& d);
std::string declName(const ast::Decl& d);

class Loader {
 public:
  explicit Loader(diag::Diagnostics& diags);

  // Directories searched for rulesets/ and stdlib/: $POLEMOS_PATH (colon-separated), then the
  // source tree the binary was built from.
  void addSearchRoot(std::string dir) { roots_.push_back(std::move(dir)); }
  const std::vector<std::string>& roots() const { return roots_; }

  // Loads and checks; returns a Program, or null with errors in the diagnostics. With `rules`,
  // also hands back the merged declarations (filled only when the load succeeds).
  Loaded load(const LoadRequest& req, MergedRules* rules = nullptr);

  // Loads and checks what one argument of `polemos diff` names: a ruleset name or a ruleset file
  // is that ruleset (with its bases), a house file is the ruleset it names (its sibling file, or
  // by name) with the house rules over it. Scenarios, modules and `part of` files are refused.
  // Returns false with errors in the diagnostics.
  bool loadForDiff(const std::string& rulesetOrFile, MergedRules& out);

  // Checks one file as a user would expect from `polemos check FILE`: a ruleset is loaded with
  // its bases and modules, a house file with the ruleset it names, a scenario with its ruleset,
  // a `part of` file with the ruleset that includes it, a module on its own. A ruleset checked
  // once by this loader (for itself or for one of its parts) is not checked again for another
  // of its parts: `polemos check rulesets` loads each ruleset once, not once per file.
  void checkFile(const std::string& path);
  // The same for a source held in memory, checked as if it were the file at `path` (its `include`s
  // and the ruleset it names are looked for next to that path, on disk). Nothing is written; the
  // text stands for that path for the rest of this loader's life.
  void checkText(const std::string& path, std::string text);

  // Parses a file into the cache without checking it, so that the loads of later checks find it
  // parsed (check_files.h parses every file given on several threads first); its syntax errors
  // are reported now.
  void parseOnly(const std::string& path);

  // Makes this loader share `other`'s parsed files and the rulesets it has checked, for loaders
  // that check files together on several threads (check_files.h): a file is parsed once for all
  // of them and a ruleset checked once. Both must report to Diagnostics over one SourceManager
  // (the trees' locations are that manager's file ids).
  void shareCachesOf(const Loader& other) {
    parseCache_ = other.parseCache_;
    checkedRulesets_ = other.checkedRulesets_;
  }

  // A house-rule file as given: a path that exists; else, under each search root, rulesets/house/H
  // (with .pol added if it lacks it), so `--house no_displacement` finds the shipped file; else
  // rulesets/H (`house/no_displacement.pol`). The name as given when nothing matches.
  std::string findHouse(const std::string& given) const;

  // Names of the rulesets and scenarios found under the search roots.
  std::vector<std::string> rulesetNames() const;
  std::vector<std::string> scenarioNames(const std::string& ruleset) const;

 private:
  struct Impl;
  // A file parsed by this loader: its tree, whether parsing it reported errors (syntax, or a
  // citation of another document), and its name and hash for a save's list of sources. `pending`:
  // another loader sharing the cache is parsing it now.
  struct ParsedFile {
    std::shared_ptr<ast::File> tree;
    diag::FileId file{};
    bool broken = false;
    bool pending = false;
    std::string source, hash;
  };
  struct ParseCache {
    std::mutex m;
    std::condition_variable parsed;           // a pending file is done (or given up)
    std::map<std::string, ParsedFile> files;  // by canonical path
  };
  struct CheckedRulesets {
    std::mutex m;
    std::set<std::string> paths;  // by canonical path
    bool claim(const std::string& path) {
      std::lock_guard<std::mutex> lock(m);
      return paths.insert(path).second;
    }
  };
  diag::Diagnostics& diags_;
  std::vector<std::string> roots_;
  std::shared_ptr<CheckedRulesets> checkedRulesets_ = std::make_shared<CheckedRulesets>();
  std::map<std::string, std::string> texts_;  // sources given in memory (checkText), by path
  std::shared_ptr<ParseCache> parseCache_ = std::make_shared<ParseCache>();
};

}  // namespace polemos::check
