#include "diag/diagnostics.h"

#include <fmt/format.h>

#include <algorithm>

namespace polemos::diag {
namespace {

// Width of the source-line window shown in a snippet; longer lines (minified or binary input)
// are cut around the caret so one diagnostic never prints megabytes.
constexpr uint32_t kSnippetWidth = 120;

// Splits a line into code points, replacing invalid UTF-8 and control characters by '?', so that a
// snippet is always printable and its columns match the lexer's code-point columns.
std::vector<std::string> codePoints(std::string_view line) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < line.size()) {
    unsigned char c = static_cast<unsigned char>(line[i]);
    size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    bool ok = len > 0 && i + len <= line.size();
    for (size_t k = 1; ok && k < len; ++k) {
      ok = (static_cast<unsigned char>(line[i + k]) & 0xC0) == 0x80;
    }
    if (!ok) {
      out.emplace_back("?");
      ++i;
      continue;
    }
    if (len == 1 && c < 0x20 && c != '\t') {
      out.emplace_back("?");
    } else if (len == 1 && c == 0x7f) {
      out.emplace_back("?");
    } else {
      out.emplace_back(line.substr(i, len));
    }
    i += len;
  }
  return out;
}

const char* severityName(Severity s) {
  switch (s) {
    case Severity::Error:
      return "error";
    case Severity::Warning:
      return "warning";
    case Severity::Note:
      return "note";
  }
  return "error";
}

}  // namespace

Diagnostic& Diagnostics::add(Severity s, SourceRange range, std::string message) {
  // The same problem found twice (a file included by two rulesets being checked, say) is reported
  // once.
  auto sameFile = [&](FileId a, FileId b) {
    if (a == b) return true;
    if (a == kNoFile || b == kNoFile || a >= sources_->fileCount() || b >= sources_->fileCount())
      return false;
    return sources_->name(a) == sources_->name(b);  // the same file read again by another load
  };
  if (s == Severity::Error) ++reports_;
  for (Diagnostic& d : diags_)
    if (d.severity == s && d.message == message && sameFile(d.range.begin.file, range.begin.file) &&
        d.range.begin.line == range.begin.line && d.range.begin.col == range.begin.col) {
      overflow_ = Diagnostic{};
      return overflow_;
    }
  if (s == Severity::Error) {
    if (errors_ >= kMaxErrors) {
      ++errors_;
      overflow_ = Diagnostic{};
      return overflow_;
    }
    ++errors_;
  }
  Diagnostic d;
  d.severity = s;
  d.range = range;
  d.message = std::move(message);
  d.order = next_++;
  diags_.push_back(std::move(d));
  return diags_.back();
}

Diagnostic& Diagnostics::error(SourceRange range, std::string message) {
  return add(Severity::Error, range, std::move(message));
}

Diagnostic& Diagnostics::warning(SourceRange range, std::string message) {
  return add(Severity::Warning, range, std::move(message));
}

void Diagnostics::note(Diagnostic& d, SourceRange range, std::string message) {
  d.notes.push_back(Note{range, std::move(message)});
}

void Diagnostics::clear() {
  diags_.clear();
  errors_ = 0;
  reports_ = 0;
  next_ = 0;
}

std::string Diagnostics::renderLocation(const SourceRange& r) const {
  if (r.begin.file == kNoFile || r.begin.file >= sources_->fileCount()) return "polemos";
  const std::string& name = sources_->name(r.begin.file);
  if (!r.valid()) return name;
  return fmt::format("{}:{}:{}", name, r.begin.line, r.begin.col + 1);
}

std::string Diagnostics::renderSnippet(const SourceRange& r) const {
  if (!r.valid() || r.begin.file >= sources_->fileCount()) return "";
  std::string_view line = sources_->line(r.begin.file, r.begin.line);
  std::vector<std::string> cps = codePoints(line);
  uint32_t begin = r.begin.col;
  uint32_t end = (r.end.file == r.begin.file && r.end.line == r.begin.line && r.end.col > begin)
                     ? r.end.col
                     : begin + 1;
  if (begin > cps.size()) begin = static_cast<uint32_t>(cps.size());
  if (end > cps.size() + 1) end = static_cast<uint32_t>(cps.size()) + 1;
  if (end <= begin) end = begin + 1;
  uint32_t from = 0;
  uint32_t to = static_cast<uint32_t>(cps.size());
  if (cps.size() > kSnippetWidth) {
    from = begin > kSnippetWidth / 2 ? begin - kSnippetWidth / 2 : 0;
    to = std::min<uint32_t>(to, from + kSnippetWidth);
    if (end > to + 1) end = to + 1;
  }
  std::string text;
  std::string caret;
  if (from > 0) {
    text += "...";
    caret += "   ";
  }
  for (uint32_t i = from; i < to; ++i) text += cps[i];
  if (to < cps.size()) text += "...";
  for (uint32_t i = from; i < begin; ++i) caret += (cps[i] == "\t") ? '\t' : ' ';
  caret += '^';
  for (uint32_t i = begin + 1; i < end; ++i) caret += '~';
  return text + "\n" + caret + "\n";
}

std::string Diagnostics::renderOne(const Diagnostic& d, bool color) const {
  std::string out;
  const char* bold = color ? "\033[1m" : "";
  const char* reset = color ? "\033[0m" : "";
  const char* sevColor = !color                            ? ""
                         : d.severity == Severity::Error   ? "\033[1;31m"
                         : d.severity == Severity::Warning ? "\033[1;35m"
                                                           : "\033[1;36m";
  out += fmt::format("{}{}:{} {}{}:{} {}{}{}\n", bold, renderLocation(d.range), reset, sevColor,
                     severityName(d.severity), reset, bold, d.message, reset);
  out += renderSnippet(d.range);
  for (const Note& n : d.notes) {
    out += fmt::format("{}{}:{} {}note:{} {}\n", bold,
                       renderLocation(n.range.valid() ? n.range : d.range), reset,
                       color ? "\033[1;36m" : "", reset, n.message);
    if (n.range.valid()) out += renderSnippet(n.range);
  }
  return out;
}

std::string Diagnostics::render(bool color) const {
  std::vector<const Diagnostic*> sorted;
  sorted.reserve(diags_.size());
  for (const Diagnostic& d : diags_) sorted.push_back(&d);
  std::stable_sort(sorted.begin(), sorted.end(), [](const Diagnostic* a, const Diagnostic* b) {
    if (a->range.begin.file != b->range.begin.file)
      return a->range.begin.file < b->range.begin.file;
    if (a->range.begin.line != b->range.begin.line)
      return a->range.begin.line < b->range.begin.line;
    if (a->range.begin.col != b->range.begin.col) return a->range.begin.col < b->range.begin.col;
    return a->order < b->order;
  });
  std::string out;
  for (const Diagnostic* d : sorted) out += renderOne(*d, color);
  if (errors_ > kMaxErrors) {
    out += fmt::format("polemos: note: {} more errors not shown (the limit is {})\n",
                       errors_ - kMaxErrors, kMaxErrors);
  }
  return out;
}

}  // namespace polemos::diag
