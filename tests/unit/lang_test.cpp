// Language tests: one behaviour per file under tests/lang/FEATURE/ (arithmetic and values in
// expressions/, the hex builtins in hex/, overlays and their bases in overlay/, ...), with inline
// expectations. Files are found in every folder below tests/lang; a test is named by its folder
// and file, e.g. Lang/LangTest.Runs/hex_hex_distance_range for
// tests/lang/hex/hex_distance_range.pol.
//
// A test file is a ruleset (and, when it needs units or a map, a scenario for it in the same
// file). Comment directives drive and check it:
//   // expect: TEXT            the next line of output must be TEXT
//   // decide: TEXT            at the next decision, take the option typed TEXT (`end`, `pass`,
//                              `pick N`, or an action with its arguments, e.g. `attack u1`)
//   // dice: 3 5               force the next dice
//   // level: L  // option: K=V  // seed: N
// A file holding `house NAME for BASE` is loaded as house rules over the sibling file BASE.pol
// (and `extends BASE` finds BASE.pol beside the file too): a base stays in its overlays' folder.
// Output lines are `note` statements (their values joined by ", ", after their citations),
// `illegal: §N message` for a refused decision, `error: message` for a check or runtime error,
// and `the game is over: ...` when the rules end the game with finish(). The file passes when its
// output equals its expectations exactly, no more and no fewer lines.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "check/loader.h"
#include "engine/session.h"

namespace fs = std::filesystem;
using namespace polemos;

namespace {

struct LangCase {
  std::string name;  // the path below tests/lang without ".pol", e.g. "hex/hex_distance_range"
  fs::path path;
};

std::vector<LangCase> findCases() {
  std::vector<LangCase> out;
  fs::path dir = fs::path(POLEMOS_TEST_DIR) / "lang";
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (!it->is_regular_file() || it->path().extension() != ".pol") continue;
    fs::path rel = it->path().lexically_relative(dir);
    rel.replace_extension();
    out.push_back({rel.generic_string(), it->path()});
  }
  std::sort(out.begin(), out.end(),
            [](const LangCase& a, const LangCase& b) { return a.name < b.name; });
  return out;
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.pop_back();
  size_t i = 0;
  while (i < s.size() && s[i] == ' ') ++i;
  return s.substr(i);
}

// Shows the test's folder and file name, not its bytes, in gtest's messages.
void PrintTo(const LangCase& c, std::ostream* os) {
  *os << c.name;
}

class LangTest : public ::testing::TestWithParam<LangCase> {};

TEST_P(LangTest, Runs) {
  const LangCase& c = GetParam();
  std::ifstream in(c.path);
  std::vector<std::string> expects, decisions;
  std::vector<int64_t> dice;
  engine::SessionConfig cfg;
  bool hasScenario = false;
  std::string houseBase;
  std::string line;
  while (std::getline(in, line)) {
    std::string t = trim(line);
    auto directive = [&](const char* key, std::string& value) {
      std::string k = std::string("// ") + key + ":";
      if (t.rfind(k, 0) == 0) {
        value = trim(t.substr(k.size()));
        return true;
      }
      return false;
    };
    std::string v;
    if (directive("expect", v))
      expects.push_back(v);
    else if (directive("decide", v))
      decisions.push_back(v);
    else if (directive("dice", v)) {
      std::istringstream ss(v);
      int64_t d;
      while (ss >> d) dice.push_back(d);
    } else if (directive("level", v))
      cfg.level = v;
    else if (directive("seed", v))
      cfg.seed = std::stoull(v);
    else if (directive("option", v)) {
      auto eq = v.find('=');
      cfg.options.emplace_back(v.substr(0, eq), v.substr(eq + 1));
    }
    if (t.rfind("scenario ", 0) == 0) hasScenario = true;
    if (t.rfind("house ", 0) == 0) {
      // `house NAME for BASE`: load BASE (a sibling file) with this file as house rules.
      std::istringstream hs(t);
      std::string word, name, forWord;
      hs >> word >> name >> forWord >> houseBase;
    }
  }

  std::vector<std::string> output;
  diag::SourceManager sm;
  diag::Diagnostics diags(sm);
  check::Loader loader(diags);
  check::LoadRequest req;
  req.ruleset = c.path.string();
  if (hasScenario) req.scenario = c.path.string();
  if (!houseBase.empty()) {
    req.ruleset = (c.path.parent_path() / (houseBase + ".pol")).string();
    req.houseFiles.push_back(c.path.string());
  }
  check::Loaded loaded = loader.load(req);
  if (!loaded.program) {
    for (const auto& d : diags.all()) output.push_back("error: " + d.message);
  } else {
    engine::Session s(loaded.program, cfg);
    s.forceDice(dice);
    size_t printed = 0;
    auto flushNotes = [&] {
      const auto& tr = s.state().trace;
      for (printed = std::max(printed, tr.first()); printed < tr.size(); ++printed) {
        if (tr[printed].kind != eval::TraceKind::Note) continue;
        std::string cite;
        for (const auto& c : tr[printed].citations) cite += c.text() + " ";
        output.push_back(cite + tr[printed].subject);
      }
    };
    auto report = [&](const engine::Outcome& o) {
      if (o.kind == engine::Outcome::Illegal) {
        std::string cite;
        for (const auto& ci : o.citations) cite += "§" + ci + " ";
        output.push_back("illegal: " + cite + o.message);
      } else if (o.kind == engine::Outcome::Error) {
        output.push_back("error: " + o.message);
      }
    };
    engine::Outcome o = s.start();
    flushNotes();
    report(o);
    size_t next = 0;
    while (o.kind != engine::Outcome::Error && !s.over() && next < decisions.size()) {
      std::string d = decisions[next++];
      auto options = s.legal();
      if (d.rfind("pick ", 0) == 0) {
        o = s.pick(std::stoul(d.substr(5)) - 1);
      } else if (d == "end" || d == "pass") {
        o = s.endPhase();
      } else {
        // An action typed as words: find its arguments among the legal options, or else report
        // why it is illegal.
        auto it = std::find_if(options.begin(), options.end(),
                               [&](const engine::Option& x) { return x.text == d; });
        if (it != options.end()) {
          o = s.apply(*it);
        } else {
          std::istringstream ws(d);
          std::string name;
          ws >> name;
          int32_t ai = -1;
          for (size_t k = 0; k < s.program().actions.size(); ++k)
            if (s.program().actions[k].name == name) ai = static_cast<int32_t>(k);
          ASSERT_GE(ai, 0) << "no action named " << name;
          // Resolve argument words against every candidate of the right type.
          std::vector<ir::Value> args;
          std::string word;
          const auto& params = s.program().actions[ai].params;
          for (size_t p = 0; p < params.size() && ws >> word; ++p) {
            ir::Value found;
            const auto& st = s.state();
            for (size_t u = 0; u < st.units.size(); ++u)
              if (st.units[u].id == word) found = ir::Value::of(ir::Tag::Unit, u);
            if (found.isNone()) {
              int32_t h = st.map.parse(word);
              if (h >= 0) found = ir::Value::of(ir::Tag::Hex, h);
            }
            if (found.isNone() && !word.empty() &&
                std::isdigit(static_cast<unsigned char>(word[0])))
              found = ir::Value::integer(std::stoll(word));
            args.push_back(found);
          }
          o = s.act(ai, args);
        }
      }
      flushNotes();
      report(o);
    }
    if (s.state().result.over) output.push_back(s.describeStop());
  }
  std::string got, want;
  for (const auto& l : output) got += l + "\n";
  for (const auto& l : expects) want += l + "\n";
  EXPECT_EQ(want, got) << "in " << c.path.string();
}

// Every language test sits in a feature folder: none is loose at the top of tests/lang.
TEST(LangLayout, EveryTestIsInAFeatureFolder) {
  auto cases = findCases();
  EXPECT_FALSE(cases.empty());
  for (const auto& c : cases)
    EXPECT_NE(c.name.find('/'), std::string::npos) << c.path.string() << " is not in a folder";
}

// A test's name is its folder and file with '/' (and anything else gtest does not allow) turned
// into '_': hex/hex_distance_range becomes hex_hex_distance_range.
INSTANTIATE_TEST_SUITE_P(Lang, LangTest, ::testing::ValuesIn(findCases()),
                         [](const ::testing::TestParamInfo<LangCase>& info) {
                           std::string n = info.param.name;
                           for (char& ch : n)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

}  // namespace
