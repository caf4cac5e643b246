// Diagnostics: location format, caret under the whole token, sorting, notes, limits, and
// robustness against odd source text (tabs, invalid UTF-8, very long lines); a SourceManager
// added to from several threads at once.
#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>
#include <vector>

#include "diag/diagnostics.h"

using namespace polemos::diag;

namespace {

SourceRange range(FileId f, uint32_t line, uint32_t col, uint32_t endCol) {
  return SourceRange{SourceLoc{f, line, col}, SourceLoc{f, line, endCol}};
}

TEST(Diagnostics, RendersLocationLineAndCaret) {
  SourceManager sm;
  FileId f = sm.add("x.pol", "terrain wods: 1204\n");
  Diagnostics d(sm);
  d.error(range(f, 1, 8, 12), "unknown terrain 'wods'");
  EXPECT_EQ(d.render(),
            "x.pol:1:9: error: unknown terrain 'wods'\nterrain wods: 1204\n        ^~~~\n");
}

TEST(Diagnostics, SortsByLocationAndKeepsNotes) {
  SourceManager sm;
  FileId f = sm.add("a.pol", "one\ntwo\n");
  Diagnostics d(sm);
  auto& second = d.error(range(f, 2, 0, 3), "second");
  d.note(second, range(f, 1, 0, 3), "see here");
  d.error(range(f, 1, 1, 2), "first");
  EXPECT_EQ(d.render(),
            "a.pol:1:2: error: first\none\n ^\n"
            "a.pol:2:1: error: second\ntwo\n^~~\na.pol:1:1: note: see here\none\n^~~\n");
  EXPECT_EQ(d.errorCount(), 2u);
}

TEST(Diagnostics, TabsAreKeptSoTheCaretLinesUp) {
  SourceManager sm;
  FileId f = sm.add("t.pol", "\tx = 1\n");
  Diagnostics d(sm);
  d.error(range(f, 1, 1, 2), "bad");
  EXPECT_EQ(d.render(), "t.pol:1:2: error: bad\n\tx = 1\n\t^\n");
}

TEST(Diagnostics, InvalidBytesAreShownAsQuestionMarks) {
  SourceManager sm;
  FileId f = sm.add("b.pol", std::string("a\xff") + "b\n");
  Diagnostics d(sm);
  d.error(range(f, 1, 1, 2), "invalid UTF-8 byte 0xff");
  EXPECT_EQ(d.render(), "b.pol:1:2: error: invalid UTF-8 byte 0xff\na?b\n ^\n");
}

TEST(Diagnostics, LongLinesAreCutAroundTheCaret) {
  SourceManager sm;
  FileId f = sm.add("l.pol", std::string(10000, 'x') + "\n");
  Diagnostics d(sm);
  d.error(range(f, 1, 5000, 5001), "here");
  std::string out = d.render();
  EXPECT_LT(out.size(), 400u);
  EXPECT_NE(out.find("..."), std::string::npos);
}

TEST(Diagnostics, StopsRecordingPastTheLimit) {
  SourceManager sm;
  FileId f = sm.add("m.pol", "x\n");
  Diagnostics d(sm);
  for (int i = 0; i < 1000; ++i) d.error(range(f, 1, 0, 1), "again " + std::to_string(i));
  EXPECT_TRUE(d.full());
  EXPECT_EQ(d.all().size(), Diagnostics::kMaxErrors);
  EXPECT_NE(d.render().find("950 more errors not shown"), std::string::npos);
}

TEST(Diagnostics, NoLocationRendersTheFileOrProgramName) {
  SourceManager sm;
  Diagnostics d(sm);
  d.error({}, "unknown ruleset 'x'");
  EXPECT_EQ(d.render(), "polemos: error: unknown ruleset 'x'\n");
}

}  // namespace

namespace {

// A problem found twice (a file included by two rulesets being checked) is reported once.
TEST(Diagnostics, IdenticalReportsAreKeptOnce) {
  polemos::diag::SourceManager sm;
  auto a = sm.add("same.pol", "x\n");
  auto b = sm.add("same.pol", "x\n");  // the same file read again by another load
  polemos::diag::Diagnostics d(sm);
  d.error(range(a, 1, 0, 1), "bad");
  d.error(range(b, 1, 0, 1), "bad");
  d.error(range(a, 1, 0, 1), "worse");
  EXPECT_EQ(d.errorCount(), 2u);
  EXPECT_EQ(d.all().size(), 2u);
}

TEST(SourceManager, FilesAddedFromSeveralThreadsAtOnceKeepTheirText) {
  SourceManager sources;
  constexpr int kEach = 2000;
  std::vector<std::vector<std::pair<FileId, std::string>>> added(4);
  std::vector<std::thread> pool;
  for (int t = 0; t < 4; ++t)
    pool.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        std::string text = "file " + std::to_string(t) + " " + std::to_string(i) + "\nline 2\n";
        FileId id = sources.add("f" + std::to_string(t), text);
        // What another thread adds meanwhile never moves what this one reads.
        if (sources.text(id) != text || sources.line(id, 2) != "line 2") std::abort();
        added[static_cast<size_t>(t)].emplace_back(id, text);
      }
    });
  for (auto& th : pool) th.join();
  ASSERT_EQ(sources.fileCount(), size_t{4 * kEach});
  std::vector<bool> seen(sources.fileCount(), false);
  for (int t = 0; t < 4; ++t)
    for (const auto& [id, text] : added[static_cast<size_t>(t)]) {
      ASSERT_LT(id, seen.size());
      EXPECT_FALSE(seen[id]) << "id " << id << " given twice";
      seen[id] = true;
      EXPECT_EQ(sources.text(id), text);
      EXPECT_EQ(sources.name(id), "f" + std::to_string(t));
      EXPECT_EQ(sources.lineCount(id), 3u);
    }
}

}  // namespace
