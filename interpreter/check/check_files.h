// Checking many files at once, as `polemos check PATH...` does: each file as Loader::checkFile
// checks it (a ruleset with its bases and modules, a scenario with its ruleset, a house file with
// the ruleset it names, a `part of` file through its ruleset, once), on several threads when
// there are several files and more than one thread is asked for.
//
// On threads, every file given is first parsed, each thread taking the next from a queue into one
// cache of trees shared by all (a file another thread is parsing is waited for, not parsed
// twice), then each file is checked, each thread with a loader of its own over those trees (the
// rulesets already checked are shared too, so each is checked once).
//
// What it reports is exactly what checking the files in turn on one thread reports, byte for
// byte: the threads check with nothing shown; if any of them finds anything at all, the whole
// check is done again in turn on one thread and that is what is reported. A clean check, the usual
// case, is the fast one; a check with errors costs its parallel attempt more. It does not find the
// files (the front end lists them) and prints nothing.
#pragma once

#include <string>
#include <vector>

namespace polemos::check {

struct FilesChecked {
  std::string rendered;  // every diagnostic, sorted by location, as Diagnostics::render gives it
  size_t errors = 0;     // the number of errors (0: clean)
};

// `threads`: at most this many at once (1: in turn on the calling thread).
FilesChecked checkFiles(const std::vector<std::string>& paths, unsigned threads);

}  // namespace polemos::check
