// The front end never crashes, hangs or aborts: empty input, binary garbage, pathological nesting
// with and without brackets, huge numbers, invalid UTF-8, files over the size limit, and a large
// valid file in reasonable time.

#include <gtest/gtest.h>

#include <chrono>
#include <random>

#include "ast/ast.h"
#include "syntax/parse.h"

namespace polemos {
namespace {

struct Parse {
  explicit Parse(std::string text, const syntax::ParseLimits& limits = {}) {
    id = sources.add("t.pol", std::move(text));
    file = syntax::parseFile(diags, id, limits);
  }
  std::string errors() const { return diags.render(); }
  std::string firstMessage() const {
    return diags.all().empty() ? std::string() : diags.all()[0].message;
  }

  diag::SourceManager sources;
  diag::Diagnostics diags{sources};
  diag::FileId id = 0;
  std::unique_ptr<ast::File> file;
};

std::string repeat(std::string_view s, size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

TEST(syntax_robustness, EmptyAndBlankFiles) {
  for (const char* text : {"", " ", "\n\n\n", "// only a comment", "/* block */", "\xEF\xBB\xBF"}) {
    Parse p(text);
    EXPECT_EQ(p.errors(), "") << text;
    ASSERT_NE(p.file, nullptr);
    EXPECT_TRUE(p.file->blocks.empty());
  }
}

TEST(syntax_robustness, ByteOrderMarkKeepsColumns) {
  Parse p("\xEF\xBB\xBFruleset r { x }");
  ASSERT_EQ(p.diags.errorCount(), 1u);
  // The mark is one code point: `x` is at column 13 (0-based) as the diagnostics engine counts.
  EXPECT_EQ(p.diags.all()[0].range.begin.col, 13u);
}

TEST(syntax_robustness, BinaryGarbage) {
  std::mt19937 rng(20240611);
  for (int round = 0; round < 20; ++round) {
    std::string text(4096, '\0');
    for (char& c : text) c = static_cast<char>(rng() & 0xff);
    Parse p(text);
    EXPECT_TRUE(p.diags.hasErrors());
    EXPECT_NE(p.file, nullptr);
  }
}

TEST(syntax_robustness, TextGarbage) {
  // Valid UTF-8 garbage gets past the UTF-8 check and exercises the lexer, parser and recovery.
  std::mt19937 rng(7);
  const std::vector<std::string> alphabet = {
      "a",        "x",      "0",    "9",   "_",     " ",    "\n",    "\t",  "(",    ")",  "{",
      "}",        "[",      "]",    "<",   ">",     "=",    "!",     "+",   "-",    "*",  "/",
      "%",        ".",      ",",    ":",   ";",     "\"",   "\\",    "§",   "é",    "¤",  "\x7f",
      "ruleset ", "table ", "row ", "if ", "else ", "not ", "roll ", "d6 ", "3:1 ", "/*", "*/"};
  for (int round = 0; round < 100; ++round) {
    std::string text;
    for (int i = 0; i < 2000; ++i) text += alphabet[rng() % alphabet.size()];
    Parse p(text);
    EXPECT_NE(p.file, nullptr);
  }
}

TEST(syntax_robustness, TokenGarbage) {
  // Random sequences of real tokens reach deep into the grammar's error recovery.
  std::mt19937 rng(99);
  const char* tokens[] = {
      "ruleset",   "r",   "{",        "}",   "(",    ")",      "[",      "]",
      "const",     "=",   "1",        "if",  "else", "table",  "row",    ":",
      "-",         "3:1", "\"s\"",    "§1",  "not",  "roll",   "d6",     ",",
      "procedure", "let", "phase",    "for", "in",   "..",     "->",     ";",
      "scenario",  "map", "modifier", "on",  "when", "always", "remove", "unit"};
  for (int round = 0; round < 200; ++round) {
    std::string text;
    const int n = 5 + static_cast<int>(rng() % 200);
    for (int i = 0; i < n; ++i) {
      text += tokens[rng() % std::size(tokens)];
      text += ' ';
    }
    Parse p(text);
    EXPECT_NE(p.file, nullptr);
  }
}

TEST(syntax_robustness, DeeplyNestedParentheses) {
  Parse p("ruleset r { const a = " + repeat("(", 100000) + "1" + repeat(")", 100000) + " }");
  EXPECT_EQ(p.diags.errorCount(), 1u);
  EXPECT_EQ(p.firstMessage(), "brackets nested too deeply (more than 200 levels)");
  // At the 201st bracket: the ruleset's `{` is the first.
  EXPECT_EQ(p.diags.all()[0].range.begin.col, 22u + 199u);
}

TEST(syntax_robustness, NestingAtTheLimitIsFine) {
  Parse p("ruleset r { const a = " + repeat("(", 199) + "1" + repeat(")", 199) + " }");
  EXPECT_EQ(p.errors(), "");
  Parse q("ruleset r { const a = " + repeat("[", 199) + "1" + repeat("]", 199) + " }");
  EXPECT_EQ(q.errors(), "");
}

TEST(syntax_robustness, NestingLimitIsConfigurable) {
  syntax::ParseLimits limits;
  limits.maxNesting = 10;
  Parse p("ruleset r { const a = " + repeat("{", 20) + repeat("}", 20) + " }", limits);
  EXPECT_EQ(p.firstMessage(), "brackets nested too deeply (more than 10 levels)");
}

TEST(syntax_robustness, MillionNots) {
  Parse p("ruleset r { const a = " + repeat("not ", 1000000) + "x }");
  EXPECT_EQ(p.diags.errorCount(), 1u);
  EXPECT_EQ(p.firstMessage(), "expression nested too deeply (more than 1000 levels)");
}

TEST(syntax_robustness, ManyMinuses) {
  Parse p("ruleset r { const a = " + repeat("- ", 100000) + "x }");
  EXPECT_EQ(p.firstMessage(), "expression nested too deeply (more than 1000 levels)");
}

TEST(syntax_robustness, NestingWithoutBracketsBelowTheLimit) {
  Parse p("ruleset r { const a = " + repeat("not ", 900) + "x }");
  EXPECT_EQ(p.errors(), "");
  const ast::Expr* e = p.file->blocks.at(0)->decls.at(0)->value.get();
  int depth = 0;
  while (e != nullptr && e->kind == ast::ExprKind::Unary) {
    ++depth;
    e = e->operands[0].get();
  }
  EXPECT_EQ(depth, 900);
}

TEST(syntax_robustness, LongElseIfChains) {
  Parse p("ruleset r { procedure p() { if a {} " + repeat("else if a {} ", 5000) + "} }");
  EXPECT_EQ(p.firstMessage(), "'else if' chain too long (more than 1000 levels)");
  Parse q("ruleset r { procedure p() { if a {} " + repeat("else if a {} ", 500) + "} }");
  EXPECT_EQ(q.errors(), "");
}

TEST(syntax_robustness, OtherUnbracketedNesting) {
  Parse cond("ruleset r { const a = " + repeat("if a then b else ", 5000) + "c }");
  EXPECT_EQ(cond.firstMessage(), "expression nested too deeply (more than 1000 levels)");
  Parse lambda("ruleset r { const a = " + repeat("a -> ", 5000) + "c }");
  EXPECT_EQ(lambda.firstMessage(), "expression nested too deeply (more than 1000 levels)");
  Parse types("ruleset r { const a: " + repeat("list<", 5000) + "int" + repeat(">", 5000) +
              " = 1 }");
  EXPECT_EQ(types.firstMessage(), "type nested too deeply (more than 1000 levels)");
}

TEST(syntax_robustness, PathologicalLookaheadIsBounded) {
  // Deciding whether this statement is an `if` statement or an `if ... then ... else` expression
  // takes lookahead to the end of the chain; it is cut off instead of taking minutes.
  auto start = std::chrono::steady_clock::now();
  Parse ifs("ruleset r { procedure p() { " + repeat("if ", 5000) + "x } }");
  EXPECT_TRUE(ifs.diags.hasErrors());
  Parse chooses("ruleset r { procedure p() { " + repeat("choose ", 11000) + "x" +
                repeat(" by y", 11000) + " = 3 } }");
  EXPECT_TRUE(chooses.diags.hasErrors());
  // `note` begins a note statement at once (it cannot begin a call), so its citations need no
  // lookahead: a note of 4,999 citations and one cited value parses.
  Parse notes("ruleset r { procedure p() { note " + repeat("§1 ", 5000) + "} }");
  EXPECT_FALSE(notes.diags.hasErrors());
  auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 30.0);
}

TEST(syntax_robustness, LongStatementsParse) {
  // A call with thousands of arguments as a statement (its kind shows at its first word; the
  // arguments are parsed, not looked ahead through).
  std::string list;
  for (int i = 0; i < 3000; ++i) list += std::to_string(i) + ", ";
  Parse p("ruleset r { procedure p() { record([" + list + "]) } }");
  EXPECT_EQ(p.errors(), "");
  Parse q("ruleset r { procedure p() { table_of([" + list + "])[0] = 1 } }");
  EXPECT_EQ(q.errors(), "");
  // Whether `return` has a value does need lookahead (the next statement may begin with a name),
  // through the whole value.
  Parse r("ruleset r { function f(): list<int> { return record([" + list + "]) } }");
  EXPECT_EQ(r.errors(), "");
}

// A flat chain nests in the tree one level per link although no bracket shows it: `x(1)(1)...`,
// `x[1][1]...`, `x.y.y...`, `1+1+...`, `a and a and ...`. Past the limit it is refused with an
// error (it once crashed the checker, 9,000 links deep); at the limit it parses.
TEST(syntax_robustness, LongChainsAreBoundedInDepth) {
  const size_t links = 9000;
  for (const auto& [link, head] : std::vector<std::pair<std::string, std::string>>{{"(1)", "x"},
                                                                                   {"[1]", "x"},
                                                                                   {".y", "x"},
                                                                                   {"+1", "1"},
                                                                                   {"*1", "1"},
                                                                                   {" and a", "a"},
                                                                                   {" or a", "a"},
                                                                                   {"-1", "1"}}) {
    Parse p("ruleset t {\n  function f(): int = " + head + repeat(link, links) + "\n}\n");
    EXPECT_NE(p.firstMessage().find("expression nested too deeply"), std::string::npos)
        << link << ": " << p.firstMessage();
    Parse ok("ruleset t {\n  function f(): int = " + head + repeat(link, 900) + "\n}\n");
    EXPECT_EQ(ok.errors(), "") << link;
  }
  // Chains inside chains add up: each bracketed group is shallow, the whole is not.
  std::string nest = "1";
  for (int i = 0; i < 3; ++i) nest = "(" + nest + repeat("+1", 400) + ")";
  Parse nested("ruleset t {\n  function f(): int = " + nest + "\n}\n");
  EXPECT_NE(nested.firstMessage().find("expression nested too deeply"), std::string::npos)
      << nested.firstMessage();
}

TEST(syntax_robustness, HugeIntegers) {
  Parse p("ruleset r { const a = " + std::string(100000, '9') + " }");
  EXPECT_EQ(p.errors(), "");
  const ast::Expr* e = p.file->blocks.at(0)->decls.at(0)->value.get();
  ASSERT_NE(e, nullptr);
  EXPECT_TRUE(e->overflow);
  Parse t("ruleset r { table t { row 1: " + std::string(100000, '9') + " -" +
          std::string(100000, '9') + " } }");
  EXPECT_EQ(t.errors(), "");
}

TEST(syntax_robustness, InvalidUtf8) {
  Parse p("ruleset r {\n  const a = \"caf\xe9\"\n}\n");
  EXPECT_EQ(p.errors(),
            "t.pol:2:17: error: invalid UTF-8 byte 0xe9 (the file must be UTF-8 text)\n"
            "  const a = \"caf?\"\n"
            "                ^\n");
  EXPECT_TRUE(p.file->blocks.empty());
  // Overlong forms, surrogates, stray continuation bytes, truncated sequences.
  for (const char* bad : {"\xc0\x80", "\xed\xa0\x80", "\x80", "\xf4\x90\x80\x80", "\xe2\x82",
                          "\xff", "ok \xf0\x9f\x98"}) {
    Parse q(std::string("const a = 1 ") + bad);
    EXPECT_EQ(q.diags.errorCount(), 1u) << bad;
    EXPECT_NE(q.firstMessage().find("invalid UTF-8 byte"), std::string::npos) << bad;
  }
  Parse fine("const a = \"\xf0\x9f\x98\x80 \xe2\x82\xac \xc3\xa9\"");
  EXPECT_EQ(fine.errors(), "");
}

TEST(syntax_robustness, SizeLimit) {
  syntax::ParseLimits limits;
  std::string text(limits.maxBytes + 1, ' ');
  Parse p(std::move(text));
  EXPECT_EQ(p.errors(), "t.pol: error: file is too large (16777217 bytes; the limit is 16 MiB)\n");
  EXPECT_TRUE(p.file->blocks.empty());
  syntax::ParseLimits small;
  small.maxBytes = 10;
  Parse q("ruleset r {}", small);
  EXPECT_EQ(q.firstMessage(), "file is too large (12 bytes; the limit is 10 bytes)");
  Parse exact("ruleset r {}", syntax::ParseLimits{12, 200});
  EXPECT_EQ(exact.errors(), "");
}

TEST(syntax_robustness, LargeValidFile) {
  // About 10 MB of ordinary, commented declarations: linear time, no stack trouble. (Dense code
  // without comments or descriptions costs about twice as much per byte; see parse.cpp.)
  const std::string unit =
      "  // Weapon classes of the missile units (§10.2); the order matters for the range table.\n"
      "  enum E{N} { a \"bow\", b §1.2 \"sling\", c \"javelin\" }\n"
      "  // Roman legion: strength, movement allowance and missile weapon, from the counters.\n"
      "  unit type t{N}: Combat \"Roman legion (heavy infantry)\" §2.1 {\n"
      "    strength = 6; ma = 4; missile = bow\n"
      "  }\n"
      "  // Combat Results Table as printed in the rules; the values in row 3 are reconstructed.\n"
      "  table crt{N} \"Combat Results Table\" §7.6 {\n"
      "    columns odds 1:2 1:1 2:1 3:1 4:1 5:1\n"
      "    row 1: AR AR EX DR DR DE\n"
      "    row 2: AR EX EX DR DE DE\n"
      "    row 3: - -1 0 1 2 \"see note\"\n"
      "  }\n"
      "  // A defender in woods or on a slope doubles its strength (§7.41).\n"
      "  modifier m{N} on melee.defense(d) §7.41 \"terrain doubles the defender\" {\n"
      "    when hex_of(d).defense == DD: * 2\n"
      "  }\n"
      "  // Rally step: a disrupted unit that has not moved recovers.\n"
      "  procedure p{N}(u: unit) { if u.moved { return } else { u.moved = true } }\n";
  std::string text = "ruleset big {\n";
  text.reserve(10'500'000);
  size_t n = 0;
  while (text.size() < 10'000'000) {
    std::string chunk = unit;
    const std::string num = std::to_string(n++);
    for (size_t pos; (pos = chunk.find("{N}")) != std::string::npos;) chunk.replace(pos, 3, num);
    text += chunk;
  }
  text += "}\n";
  auto start = std::chrono::steady_clock::now();
  Parse p(std::move(text));
  auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(p.errors(), "");
  ASSERT_EQ(p.file->blocks.size(), 1u);
  EXPECT_EQ(p.file->blocks[0]->decls.size(), n * 5);
  EXPECT_LT(seconds, 30.0);
}

TEST(syntax_robustness, ParseExpressionIsGuardedToo) {
  diag::SourceManager sources;
  diag::Diagnostics diags(sources);
  auto id = sources.add("eval", repeat("(", 5000) + "1" + repeat(")", 5000));
  EXPECT_EQ(syntax::parseExpression(diags, id), nullptr);
  EXPECT_EQ(diags.all().at(0).message, "brackets nested too deeply (more than 200 levels)");
  auto bad = sources.add("eval2", "\xff");
  EXPECT_EQ(syntax::parseExpression(diags, bad), nullptr);
  auto nots = sources.add("eval3", repeat("not ", 100000) + "x");
  EXPECT_EQ(syntax::parseExpression(diags, nots), nullptr);
}

}  // namespace
}  // namespace polemos
