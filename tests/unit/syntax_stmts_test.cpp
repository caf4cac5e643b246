// The AST builder on statements: every statement of the grammar, `else if` chains, phase items,
// and the exact source text kept for requirements.

#include <gtest/gtest.h>

#include "ast/ast.h"
#include "syntax/ast_dump.h"
#include "syntax/parse.h"

namespace polemos {
namespace {

using ast::StmtKind;

// Statements inside `procedure p() { ... }` inside a ruleset; the body is on line 3.
struct Body {
  explicit Body(const std::string& stmts) {
    id = sources.add("test.pol", "ruleset r {\nprocedure p() {\n" + stmts + "\n}\n}\n");
    file = syntax::parseFile(diags, id);
  }
  std::string errors() const { return diags.render(); }
  const std::vector<ast::StmtPtr>& stmts() const { return file->blocks.at(0)->decls.at(0)->body; }
  const ast::Stmt& stmt(size_t i = 0) const { return *stmts().at(i); }
  std::string dump(size_t i = 0) const { return syntax::dumpStmt(&stmt(i)); }

  diag::SourceManager sources;
  diag::Diagnostics diags{sources};
  diag::FileId id = 0;
  std::unique_ptr<ast::File> file;
};

TEST(syntax_stmts, Let) {
  Body b("let a = 1\nlet route: path? = cheapest_path(u, to);");
  ASSERT_EQ(b.errors(), "");
  EXPECT_EQ(b.stmt(0).kind, StmtKind::Let);
  EXPECT_EQ(b.dump(0), "(let a 1)");
  EXPECT_FALSE(b.stmt(0).typeRef.has_value());
  EXPECT_EQ(b.dump(1), "(let route: path? (call cheapest_path u to))");
  EXPECT_EQ(b.stmt(1).name.name, "route");
  EXPECT_TRUE(b.stmt(1).typeRef->optional);
}

TEST(syntax_stmts, Assignments) {
  Body b("u.moved = true\nside_of(u).eliminated_sp += u.strength\nx[1] -= 2");
  ASSERT_EQ(b.errors(), "");
  EXPECT_EQ(b.stmt(0).kind, StmtKind::Assign);
  EXPECT_EQ(b.stmt(0).assignOp, ast::AssignOp::Set);
  EXPECT_EQ(b.dump(0), "(= (. u moved) true)");
  EXPECT_EQ(b.stmt(1).assignOp, ast::AssignOp::Add);
  EXPECT_EQ(b.dump(1), "(+= (. (call side_of u) eliminated_sp) (. u strength))");
  EXPECT_EQ(b.stmt(2).assignOp, ast::AssignOp::Sub);
  EXPECT_EQ(syntax::dumpExpr(b.stmt(2).target.get()), "(index x 1)");
}

TEST(syntax_stmts, IfElse) {
  Body b("if a { x() }\nif a { x() } else { y() }");
  ASSERT_EQ(b.errors(), "");
  EXPECT_EQ(b.stmt(0).kind, StmtKind::If);
  EXPECT_FALSE(b.stmt(0).hasElse);
  EXPECT_EQ(b.dump(0), "(if a {(call x)})");
  EXPECT_TRUE(b.stmt(1).hasElse);
  EXPECT_EQ(b.dump(1), "(if a {(call x)} else {(call y)})");
}

TEST(syntax_stmts, ElseIfChainsNest) {
  Body b("if a { f1() } else if b { f2() } else if c { f3() } else { f4() }");
  ASSERT_EQ(b.errors(), "");
  const ast::Stmt& s = b.stmt();
  ASSERT_EQ(s.elseBody.size(), 1u);
  const ast::Stmt& second = *s.elseBody[0];
  EXPECT_EQ(second.kind, StmtKind::If);
  EXPECT_EQ(syntax::dumpExpr(second.cond.get()), "b");
  EXPECT_EQ(second.range.begin.col, 19u);  // the `if` after `else`
  ASSERT_EQ(second.elseBody.size(), 1u);
  const ast::Stmt& third = *second.elseBody[0];
  EXPECT_TRUE(third.hasElse);
  EXPECT_EQ(b.dump(),
            "(if a {(call f1)} else {(if b {(call f2)} else {(if c {(call f3)} else {(call "
            "f4)})})})");
}

TEST(syntax_stmts, Loops) {
  Body b("for turn in 1..scenario.turns { play_turn(turn) }\nwhile x < 3 { x = x + 1 }");
  ASSERT_EQ(b.errors(), "");
  EXPECT_EQ(b.stmt(0).kind, StmtKind::For);
  EXPECT_EQ(b.stmt(0).name.name, "turn");
  EXPECT_EQ(b.dump(0), "(for turn (.. 1 (. scenario turns)) {(call play_turn turn)})");
  EXPECT_EQ(b.stmt(1).kind, StmtKind::While);
  EXPECT_EQ(b.dump(1), "(while (< x 3) {(= x (+ x 1))})");
}

TEST(syntax_stmts, RequireKeepsTheConditionText) {
  Body b(
      "require u.side == active_side   and not u.moved §5.17 §5.18 else \"moved already\"\n"
      "require not leaves_enemy_zoc(u, route) // why\n"
      "    or u.dot §11.1;");
  ASSERT_EQ(b.errors(), "");
  const ast::Stmt& r = b.stmt(0);
  EXPECT_EQ(r.kind, StmtKind::Require);
  EXPECT_EQ(r.condText, "u.side == active_side   and not u.moved");
  ASSERT_EQ(r.citations.size(), 2u);
  EXPECT_EQ(r.citations[1].text, "5.18");
  EXPECT_EQ(r.message, "moved already");
  const ast::Stmt& r2 = b.stmt(1);
  EXPECT_EQ(r2.condText, "not leaves_enemy_zoc(u, route) // why\n    or u.dot");
  EXPECT_EQ(r2.message, "");
}

TEST(syntax_stmts, ReturnEmitApplyNote) {
  Body b(
      "return;\n"
      "return a + 1;\n"
      "emit eliminated(u, by: attacker)\n"
      "apply crt[col, roll d6]\n"
      "note §7.4 §7.5 \"defender doubled\", d\n"
      "note \"plain\"");
  ASSERT_EQ(b.errors(), "");
  EXPECT_EQ(b.stmt(0).kind, StmtKind::Return);
  EXPECT_EQ(b.stmt(0).value, nullptr);
  EXPECT_EQ(b.dump(1), "(return (+ a 1))");
  EXPECT_EQ(b.stmt(2).kind, StmtKind::Emit);
  EXPECT_EQ(b.stmt(2).name.name, "eliminated");
  ASSERT_EQ(b.stmt(2).args.size(), 2u);
  EXPECT_EQ(b.stmt(2).args[1].name->name, "by");
  EXPECT_EQ(b.stmt(3).kind, StmtKind::Apply);
  EXPECT_EQ(b.dump(3), "(apply (index crt col (roll d6)))");
  EXPECT_EQ(b.stmt(4).kind, StmtKind::Note);
  ASSERT_EQ(b.stmt(4).citations.size(), 2u);
  ASSERT_EQ(b.stmt(4).noteArgs.size(), 2u);
  EXPECT_EQ(b.dump(4), "(note §7.4 §7.5 \"defender doubled\" d)");
  EXPECT_EQ(b.dump(5), "(note \"plain\")");
}

TEST(syntax_stmts, AReturnWithoutAValueEndsItsBlock) {
  // At the end of a block, or followed by `;`: either way a return of nothing.
  Body b("if a { return }\nif b { return; }\nreturn");
  ASSERT_EQ(b.errors(), "");
  ASSERT_EQ(b.stmt(0).body.size(), 1u);
  EXPECT_EQ(b.stmt(0).body[0]->kind, StmtKind::Return);
  EXPECT_EQ(b.stmt(0).body[0]->value, nullptr);
  EXPECT_EQ(b.stmt(0).body[0]->range.begin.col, 7u);
  EXPECT_EQ(b.stmt(1).body[0]->value, nullptr);
  EXPECT_EQ(b.stmt(2).kind, StmtKind::Return);
  EXPECT_EQ(b.stmt(2).value, nullptr);
  // A value on the next line is the return's value, as before.
  Body v("return\nf(x)");
  ASSERT_EQ(v.errors(), "");
  EXPECT_EQ(v.dump(0), "(return (call f x))");
  // Anything else after a bare `return` would never run: an error that says so.
  Body e("return\nlet x = 1");
  EXPECT_NE(e.errors().find("error: expected a value, ';' or '}' after 'return' but found 'let' "
                            "(a 'return' without a value ends its block or is followed by ';'"),
            std::string::npos)
      << e.errors();
}

TEST(syntax_stmts, BlocksAndExpressionStatements) {
  Body b("{ a() { } }\nwalk(u, route); u.moved");
  ASSERT_EQ(b.errors(), "");
  EXPECT_EQ(b.stmt(0).kind, StmtKind::Block);
  EXPECT_EQ(b.dump(0), "{(call a) {}}");
  EXPECT_EQ(b.stmt(1).kind, StmtKind::ExprStmt);
  EXPECT_EQ(b.dump(1), "(call walk u route)");
  EXPECT_EQ(b.dump(2), "(. u moved)");
}

TEST(syntax_stmts, AStatementShowsItsKindAtItsFirstWord) {
  // A statement that is not a keyword statement is an assignment or a call and begins with a
  // name (soft keywords such as `side` included); its calls, fields and indexes follow.
  Body b("side(u).x[2] = 1\nside(u).reset()\nmap_of(h)[1].z += 3");
  ASSERT_EQ(b.errors(), "");
  EXPECT_EQ(b.stmt(0).kind, StmtKind::Assign);
  EXPECT_EQ(b.dump(0), "(= (index (. (call side u) x) 2) 1)");
  EXPECT_EQ(b.stmt(1).kind, StmtKind::ExprStmt);
  EXPECT_EQ(b.dump(1), "(call (. (call side u) reset))");
  EXPECT_EQ(b.dump(2), "(+= (. (index (call map_of h) 1) z) 3)");
  // Expressions that cannot begin a statement: a parenthesis, a literal, a list, a minus sign.
  for (const char* bad : {"(a).b = 1", "1", "[a, b]", "-x", "not a", "\"text\""}) {
    Body e(bad);
    EXPECT_NE(e.errors().find("error: expected a statement or '}' but found"), std::string::npos)
        << bad;
    EXPECT_NE(e.errors().find("is an assignment or a call and begins with a name"),
              std::string::npos)
        << bad << "\n"
        << e.errors();
  }
  // After an expression `not` can only begin `not in`: a line that starts with `not a` says so.
  Body notLine("let a = true\nnot a");
  EXPECT_NE(notLine.errors().find("error: expected 'in' but found 'a': after an expression 'not' "
                                  "begins 'not in'"),
            std::string::npos)
      << notLine.errors();
  // An operator at the start of a line continues the expression before it.
  Body cont("let a = 3\nnot in [1, 2]\nlet b = 1\n+ 2");
  ASSERT_EQ(cont.errors(), "");
  EXPECT_EQ(cont.dump(0), "(let a (not-in 3 (list 1 2)))");
  EXPECT_EQ(cont.dump(1), "(let b (+ 1 2))");
  // A lone citation after a call says what it should have been attached to.
  Body c("strike() §7.2");
  EXPECT_NE(c.errors().find("error: a citation on its own does nothing: put §7.2 on the "
                            "declaration"),
            std::string::npos)
      << c.errors();
  // `step(1)` as a statement: the message says why.
  Body step("step(1)");
  EXPECT_NE(step.errors().find("error: expected a name after 'step' but found '(' ('step' begins "
                               "a step statement"),
            std::string::npos)
      << step.errors();
  // `note`, `pause`, `phase` and `step` begin their own statements, never a call.
  Body n("note x(1)");
  ASSERT_EQ(n.errors(), "");
  EXPECT_EQ(n.stmt(0).kind, StmtKind::Note);
}

TEST(syntax_stmts, Phase) {
  Body b(
      "phase movement §4.A level basic if displacement for side {\n"
      "  allow move, enter;\n"
      "  end requires mandatory_attacks_done() §7.11 else \"attack first\"\n"
      "  on start { reset() }\n"
      "  on end { cleanup() }\n"
      "}\n"
      "phase combat { }");
  ASSERT_EQ(b.errors(), "");
  const ast::Stmt& p = b.stmt(0);
  EXPECT_EQ(p.kind, StmtKind::Phase);
  EXPECT_EQ(p.name.name, "movement");
  ASSERT_EQ(p.citations.size(), 1u);
  EXPECT_EQ(p.citations[0].text, "4.A");
  ASSERT_EQ(p.gates.size(), 2u);
  EXPECT_EQ(syntax::dumpExpr(p.forPlayer.get()), "side");
  ASSERT_EQ(p.items.size(), 4u);
  EXPECT_EQ(p.items[0].kind, ast::PhaseItem::Allow);
  ASSERT_EQ(p.items[0].actions.size(), 2u);
  EXPECT_EQ(p.items[0].actions[1].name, "enter");
  EXPECT_EQ(p.items[1].kind, ast::PhaseItem::EndRequires);
  EXPECT_EQ(p.items[1].condText, "mandatory_attacks_done()");
  EXPECT_EQ(p.items[1].message, "attack first");
  ASSERT_EQ(p.items[1].citations.size(), 1u);
  EXPECT_EQ(p.items[2].kind, ast::PhaseItem::OnStart);
  EXPECT_EQ(p.items[2].body.size(), 1u);
  EXPECT_EQ(p.items[3].kind, ast::PhaseItem::OnEnd);
  EXPECT_EQ(p.items[3].range.begin.line, 7u);
  EXPECT_EQ(b.stmt(1).forPlayer, nullptr);
  EXPECT_TRUE(b.stmt(1).items.empty());
}

TEST(syntax_stmts, StepAndAlternate) {
  Body b(
      "step rally §4.D level basic { rally_step(side) }\n"
      "alternate from initiative_player until 2 passes §6.0 level advanced {\n"
      "  allow activate, panic_move\n"
      "}");
  ASSERT_EQ(b.errors(), "");
  const ast::Stmt& s = b.stmt(0);
  EXPECT_EQ(s.kind, StmtKind::Step);
  EXPECT_EQ(s.name.name, "rally");
  EXPECT_EQ(s.gates.size(), 1u);
  EXPECT_EQ(s.body.size(), 1u);
  const ast::Stmt& a = b.stmt(1);
  EXPECT_EQ(a.kind, StmtKind::Alternate);
  EXPECT_EQ(syntax::dumpExpr(a.value.get()), "initiative_player");
  EXPECT_EQ(a.passes, 2);
  EXPECT_EQ(a.citations.at(0).text, "6.0");
  EXPECT_EQ(a.gates.size(), 1u);
  ASSERT_EQ(a.items.size(), 1u);
  EXPECT_EQ(a.items[0].actions.size(), 2u);
}

TEST(syntax_stmts, StatementRanges) {
  Body b("  let x = 1;");
  ASSERT_EQ(b.errors(), "");
  const ast::Stmt& s = b.stmt();
  EXPECT_EQ(s.range.begin.line, 3u);
  EXPECT_EQ(s.range.begin.col, 2u);
  EXPECT_EQ(s.range.end.col, 12u);
  EXPECT_EQ(s.name.range.begin.col, 6u);
}

TEST(syntax_stmts, SequenceOfPlay) {
  // The sketch's Standard sequence, in this grammar.
  Body b(
      "for turn in 1..scenario.turns {\n"
      "  for side in scenario.turn_order {\n"
      "    phase movement §4.A { allow move, enter }\n"
      "    phase missile §4.B level basic { allow fire }\n"
      "    phase combat §4.C { allow attack; end requires mandatory_attacks_done() §7.11 }\n"
      "    step rally §4.D level basic { rally_step(side) }\n"
      "  }\n"
      "}");
  ASSERT_EQ(b.errors(), "");
  const ast::Stmt& outer = b.stmt();
  ASSERT_EQ(outer.body.size(), 1u);
  EXPECT_EQ(outer.body[0]->body.size(), 4u);
}

}  // namespace
}  // namespace polemos
