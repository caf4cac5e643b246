// The diagnostics engine: every pass of the front end (lexer, parser, AST builder, checker,
// scenario loader) reports here, and the driver renders the lot at the end:
//
//   rulesets/x.pol:12:7: error: unknown terrain 'wods'
//   terrain wods: 1204
//           ^~~~
//   rulesets/x.pol:3:1: note: terrain kinds are declared here
//
// Diagnostics come out sorted by location, several per run. It never throws on bad positions:
// a diagnostic without a valid location renders as `file: error: message`.
#pragma once

#include <string>
#include <vector>

#include "diag/source.h"

namespace polemos::diag {

enum class Severity { Error, Warning, Note };

struct Note {
  SourceRange range;  // may be invalid: a note without a location
  std::string message;
};

struct Diagnostic {
  Severity severity = Severity::Error;
  SourceRange range;
  std::string message;
  std::vector<Note> notes;
  uint64_t order = 0;  // report order, the tie-breaker when locations are equal
};

class Diagnostics {
 public:
  // Past this many errors the engine stops recording: binary garbage can produce one error per
  // byte, and nobody reads the ten-thousandth.
  static constexpr size_t kMaxErrors = 50;

  explicit Diagnostics(SourceManager& sources) : sources_(&sources) {}

  Diagnostic& error(SourceRange range, std::string message);
  Diagnostic& warning(SourceRange range, std::string message);
  void note(Diagnostic& d, SourceRange range, std::string message);

  size_t errorCount() const { return errors_; }
  // Every error reported, a duplicate of an earlier one included: what code that asks "did this
  // step fail?" compares before and after (a file parsed again by a second load reports the same
  // errors, which are shown once but still mean the step failed).
  size_t reportCount() const { return reports_; }
  bool hasErrors() const { return errors_ > 0; }
  bool full() const { return errors_ >= kMaxErrors; }
  const std::vector<Diagnostic>& all() const { return diags_; }
  void clear();

  SourceManager& sources() { return *sources_; }

  // Renders all diagnostics sorted by location. `color` adds ANSI colours (terminals only).
  std::string render(bool color = false) const;
  // Renders one diagnostic (no sorting).
  std::string renderOne(const Diagnostic& d, bool color = false) const;

 private:
  Diagnostic& add(Severity s, SourceRange range, std::string message);
  std::string renderLocation(const SourceRange& r) const;
  std::string renderSnippet(const SourceRange& r) const;

  SourceManager* sources_;
  std::vector<Diagnostic> diags_;
  Diagnostic overflow_;  // where reports go once the engine is full
  size_t errors_ = 0;
  size_t reports_ = 0;
  uint64_t next_ = 0;
};

}  // namespace polemos::diag
