// `replay FILE` of a crafted save: the recorded commands are read as the prompt reads them, and
// one that is not a move of the game (it would read or write a file: `save`, `map --svg`, `house`,
// `load`, a ruleset named by path), however it is spaced, stops the replay with an error; no file
// is written and the game in play is kept. A save whose commands are only moves replays.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "repl/repl.h"
#include "repl_test_helpers.h"

using namespace polemos;
namespace fs = std::filesystem;

namespace {

using polemos::test_helpers::chalons;
using polemos::test_helpers::run;

fs::path freshDir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

TEST(ReplReplay, ACraftedSaveTouchesNoFile) {
  fs::path dir = freshDir("polemos_replay_test");
  repl::Repl r(chalons(1));
  std::string out;
  ASSERT_TRUE(r.start(out)) << out;
  run(r, "move r43 2621");
  fs::path good = dir / "good.json";
  run(r, "save " + good.string());
  std::ifstream in(good);
  auto save = nlohmann::json::parse(in);
  ASSERT_TRUE(save.contains("replay")) << save.dump().substr(0, 200);
  // The honest save replays.
  std::string replayed = run(r, "replay " + good.string());
  EXPECT_NE(replayed.find("replayed"), std::string::npos) << replayed;

  fs::path target = dir / "written";
  for (const std::string& bad :
       {" save " + target.string(), "\tsave " + target.string(), "save " + target.string(),
        "map --svg " + target.string(), "house " + target.string(), "load " + target.string(),
        "replay " + good.string(), "ruleset " + good.string(), std::string("scenario ../x"),
        std::string("run x")}) {
    auto crafted = save;
    crafted["replay"]["commands"].push_back(bad);
    fs::path file = dir / "crafted.json";
    std::ofstream(file) << crafted.dump(1);
    std::string before = run(r, "eval unit(\"r43\").hex");
    std::string said = run(r, "replay " + file.string());
    EXPECT_NE(said.find("cannot be replayed"), std::string::npos) << bad << ": " << said;
    EXPECT_NE(said.find("the current game is unchanged"), std::string::npos) << said;
    EXPECT_FALSE(fs::exists(target)) << bad;
    EXPECT_EQ(run(r, "eval unit(\"r43\").hex"), before) << bad;
  }
  fs::remove_all(dir);
}

// A game loaded into a REPL started with another seed is saved again as the game it is: its
// record keeps the seed (and level, options, house files) it was made with, so it replays to the
// same game (load once kept the seed of the game it replaced).
TEST(ReplReplay, ALoadedGameKeepsItsOrigin) {
  fs::path dir = freshDir("polemos_origin_test");
  repl::ReplOptions o = chalons(7);
  repl::Repl first(o);
  std::string out;
  ASSERT_TRUE(first.start(out));
  run(first, "move r43 2621");
  run(first, "save " + (dir / "a.json").string());
  o.session.seed = 99;
  repl::Repl second(o);
  ASSERT_TRUE(second.start(out));
  std::string loaded = run(second, "load " + (dir / "a.json").string());
  ASSERT_NE(loaded.find("loaded"), std::string::npos) << loaded;
  run(second, "save " + (dir / "b.json").string());
  auto a = nlohmann::json::parse(std::ifstream(dir / "a.json"));
  auto b = nlohmann::json::parse(std::ifstream(dir / "b.json"));
  EXPECT_EQ(b["replay"]["setup"], a["replay"]["setup"]);
  EXPECT_EQ(b["replay"]["setup"]["seed"], 7);
  EXPECT_EQ(b["replay"]["commands"], a["replay"]["commands"]);
  fs::remove_all(dir);
}

}  // namespace
