// The fuzz targets without libFuzzer: a main that runs LLVMFuzzerTestOneInput once on every file
// under the directories (or on the files) given, in name order, and says how many it ran. ctest
// runs it on corpus/TARGET and crashes/TARGET (fuzz.replay.TARGET): the corpus and every input
// that ever crashed, replayed by each test run. A crash is a crash of this program; it never
// writes a file. POLEMOS_FUZZ_REPLAY_EVERY=N replays every Nth corpus input (in name order) and
// every crash input (a path with /crashes/): the sanitized run uses it to fit CI's time.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    std::error_code ec;
    if (fs::is_directory(argv[i], ec)) {
      for (auto it = fs::recursive_directory_iterator(argv[i], ec); !ec && it != fs::end(it);
           it.increment(ec))
        if (it->is_regular_file(ec) && it->path().filename().string()[0] != '.')
          files.push_back(it->path());
    } else if (fs::is_regular_file(argv[i], ec)) {
      files.emplace_back(argv[i]);
    } else if (!fs::exists(argv[i], ec)) {
      std::fprintf(stderr, "replay: no such file or directory: %s\n", argv[i]);
      return 2;
    }
  }
  std::sort(files.begin(), files.end());
  long every = 1;
  if (const char* e = std::getenv("POLEMOS_FUZZ_REPLAY_EVERY")) every = std::max(1L, std::atol(e));
  std::vector<fs::path> chosen;
  long n = 0;
  for (const fs::path& f : files)
    if (f.string().find("/crashes/") != std::string::npos || n++ % every == 0) chosen.push_back(f);
  files = std::move(chosen);
  for (const fs::path& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (std::getenv("POLEMOS_FUZZ_VERBOSE")) std::fprintf(stderr, "replay: %s\n", f.c_str());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(data.data()), data.size());
  }
  std::printf("replayed %zu inputs\n", files.size());
  return 0;
}
