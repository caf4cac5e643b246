#include "analysis/rule_index.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "analysis/diff.h"
#include "ast/citations.h"
#include "cite/citation.h"
#include "diag/diagnostics.h"

namespace polemos::analysis {

namespace fs = std::filesystem;

bool RuleOrder::operator()(const std::string& a, const std::string& b) const {
  return ruleLess(a, b);
}

std::string ruleNumber(const std::string& written) {
  auto c = cite::Citation::parse(written);
  return c ? c->number() : "";
}

namespace {

std::string relative(const std::string& path, const std::string& root) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(path, ec);
  fs::path r = fs::weakly_canonical(root, ec);
  std::string ps = p.string(), rs = r.string();
  if (!rs.empty() && ps.rfind(rs + "/", 0) == 0) return ps.substr(rs.size() + 1);
  return path;
}

}  // namespace

RuleIndex indexDeclarations(const check::MergedRules& rules, const diag::SourceManager& sources,
                            const std::string& root) {
  RuleIndex index;
  index.ruleset = rules.ruleset;
  for (const auto& md : rules.decls) {
    const ast::Decl& d = *md.decl;
    std::string name = check::declName(d);
    std::string what = check::declKindWord(d) + (name.empty() ? "" : " " + name);
    std::set<std::string> seen;  // one site per rule, declaration and line
    ast::forEachCitation(d, [&](const ast::Citation& c) {
      std::string rule = ruleNumber(c.text);
      if (rule.empty() || !c.range.valid()) return;
      std::string where = fmt::format("{}:{}", relative(sources.name(c.range.begin.file), root),
                                      c.range.begin.line);
      if (!seen.insert(rule + "|" + where).second) return;
      index.sites[rule].push_back(RuleSite{where, what});
    });
  }
  // A scenario's own parts: its heading, map, sides, forces and settings (its special rules are
  // declarations, above).
  if (const ast::Block* sc = rules.scenario) {
    auto add = [&](const std::vector<ast::Citation>& cs, const std::string& what) {
      for (const auto& c : cs) {
        std::string rule = ruleNumber(c.text);
        if (rule.empty() || !c.range.valid()) continue;
        std::string where = fmt::format("{}:{}", relative(sources.name(c.range.begin.file), root),
                                        c.range.begin.line);
        index.sites[rule].push_back(RuleSite{where, what});
      }
    };
    add(sc->citations, "scenario " + sc->name.name);
    if (sc->scenario.map) add(sc->scenario.map->citations, "map");
    for (const auto& side : sc->scenario.sides) add(side.citations, "side " + side.name.name);
    for (const auto& f : sc->scenario.forces) add(f.citations, "force " + f.side.name);
    for (const auto& i : sc->scenario.settings) add(i.citations, "setting " + i.name.name);
  }
  return index;
}

void indexTests(RuleIndex& index, const std::string& root,
                const std::vector<std::string>& rulesets) {
  std::error_code ec;
  fs::path tests = fs::path(root) / "tests";
  if (!fs::is_directory(tests, ec)) return;
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(tests, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file(ec) && it->path().extension() == ".script") files.push_back(it->path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    std::ifstream in(f);
    std::string line, ruleset;
    std::vector<std::string> lines;
    while (std::getline(in, line)) {
      if (line.rfind("# ruleset:", 0) == 0 && ruleset.empty()) {
        std::istringstream ls(line.substr(10));
        ls >> ruleset;
      }
      lines.push_back(line);
    }
    if (std::find(rulesets.begin(), rulesets.end(), ruleset) == rulesets.end()) continue;
    std::string rel = relative(f.string(), root);
    std::set<std::string> cited;
    for (size_t i = 0; i < lines.size(); ++i) {
      const std::string& l = lines[i];
      for (size_t at = l.find("§"); at != std::string::npos; at = l.find("§", at + 1)) {
        size_t end = at + std::string("§").size();
        while (end < l.size() && (std::isalnum(static_cast<unsigned char>(l[end])) ||
                                  l[end] == '.' || l[end] == '_' || l[end] == ':'))
          ++end;
        std::string rule = ruleNumber(l.substr(at, end - at));
        if (rule.empty() || !cited.insert(rule).second) continue;
        index.tests[rule].push_back(RuleTest{rel, static_cast<int>(i + 1)});
      }
    }
  }
}

namespace {

// Indexes what `load` merged: the declarations, then the tests of the rulesets in its chain (a
// test names its game by ruleset: this one's, or one it extends).
template <class Load>
bool loadAndIndex(Load load, RuleIndex& out, std::string& errors) {
  diag::SourceManager sources;
  diag::Diagnostics diags(sources);
  check::Loader loader(diags);
  check::MergedRules rules;
  if (!load(loader, rules)) {
    errors = diags.render(false);
    return false;
  }
  // The project root: the last search root is the source tree the program was built from.
  const std::string root = loader.roots().back();
  out = indexDeclarations(rules, sources, root);
  out.root = root;
  std::vector<std::string> names;
  for (const auto& layer : rules.layers) {
    if (layer.rfind("ruleset ", 0) == 0) names.push_back(layer.substr(8));
    if (layer.rfind("scenario ", 0) == 0) out.document = layer.substr(9);
  }
  if (!out.document.empty())
    for (auto it = names.rbegin(); it != names.rend() && out.documentFile.empty(); ++it) {
      std::string f = "rulesets/" + *it + "/scenarios/" + out.document + ".pol";
      if (fs::exists(fs::path(root) / f)) out.documentFile = f;
    }
  out.lineage = names;
  indexTests(out, root, names);
  return true;
}

}  // namespace

bool loadRuleIndex(const std::string& rulesetOrFile, RuleIndex& out, std::string& errors) {
  return loadAndIndex(
      [&](check::Loader& l, check::MergedRules& r) { return l.loadForDiff(rulesetOrFile, r); }, out,
      errors);
}

bool loadRuleIndex(const check::LoadRequest& game, RuleIndex& out, std::string& errors) {
  return loadAndIndex(
      [&](check::Loader& l, check::MergedRules& r) { return l.load(game, &r).program != nullptr; },
      out, errors);
}

std::string formatRule(const RuleIndex& index, const std::string& rule) {
  std::string out;
  auto s = index.sites.find(rule);
  auto t = index.tests.find(rule);
  if (s == index.sites.end() && t == index.tests.end())
    return fmt::format("§{}: no declaration of {} and no test cites it\n", rule,
                       index.ruleset + (index.document.empty() ? "" : " (" + index.document + ")"));
  out += fmt::format("§{} in {}\n", rule,
                     index.ruleset + (index.document.empty() ? "" : " (" + index.document + ")"));
  if (s == index.sites.end()) {
    out += "  declarations: none\n";
  } else {
    out += fmt::format("  declarations ({}):\n", s->second.size());
    for (const auto& site : s->second) out += fmt::format("    {}  {}\n", site.where, site.decl);
  }
  if (t == index.tests.end()) {
    out += "  tests: none\n";
  } else {
    out += fmt::format("  tests ({}):\n", t->second.size());
    for (const auto& test : t->second) out += fmt::format("    {}:{}\n", test.file, test.line);
  }
  return out;
}

std::string formatIndex(const RuleIndex& index) {
  std::set<std::string, RuleOrder> rules;
  for (const auto& [r, _] : index.sites) rules.insert(r);
  for (const auto& [r, _] : index.tests) rules.insert(r);
  std::string out =
      fmt::format("{} rules cited in {} (declarations, tests)\n", rules.size(), index.ruleset);
  for (const auto& r : rules) {
    auto s = index.sites.find(r);
    auto t = index.tests.find(r);
    size_t ns = s == index.sites.end() ? 0 : s->second.size();
    size_t nt = t == index.tests.end() ? 0 : t->second.size();
    std::string first = ns ? s->second.front().decl : "no declaration";
    out += fmt::format("§{:<10} {:>3} {:>3}  {}{}\n", r, ns, nt, first,
                       ns > 1 ? fmt::format(" and {} more", ns - 1) : "");
  }
  return out;
}

}  // namespace polemos::analysis
