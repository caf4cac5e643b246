// Values: equality (odds as fractions), ordering, display, and the evaluator's arithmetic edges.
#include <gtest/gtest.h>

#include "eval/interpreter.h"
#include "ir/program.h"

using namespace polemos::ir;
using polemos::eval::compareOdds;
using polemos::eval::floorDiv;

namespace {

TEST(Value, OddsCompareAsFractions) {
  EXPECT_EQ(Value::odds(2, 2), Value::odds(1, 1));
  EXPECT_NE(Value::odds(3, 2), Value::odds(1, 1));
  EXPECT_LT(compareOdds(3, 2, 2, 1), 0);
  EXPECT_GT(compareOdds(13, 4, 3, 1), 0);
  EXPECT_EQ(compareOdds(INT64_MAX, 1, INT64_MAX, 1), 0);  // no overflow in the cross product
}

TEST(Value, ListsCompareElementWise) {
  Value a = Value::makeList({Value::integer(1), Value::integer(2)});
  Value b = Value::makeList({Value::integer(1), Value::integer(2)});
  Value c = Value::makeList({Value::integer(1)});
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_GT(compareValues(a, c), 0);
}

TEST(Value, DifferentKindsAreNeverEqual) {
  EXPECT_NE(Value::integer(1), Value::boolean(true));
  EXPECT_NE(Value::none(), Value::integer(0));
  EXPECT_EQ(Value::none(), Value::none());
}

TEST(Value, FloorDivisionRoundsDown) {
  EXPECT_EQ(floorDiv(5, 2), 2);
  EXPECT_EQ(floorDiv(-5, 2), -3);
  EXPECT_EQ(floorDiv(5, -2), -3);
  EXPECT_EQ(floorDiv(-6, 3), -2);
}

TEST(Value, ProgramDisplaysValuesAsPlayersReadThem) {
  Program p;
  p.enums.push_back(EnumInfo{"R", {"AR", "DL"}, {"", ""}, {"", ""}, -1});
  TableInfo t;
  t.name = "crt";
  t.cols = {TableKeyInfo{TableKeyInfo::Odds, 1, 4, "1:4"},
            TableKeyInfo{TableKeyInfo::Odds, 1, 1, "1:1"}};
  p.tables.push_back(t);
  EXPECT_EQ(p.display(Value::odds(3, 1)), "3:1");
  EXPECT_EQ(p.display(Value::of(Tag::Enum, 1, 0)), "DL");
  EXPECT_EQ(p.display(Value::of(Tag::Column, 1, 0)), "1:1");
  EXPECT_EQ(p.display(Value::of(Tag::Column, -1, 0)), "below 1:4");
  EXPECT_EQ(p.display(Value::makeList({Value::integer(1), Value::string("x")})), "[1, x]");
}

TEST(TableKey, MatchesRangesAndBounds) {
  EXPECT_TRUE((TableKeyInfo{TableKeyInfo::Range, 2, 4, ""}).matches(3));
  EXPECT_FALSE((TableKeyInfo{TableKeyInfo::Range, 2, 4, ""}).matches(5));
  EXPECT_TRUE((TableKeyInfo{TableKeyInfo::LessEq, -3, 0, ""}).matches(-3));
  EXPECT_FALSE((TableKeyInfo{TableKeyInfo::Less, -3, 0, ""}).matches(-3));
  EXPECT_TRUE((TableKeyInfo{TableKeyInfo::Greater, 11, 0, ""}).matches(12));
}

}  // namespace
