// The text helpers of the front end: UTF-8 validation with locations, literal decoding with
// overflow, string unescaping, and message quoting.

#include <gtest/gtest.h>

#include "syntax/text.h"

namespace polemos::syntax {
namespace {

TEST(syntax_text, ValidUtf8) {
  EXPECT_FALSE(validateUtf8("").has_value());
  EXPECT_FALSE(validateUtf8("plain ascii\n").has_value());
  EXPECT_FALSE(validateUtf8("§ é € 😀 \xf4\x8f\xbf\xbf").has_value());
}

TEST(syntax_text, InvalidUtf8Locations) {
  auto e = validateUtf8("ab\ncd\xff");
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->offset, 5u);
  EXPECT_EQ(e->byte, 0xff);
  EXPECT_EQ(e->line, 2u);
  EXPECT_EQ(e->col, 2u);
  // Columns count code points: `é` is one.
  auto f = validateUtf8("é\x80");
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->col, 1u);
  EXPECT_EQ(f->byte, 0x80);
  // The lead byte of a broken sequence is the one reported.
  auto g = validateUtf8("x\xe2\x82y");
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->offset, 1u);
  EXPECT_EQ(g->byte, 0xe2);
  EXPECT_TRUE(validateUtf8("\xc1\xbf").has_value());          // overlong
  EXPECT_TRUE(validateUtf8("\xe0\x80\xaf").has_value());      // overlong
  EXPECT_TRUE(validateUtf8("\xed\xb0\x80").has_value());      // surrogate
  EXPECT_TRUE(validateUtf8("\xf4\x90\x80\x80").has_value());  // past U+10FFFF
  EXPECT_TRUE(validateUtf8("\xf0\x9f\x98").has_value());      // truncated
}

TEST(syntax_text, Integers) {
  EXPECT_EQ(parseInt("0").value, 0);
  EXPECT_EQ(parseInt("0042").value, 42);
  EXPECT_EQ(parseInt("9223372036854775807").value, INT64_MAX);
  EXPECT_FALSE(parseInt("9223372036854775807").overflow);
  EXPECT_TRUE(parseInt("9223372036854775808").overflow);
  EXPECT_EQ(parseInt("9223372036854775808", true).value, INT64_MIN);
  EXPECT_FALSE(parseInt("9223372036854775808", true).overflow);
  EXPECT_TRUE(parseInt("9223372036854775809", true).overflow);
  EXPECT_TRUE(parseInt(std::string(1000, '9')).overflow);
  EXPECT_EQ(parseInt("12", true).value, -12);
  // Text conjured by error recovery is not a number.
  EXPECT_EQ(parseInt("<missing INT>").value, 0);
  EXPECT_FALSE(parseInt("<missing INT>").overflow);
  EXPECT_EQ(parseInt("").value, 0);
}

TEST(syntax_text, OddsAndDice) {
  OddsValue o = parseOdds("13:4");
  EXPECT_EQ(o.a, 13);
  EXPECT_EQ(o.b, 4);
  EXPECT_TRUE(parseOdds("1:99999999999999999999").overflow);
  DiceValue d = parseDice("2d6");
  EXPECT_EQ(d.count, 2);
  EXPECT_EQ(d.die, "d6");
  DiceValue one = parseDice("d10");
  EXPECT_EQ(one.count, 1);
  EXPECT_EQ(one.die, "d10");
  EXPECT_TRUE(parseDice("99999999999999999999d6").overflow);
}

TEST(syntax_text, Unescape) {
  EXPECT_EQ(unescapeString(R"("plain")").value, "plain");
  EXPECT_EQ(unescapeString(R"("a\"b\\c\nd\te")").value, "a\"b\\c\nd\te");
  EXPECT_FALSE(unescapeString(R"("a\"b")").badEscape.has_value());
  EXPECT_EQ(unescapeString(R"("unterminated)").value, "unterminated");
  Unescaped bad = unescapeString(R"("é\q")");
  ASSERT_TRUE(bad.badEscape.has_value());
  EXPECT_EQ(*bad.badEscape, 2u);  // code points: `"`, `é`, then the backslash
  EXPECT_EQ(bad.badEscapeChar, U'q');
  EXPECT_EQ(bad.value, "éq");
}

TEST(syntax_text, Quoting) {
  EXPECT_EQ(quoteForMessage("foo"), "'foo'");
  EXPECT_EQ(quoteForMessage("a\tb"), "'a\\tb'");
  EXPECT_EQ(quoteForMessage(std::string("\0", 1)), "'U+0000'");
  EXPECT_EQ(quoteForMessage("abcdef", 3), "'abc...'");
  EXPECT_EQ(quoteForMessage("§é", 1), "'§...'");
  EXPECT_EQ(codePointName(U'¤'), "U+00A4");
}

TEST(syntax_text, CodePoints) {
  EXPECT_EQ(codePointCount("a§é😀"), 4u);
  std::string s;
  appendUtf8(s, U'😀');
  EXPECT_EQ(s, "😀");
  size_t i = 0;
  EXPECT_EQ(decodeUtf8(s, i), U'😀');
  EXPECT_EQ(i, 4u);
}

}  // namespace
}  // namespace polemos::syntax
