#include "syntax/keywords.h"

#include <cctype>

#include "syntax/parse_internal.h"

namespace polemos::syntax {

std::vector<std::string> lexerKeywords() {
  const antlr4::dfa::Vocabulary& vocab = lexerVocabulary();
  std::vector<std::string> out;
  for (size_t t = 1; t <= vocab.getMaxTokenType(); ++t) {
    const std::string lit = vocab.getLiteralName(t);
    // Keywords are the literal tokens made of letters: 'ruleset', not '{' or '->'.
    if (lit.size() < 3 || lit.front() != '\'') continue;
    const std::string word = lit.substr(1, lit.size() - 2);
    bool letters = true;
    for (char c : word) letters = letters && std::isalpha(static_cast<unsigned char>(c)) != 0;
    if (letters) out.push_back(word);
  }
  return out;
}

}  // namespace polemos::syntax
