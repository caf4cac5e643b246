// Small text helpers of the REPL's command parsing: words of a line, trimming, whole integers.
// They know nothing of commands or games.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace polemos::repl {

std::vector<std::string> splitWords(const std::string& s);
std::string trim(const std::string& s);
// The whole of `s` as an integer, or nothing ("12x" and "" are not numbers): engine::readInteger.
std::optional<long long> parseInt(const std::string& s);
// Whether `flag` is among `args`, every copy of it taken out (`legal r43 --all`).
bool takeFlag(std::vector<std::string>& args, const std::string& flag);

}  // namespace polemos::repl
