#include "repl/text.h"

#include <algorithm>
#include <sstream>

#include "engine/reading.h"

namespace polemos::repl {

std::vector<std::string> splitWords(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  size_t b = s.find_last_not_of(" \t\r\n");
  return s.substr(a, b - a + 1);
}

std::optional<long long> parseInt(const std::string& s) {
  return engine::readInteger(s);
}

bool takeFlag(std::vector<std::string>& args, const std::string& flag) {
  auto end = std::remove(args.begin(), args.end(), flag);
  bool found = end != args.end();
  args.erase(end, args.end());
  return found;
}

}  // namespace polemos::repl
