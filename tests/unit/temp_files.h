// Writing small source files for tests that load from disk (loader, check_files).
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

namespace polemos::test {

inline void write(const std::filesystem::path& p, const std::string& text) {
  std::ofstream out(p);
  out << text;
}

}  // namespace polemos::test
