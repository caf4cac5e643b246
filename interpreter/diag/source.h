// Source files and locations.
//
// The SourceManager owns the text of every file the front end reads (rulesets, includes, stdlib
// modules, scenarios, house files, REPL input lines), so diagnostics can quote the offending line
// long after parsing. Locations are line and column in Unicode code points, as the lexer counts
// them; it deliberately knows nothing about tokens or syntax.
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace polemos::diag {

using FileId = uint32_t;
inline constexpr FileId kNoFile = 0xffffffffu;

// A position: 1-based line, 0-based column in code points.
struct SourceLoc {
  FileId file = kNoFile;
  uint32_t line = 0;
  uint32_t col = 0;

  bool valid() const { return file != kNoFile && line > 0; }
  friend bool operator==(const SourceLoc&, const SourceLoc&) = default;
  friend auto operator<=>(const SourceLoc&, const SourceLoc&) = default;
};

// A half-open range [begin, end). A range may span lines; diagnostics underline only the part on
// the first line.
struct SourceRange {
  SourceLoc begin;
  SourceLoc end;

  bool valid() const { return begin.valid(); }
};

// Safe to share between threads (loaders checking files together add to one): a file, once
// added, never moves, so the references it hands out stay good while others are added.
class SourceManager {
 public:
  // Adds a file's text and returns its id. Text is kept as given (it may be invalid UTF-8: the
  // lexer wrapper reports that, not this class).
  FileId add(std::string name, std::string text);
  const std::string& name(FileId id) const { return at(id).name; }
  const std::string& text(FileId id) const { return at(id).text; }
  size_t fileCount() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return files_.size();
  }
  // The text of one line, without its line terminator; empty if out of range.
  std::string_view line(FileId id, uint32_t line) const;
  uint32_t lineCount(FileId id) const;

 private:
  struct File {
    std::string name;
    std::string text;
    std::vector<uint32_t> lineStarts;  // byte offset of each line's first character
  };
  const File& at(FileId id) const;    // throws std::out_of_range, as before
  const File* find(FileId id) const;  // null if out of range
  mutable std::mutex mutex_;
  std::deque<File> files_;
};

}  // namespace polemos::diag
