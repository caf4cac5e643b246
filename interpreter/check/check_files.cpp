#include "check/check_files.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <thread>

#include "check/loader.h"
#include "diag/diagnostics.h"

namespace polemos::check {
namespace {

FilesChecked inTurn(const std::vector<std::string>& paths) {
  diag::SourceManager sources;
  diag::Diagnostics diags(sources);
  Loader loader(diags);
  for (const std::string& p : paths) loader.checkFile(p);
  return {diags.render(false), diags.errorCount()};
}

// True when every file checked clean on the threads. Nothing any thread found is kept: the caller
// checks again in turn when this fails, so that what is reported does not depend on which thread
// met a problem first.
bool cleanOnThreads(const std::vector<std::string>& paths, unsigned threads) {
  // One SourceManager for all, so that a file parsed by one loader serves the others.
  diag::SourceManager sources;
  std::vector<std::unique_ptr<diag::Diagnostics>> diags;
  std::vector<std::unique_ptr<Loader>> loaders;
  for (unsigned t = 0; t < threads; ++t) {
    diags.push_back(std::make_unique<diag::Diagnostics>(sources));
    loaders.push_back(std::make_unique<Loader>(*diags.back()));
    if (t > 0) loaders.back()->shareCachesOf(*loaders.front());
  }
  // First every file is parsed (a ruleset's files by all the threads, not one file after
  // another by each in turn as its first load would), then each is checked.
  std::atomic<size_t> next{0};
  std::atomic<bool> found{false};
  auto onThreads = [&](auto work) {
    next = 0;
    auto worker = [&](unsigned t) {
      try {
        for (size_t i;
             !found.load(std::memory_order_relaxed) && (i = next.fetch_add(1)) < paths.size();) {
          work(*loaders[t], paths[i]);
          if (diags[t]->reportCount() > 0 || !diags[t]->all().empty()) found = true;
        }
      } catch (...) {
        found = true;  // the check in turn meets it again, where the caller sees it
      }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker, t);
    worker(0);
    for (std::thread& t : pool) t.join();
  };
  onThreads([](Loader& l, const std::string& path) { l.parseOnly(path); });
  onThreads([](Loader& l, const std::string& path) { l.checkFile(path); });
  return !found;
}

}  // namespace

FilesChecked checkFiles(const std::vector<std::string>& paths, unsigned threads) {
  threads = static_cast<unsigned>(std::min<size_t>(threads, paths.size()));
  if (threads > 1 && cleanOnThreads(paths, threads)) return {};
  return inTurn(paths);
}

}  // namespace polemos::check
