// check/check_files: several files checked on several threads report exactly what checking them
// in turn on one thread reports; the shipped rulesets are clean on any number of threads.
#include "check/check_files.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "temp_files.h"

namespace fs = std::filesystem;
using namespace polemos;

namespace {

using test::write;

std::vector<std::string> polFiles(const std::vector<fs::path>& dirs) {
  std::vector<std::string> out;
  for (const fs::path& d : dirs)
    for (const auto& e : fs::recursive_directory_iterator(d))
      if (e.is_regular_file() && e.path().extension() == ".pol") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

// A small ruleset of three parts, a scenario, a module and three house files over it.
fs::path writeGame(const std::string& name, bool broken) {
  fs::path dir = fs::temp_directory_path() / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  write(dir / "game.pol",
        "ruleset game {\n  include \"a.pol\"\n  include \"b.pol\"\n  include \"c.pol\"\n"
        "  sequence { note f(1) + g(2) + h(3) }\n}\n");
  write(dir / "a.pol", "part of game\nfunction f(x: int): int = x + 1\n");
  write(dir / "b.pol", broken ? "part of game\nfunction g(x: int): int = x +\n"
                              : "part of game\nfunction g(x: int): int = x * 2\n");
  write(dir / "c.pol", "part of game\nfunction h(x: int): int = x - 1\n");
  write(dir / "h1.pol", broken ? "house h1 for game {\n  replace function f(x: int): bool = x\n}\n"
                               : "house h1 for game {\n  replace function f(x: int): int = x\n}\n");
  write(dir / "h2.pol",
        broken ? "house h2 for game {\n  replace function h(x: int): int = nowhere\n}\n"
               : "house h2 for game {\n  replace function h(x: int): int = 0\n}\n");
  write(dir / "h3.pol", "house h3 for game {\n  replace function f(x: int): int = 2\n}\n");
  write(dir / "m.pol", broken ? "module m {\n  function k(): int = \"k\"\n}\n"
                              : "module m {\n  function k(): int = 7\n}\n");
  return dir;
}

}  // namespace

TEST(CheckFiles, ShippedRulesetsAreCleanOnAnyNumberOfThreads) {
  std::vector<std::string> files = polFiles(
      {fs::path(POLEMOS_SOURCE_DIR) / "rulesets", fs::path(POLEMOS_SOURCE_DIR) / "stdlib"});
  ASSERT_GT(files.size(), 40u);
  for (unsigned threads : {1u, 2u, 5u}) {
    check::FilesChecked r = check::checkFiles(files, threads);
    EXPECT_EQ(r.errors, 0u) << threads << " threads:\n" << r.rendered;
    EXPECT_EQ(r.rendered, "") << threads << " threads";
  }
}

TEST(CheckFiles, ErrorsAreReportedAsInTurnWhateverTheThreads) {
  fs::path dir = writeGame("polemos_check_files_broken", true);
  std::vector<std::string> files = polFiles({dir});
  check::FilesChecked one = check::checkFiles(files, 1);
  // b.pol's syntax error once (every load that reads it fails without a word of its own), and
  // the module's type error; h1 and h2 are over the broken game, so they add nothing.
  EXPECT_EQ(one.errors, 2u) << one.rendered;
  EXPECT_NE(one.rendered.find("b.pol:2:"), std::string::npos) << one.rendered;
  EXPECT_NE(one.rendered.find("m.pol:2:"), std::string::npos) << one.rendered;
  for (unsigned threads : {2u, 3u, 8u, 64u}) {
    check::FilesChecked many = check::checkFiles(files, threads);
    EXPECT_EQ(many.errors, one.errors) << threads << " threads";
    EXPECT_EQ(many.rendered, one.rendered) << threads << " threads";
  }
  fs::remove_all(dir);
}

TEST(CheckFiles, HouseFilesOverACleanRulesetReportTheirOwnErrorsAsInTurn) {
  fs::path dir = writeGame("polemos_check_files_houses", true);
  write(dir / "b.pol", "part of game\nfunction g(x: int): int = x * 2\n");  // the game is clean
  std::vector<std::string> files = polFiles({dir});
  check::FilesChecked one = check::checkFiles(files, 1);
  EXPECT_NE(one.rendered.find("h1.pol:2:"), std::string::npos) << one.rendered;
  EXPECT_NE(one.rendered.find("h2.pol:2:"), std::string::npos) << one.rendered;
  EXPECT_EQ(one.rendered.find("h3.pol"), std::string::npos) << one.rendered;
  for (unsigned threads : {2u, 4u}) {
    check::FilesChecked many = check::checkFiles(files, threads);
    EXPECT_EQ(many.errors, one.errors) << threads << " threads";
    EXPECT_EQ(many.rendered, one.rendered) << threads << " threads";
  }
  fs::remove_all(dir);
}

TEST(CheckFiles, ACleanTreeIsCleanOnThreads) {
  fs::path dir = writeGame("polemos_check_files_clean", false);
  std::vector<std::string> files = polFiles({dir});
  for (unsigned threads : {1u, 2u, 8u}) {
    check::FilesChecked r = check::checkFiles(files, threads);
    EXPECT_EQ(r.errors, 0u) << r.rendered;
    EXPECT_EQ(r.rendered, "");
  }
  fs::remove_all(dir);
}

TEST(CheckFiles, AMissingFileIsReportedAsInTurn) {
  fs::path dir = writeGame("polemos_check_files_missing", false);
  std::vector<std::string> files = polFiles({dir});
  files.insert(files.begin() + 2, (dir / "absent.pol").string());
  check::FilesChecked one = check::checkFiles(files, 1);
  EXPECT_EQ(one.errors, 1u) << one.rendered;
  check::FilesChecked many = check::checkFiles(files, 3);
  EXPECT_EQ(many.rendered, one.rendered);
  fs::remove_all(dir);
}
