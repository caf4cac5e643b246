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

}  // namespace
