// Fuzz target `parse`: one .pol source through the parser and the checker, as `polemos check FILE`
// checks a file (check::Loader::checkText, the source held in memory), then its diagnostics
// rendered. The source stands for a file in the standard ruleset's folder, so an `include` of a
// shipped part or a ruleset named by the input is found there. Errors in the source are answers;
// only crashes, sanitizer reports and timeouts are findings.
#include <cstddef>
#include <cstdint>
#include <string>

#include "check/loader.h"
#include "diag/diagnostics.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace polemos;
  diag::SourceManager sources;
  diag::Diagnostics diags(sources);
  check::Loader loader(diags);
  loader.checkText(std::string(POLEMOS_SOURCE_DIR) + "/rulesets/standard/fuzz-input.pol",
                   std::string(reinterpret_cast<const char*>(data), size));
  std::string shown = diags.render(false);
  (void)shown;
  return 0;
}
