#include "diag/read_file.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

namespace polemos::diag {

bool readFileBounded(const std::string& path, size_t maxBytes, std::string& out, std::string& why) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    why = fmt::format("'{}' is a folder", path);
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    why = fmt::format("cannot read '{}'", path);
    return false;
  }
  out.clear();
  char buffer[1 << 16];
  while (in) {
    in.read(buffer, sizeof buffer);
    size_t n = static_cast<size_t>(in.gcount());
    if (out.size() + n > maxBytes) {
      out.clear();
      why = fmt::format("'{}' is larger than {} bytes", path, maxBytes);
      return false;
    }
    out.append(buffer, n);
  }
  if (in.bad()) {
    why = fmt::format("cannot read '{}'", path);
    return false;
  }
  return true;
}

}  // namespace polemos::diag
