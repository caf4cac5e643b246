// Rule citations (cite/citation): reading a rule number as written in rules, scripts and
// sentences, the rule-book order, and writing lists back.
#include "cite/citation.h"

#include <gtest/gtest.h>

#include <algorithm>

using polemos::cite::Citation;

namespace {

std::string number(const char* written) {
  auto c = Citation::parse(written);
  return c ? c->number() : "(none)";
}

TEST(Citation, ParsesRuleNumbersAsWritten) {
  EXPECT_EQ(number("§7.43"), "7.43");
  EXPECT_EQ(number("7.43"), "7.43");
  EXPECT_EQ(number("§7.43."), "7.43");  // the end of a sentence
  EXPECT_EQ(number("§7.43,"), "7.43");
  EXPECT_EQ(number("§4.A"), "4.A");
  EXPECT_EQ(number("§6.1.1.m30"), "6.1.1.m30");
  EXPECT_EQ(number("§"), "(none)");
  EXPECT_EQ(number("§x1"), "(none)");
  EXPECT_EQ(number("7-43"), "(none)");
  EXPECT_EQ(Citation::parse("§7.43")->text(), "§7.43");
}

TEST(Citation, RuleBookOrder) {
  std::vector<std::string> rules = {"10.1", "7.6",  "7.52", "4.A",   "7.5",
                                    "9.0",  "7.41", "4.0",  "16.14", "16.2"};
  std::vector<Citation> cs;
  for (const auto& r : rules) cs.push_back(*Citation::parse(r));
  std::sort(cs.begin(), cs.end());
  std::string order;
  for (const auto& c : cs) order += c.number() + " ";
  EXPECT_EQ(order, "4.0 4.A 7.41 7.5 7.52 7.6 9.0 10.1 16.14 16.2 ");
}

TEST(Citation, ADocumentQualifierNamesAScenariosExclusiveRules) {
  auto c = Citation::parse("§chalons:6.1");
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->number(), "chalons:6.1");
  EXPECT_EQ(c->document(), "chalons");
  EXPECT_EQ(c->section(), "6.1");
  EXPECT_EQ(c->text(), "§chalons:6.1");
  EXPECT_EQ(number("chalons:7.E,"), "chalons:7.E");
  EXPECT_EQ(Citation::parse("§6.1")->document(), "");
  EXPECT_EQ(Citation::parse("§6.1")->section(), "6.1");
  EXPECT_EQ(number("§Chalons:6.1"), "(none)");  // a document is a lower-case name
  EXPECT_EQ(number("§:6.1"), "(none)");
  EXPECT_EQ(number("§chalons:"), "(none)");
  EXPECT_EQ(number("§chalons:x"), "(none)");
  EXPECT_NE(*Citation::parse("§6.1"), *Citation::parse("§chalons:6.1"));
}

TEST(Citation, TheRulesetsRulesComeBeforeAScenariosThenByDocument) {
  std::vector<std::string> rules = {"chalons:7.E", "16.14", "cannae:1.0",
                                    "chalons:6.1", "6.1",   "chalons:10.0"};
  std::vector<Citation> cs;
  for (const auto& r : rules) cs.push_back(*Citation::parse(r));
  std::sort(cs.begin(), cs.end());
  std::string order;
  for (const auto& c : cs) order += c.number() + " ";
  EXPECT_EQ(order, "6.1 16.14 cannae:1.0 chalons:6.1 chalons:7.E chalons:10.0 ");
}

TEST(Citation, Lists) {
  auto cs = Citation::parseList("7.41 §7.42 junk 4.A");
  ASSERT_EQ(cs.size(), 3u);
  EXPECT_EQ(polemos::cite::formatList(cs), "§7.41 §7.42 §4.A");
  EXPECT_EQ(polemos::cite::numberList(cs), "7.41 7.42 4.A");
  EXPECT_EQ(polemos::cite::formatList({}), "");
}

}  // namespace
