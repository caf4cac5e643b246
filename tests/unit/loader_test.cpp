// Loader: checking several files with one loader, where a file with syntax errors is read again
// by a second load (a `part of` file checked alone, then through its ruleset). The second load
// must fail with the same errors shown once, never compile the broken tree (this crashed).
#include "check/loader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "diag/diagnostics.h"
#include "temp_files.h"

namespace fs = std::filesystem;
using namespace polemos;

namespace {
using test::write;
}  // namespace

TEST(Loader, BrokenPartFileReadByTwoLoadsIsNotCompiled) {
  fs::path dir = fs::temp_directory_path() / "polemos_loader_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  write(dir / "game.pol", "ruleset game {\n  include \"part.pol\"\n  sequence { note f(1) }\n}\n");
  // A stray `{` makes the rest of the file a block: the lambda below loses its body.
  write(dir / "part.pol",
        "part of game\n{ function g(x: int): int = x\n"
        "function f(x: int): int = sum(filter([1, 2], y -> y > x), z -> z)\n");
  diag::SourceManager sources;
  diag::Diagnostics diags(sources);
  check::Loader loader(diags);
  loader.checkFile((dir / "part.pol").string());
  size_t shown = diags.errorCount();
  EXPECT_GT(shown, 0u);
  loader.checkFile((dir / "game.pol").string());
  // The file is parsed once per loader: its syntax errors are not reported again, and the load
  // that uses it is not compiled (its broken lambda would add errors of its own).
  EXPECT_EQ(diags.errorCount(), shown);
  EXPECT_EQ(diags.reportCount(), shown);
  fs::remove_all(dir);
}

// A loader parses a file once, but a file changed between two loads is read as it is now: the
// second load sees the new text (its error), not the tree of the first.
TEST(Loader, FileChangedBetweenLoadsIsParsedAgain) {
  fs::path dir = fs::temp_directory_path() / "polemos_loader_reparse_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  write(dir / "game.pol", "ruleset game {\n  include \"part.pol\"\n  sequence { note f(1) }\n}\n");
  write(dir / "part.pol", "part of game\nfunction f(x: int): int = x\n");
  diag::SourceManager sources;
  diag::Diagnostics diags(sources);
  check::Loader loader(diags);
  check::LoadRequest req;
  req.ruleset = (dir / "game.pol").string();
  EXPECT_NE(loader.load(req).program, nullptr);
  EXPECT_EQ(diags.errorCount(), 0u);
  write(dir / "part.pol", "part of game\nfunction f(x: int): int = x + \"a\"\n");
  EXPECT_EQ(loader.load(req).program, nullptr);
  EXPECT_GT(diags.errorCount(), 0u);
  write(dir / "part.pol", "part of game\nfunction f(x: int): int = x\n");
  EXPECT_NE(loader.load(req).program, nullptr);
  fs::remove_all(dir);
}

// checkText: a source held in memory is checked as the same text in a file at that path is, with
// the same diagnostics, and nothing is written.
TEST(Loader, TextInMemoryIsCheckedAsTheFileWouldBe) {
  fs::path dir = fs::temp_directory_path() / "polemos_loader_text_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string text =
      "ruleset game {\n  sequence { note f(1) }\n  function f(x: int): int = x + \"a\"\n}\n";
  write(dir / "game.pol", text);
  diag::SourceManager fileSources, textSources;
  diag::Diagnostics fromFile(fileSources), fromText(textSources);
  check::Loader(fromFile).checkFile((dir / "game.pol").string());
  check::Loader(fromText).checkText((dir / "memory.pol").string(), text);
  EXPECT_GT(fromFile.errorCount(), 0u);
  std::string a = fromFile.render(false), b = fromText.render(false);
  EXPECT_EQ(b.substr(b.find(':')), a.substr(a.find(':')));
  EXPECT_FALSE(fs::exists(dir / "memory.pol"));
}
