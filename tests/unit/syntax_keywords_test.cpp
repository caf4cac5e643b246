// The keyword list of interpreter/syntax/keywords.h (REPL completion, messages) against the
// generated lexer: every reserved word is a keyword that cannot be a name, and every keyword
// that cannot be a name is listed, in grammar order.

#include <gtest/gtest.h>

#include <algorithm>

#include "ast/ast.h"
#include "syntax/keywords.h"
#include "syntax/parse.h"

namespace polemos {
namespace {

// Whether `word` can be used as a name: it parses as a name expression.
bool usableAsName(const std::string& word) {
  diag::SourceManager sources;
  diag::Diagnostics diags(sources);
  auto id = sources.add("eval", word);
  ast::ExprPtr e = syntax::parseExpression(diags, id);
  return e != nullptr && e->kind == ast::ExprKind::Name && e->text == word;
}

TEST(syntax_keywords, ReservedWordsMatchTheGrammar) {
  const std::vector<std::string> keywords = syntax::lexerKeywords();
  ASSERT_GT(keywords.size(), 80u);
  std::vector<std::string> reserved;
  for (const std::string& k : keywords) {
    if (!usableAsName(k)) reserved.push_back(k);
  }
  std::vector<std::string> listed(syntax::kReservedWords.begin(), syntax::kReservedWords.end());
  EXPECT_EQ(listed, reserved);
}

TEST(syntax_keywords, EveryReservedWordIsAKeyword) {
  const std::vector<std::string> keywords = syntax::lexerKeywords();
  for (std::string_view w : syntax::kReservedWords) {
    EXPECT_NE(std::find(keywords.begin(), keywords.end(), w), keywords.end()) << w;
    EXPECT_FALSE(usableAsName(std::string(w))) << w;
  }
}

TEST(syntax_keywords, SoftKeywordsAreNames) {
  for (const char* w : {"side", "state", "phase", "step", "rows", "columns", "map", "at", "by",
                        "from", "remove", "add", "replace", "scenario", "module", "house"}) {
    EXPECT_TRUE(usableAsName(w)) << w;
  }
  EXPECT_TRUE(usableAsName("ordinary_name"));
  EXPECT_FALSE(usableAsName("d6"));  // dice
}

}  // namespace
}  // namespace polemos
