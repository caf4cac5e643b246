#include "check/loader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "ast/citations.h"
#include "check/compiler.h"
#include "cite/citation.h"
#include "diag/read_file.h"
#include "limits/limits.h"
#include "syntax/parse.h"

namespace polemos::check {
namespace fs = std::filesystem;

namespace {

// A source file, read only if it is within the size limit (the parser would refuse it anyway; this
// refuses it before reading it).
bool readFile(const fs::path& p, std::string& out, std::string& why) {
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) {
    why = fmt::format("cannot read '{}'", p.string());
    return false;
  }
  return diag::readFileBounded(p.string(), limits::kMaxSourceBytes, out, why);
}

// The namespace a declaration's name lives in, for overlay matching.
std::string nsOf(const ast::Decl& d) {
  using K = ast::DeclKind;
  switch (d.kind) {
    case K::Modifier:
      return "modifier";
    case K::Trigger:
      return "trigger";
    case K::Terrain:
      return "terrain";
    case K::Hexside:
      return "hexside";
    case K::UnitType:
      return "unit type";
    case K::SideState:
      return "side state";
    case K::GameState:
      return "game state";
    case K::HexState:
      return "hex state";
    case K::TerrainAttributes:
      return "terrain attributes";
    case K::HexsideAttributes:
      return "hexside attributes";
    case K::ScenarioAttributes:
      return "scenario attributes";
    case K::Sequence:
      return "sequence";
    case K::Levels:
      return "levels";
    default:
      return "value";
  }
}

std::string nameOf(const ast::Decl& d) {
  if (d.kind == ast::DeclKind::Quantity) return d.qualified.joined();
  return d.name.name;
}

std::string kindWord(const ast::Decl& d) {
  using K = ast::DeclKind;
  switch (d.kind) {
    case K::Option:
      return "option";
    case K::Enum:
      return "enum";
    case K::Const:
      return "const";
    case K::Die:
      return "die";
    case K::UnitClass:
      return "unit class";
    case K::UnitType:
      return "unit type";
    case K::Terrain:
      return "terrain";
    case K::Hexside:
      return "hexside";
    case K::Table:
      return "table";
    case K::Quantity:
      return "quantity";
    case K::Modifier:
      return "modifier";
    case K::Function:
      return "function";
    case K::Procedure:
      return "procedure";
    case K::Action:
      return "action";
    case K::Results:
      return "results";
    case K::Event:
      return "event";
    case K::Trigger:
      return "trigger";
    case K::Sequence:
      return "sequence";
    case K::Levels:
      return "levels";
    case K::SideState:
      return "side state";
    case K::GameState:
      return "game state";
    case K::HexState:
      return "hex state";
    case K::TerrainAttributes:
      return "terrain attributes";
    case K::HexsideAttributes:
      return "hexside attributes";
    case K::ScenarioAttributes:
      return "scenario attributes";
    default:
      return "declaration";
  }
}

// What `remove KIND NAME` names, as the namespace of nsOf().
std::string nsOfRemoveKind(const std::string& kind) {
  if (kind == "modifier" || kind == "trigger" || kind == "terrain" || kind == "hexside" ||
      kind == "unit type" || kind == "sequence" || kind == "levels")
    return kind;
  return "value";
}

struct Layer {
  std::string name;  // for diff and messages
  std::vector<const ast::Decl*> decls;
  bool overlay = false;
};

}  // namespace

struct Loader::Impl {
  Loader& self;
  diag::Diagnostics& D;
  std::vector<std::shared_ptr<ast::File>> files;  // the ASTs this load uses
  std::map<std::string, ast::File*> parsed;       // canonical path -> AST
  std::set<std::string> loadingRulesets;          // cycle detection
  std::set<std::string> usedModules;
  std::vector<std::string> lineagePaths;  // the files of the ruleset chain, base first
  diag::SourceRange rulesetRange;  // the name of the last ruleset loaded, for whole-ruleset errors
  std::set<const ast::File*> syntaxBroken;  // files with syntax errors (reported once, when parsed)
  bool usedBroken = false;                  // the current load uses such a file
  std::vector<std::pair<std::string, std::string>> sourceFiles;  // read by this load (Program)
  fs::path includeRoot;  // the folder of the block whose includes are being followed

  explicit Impl(Loader& l) : self(l), D(l.diags_) {}

  // The tree of the file at `key` whose text is `text`: the one in the cache when it was parsed
  // from the same text, byte for byte, else parsed now and cached. Loaders sharing the cache wait
  // for a file another is parsing rather than parse it twice. A copy of the entry (its tree is
  // shared); no tree if the parser gave none.
  ParsedFile cachedOrParsed(const std::string& key, const fs::path& p, std::string text) {
    ParseCache& cache = *self.parseCache_;
    std::unique_lock<std::mutex> lock(cache.m);
    for (;;) {
      auto it = cache.files.find(key);
      if (it == cache.files.end()) break;
      if (it->second.pending) {
        cache.parsed.wait(lock);
        continue;
      }
      if (D.sources().text(it->second.file) == text) return it->second;
      break;
    }
    cache.files[key].pending = true;
    lock.unlock();
    // Whatever happens below, the entry is no longer pending once this returns (or throws).
    struct Settle {
      ParseCache& cache;
      const std::string& key;
      bool done = false;
      void operator()(const ParsedFile* result) {
        std::lock_guard<std::mutex> relock(cache.m);
        if (result)
          cache.files[key] = *result;
        else
          cache.files.erase(key);
        done = true;
        cache.parsed.notify_all();
      }
      ~Settle() {
        if (!done) (*this)(nullptr);
      }
    } settle{cache, key};
    ParsedFile entry;
    entry.source = sourceName(p);
    entry.hash = textHash(text);
    entry.file = D.sources().add(displayPath(p), std::move(text));
    size_t errorsBefore = D.reportCount();
    std::unique_ptr<ast::File> f = syntax::parseFile(D, entry.file);
    if (!f) {
      settle(nullptr);
      return entry;
    }
    checkCitationDocuments(*f);
    // A file with syntax errors holds an incomplete tree: no load that uses it is compiled.
    entry.broken = D.reportCount() > errorsBefore;
    entry.tree = std::move(f);
    settle(&entry);
    return entry;
  }

  // A file is parsed once per Loader, however many loads read it (`polemos check rulesets` loads
  // Standard's files for every scenario and overlay): a later load reads the file again and
  // reuses the tree when the text is the same, byte for byte. Its syntax and citation errors were
  // reported when it was parsed; a load that uses it fails as the first did.
  ast::File* parsePath(const fs::path& p, diag::SourceRange from) {
    std::error_code ec;
    fs::path canon = fs::weakly_canonical(p, ec);
    std::string key = ec ? p.string() : canon.string();
    if (auto it = parsed.find(key); it != parsed.end()) {
      if (syntaxBroken.count(it->second)) usedBroken = true;
      return it->second;
    }
    std::string text, why;
    if (auto given = self.texts_.find(p.string()); given != self.texts_.end()) {
      text = given->second;
    } else if (!readFile(p, text, why)) {
      D.error(from, why);
      return nullptr;
    }
    ParsedFile entry = cachedOrParsed(key, p, std::move(text));
    if (!entry.tree) return nullptr;
    sourceFiles.emplace_back(entry.source, entry.hash);
    ast::File* raw = entry.tree.get();
    if (entry.broken) {
      syntaxBroken.insert(raw);
      usedBroken = true;
    }
    files.push_back(entry.tree);
    parsed[key] = raw;
    return raw;
  }

  // `§chalons:6.1` cites a scenario's exclusive rules: only that scenario's block may (its special
  // rules, map, forces and settings); a ruleset, module or house file cites its own rule book.
  void checkCitationDocuments(const ast::File& f) {
    auto check = [&](const std::string& allowed, const char* where) {
      return [&, where](const ast::Citation& c) {
        auto cite = cite::Citation::parse(c.text);
        if (!cite || cite->document().empty() || cite->document() == allowed) return;
        if (allowed.empty())
          D.error(
              c.range,
              fmt::format("§{} cites the exclusive rules of scenario '{}': only that scenario's "
                          "block may; {} cites its own rule book (write §{})",
                          c.text, cite->document(), where, cite->section()));
        else
          D.error(
              c.range,
              fmt::format("§{} cites the exclusive rules of scenario '{}', but this is scenario "
                          "'{}' (write §{}:{}, or §{} for the ruleset's rule)",
                          c.text, cite->document(), allowed, allowed, cite->section(),
                          cite->section()));
      };
    };
    for (const auto& d : f.decls) ast::forEachCitation(*d, check("", "a `part of` file"));
    for (const auto& b : f.blocks) {
      bool scenario = b->kind == ast::BlockKind::Scenario;
      ast::forEachCitation(*b, check(scenario ? b->name.name : "",
                                     b->kind == ast::BlockKind::House    ? "a house file"
                                     : b->kind == ast::BlockKind::Module ? "a module"
                                                                         : "a ruleset"));
    }
  }

  // A file's name in a save's list of sources: relative to the search root it is under, else its
  // file name (a save names no directory of the machine it was made on).
  std::string sourceName(const fs::path& p) const {
    std::error_code ec;
    fs::path canon = fs::weakly_canonical(p, ec);
    for (const auto& r : self.roots_) {
      fs::path root = fs::weakly_canonical(r, ec);
      fs::path rel = fs::relative(canon, root, ec);
      if (!ec && !rel.empty() && rel.native().rfind("..", 0) != 0) return rel.generic_string();
    }
    return p.filename().string();
  }
  static std::string textHash(const std::string& text) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a
    for (unsigned char c : text) {
      h ^= c;
      h *= 1099511628211ull;
    }
    return fmt::format("{:016x}", h);
  }

  static std::string displayPath(const fs::path& p) {
    std::error_code ec;
    fs::path rel = fs::relative(p, fs::current_path(ec), ec);
    if (!ec && !rel.empty() && rel.native().rfind("..", 0) != 0) return rel.string();
    return p.string();
  }

  std::vector<fs::path> roots() const {
    std::vector<fs::path> out;
    for (const auto& r : self.roots_) out.emplace_back(r);
    return out;
  }

  // A ruleset by name: a sibling file NAME.pol of the file that names it (for overlays kept
  // together, as in the tests), then rulesets/NAME/NAME.pol under each search root.
  // Whether a source file is there: on disk, or given in memory (checkText).
  bool exists(const fs::path& p) const { return self.texts_.count(p.string()) || fs::exists(p); }

  std::optional<fs::path> findRuleset(const std::string& name, const fs::path& nearDir = {}) const {
    if (name.find('/') != std::string::npos || name.ends_with(".pol")) {
      if (exists(name)) return fs::path(name);
      return std::nullopt;
    }
    if (!nearDir.empty() && exists(nearDir / (name + ".pol"))) return nearDir / (name + ".pol");
    for (const auto& r : roots()) {
      fs::path p = r / "rulesets" / name / (name + ".pol");
      if (fs::exists(p)) return p;
    }
    return std::nullopt;
  }

  std::optional<fs::path> findModule(const std::string& qualified) const {
    // stdlib.odds -> stdlib/odds.pol
    std::string rel = qualified;
    std::replace(rel.begin(), rel.end(), '.', '/');
    for (const auto& r : roots()) {
      fs::path p = r / (rel + ".pol");
      if (fs::exists(p)) return p;
    }
    return std::nullopt;
  }

  const ast::Block* findBlock(ast::File* f, ast::BlockKind k) {
    if (!f) return nullptr;
    for (const auto& b : f->blocks)
      if (b->kind == k) return b.get();
    return nullptr;
  }

  // Collects a block's declarations, following includes (relative to the including file).
  void collect(const std::vector<ast::DeclPtr>& decls, const fs::path& dir, Layer& layer,
               std::vector<Layer>& modules, int depth) {
    for (const auto& d : decls) {
      if (d->kind == ast::DeclKind::Include) {
        if (depth > 8) {
          D.error(d->range, "includes nested more than 8 deep");
          continue;
        }
        // An included file is a rule file (.pol) in the including ruleset's folder or below it:
        // a ruleset reads nothing else of the machine it runs on.
        if (depth == 0) {
          std::error_code ec;
          includeRoot = fs::weakly_canonical(dir, ec);
        }
        for (const auto& inc : d->includes) {
          fs::path p = dir / inc;
          std::error_code ec;
          fs::path canon = fs::weakly_canonical(p, ec);
          fs::path rel = fs::relative(canon, includeRoot, ec);
          if (fs::path(inc).is_absolute() || ec || rel.empty() ||
              rel.native().rfind("..", 0) == 0) {
            D.error(d->range, fmt::format("'{}' is outside the ruleset's folder: an included file "
                                          "must be a .pol file in the folder of the file that "
                                          "includes it, or below it",
                                          inc));
            continue;
          }
          if (fs::path(inc).extension() != ".pol") {
            D.error(
                d->range,
                fmt::format("'{}' is not a rule file: an included file's name ends in .pol", inc));
            continue;
          }
          ast::File* f = parsePath(p, d->range);
          if (!f) continue;
          if (!f->blocks.empty()) {
            D.error(d->range, fmt::format("'{}' is not a `part of` file: an included file holds "
                                          "declarations only",
                                          inc));
            continue;
          }
          collect(f->decls, p.parent_path(), layer, modules, depth + 1);
        }
        continue;
      }
      if (d->kind == ast::DeclKind::Uses) {
        for (const auto& q : d->uses) {
          std::string name = q.joined();
          if (usedModules.count(name)) continue;
          usedModules.insert(name);
          auto p = findModule(name);
          if (!p) {
            D.error(q.range,
                    fmt::format("unknown module '{}' (looked for {}.pol under the search roots)",
                                name, [&] {
                                  std::string r = name;
                                  std::replace(r.begin(), r.end(), '.', '/');
                                  return r;
                                }()));
            continue;
          }
          ast::File* f = parsePath(*p, q.range);
          const ast::Block* mb = findBlock(f, ast::BlockKind::Module);
          if (!mb) {
            if (f) D.error(q.range, fmt::format("'{}' does not hold a module block", p->string()));
            continue;
          }
          Layer ml;
          ml.name = "module " + name;
          collect(mb->decls, p->parent_path(), ml, modules, depth + 1);
          modules.push_back(std::move(ml));
        }
        continue;
      }
      layer.decls.push_back(d.get());
    }
  }

  // Loads a ruleset and its bases as layers (base first).
  bool loadRulesetLayers(const std::string& name, diag::SourceRange from,
                         std::vector<Layer>& layers, std::vector<Layer>& modules,
                         std::string& finalName, std::string& title,
                         std::vector<std::string>& lineage, const fs::path& nearDir = {}) {
    auto path = findRuleset(name, nearDir);
    if (!path) {
      auto& d = D.error(from, fmt::format("unknown ruleset '{}'", name));
      std::string known;
      for (const auto& n : self.rulesetNames()) known += (known.empty() ? "" : ", ") + n;
      if (!known.empty()) D.note(d, {}, "known rulesets: " + known);
      return false;
    }
    if (loadingRulesets.count(path->string())) {
      D.error(from, fmt::format("ruleset '{}' extends itself (a cycle of `extends`)", name));
      return false;
    }
    loadingRulesets.insert(path->string());
    ast::File* f = parsePath(*path, from);
    const ast::Block* rb = findBlock(f, ast::BlockKind::Ruleset);
    if (!rb) {
      if (f) D.error(from, fmt::format("'{}' holds no ruleset block", path->string()));
      return false;
    }
    if (!rb->base.name.empty()) {
      fs::path dir = path->parent_path().empty() ? fs::path(".") : path->parent_path();
      if (!loadRulesetLayers(rb->base.name, rb->base.range, layers, modules, finalName, title,
                             lineage, dir))
        return false;
    }
    Layer l;
    l.name = "ruleset " + rb->name.name;
    l.overlay = !rb->base.name.empty();
    collect(rb->decls, path->parent_path(), l, modules, 0);
    layers.push_back(std::move(l));
    finalName = rb->name.name;
    title = rb->title;
    rulesetRange = rb->name.range;
    lineage.push_back(rb->name.name);
    lineagePaths.push_back(path->string());
    return true;
  }

  // Merges layers into one ordered declaration list, applying overlays.
  std::vector<MergedDecl> merge(const std::vector<Layer>& layers,
                                std::vector<OverlayChange>& changes) {
    struct Entry {
      const ast::Decl* decl;
      int layer;
      bool removed = false;
    };
    std::vector<Entry> order;
    std::map<std::pair<std::string, std::string>, size_t> index;  // (ns, name) -> order slot
    // Fields of side and game state merge across layers rather than replace.
    for (size_t li = 0; li < layers.size(); ++li) {
      const Layer& L = layers[li];
      for (const ast::Decl* d : L.decls) {
        bool multi = d->kind == ast::DeclKind::SideState || d->kind == ast::DeclKind::GameState ||
                     d->kind == ast::DeclKind::HexState ||
                     d->kind == ast::DeclKind::TerrainAttributes ||
                     d->kind == ast::DeclKind::HexsideAttributes ||
                     d->kind == ast::DeclKind::ScenarioAttributes;
        if (d->overlay == ast::OverlayMode::Remove) {
          auto key = std::make_pair(nsOfRemoveKind(d->removeKind), d->qualified.joined());
          auto it = index.find(key);
          if (it != index.end() && !order[it->second].removed && key.first == "value" &&
              kindWord(*order[it->second].decl) != d->removeKind) {
            D.error(d->qualified.range,
                    fmt::format("cannot remove {} '{}': '{}' is a {}", d->removeKind,
                                d->qualified.joined(), d->qualified.joined(),
                                kindWord(*order[it->second].decl)));
            continue;
          }
          if (it == index.end() || order[it->second].removed) {
            D.error(d->qualified.range,
                    fmt::format("cannot remove {} '{}': it is not declared in what "
                                "this overlays",
                                d->removeKind, d->qualified.joined()));
            continue;
          }
          order[it->second].removed = true;
          index.erase(it);
          OverlayChange c;
          c.kind = OverlayChange::Removed;
          c.declKind = d->removeKind;
          c.name = d->qualified.joined();
          c.layer = L.name;
          for (const auto& ci : d->citations) c.citations.push_back(ci.text);
          c.range = d->range;
          changes.push_back(c);
          continue;
        }
        if (multi && d->overlay != ast::OverlayMode::Replace) {
          order.push_back(Entry{d, static_cast<int>(li)});
          continue;
        }
        auto key = std::make_pair(nsOf(*d), nameOf(*d));
        auto it = index.find(key);
        bool exists = it != index.end();
        if (multi) {
          exists = std::any_of(order.begin(), order.end(), [&](const Entry& e) {
            return !e.removed && e.decl->kind == d->kind;
          });
        }
        if (d->overlay == ast::OverlayMode::Replace) {
          if (!exists) {
            D.error(d->range.valid() ? d->range : d->name.range,
                    fmt::format("cannot replace {} '{}': it is not declared in what this overlays",
                                kindWord(*d), nameOf(*d)));
            continue;
          }
          if (multi) {
            // Replacing a state block: drop every earlier block of that kind.
            for (auto& e : order)
              if (e.decl->kind == d->kind) e.removed = true;
            order.push_back(Entry{d, static_cast<int>(li)});
            index[key] = order.size() - 1;
          } else {
            const ast::Decl* old = order[it->second].decl;
            if (old->kind != d->kind) {
              D.error(d->name.range,
                      fmt::format("'{}' is a {} in the base; `replace` must keep its kind",
                                  nameOf(*d), kindWord(*old)));
              continue;
            }
            order[it->second].decl = d;  // keeps its place (modifier order)
            order[it->second].layer = static_cast<int>(li);
          }
          OverlayChange c;
          c.kind = OverlayChange::Replaced;
          c.declKind = kindWord(*d);
          c.name = nameOf(*d);
          c.layer = L.name;
          for (const auto& ci : d->citations) c.citations.push_back(ci.text);
          c.range = d->range;
          changes.push_back(c);
          continue;
        }
        if (exists && d->kind == ast::DeclKind::Sequence) {
          auto& diag =
              D.error(d->range, "a ruleset has one sequence of play; this is a second one");
          D.note(diag, order[it->second].decl->range,
                 "the first is here (an overlay changes it with `replace sequence`)");
          continue;
        }
        if (exists) {
          const ast::Decl* old = order[it->second].decl;
          auto& diag =
              D.error(d->kind == ast::DeclKind::Quantity ? d->qualified.range : d->name.range,
                      L.overlay || d->overlay == ast::OverlayMode::Add
                          ? fmt::format("{} '{}' already exists in what this overlays; use "
                                        "`replace {} {}` to change it",
                                        kindWord(*d), nameOf(*d), kindWord(*d), nameOf(*d))
                          : fmt::format("'{}' is already declared", nameOf(*d)));
          D.note(diag,
                 old->kind == ast::DeclKind::Quantity ? old->qualified.range : old->name.range,
                 "previous declaration is here");
          continue;
        }
        order.push_back(Entry{d, static_cast<int>(li)});
        index[key] = order.size() - 1;
        if (L.overlay) {
          OverlayChange c;
          c.kind = OverlayChange::Added;
          c.declKind = kindWord(*d);
          c.name = nameOf(*d);
          c.layer = L.name;
          for (const auto& ci : d->citations) c.citations.push_back(ci.text);
          c.range = d->range;
          changes.push_back(c);
        }
      }
    }
    std::vector<MergedDecl> out;
    for (const auto& e : order)
      if (!e.removed) out.push_back(MergedDecl{e.decl, e.layer});
    return out;
  }

  Loaded load(const LoadRequest& req, MergedRules* rules = nullptr) {
    Loaded result;
    size_t errorsBefore = D.reportCount();
    usedBroken = false;
    auto failed = [&] { return D.reportCount() > errorsBefore || usedBroken; };
    std::vector<Layer> layers, modules;
    std::string name, title;
    std::vector<std::string> lineage;
    if (!loadRulesetLayers(req.ruleset, {}, layers, modules, name, title, lineage)) return result;
    // House files.
    for (const auto& given : req.houseFiles) {
      std::string h = self.findHouse(given);
      ast::File* f = parsePath(h, {});
      if (!f) continue;
      const ast::Block* hb = findBlock(f, ast::BlockKind::House);
      if (!hb) {
        D.error({}, fmt::format("'{}' holds no `house NAME for RULESET {{...}}` block", h));
        continue;
      }
      if (std::find(lineage.begin(), lineage.end(), hb->base.name) == lineage.end()) {
        D.error(hb->base.range,
                fmt::format("house rules '{}' are for ruleset '{}', but the game uses '{}'",
                            hb->name.name, hb->base.name, name));
        continue;
      }
      Layer l;
      l.name = "house " + hb->name.name;
      l.overlay = true;
      collect(hb->decls, fs::path(h).parent_path(), l, modules, 0);
      layers.push_back(std::move(l));
    }
    // Scenario.
    const ast::Block* sc = nullptr;
    if (!req.scenario.empty()) {
      std::optional<fs::path> sp;
      if (req.scenario.find('/') != std::string::npos || req.scenario.ends_with(".pol")) {
        if (exists(req.scenario)) sp = req.scenario;
      } else {
        for (auto it = lineage.rbegin(); it != lineage.rend() && !sp; ++it)
          for (const auto& r : roots()) {
            fs::path p = r / "rulesets" / *it / "scenarios" / (req.scenario + ".pol");
            if (fs::exists(p)) {
              sp = p;
              break;
            }
          }
      }
      if (!sp) {
        auto& d =
            D.error({}, fmt::format("unknown scenario '{}' for ruleset '{}'", req.scenario, name));
        std::string known;
        for (const auto& n : self.scenarioNames(name)) known += (known.empty() ? "" : ", ") + n;
        if (!known.empty()) D.note(d, {}, "known scenarios: " + known);
        return result;
      }
      ast::File* f = parsePath(*sp, {});
      sc = findBlock(f, ast::BlockKind::Scenario);
      if (!sc) {
        if (f) D.error({}, fmt::format("'{}' holds no scenario block", sp->string()));
        return result;
      }
      if (std::find(lineage.begin(), lineage.end(), sc->base.name) == lineage.end()) {
        D.error(sc->base.range, fmt::format("scenario '{}' is for ruleset '{}', not '{}'",
                                            sc->name.name, sc->base.name, name));
        return result;
      }
      Layer l;
      l.name = "scenario " + sc->name.name;
      l.overlay = true;
      for (const auto& d : sc->scenario.rules) l.decls.push_back(d.get());
      layers.push_back(std::move(l));
    }
    if (failed()) return result;
    // Modules come first, so rulesets can use what they define.
    std::vector<Layer> all = std::move(modules);
    for (auto& l : layers) all.push_back(std::move(l));
    std::vector<std::string> layerNames;
    for (const auto& l : all) layerNames.push_back(l.name);
    auto merged = merge(all, result.changes);
    if (failed()) return result;
    auto program = std::make_shared<ir::Program>();
    program->rulesetName = name;
    program->title = title;
    program->sources = sourceFiles;
    std::sort(program->sources.begin(), program->sources.end());
    program->sources.erase(std::unique(program->sources.begin(), program->sources.end()),
                           program->sources.end());
    if (!compileProgram(D, merged, sc, *program)) return result;
    if (program->sequence < 0) {
      D.error(rulesetRange, fmt::format("ruleset '{}' has no sequence of play", name));
      return result;
    }
    result.program = std::move(program);
    if (rules) {
      rules->ruleset = name;
      rules->what = "ruleset " + name;
      if (lineage.size() > 1) rules->what += " (extends " + lineage[lineage.size() - 2] + ")";
      for (const auto& l : layerNames)
        if (l.rfind("house ", 0) == 0) rules->what += " + " + l;
      if (!req.houseFiles.empty()) {
        rules->base = req.ruleset;
      } else if (lineagePaths.size() > 1) {
        rules->base = lineagePaths[lineagePaths.size() - 2];
      }
      rules->layers = std::move(layerNames);
      rules->decls = std::move(merged);
      rules->changes = result.changes;
      rules->scenario = sc;
      rules->trees = std::make_shared<std::vector<std::shared_ptr<ast::File>>>(std::move(files));
      files.clear();
      parsed.clear();
    }
    return result;
  }

  bool loadForDiff(const std::string& given, MergedRules& out) {
    size_t before = D.reportCount();
    LoadRequest r;
    bool named = given.find('/') == std::string::npos && !given.ends_with(".pol");
    if (named && (findRuleset(given) || self.findHouse(given) == given)) {
      r.ruleset = given;
    } else {
      std::string arg = self.findHouse(given);
      ast::File* f = parsePath(arg, {});
      if (!f || D.reportCount() > before) return false;
      const ast::Block* rb = findBlock(f, ast::BlockKind::Ruleset);
      const ast::Block* hb = findBlock(f, ast::BlockKind::House);
      if (rb) {
        r.ruleset = arg;
      } else if (hb) {
        r.ruleset = nearby(hb->base.name, arg);
        r.houseFiles.push_back(arg);
      } else {
        const char* what = f->partOf           ? "an included `part of` file"
                           : f->blocks.empty() ? "a file without a block"
                           : f->blocks.front()->kind == ast::BlockKind::Scenario ? "a scenario"
                                                                                 : "a module";
        diag::SourceRange at = f->partOf            ? f->partOf->range
                               : !f->blocks.empty() ? f->blocks.front()->name.range
                                                    : diag::SourceRange{};
        D.error(at,
                fmt::format("'{}' is {}: diff compares rulesets and house-rule files", arg, what));
        return false;
      }
    }
    Loaded l = load(r, &out);
    return l.program != nullptr;
  }

  // The ruleset a house file or scenario names: its sibling file if there is one, else by name.
  std::string nearby(const std::string& name, const std::string& file) const {
    fs::path p = fs::path(file).parent_path() / (name + ".pol");
    if (fs::exists(p) && fs::path(file).filename() != p.filename()) return p.string();
    return name;
  }

  // Whether the ruleset at `path` (a file, or a name resolved later by the load) is checked for
  // the first time by this loader.
  bool firstCheckOf(const std::string& path) {
    std::error_code ec;
    fs::path p = fs::weakly_canonical(fs::path(path), ec);
    return self.checkedRulesets_->claim(ec ? path : p.string());
  }

  void checkFile(const std::string& path) {
    size_t before = D.reportCount();
    ast::File* f = parsePath(path, {});
    if (!f || D.reportCount() > before) return;
    if (f->partOf) {
      // Checked through the ruleset that includes it, once.
      LoadRequest r;
      r.ruleset = nearby(f->partOf->name, path);
      if (!firstCheckOf(r.ruleset)) return;
      Loaded l = load(r);
      (void)l;
      return;
    }
    // A file holding a ruleset and a scenario for it is checked once, as the scenario.
    auto hasScenarioFor = [&](const std::string& ruleset) {
      for (const auto& b : f->blocks)
        if (b->kind == ast::BlockKind::Scenario && b->base.name == ruleset) return true;
      return false;
    };
    for (const auto& b : f->blocks) {
      switch (b->kind) {
        case ast::BlockKind::Ruleset: {
          if (hasScenarioFor(b->name.name)) break;
          if (!firstCheckOf(path)) break;
          LoadRequest r;
          r.ruleset = path;
          load(r);
          break;
        }
        case ast::BlockKind::House: {
          LoadRequest r;
          r.ruleset = nearby(b->base.name, path);
          r.houseFiles.push_back(path);
          load(r);
          break;
        }
        case ast::BlockKind::Scenario: {
          LoadRequest r;
          r.ruleset = nearby(b->base.name, path);
          for (const auto& other : f->blocks)
            if (other->kind == ast::BlockKind::Ruleset && other->name.name == b->base.name)
              r.ruleset = path;
          r.scenario = path;
          load(r);
          break;
        }
        case ast::BlockKind::Module: {
          Layer l;
          l.name = "module";
          std::vector<Layer> modules;
          collect(b->decls, fs::path(path).parent_path(), l, modules, 0);
          modules.push_back(std::move(l));
          std::vector<OverlayChange> changes;
          auto merged = merge(modules, changes);
          if (D.reportCount() > before) return;
          ir::Program p;
          compileProgram(D, merged, nullptr, p);
          break;
        }
      }
    }
    if (f->blocks.empty() && !f->decls.empty()) {
      D.error(f->decls.front()->range,
              "declarations outside a block: start the file with `part of "
              "RULESET` (an included file) or wrap them in a ruleset, house, "
              "module or scenario block");
    }
  }
};

Loader::Loader(diag::Diagnostics& diags) : diags_(diags) {
  if (const char* env = std::getenv("POLEMOS_PATH")) {
    std::string s = env;
    size_t pos = 0;
    while (pos <= s.size()) {
      size_t next = s.find(':', pos);
      if (next == std::string::npos) next = s.size();
      if (next > pos) roots_.push_back(s.substr(pos, next - pos));
      pos = next + 1;
    }
  }
  roots_.push_back(POLEMOS_SOURCE_DIR);
}

Loaded Loader::load(const LoadRequest& req, MergedRules* rules) {
  // The program holds no AST pointers, so the trees die with the Impl unless `rules` keeps them.
  Impl impl(*this);
  return impl.load(req, rules);
}

bool Loader::loadForDiff(const std::string& rulesetOrFile, MergedRules& out) {
  Impl impl(*this);
  return impl.loadForDiff(rulesetOrFile, out);
}

std::string declKindWord(const ast::Decl& d) {
  return kindWord(d);
}
std::string declName(const ast::Decl& d) {
  return nameOf(d);
}

void Loader::checkFile(const std::string& path) {
  Impl impl(*this);
  impl.checkFile(path);
}

void Loader::parseOnly(const std::string& path) {
  Impl impl(*this);
  impl.parsePath(path, {});
}

void Loader::checkText(const std::string& path, std::string text) {
  texts_[path] = std::move(text);
  checkFile(path);
}

std::string Loader::findHouse(const std::string& given) const {
  std::error_code ec;
  if (given.empty() || fs::exists(given, ec)) return given;
  std::string file = given.ends_with(".pol") ? given : given + ".pol";
  for (const auto& r : roots_) {
    if (given.find('/') == std::string::npos &&
        fs::exists(fs::path(r) / "rulesets" / "house" / file, ec))
      return (fs::path(r) / "rulesets" / "house" / file).string();
    if (fs::exists(fs::path(r) / "rulesets" / file, ec))
      return (fs::path(r) / "rulesets" / file).string();
  }
  return given;
}

std::vector<std::string> Loader::rulesetNames() const {
  std::set<std::string> names;
  for (const auto& r : roots_) {
    std::error_code ec;
    for (auto it = fs::directory_iterator(fs::path(r) / "rulesets", ec); !ec && it != fs::end(it);
         it.increment(ec)) {
      std::string n = it->path().filename().string();
      if (fs::exists(it->path() / (n + ".pol"))) names.insert(n);
    }
  }
  return {names.begin(), names.end()};
}

std::vector<std::string> Loader::scenarioNames(const std::string& ruleset) const {
  std::set<std::string> names;
  for (const auto& r : roots_) {
    std::error_code ec;
    for (auto it = fs::directory_iterator(fs::path(r) / "rulesets" / ruleset / "scenarios", ec);
         !ec && it != fs::end(it); it.increment(ec)) {
      if (it->path().extension() == ".pol") names.insert(it->path().stem().string());
    }
  }
  return {names.begin(), names.end()};
}

}  // namespace polemos::check
