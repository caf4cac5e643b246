#include "syntax/keywords.h"

#include <algorithm>
#include <cctype>

#include "syntax/parse_internal.h"

namespace polemos::syntax {

namespace {
// Each keyword of the lexer (a literal token made of letters: 'ruleset', not '{' or '->') with its
// token type, in grammar order.
std::vector<std::pair<std::string, size_t>> keywordTokens() {
  const antlr4::dfa::Vocabulary& vocab = lexerVocabulary();
  std::vector<std::pair<std::string, size_t>> out;
  for (size_t t = 1; t <= vocab.getMaxTokenType(); ++t) {
    const std::string lit = vocab.getLiteralName(t);
    if (lit.size() < 3 || lit.front() != '\'') continue;
    const std::string word = lit.substr(1, lit.size() - 2);
    bool letters = true;
    for (char c : word) letters = letters && std::isalpha(static_cast<unsigned char>(c)) != 0;
    if (letters) out.emplace_back(word, t);
  }
  return out;
}
}  // namespace

std::vector<std::string> lexerKeywords() {
  std::vector<std::string> out;
  for (auto& [word, type] : keywordTokens()) out.push_back(word);
  return out;
}

std::vector<size_t> softKeywordTypes() {
  std::vector<size_t> out;
  for (auto& [word, type] : keywordTokens())
    if (std::find(kReservedWords.begin(), kReservedWords.end(), word) == kReservedWords.end())
      out.push_back(type);
  return out;
}

}  // namespace polemos::syntax
