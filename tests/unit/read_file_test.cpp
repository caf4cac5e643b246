// Bounded reads (diag/read_file): a file within the limit is read whole; one over it, or an endless
// one (/dev/zero), is refused after reading at most the limit; a folder and a missing file are
// refused with their reason. `load /dev/zero` at the prompt is refused the same way, at once.
#include "diag/read_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "repl/repl.h"

using namespace polemos;

namespace {

TEST(ReadFile, WithinAndOverTheLimit) {
  auto path =
      std::filesystem::temp_directory_path() / ("polemos_read_file_" + std::to_string(::getpid()));
  std::ofstream(path) << std::string(1000, 'x');
  std::string out, why;
  EXPECT_TRUE(diag::readFileBounded(path.string(), 1000, out, why)) << why;
  EXPECT_EQ(out.size(), 1000u);
  EXPECT_FALSE(diag::readFileBounded(path.string(), 999, out, why));
  EXPECT_NE(why.find("is larger than 999 bytes"), std::string::npos) << why;
  EXPECT_TRUE(out.empty());
  std::filesystem::remove(path);
  EXPECT_FALSE(diag::readFileBounded(path.string(), 1000, out, why));
  EXPECT_NE(why.find("cannot read"), std::string::npos) << why;
  EXPECT_FALSE(
      diag::readFileBounded(std::filesystem::temp_directory_path().string(), 1000, out, why));
  EXPECT_NE(why.find("is a folder"), std::string::npos) << why;
}

TEST(ReadFile, AnEndlessFileStopsAtTheLimit) {
  std::string out, why;
  EXPECT_FALSE(diag::readFileBounded("/dev/zero", 1 << 20, out, why));
  EXPECT_NE(why.find("is larger than"), std::string::npos) << why;
  repl::ReplOptions o;
  o.ruleset = "standard";
  repl::Repl r(o);
  std::string said;
  ASSERT_TRUE(r.start(said));
  said.clear();
  r.execute("load /dev/zero", said);
  EXPECT_NE(said.find("error: '/dev/zero' is larger than"), std::string::npos) << said;
}

// A save is written whole or not at all, and never through a symbolic link: `save` on a link
// (to a file of the user's, say) refuses and leaves the file it points to as it was.
TEST(WriteFile, NoLinkIsFollowedAndTheFileIsReplacedWhole) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("polemos_write_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path target = dir / "precious.txt", link = dir / "game.json", plain = dir / "plain.json";
  std::ofstream(target) << "keep me";
  fs::create_symlink(target, link);
  std::string why;
  EXPECT_FALSE(diag::writeFileWhole(link.string(), "overwritten", why));
  EXPECT_NE(why.find("is a symbolic link"), std::string::npos) << why;
  std::string kept, unread;
  ASSERT_TRUE(diag::readFileBounded(target.string(), 100, kept, unread));
  EXPECT_EQ(kept, "keep me");
  EXPECT_TRUE(fs::is_symlink(link));
  // Through the REPL: the same refusal, the game kept.
  repl::ReplOptions o;
  o.ruleset = "standard";
  repl::Repl r(o);
  std::string said;
  ASSERT_TRUE(r.start(said));
  said.clear();
  r.execute("save " + link.string(), said);
  EXPECT_NE(said.find("error: "), std::string::npos) << said;
  EXPECT_NE(said.find("is a symbolic link"), std::string::npos) << said;
  said.clear();
  r.execute("map --svg " + link.string(), said);
  EXPECT_NE(said.find("is a symbolic link"), std::string::npos) << said;
  ASSERT_TRUE(diag::readFileBounded(target.string(), 100, kept, unread));
  EXPECT_EQ(kept, "keep me");
  // A plain file is replaced whole, with no file left beside it.
  std::ofstream(plain) << std::string(10000, 'x');
  EXPECT_TRUE(diag::writeFileWhole(plain.string(), "short", why)) << why;
  ASSERT_TRUE(diag::readFileBounded(plain.string(), 100, kept, unread));
  EXPECT_EQ(kept, "short");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 3);
  EXPECT_FALSE(diag::writeFileWhole(dir.string(), "x", why));
  EXPECT_NE(why.find("is a folder"), std::string::npos) << why;
  fs::remove_all(dir);
}

}  // namespace
