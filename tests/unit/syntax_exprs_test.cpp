// The AST builder on expressions: literals, precedence and associativity, postfix chains,
// lambdas, conditionals, collections, rolls and choices, through parseExpression (the REPL's
// entry point) and inside declarations.

#include <gtest/gtest.h>

#include "ast/ast.h"
#include "syntax/ast_dump.h"
#include "syntax/parse.h"

namespace polemos {
namespace {

using ast::ExprKind;

struct ParseExpr {
  explicit ParseExpr(std::string text) {
    id = sources.add("eval", std::move(text));
    expr = syntax::parseExpression(diags, id);
  }
  std::string errors() const { return diags.render(); }
  std::string dump() const { return syntax::dumpExpr(expr.get()); }

  diag::SourceManager sources;
  diag::Diagnostics diags{sources};
  diag::FileId id = 0;
  ast::ExprPtr expr;
};

std::string dump(const std::string& text) {
  ParseExpr p(text);
  EXPECT_EQ(p.errors(), "") << text;
  return p.dump();
}

TEST(syntax_exprs, Literals) {
  EXPECT_EQ(dump("42"), "42");
  EXPECT_EQ(dump("3:1"), "3:1");
  EXPECT_EQ(dump("\"hi\""), "\"hi\"");
  EXPECT_EQ(dump("true"), "true");
  EXPECT_EQ(dump("false"), "false");
  EXPECT_EQ(dump("none"), "none");
  EXPECT_EQ(dump("§7.43"), "§7.43");
  EXPECT_EQ(dump("§4.A"), "§4.A");
  EXPECT_EQ(dump("name_1"), "name_1");
}

TEST(syntax_exprs, LiteralFields) {
  ParseExpr i("007");
  ASSERT_EQ(i.expr->kind, ExprKind::Int);
  EXPECT_EQ(i.expr->intValue, 7);
  EXPECT_FALSE(i.expr->overflow);
  ParseExpr o("13:4");
  ASSERT_EQ(o.expr->kind, ExprKind::Odds);
  EXPECT_EQ(o.expr->oddsA, 13);
  EXPECT_EQ(o.expr->oddsB, 4);
  ParseExpr b("true");
  EXPECT_TRUE(b.expr->boolValue);
  ParseExpr c("§17.2.1");
  ASSERT_EQ(c.expr->kind, ExprKind::CitationLit);
  EXPECT_EQ(c.expr->text, "17.2.1");
  ParseExpr n("hex_of");
  ASSERT_EQ(n.expr->kind, ExprKind::Name);
  EXPECT_EQ(n.expr->text, "hex_of");
}

TEST(syntax_exprs, IntegerOverflowIsFlaggedNotThrown) {
  ParseExpr max("9223372036854775807");
  ASSERT_EQ(max.errors(), "");
  EXPECT_EQ(max.expr->intValue, INT64_MAX);
  EXPECT_FALSE(max.expr->overflow);
  ParseExpr over("9223372036854775808");
  ASSERT_EQ(over.errors(), "");  // the checker reports it, with the range
  ASSERT_NE(over.expr, nullptr);
  EXPECT_TRUE(over.expr->overflow);
  ParseExpr huge(std::string(5000, '9'));
  ASSERT_NE(huge.expr, nullptr);
  EXPECT_TRUE(huge.expr->overflow);
  ParseExpr odds("99999999999999999999:1");
  EXPECT_TRUE(odds.expr->overflow);
}

TEST(syntax_exprs, Strings) {
  ParseExpr s(R"("a \"quoted\" \\ back\nslash\tand § é")");
  ASSERT_EQ(s.errors(), "");
  EXPECT_EQ(s.expr->text, "a \"quoted\" \\ back\nslash\tand § é");
  ParseExpr empty("\"\"");
  EXPECT_EQ(empty.expr->text, "");
}

TEST(syntax_exprs, UnknownEscapeIsAnError) {
  ParseExpr s(R"("a\qb")");
  EXPECT_EQ(s.expr, nullptr);
  EXPECT_EQ(s.errors(),
            "eval:1:3: error: unknown escape sequence '\\q' in a string (the escapes are \\\", "
            "\\\\, \\n and \\t)\n"
            "\"a\\qb\"\n"
            "  ^~\n");
}

TEST(syntax_exprs, ArithmeticPrecedence) {
  EXPECT_EQ(dump("1 + 2 * 3"), "(+ 1 (* 2 3))");
  EXPECT_EQ(dump("(1 + 2) * 3"), "(* (+ 1 2) 3)");
  EXPECT_EQ(dump("1 - 2 - 3"), "(- (- 1 2) 3)");
  EXPECT_EQ(dump("8 / 4 / 2"), "(/ (/ 8 4) 2)");
  EXPECT_EQ(dump("a % b * c"), "(* (% a b) c)");
  EXPECT_EQ(dump("-a * b"), "(* (- a) b)");
  EXPECT_EQ(dump("- - a"), "(- (- a))");
  EXPECT_EQ(dump("a - -1"), "(- a (- 1))");
}

TEST(syntax_exprs, ComparisonsAndLogic) {
  EXPECT_EQ(dump("a == b"), "(== a b)");
  EXPECT_EQ(dump("a != b"), "(!= a b)");
  EXPECT_EQ(dump("a < b"), "(< a b)");
  EXPECT_EQ(dump("a <= b"), "(<= a b)");
  EXPECT_EQ(dump("a > b"), "(> a b)");
  EXPECT_EQ(dump("a >= b"), "(>= a b)");
  EXPECT_EQ(dump("a in b"), "(in a b)");
  EXPECT_EQ(dump("a not in b"), "(not-in a b)");
  EXPECT_EQ(dump("a + 1 < b * 2"), "(< (+ a 1) (* b 2))");
  EXPECT_EQ(dump("a or b and c"), "(or a (and b c))");
  EXPECT_EQ(dump("a and b or c and d"), "(or (and a b) (and c d))");
  EXPECT_EQ(dump("not a == b"), "(not (== a b))");
  EXPECT_EQ(dump("not not a and b"), "(and (not (not a)) b)");
  EXPECT_EQ(dump("a or b or c"), "(or (or a b) c)");
}

TEST(syntax_exprs, Ranges) {
  EXPECT_EQ(dump("1..scenario.turns"), "(.. 1 (. scenario turns))");
  EXPECT_EQ(dump("a + 1 .. b - 1"), "(.. (+ a 1) (- b 1))");
  EXPECT_EQ(dump("x in 1..6"), "(in x (.. 1 6))");
  ParseExpr r("1..6");
  EXPECT_EQ(r.expr->kind, ExprKind::Range);
}

TEST(syntax_exprs, ComparisonsAndRangesDoNotChain) {
  ParseExpr cmp("a < b < c");
  EXPECT_EQ(cmp.errors(),
            "eval:1:1: error: comparisons do not chain (`a < b < c`): join two with `and`, or put "
            "the first in parentheses\n"
            "a < b < c\n"
            "^~~~~~~~~\n");
  ParseExpr eq("x == y != z");
  EXPECT_NE(eq.errors().find("error: comparisons do not chain"), std::string::npos);
  ParseExpr range("1..2..3");
  EXPECT_EQ(range.errors(),
            "eval:1:1: error: ranges do not chain (`1..2..3`): write one range `a..b`\n"
            "1..2..3\n"
            "^~~~~~~\n");
  // In parentheses they are one operand like any other.
  EXPECT_EQ(dump("(a < b) == c"), "(== (< a b) c)");
  EXPECT_EQ(dump("a == (b < c)"), "(== a (< b c))");
  EXPECT_EQ(dump("(1..2) == r"), "(== (.. 1 2) r)");
  // A range binds tighter than a comparison, so this is two comparisons in a row.
  ParseExpr in("x in 1..6 == y");
  EXPECT_NE(in.errors().find("error: comparisons do not chain"), std::string::npos);
  EXPECT_EQ(dump("(x in 1..6) == y"), "(== (in x (.. 1 6)) y)");
}

TEST(syntax_exprs, PrefixOperatorsAsOperands) {
  EXPECT_EQ(dump("a == not b"), "(== a (not b))");
  EXPECT_EQ(dump("x * -y"), "(* x (- y))");
  EXPECT_EQ(dump("-x.y(1)"), "(- (call (. x y) 1))");
  EXPECT_EQ(dump("not a and not b or c"), "(or (and (not a) (not b)) c)");
  EXPECT_EQ(dump("- a - b"), "(- (- a) b)");
}

TEST(syntax_exprs, PostfixChains) {
  EXPECT_EQ(dump("a.b.c"), "(. (. a b) c)");
  EXPECT_EQ(dump("f()"), "(call f)");
  EXPECT_EQ(dump("f(1, x: 2)"), "(call f 1 x: 2)");
  EXPECT_EQ(dump("crt[col, roll d6]"), "(index crt col (roll d6))");
  EXPECT_EQ(dump("hex_of(d).terrain.defense[0](x)"),
            "(call (index (. (. (call hex_of d) terrain) defense) 0) x)");
  EXPECT_EQ(dump("scenario.demoralization[this]"), "(index (. scenario demoralization) this)");
}

TEST(syntax_exprs, CallArguments) {
  ParseExpr p("cheapest_path(u, to, cost: move_cost, stop: in_enemy_zoc)");
  ASSERT_EQ(p.errors(), "");
  ASSERT_EQ(p.expr->kind, ExprKind::Call);
  ASSERT_EQ(p.expr->args.size(), 4u);
  EXPECT_FALSE(p.expr->args[0].name.has_value());
  ASSERT_TRUE(p.expr->args[2].name.has_value());
  EXPECT_EQ(p.expr->args[2].name->name, "cost");
  EXPECT_EQ(p.expr->args[3].name->name, "stop");
  EXPECT_EQ(syntax::dumpExpr(p.expr->operands[0].get()), "cheapest_path");
}

TEST(syntax_exprs, MemberField) {
  ParseExpr p("u.side");
  ASSERT_EQ(p.expr->kind, ExprKind::Member);
  EXPECT_EQ(p.expr->member.name, "side");
  EXPECT_EQ(p.expr->member.range.begin.col, 2u);
  EXPECT_EQ(p.expr->range.begin.col, 0u);
  EXPECT_EQ(p.expr->range.end.col, 6u);
}

TEST(syntax_exprs, Lambdas) {
  EXPECT_EQ(dump("a -> ridge_distance(a) > 2"), "(lambda (a) (> (call ridge_distance a) 2))");
  EXPECT_EQ(dump("(a, b) -> a + b"), "(lambda (a b) (+ a b))");
  EXPECT_EQ(dump("all(attackers, a -> a.moved)"), "(call all attackers (lambda (a) (. a moved)))");
  EXPECT_EQ(dump("a -> b -> a"), "(lambda (a) (lambda (b) a))");
  ParseExpr p("(x) -> x");
  ASSERT_EQ(p.expr->kind, ExprKind::Lambda);
  ASSERT_EQ(p.expr->params.size(), 1u);
  EXPECT_EQ(p.expr->params[0].name, "x");
}

TEST(syntax_exprs, Conditional) {
  EXPECT_EQ(dump("if a then b else c"), "(if a b c)");
  EXPECT_EQ(dump("if a then b else if c then d else e"), "(if a b (if c d e))");
  EXPECT_EQ(dump("1 + (if a then 2 else 3)"), "(+ 1 (if a 2 3))");
}

TEST(syntax_exprs, Collections) {
  EXPECT_EQ(dump("[]"), "(list)");
  EXPECT_EQ(dump("[1, 2, 3,]"), "(list 1 2 3)");
  EXPECT_EQ(dump("{}"), "(map)");
  EXPECT_EQ(dump("{hunnic: 10, roman: 12}"), "(map (hunnic 10) (roman 12))");
  ParseExpr m("{a: 1, b: [2],}");
  ASSERT_EQ(m.expr->kind, ExprKind::Map);
  ASSERT_EQ(m.expr->mapKeys.size(), 2u);
  EXPECT_EQ(m.expr->mapKeys[1].name, "b");
  EXPECT_EQ(m.expr->operands[1]->kind, ExprKind::List);
}

TEST(syntax_exprs, Rolls) {
  ParseExpr one("roll d6");
  ASSERT_EQ(one.expr->kind, ExprKind::Roll);
  EXPECT_EQ(one.expr->dieName.name, "d6");
  EXPECT_EQ(one.expr->diceCount, 1);
  EXPECT_EQ(one.expr->rollCount, nullptr);
  EXPECT_EQ(one.expr->rollMode, ast::RollMode::Sum);

  ParseExpr two("roll 2d6 highest §7.1");
  EXPECT_EQ(two.expr->dieName.name, "d6");
  EXPECT_EQ(two.expr->diceCount, 2);
  EXPECT_EQ(two.expr->rollCount, nullptr);
  EXPECT_EQ(two.expr->rollMode, ast::RollMode::Highest);
  ASSERT_EQ(two.expr->citations.size(), 1u);
  EXPECT_EQ(two.expr->citations[0].text, "7.1");

  ParseExpr counted("roll (n + 1) d10 lowest");
  ASSERT_NE(counted.expr->rollCount, nullptr);
  EXPECT_EQ(syntax::dumpExpr(counted.expr->rollCount.get()), "(+ n 1)");
  EXPECT_EQ(counted.expr->dieName.name, "d10");
  EXPECT_EQ(counted.expr->rollMode, ast::RollMode::Lowest);

  ParseExpr literal("roll 3 d6 each");
  ASSERT_NE(literal.expr->rollCount, nullptr);
  EXPECT_EQ(literal.expr->rollCount->intValue, 3);
  EXPECT_EQ(literal.expr->rollMode, ast::RollMode::Each);

  ParseExpr named("roll averaging");
  EXPECT_EQ(named.expr->dieName.name, "averaging");
  EXPECT_EQ(named.expr->diceCount, 1);
  EXPECT_EQ(named.expr->dieName.range.begin.col, 5u);
  EXPECT_EQ(named.expr->dieName.range.end.col, 14u);
}

TEST(syntax_exprs, Choose) {
  ParseExpr p("choose attackers by attacker \"unit to lose\" §7.6");
  ASSERT_EQ(p.errors(), "");
  ASSERT_EQ(p.expr->kind, ExprKind::Choose);
  ASSERT_EQ(p.expr->operands.size(), 2u);
  EXPECT_EQ(syntax::dumpExpr(p.expr->operands[0].get()), "attackers");
  EXPECT_EQ(syntax::dumpExpr(p.expr->operands[1].get()), "attacker");
  EXPECT_EQ(p.expr->prompt, "unit to lose");
  ASSERT_EQ(p.expr->citations.size(), 1u);
  EXPECT_EQ(dump("choose legal(u) by side_of(u)"), "(choose (call legal u) (call side_of u))");
}

TEST(syntax_exprs, ParenthesesBelongToTheExpression) {
  ParseExpr p("(a + b) * c");
  ASSERT_EQ(p.expr->kind, ExprKind::Binary);
  const ast::Expr& lhs = *p.expr->operands[0];
  EXPECT_EQ(lhs.range.begin.col, 0u);
  EXPECT_EQ(lhs.range.end.col, 7u);
  EXPECT_EQ(p.expr->range.begin.col, 0u);
  EXPECT_EQ(p.expr->range.end.col, 11u);
}

TEST(syntax_exprs, RangesCountCodePoints) {
  // `é` is two bytes and one column; `§` too.
  ParseExpr p("\"é\" + §1 + b");
  ASSERT_EQ(p.errors(), "");
  EXPECT_EQ(syntax::dumpExpr(p.expr.get()), "(+ (+ \"é\" §1) b)");
  const ast::Expr& lhs = *p.expr->operands[0];
  EXPECT_EQ(lhs.operands[0]->range.end.col, 3u);
  EXPECT_EQ(lhs.operands[1]->range.begin.col, 6u);
  EXPECT_EQ(lhs.operands[1]->range.end.col, 8u);
  EXPECT_EQ(p.expr->operands[1]->range.begin.col, 11u);
}

TEST(syntax_exprs, ParseExpressionErrors) {
  ParseExpr trailing("1 + 2 3");
  EXPECT_EQ(trailing.expr, nullptr);
  EXPECT_EQ(trailing.errors(),
            "eval:1:7: error: expected end of file but found '3'\n"
            "1 + 2 3\n"
            "      ^\n");
  ParseExpr incomplete("1 +");
  EXPECT_EQ(incomplete.expr, nullptr);
  EXPECT_EQ(incomplete.errors(),
            "eval:1:4: error: unexpected end of file; expected an expression\n"
            "1 +\n"
            "   ^\n");
  ParseExpr empty("");
  EXPECT_EQ(empty.expr, nullptr);
  EXPECT_TRUE(empty.diags.hasErrors());
}

TEST(syntax_exprs, ExpressionRangesSpanOperands) {
  ParseExpr p("alpha   +  beta");
  ASSERT_EQ(p.expr->kind, ExprKind::Binary);
  EXPECT_EQ(p.expr->range.begin.col, 0u);
  EXPECT_EQ(p.expr->range.end.col, 15u);
  EXPECT_EQ(p.expr->operands[1]->range.begin.col, 11u);
}

}  // namespace
}  // namespace polemos
