// Syntax and lexical errors as the diagnostics engine receives them: the message, the range over
// the whole offending token (so the caret line underlines it), notes, several errors in one file,
// and the stop once the engine is full. The golden files in tests/errors cover more messages
// through `polemos check`.

#include <gtest/gtest.h>

#include "ast/ast.h"
#include "syntax/parse.h"

namespace polemos {
namespace {

struct Parse {
  explicit Parse(std::string text) {
    id = sources.add("t.pol", std::move(text));
    file = syntax::parseFile(diags, id);
  }
  std::string errors() const { return diags.render(); }
  const diag::Diagnostic& first() const { return diags.all().at(0); }

  diag::SourceManager sources;
  diag::Diagnostics diags{sources};
  diag::FileId id = 0;
  std::unique_ptr<ast::File> file;
};

TEST(syntax_errors, RangeCoversTheWholeToken) {
  Parse p("ruleset r {\n  const a = 1 foo\n}\n");
  ASSERT_EQ(p.diags.errorCount(), 1u);
  const diag::SourceRange& r = p.first().range;
  EXPECT_EQ(r.begin.file, p.id);
  EXPECT_EQ(r.begin.line, 2u);
  EXPECT_EQ(r.begin.col, 14u);
  EXPECT_EQ(r.end.line, 2u);
  EXPECT_EQ(r.end.col, 17u);
  EXPECT_EQ(p.errors(),
            "t.pol:2:15: error: expected a declaration or '}' but found 'foo'\n"
            "  const a = 1 foo\n"
            "              ^~~\n");
}

TEST(syntax_errors, ColumnsAreCodePoints) {
  Parse p("ruleset r \"é§\" {\n  \"ünïcode\" x\n}\n");
  ASSERT_EQ(p.diags.errorCount(), 1u);
  EXPECT_EQ(p.first().range.begin.col, 2u);
  EXPECT_EQ(p.first().range.end.col, 11u);
  EXPECT_EQ(p.errors(),
            "t.pol:2:3: error: expected a declaration or '}' but found the string \"ünïcode\"\n"
            "  \"ünïcode\" x\n"
            "  ^~~~~~~~~\n");
}

TEST(syntax_errors, UnexpectedEndOfFileNotesTheOpenBracket) {
  Parse p("ruleset r {\n  const a = 1\n");
  EXPECT_EQ(p.errors(),
            "t.pol:2:14: error: unexpected end of file; expected a declaration or '}'\n"
            "  const a = 1\n"
            "             ^\n"
            "t.pol:1:11: note: the '{' opened here is not closed\n"
            "ruleset r {\n"
            "          ^\n");
}

TEST(syntax_errors, MissingClosingBracketNotesItsOpener) {
  Parse p("ruleset r {\n  const a = f(1,\n    2\n  const b = 3\n}\n");
  EXPECT_EQ(p.errors(),
            "t.pol:4:3: error: expected ')' but found 'const'\n"
            "  const b = 3\n"
            "  ^~~~~\n"
            "t.pol:2:14: note: to close the '(' opened here\n"
            "  const a = f(1,\n"
            "             ^\n");
  // Recovery went on: the second constant was parsed.
  ASSERT_EQ(p.file->blocks.size(), 1u);
  EXPECT_EQ(p.file->blocks[0]->decls.size(), 2u);
}

TEST(syntax_errors, ReservedWordAsName) {
  Parse p("ruleset r { const while = 1 }");
  EXPECT_EQ(p.errors(),
            "t.pol:1:19: error: expected a name but found 'while' ('while' is a reserved word and "
            "cannot be used as a name)\n"
            "ruleset r { const while = 1 }\n"
            "                  ^~~~~\n");
}

TEST(syntax_errors, SeveralErrorsInSeparateDeclarations) {
  Parse p(
      "ruleset r {\n"
      "  const a = \n"
      "  const b = 2\n"
      "  enum E { x y }\n"
      "  const c = 3\n"
      "}\n");
  EXPECT_EQ(p.diags.errorCount(), 2u) << p.errors();
  EXPECT_EQ(p.diags.all()[0].message, "expected an expression but found 'const'");
  EXPECT_EQ(p.diags.all()[0].range.begin.line, 3u);
  EXPECT_EQ(p.diags.all()[1].message, "expected ',' or '}' but found 'y'");
  EXPECT_EQ(p.diags.all()[1].range.begin.line, 4u);
  // As much of the AST as could be built is there.
  ASSERT_EQ(p.file->blocks.size(), 1u);
  EXPECT_GE(p.file->blocks[0]->decls.size(), 3u);
}

TEST(syntax_errors, LexicalErrors) {
  Parse bad("ruleset r { const a = 1 ¤ }");
  EXPECT_EQ(bad.errors(),
            "t.pol:1:25: error: unexpected character '¤'\n"
            "ruleset r { const a = 1 ¤ }\n"
            "                        ^\n");
  Parse run("ruleset r { const a = 1 ¤¤¤ }");
  EXPECT_EQ(run.diags.errorCount(), 1u);
  EXPECT_EQ(run.first().message, "unexpected characters '¤¤¤'");
  EXPECT_EQ(run.first().range.end.col - run.first().range.begin.col, 3u);
  Parse nul(std::string("ruleset r {\0}", 13));
  EXPECT_EQ(nul.first().message, "unexpected character U+0000");
  Parse quote("ruleset r { const a = “x” }");
  EXPECT_EQ(quote.diags.errorCount(), 1u);
  EXPECT_EQ(quote.first().message,
            "strings are written between plain double quotes (\"), not “ and ”");
  EXPECT_EQ(quote.first().range.end.col - quote.first().range.begin.col, 3u);
  // The parser saw the string that was meant.
  ASSERT_EQ(quote.file->blocks.at(0)->decls.size(), 1u);
  EXPECT_EQ(quote.file->blocks[0]->decls[0]->value->text, "x");
  Parse open("ruleset r { const a = “x }");
  EXPECT_EQ(open.first().message,
            "unexpected character '“'; strings are written between plain double quotes (\")");
  Parse section("ruleset r { const a = 1 § }");
  EXPECT_EQ(section.first().message, "a rule citation needs a rule number after '§' (like §7.43)");
}

TEST(syntax_errors, UnterminatedStringIsOneError) {
  Parse p("ruleset r \"Standard {\n  const a = 1\n}\n");
  EXPECT_EQ(p.errors(),
            "t.pol:1:11: error: unterminated string: the line ends before the closing '\"'\n"
            "ruleset r \"Standard {\n"
            "          ^~~~~~~~~~~\n");
}

TEST(syntax_errors, UnterminatedComment) {
  Parse p("ruleset r {\n  /* never closed\n  const a = 1\n}\n");
  EXPECT_EQ(p.errors(),
            "t.pol:2:3: error: unterminated comment: this '/*' has no matching '*/'\n"
            "  /* never closed\n"
            "  ^~\n");
}

TEST(syntax_errors, StrayClosingBrace) {
  Parse p("ruleset r {\n}\n}\n");
  EXPECT_EQ(p.errors(),
            "t.pol:3:1: error: unexpected '}': there is no open '{' for it to close\n"
            "}\n"
            "^\n");
}

TEST(syntax_errors, StopsWhenTheEngineIsFull) {
  // One error per declaration, far more than the engine keeps.
  std::string text = "ruleset r {\n";
  for (int i = 0; i < 500; ++i) text += "  const = 1\n";
  text += "}\n";
  Parse p(text);
  EXPECT_TRUE(p.diags.full());
  EXPECT_EQ(p.diags.all().size(), diag::Diagnostics::kMaxErrors);
  EXPECT_LE(p.diags.errorCount(), diag::Diagnostics::kMaxErrors + 1);
}

TEST(syntax_errors, EngineAlreadyFull) {
  diag::SourceManager sources;
  diag::Diagnostics diags(sources);
  for (size_t i = 0; i < diag::Diagnostics::kMaxErrors; ++i)
    diags.error({}, "earlier " + std::to_string(i));
  diag::FileId id = sources.add("t.pol", "ruleset r { const = 1 }\nruleset ok {}\n");
  auto file = syntax::parseFile(diags, id);
  ASSERT_NE(file, nullptr);
  EXPECT_EQ(diags.errorCount(), diag::Diagnostics::kMaxErrors + 1);
}

TEST(syntax_errors, OddsRatioInARowKey) {
  Parse p("ruleset r { table t { row 1:1 2 3 } }");
  EXPECT_EQ(p.first().message,
            "expected ':' after the row key but found '2'; '1:1' reads as an odds ratio, so write "
            "a space after the ':'");
}

TEST(syntax_errors, StrayTokenInTableRow) {
  Parse p("ruleset r {\n  table t {\n    row 1: AR ( DR\n  }\n  const a = 1\n}\n");
  EXPECT_EQ(p.diags.errorCount(), 1u) << p.errors();
  EXPECT_EQ(p.first().message,
            "unexpected '(' in a table row (a cell is a number, a name, a string, an odds ratio, "
            "true, false, none or '-')");
}

}  // namespace
}  // namespace polemos
