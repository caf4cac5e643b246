// The AST builder on declarations and blocks: every declaration kind of the grammar, overlays,
// blocks, `part of` files, citations, descriptions and source ranges.

#include <gtest/gtest.h>

#include "ast/ast.h"
#include "syntax/ast_dump.h"
#include "syntax/parse.h"

namespace polemos {
namespace {

using ast::DeclKind;
using ast::OverlayMode;

struct Parse {
  explicit Parse(std::string text) {
    id = sources.add("test.pol", std::move(text));
    file = syntax::parseFile(diags, id);
  }
  std::string errors() const { return diags.render(); }
  const ast::Block& block(size_t i = 0) const { return *file->blocks.at(i); }
  const ast::Decl& decl(size_t i = 0) const { return *block().decls.at(i); }
  std::string dump(size_t i = 0) const { return syntax::dumpDecl(&decl(i)); }

  diag::SourceManager sources;
  diag::Diagnostics diags{sources};
  diag::FileId id = 0;
  std::unique_ptr<ast::File> file;
};

// Declarations inside `ruleset r { ... }`; the body starts on line 2.
struct Rules : Parse {
  explicit Rules(const std::string& body) : Parse("ruleset r {\n" + body + "\n}\n") {}
};

TEST(syntax_decls, RulesetBlock) {
  Parse p("ruleset fourbattles \"Four Battles\" extends standard §1.0 §1.1 {\n}\n");
  ASSERT_EQ(p.errors(), "");
  ASSERT_EQ(p.file->blocks.size(), 1u);
  const ast::Block& b = p.block();
  EXPECT_EQ(b.kind, ast::BlockKind::Ruleset);
  EXPECT_EQ(b.name.name, "fourbattles");
  EXPECT_EQ(b.base.name, "standard");
  EXPECT_EQ(b.title, "Four Battles");
  ASSERT_EQ(b.citations.size(), 2u);
  EXPECT_EQ(b.citations[0].text, "1.0");
  EXPECT_EQ(b.citations[1].text, "1.1");
  EXPECT_EQ(b.range.begin.line, 1u);
  EXPECT_EQ(b.range.begin.col, 0u);
  EXPECT_EQ(b.range.end.line, 2u);
  EXPECT_EQ(b.range.end.col, 1u);
  EXPECT_EQ(b.name.range.begin.col, 8u);
  EXPECT_EQ(b.name.range.end.col, 19u);
}

TEST(syntax_decls, RulesetWithoutBase) {
  Parse p("ruleset standard {}");
  ASSERT_EQ(p.errors(), "");
  EXPECT_EQ(p.block().base.name, "");
  EXPECT_EQ(p.block().title, "");
}

TEST(syntax_decls, HouseModuleScenarioBlocks) {
  Parse p(
      "house aid_sheet for deluxe \"Player aid\" §H.1 { }\n"
      "module stdlib.odds \"Odds columns\" { const x = 1 }\n"
      "scenario chalons for standard \"Chalons, 451 AD\" §S { turns = 15 }\n");
  ASSERT_EQ(p.errors(), "");
  ASSERT_EQ(p.file->blocks.size(), 3u);
  const ast::Block& h = p.block(0);
  EXPECT_EQ(h.kind, ast::BlockKind::House);
  EXPECT_EQ(h.name.name, "aid_sheet");
  EXPECT_EQ(h.base.name, "deluxe");
  EXPECT_EQ(h.title, "Player aid");
  ASSERT_EQ(h.citations.size(), 1u);
  EXPECT_EQ(h.citations[0].text, "H.1");
  const ast::Block& m = p.block(1);
  EXPECT_EQ(m.kind, ast::BlockKind::Module);
  EXPECT_EQ(m.moduleName.joined(), "stdlib.odds");
  ASSERT_EQ(m.moduleName.parts.size(), 2u);
  EXPECT_EQ(m.title, "Odds columns");
  ASSERT_EQ(m.decls.size(), 1u);
  const ast::Block& s = p.block(2);
  EXPECT_EQ(s.kind, ast::BlockKind::Scenario);
  EXPECT_EQ(s.name.name, "chalons");
  EXPECT_EQ(s.base.name, "standard");
  EXPECT_EQ(s.title, "Chalons, 451 AD");
  ASSERT_EQ(s.scenario.settings.size(), 1u);
}

TEST(syntax_decls, PartOfFile) {
  Parse p("part of standard\nconst a = 1\ntable t { }\n");
  ASSERT_EQ(p.errors(), "");
  ASSERT_TRUE(p.file->partOf.has_value());
  EXPECT_EQ(p.file->partOf->name, "standard");
  EXPECT_TRUE(p.file->blocks.empty());
  ASSERT_EQ(p.file->decls.size(), 2u);
  EXPECT_EQ(p.file->decls[0]->kind, DeclKind::Const);
  EXPECT_EQ(p.file->decls[1]->kind, DeclKind::Table);
  EXPECT_EQ(p.file->file, p.id);
}

TEST(syntax_decls, EmptyFile) {
  Parse p("");
  EXPECT_EQ(p.errors(), "");
  EXPECT_TRUE(p.file->blocks.empty());
  EXPECT_TRUE(p.file->decls.empty());
  EXPECT_FALSE(p.file->partOf.has_value());
}

TEST(syntax_decls, UsesAndInclude) {
  Rules p("uses stdlib.odds, stdlib.hex\ninclude \"tables.pol\", \"units\\\\x.pol\";");
  ASSERT_EQ(p.errors(), "");
  const ast::Decl& u = p.decl(0);
  EXPECT_EQ(u.kind, DeclKind::Uses);
  ASSERT_EQ(u.uses.size(), 2u);
  EXPECT_EQ(u.uses[0].joined(), "stdlib.odds");
  EXPECT_EQ(u.uses[1].joined(), "stdlib.hex");
  EXPECT_EQ(u.qualified.joined(), "stdlib.odds");
  const ast::Decl& i = p.decl(1);
  EXPECT_EQ(i.kind, DeclKind::Include);
  ASSERT_EQ(i.includes.size(), 2u);
  EXPECT_EQ(i.includes[0], "tables.pol");
  EXPECT_EQ(i.includes[1], "units\\x.pol");
}

TEST(syntax_decls, Levels) {
  Rules p("levels introductory < basic < advanced §1.2");
  ASSERT_EQ(p.errors(), "");
  const ast::Decl& d = p.decl();
  EXPECT_EQ(d.kind, DeclKind::Levels);
  ASSERT_EQ(d.levels.size(), 3u);
  EXPECT_EQ(d.levels[0].name, "introductory");
  EXPECT_EQ(d.levels[2].name, "advanced");
  ASSERT_EQ(d.citations.size(), 1u);
  EXPECT_EQ(d.citations[0].text, "1.2");
}

TEST(syntax_decls, Option) {
  Rules p("option displacement: bool = on §7.8 \"Displacement rule\";\noption x = 3");
  ASSERT_EQ(p.errors(), "");
  const ast::Decl& d = p.decl();
  EXPECT_EQ(d.kind, DeclKind::Option);
  EXPECT_EQ(d.name.name, "displacement");
  ASSERT_TRUE(d.type.has_value());
  EXPECT_EQ(d.type->name.name, "bool");
  EXPECT_EQ(syntax::dumpExpr(d.value.get()), "on");
  EXPECT_EQ(d.description, "Displacement rule");
  ASSERT_EQ(d.citations.size(), 1u);
  EXPECT_FALSE(p.decl(1).type.has_value());
}

TEST(syntax_decls, Enum) {
  Rules p("enum Weapon §3 { bow, sling §10.2 \"thrown\", javelin, }");
  ASSERT_EQ(p.errors(), "");
  const ast::Decl& d = p.decl();
  EXPECT_EQ(d.kind, DeclKind::Enum);
  EXPECT_EQ(d.name.name, "Weapon");
  ASSERT_EQ(d.citations.size(), 1u);
  ASSERT_EQ(d.members.size(), 3u);
  EXPECT_EQ(d.members[0].name.name, "bow");
  EXPECT_EQ(d.members[1].name.name, "sling");
  ASSERT_EQ(d.members[1].citations.size(), 1u);
  EXPECT_EQ(d.members[1].citations[0].text, "10.2");
  EXPECT_EQ(d.members[1].description, "thrown");
  EXPECT_EQ(d.members[2].name.name, "javelin");
}

TEST(syntax_decls, ConstAndDie) {
  Rules p("const max_stack: int = 2 + 1 §5.5;\ndie averaging = [2, 3, 3, 4, 4, 5] §9 \"avg\"");
  ASSERT_EQ(p.errors(), "");
  EXPECT_EQ(p.dump(0), "const max_stack: int = (+ 2 1) §5.5");
  const ast::Decl& die = p.decl(1);
  EXPECT_EQ(die.kind, DeclKind::Die);
  EXPECT_EQ(die.name.name, "averaging");
  ASSERT_EQ(die.faces.size(), 6u);
  EXPECT_EQ(die.faces[5]->intValue, 5);
  EXPECT_EQ(die.description, "avg");
  ASSERT_EQ(die.citations.size(), 1u);
}

TEST(syntax_decls, StatesAndFields) {
  Rules p(
      "side state §15 {\n"
      "  eliminated_sp: int = 0 §15.1 \"SP lost\"\n"
      "  demoralized := eliminated_sp >= 10 §15.2 \"derived\";\n"
      "}\n"
      "game state { turn: int }");
  ASSERT_EQ(p.errors(), "");
  const ast::Decl& s = p.decl(0);
  EXPECT_EQ(s.kind, DeclKind::SideState);
  ASSERT_EQ(s.citations.size(), 1u);
  ASSERT_EQ(s.fields.size(), 2u);
  const ast::FieldDecl& f0 = s.fields[0];
  EXPECT_EQ(f0.name.name, "eliminated_sp");
  ASSERT_TRUE(f0.type.has_value());
  EXPECT_EQ(f0.type->name.name, "int");
  EXPECT_EQ(f0.value->intValue, 0);
  EXPECT_FALSE(f0.derived);
  EXPECT_FALSE(f0.isState);
  EXPECT_EQ(f0.description, "SP lost");
  ASSERT_EQ(f0.citations.size(), 1u);
  EXPECT_EQ(f0.range.begin.line, 3u);
  const ast::FieldDecl& f1 = s.fields[1];
  EXPECT_TRUE(f1.derived);
  EXPECT_FALSE(f1.type.has_value());
  EXPECT_EQ(syntax::dumpExpr(f1.value.get()), "(>= eliminated_sp 10)");
  EXPECT_EQ(f1.description, "derived");
  EXPECT_EQ(p.decl(1).kind, DeclKind::GameState);
  ASSERT_EQ(p.decl(1).fields.size(), 1u);
  EXPECT_EQ(p.decl(1).fields[0].value, nullptr);
}

TEST(syntax_decls, UnitClassAndType) {
  Rules p(
      "unit class Combat §2 {\n"
      "  strength: int\n"
      "  missile: Weapon? = none\n"
      "  state disrupted: bool = false §10.1\n"
      "  state: int\n"
      "}\n"
      "unit type legion: Combat \"Roman legion\" §2.1 { strength = 6; ma = 4 }");
  ASSERT_EQ(p.errors(), "");
  const ast::Decl& c = p.decl(0);
  EXPECT_EQ(c.kind, DeclKind::UnitClass);
  EXPECT_EQ(c.name.name, "Combat");
  ASSERT_EQ(c.fields.size(), 4u);
  EXPECT_TRUE(c.fields[1].type->optional);
  EXPECT_EQ(c.fields[1].type->name.name, "Weapon");
  EXPECT_EQ(c.fields[1].value->kind, ast::ExprKind::None);
  EXPECT_TRUE(c.fields[2].isState);
  EXPECT_EQ(c.fields[2].name.name, "disrupted");
  // `state` is a soft keyword: a field may be called that.
  EXPECT_FALSE(c.fields[3].isState);
  EXPECT_EQ(c.fields[3].name.name, "state");
  const ast::Decl& t = p.decl(1);
  EXPECT_EQ(t.kind, DeclKind::UnitType);
  EXPECT_EQ(t.name.name, "legion");
  EXPECT_EQ(t.baseClass.name, "Combat");
  EXPECT_EQ(t.description, "Roman legion");
  ASSERT_EQ(t.citations.size(), 1u);
  ASSERT_EQ(t.inits.size(), 2u);
  EXPECT_EQ(t.inits[0].name.name, "strength");
  EXPECT_EQ(t.inits[0].value->intValue, 6);
  EXPECT_EQ(t.inits[1].name.name, "ma");
}

TEST(syntax_decls, AttributesAndKinds) {
  Rules p(
      "terrain attributes { cost: int = 1; defense: TerrainEffect }\n"
      "hexside attributes §5 { extra: int }\n"
      "scenario attributes { turns: int }\n"
      "terrain woods \"Woods\" §8.0 { cost = 3; defense = DD }\n"
      "hexside stream { extra = 1 }");
  ASSERT_EQ(p.errors(), "");
  EXPECT_EQ(p.decl(0).kind, DeclKind::TerrainAttributes);
  EXPECT_EQ(p.decl(0).fields.size(), 2u);
  EXPECT_EQ(p.decl(1).kind, DeclKind::HexsideAttributes);
  EXPECT_EQ(p.decl(1).citations.size(), 1u);
  EXPECT_EQ(p.decl(2).kind, DeclKind::ScenarioAttributes);
  const ast::Decl& w = p.decl(3);
  EXPECT_EQ(w.kind, DeclKind::Terrain);
  EXPECT_EQ(w.name.name, "woods");
  EXPECT_EQ(w.description, "Woods");
  ASSERT_EQ(w.inits.size(), 2u);
  EXPECT_EQ(syntax::dumpExpr(w.inits[1].value.get()), "DD");
  EXPECT_EQ(p.decl(4).kind, DeclKind::Hexside);
  EXPECT_EQ(p.decl(4).name.name, "stream");
}

TEST(syntax_decls, Quantity) {
  Rules p("quantity melee.defense(d: unit, a: list<unit>): int = d.strength §7.4 \"defense\"");
  ASSERT_EQ(p.errors(), "");
  const ast::Decl& d = p.decl();
  EXPECT_EQ(d.kind, DeclKind::Quantity);
  EXPECT_EQ(d.qualified.joined(), "melee.defense");
  EXPECT_EQ(d.name.name, "");
  ASSERT_EQ(d.params.size(), 2u);
  EXPECT_EQ(d.params[0].name.name, "d");
  EXPECT_EQ(syntax::dumpTypeRef(d.params[1].type), "list<unit>");
  EXPECT_EQ(d.type->name.name, "int");
  EXPECT_EQ(syntax::dumpExpr(d.value.get()), "(. d strength)");
  EXPECT_EQ(d.description, "defense");
}

TEST(syntax_decls, Modifier) {
  Rules p(
      "modifier terrain_defense on melee.defense(d, a) §7.41 level basic if displacement "
      "\"terrain\" {\n"
      "  when hex_of(d).terrain == DD: * 2 because d, a\n"
      "  when x: + 1; when y: - 1\n"
      "  when z: = 4\n"
      "  always: / 2 up\n"
      "  always: / 3\n"
      "  when w: / 2 nearest\n"
      "  when v: shift -1 because v\n"
      "}");
  ASSERT_EQ(p.errors(), "");
  const ast::Decl& d = p.decl();
  EXPECT_EQ(d.kind, DeclKind::Modifier);
  EXPECT_EQ(d.name.name, "terrain_defense");
  EXPECT_EQ(d.qualified.joined(), "melee.defense");
  ASSERT_EQ(d.paramNames.size(), 2u);
  EXPECT_EQ(d.paramNames[0].name, "d");
  EXPECT_EQ(d.paramNames[1].name, "a");
  ASSERT_EQ(d.gates.size(), 2u);
  EXPECT_EQ(d.gates[0].kind, ast::Gate::Level);
  EXPECT_EQ(d.gates[0].level.name, "basic");
  EXPECT_EQ(d.gates[1].kind, ast::Gate::If);
  EXPECT_EQ(syntax::dumpExpr(d.gates[1].cond.get()), "displacement");
  EXPECT_EQ(d.description, "terrain");
  ASSERT_EQ(d.clauses.size(), 8u);
  EXPECT_EQ(d.clauses[0].op, ast::ModOpKind::Mul);
  EXPECT_EQ(syntax::dumpExpr(d.clauses[0].cond.get()), "(== (. (call hex_of d) terrain) DD)");
  ASSERT_EQ(d.clauses[0].because.size(), 2u);
  EXPECT_EQ(d.clauses[1].op, ast::ModOpKind::Add);
  EXPECT_EQ(d.clauses[2].op, ast::ModOpKind::Sub);
  EXPECT_EQ(d.clauses[3].op, ast::ModOpKind::Set);
  EXPECT_EQ(d.clauses[4].op, ast::ModOpKind::Div);
  EXPECT_EQ(d.clauses[4].cond, nullptr);
  EXPECT_EQ(d.clauses[4].rounding, ast::Rounding::Up);
  EXPECT_EQ(d.clauses[5].rounding, ast::Rounding::Down);
  EXPECT_EQ(d.clauses[6].rounding, ast::Rounding::Nearest);
  EXPECT_EQ(d.clauses[7].op, ast::ModOpKind::Shift);
  EXPECT_EQ(syntax::dumpExpr(d.clauses[7].operand.get()), "(- 1)");
  EXPECT_EQ(d.clauses[7].because.size(), 1u);
}

TEST(syntax_decls, ModifierWithoutParams) {
  Rules p("modifier demoralized on melee.column { when attacker_side.demoralized: shift -1 }");
  ASSERT_EQ(p.errors(), "");
  EXPECT_TRUE(p.decl().paramNames.empty());
  EXPECT_EQ(p.decl().qualified.joined(), "melee.column");
}

TEST(syntax_decls, FunctionsAndProcedures) {
  Rules p(
      "function double(x: int): int = x * 2;\n"
      "function f() §3 { return 1 }\n"
      "procedure melee(attackers: list<unit>, defenders: list<unit>): int §7.0 { let a = 1 }");
  ASSERT_EQ(p.errors(), "");
  const ast::Decl& f = p.decl(0);
  EXPECT_EQ(f.kind, DeclKind::Function);
  EXPECT_FALSE(f.hasBody);
  EXPECT_EQ(syntax::dumpExpr(f.value.get()), "(* x 2)");
  EXPECT_EQ(f.type->name.name, "int");
  const ast::Decl& g = p.decl(1);
  EXPECT_TRUE(g.hasBody);
  EXPECT_EQ(g.value, nullptr);
  ASSERT_EQ(g.body.size(), 1u);
  EXPECT_TRUE(g.params.empty());
  const ast::Decl& m = p.decl(2);
  EXPECT_EQ(m.kind, DeclKind::Procedure);
  EXPECT_EQ(m.params.size(), 2u);
  EXPECT_EQ(m.type->name.name, "int");
  EXPECT_EQ(syntax::dumpStmt(m.body.at(0).get()), "(let a 1)");
}

TEST(syntax_decls, Action) {
  Rules p(
      "action move(u: unit in my_units(), to: hex) §5.0 \"Move a unit\" level basic {\n"
      "  require u.side == active_side §5.17\n"
      "}");
  ASSERT_EQ(p.errors(), "");
  const ast::Decl& a = p.decl();
  EXPECT_EQ(a.kind, DeclKind::Action);
  ASSERT_EQ(a.params.size(), 2u);
  EXPECT_EQ(syntax::dumpExpr(a.params[0].domain.get()), "(call my_units)");
  EXPECT_EQ(a.params[1].domain, nullptr);
  EXPECT_EQ(a.description, "Move a unit");
  ASSERT_EQ(a.gates.size(), 1u);
  ASSERT_EQ(a.body.size(), 1u);
}

TEST(syntax_decls, ResultsEventTriggerSequence) {
  Rules p(
      "results melee_result(a: list<unit>) §7.6 {\n"
      "  - { }\n"
      "  EX §7.6 \"exchange\" { eliminate(a) }\n"
      "}\n"
      "event eliminated(u: unit) §15;\n"
      "trigger count_losses on eliminated(u) §15.1 level basic { x += 1 }\n"
      "sequence §4.0 { step s { } }");
  ASSERT_EQ(p.errors(), "");
  const ast::Decl& r = p.decl(0);
  EXPECT_EQ(r.kind, DeclKind::Results);
  ASSERT_EQ(r.cases.size(), 2u);
  EXPECT_EQ(r.cases[0].name.name, "-");
  EXPECT_EQ(r.cases[0].name.range.begin.line, 3u);
  EXPECT_EQ(r.cases[0].name.range.begin.col, 2u);
  EXPECT_EQ(r.cases[1].name.name, "EX");
  EXPECT_EQ(r.cases[1].description, "exchange");
  ASSERT_EQ(r.cases[1].citations.size(), 1u);
  ASSERT_EQ(r.cases[1].body.size(), 1u);
  const ast::Decl& e = p.decl(1);
  EXPECT_EQ(e.kind, DeclKind::Event);
  EXPECT_EQ(e.params.size(), 1u);
  const ast::Decl& t = p.decl(2);
  EXPECT_EQ(t.kind, DeclKind::Trigger);
  EXPECT_EQ(t.name.name, "count_losses");
  EXPECT_EQ(t.event.name, "eliminated");
  ASSERT_EQ(t.paramNames.size(), 1u);
  EXPECT_EQ(t.paramNames[0].name, "u");
  EXPECT_EQ(t.gates.size(), 1u);
  EXPECT_EQ(t.body.size(), 1u);
  const ast::Decl& s = p.decl(3);
  EXPECT_EQ(s.kind, DeclKind::Sequence);
  EXPECT_EQ(s.citations.at(0).text, "4.0");
  EXPECT_EQ(s.body.size(), 1u);
}

TEST(syntax_decls, Overlays) {
  Rules p(
      "replace terrain slope { cost = 2 } §5.25\n"
      "add modifier flank on melee.attack(a) { always: * 2 }\n"
      "replace option displacement = false");
  // `§5.25` after the body is not where a kind declaration's citations go.
  EXPECT_NE(p.errors(), "");
  Rules q(
      "replace terrain slope §5.25 { cost = 2 }\n"
      "add modifier flank on melee.attack(a) { always: * 2 }\n"
      "replace option displacement = false\n"
      "const plain = 1");
  ASSERT_EQ(q.errors(), "");
  EXPECT_EQ(q.decl(0).overlay, OverlayMode::Replace);
  EXPECT_EQ(q.decl(0).kind, DeclKind::Terrain);
  EXPECT_EQ(q.decl(0).range.begin.col, 0u);  // the range includes `replace`
  EXPECT_EQ(q.decl(1).overlay, OverlayMode::Add);
  EXPECT_EQ(q.decl(1).kind, DeclKind::Modifier);
  EXPECT_EQ(q.decl(2).overlay, OverlayMode::Replace);
  EXPECT_EQ(q.decl(3).overlay, OverlayMode::Plain);
}

TEST(syntax_decls, RemoveEveryKind) {
  struct Case {
    const char* words;
    DeclKind kind;
  };
  const Case cases[] = {
      {"option", DeclKind::Option},
      {"enum", DeclKind::Enum},
      {"const", DeclKind::Const},
      {"unit class", DeclKind::UnitClass},
      {"unit type", DeclKind::UnitType},
      {"terrain", DeclKind::Terrain},
      {"hexside", DeclKind::Hexside},
      {"table", DeclKind::Table},
      {"quantity", DeclKind::Quantity},
      {"modifier", DeclKind::Modifier},
      {"function", DeclKind::Function},
      {"procedure", DeclKind::Procedure},
      {"action", DeclKind::Action},
      {"results", DeclKind::Results},
      {"event", DeclKind::Event},
      {"trigger", DeclKind::Trigger},
      {"die", DeclKind::Die},
      {"phase", DeclKind::Sequence},
      {"step", DeclKind::Sequence},
      {"levels", DeclKind::Levels},
  };
  for (const Case& c : cases) {
    Rules p(std::string("remove ") + c.words + " melee.thing §1.2;");
    ASSERT_EQ(p.errors(), "") << c.words;
    const ast::Decl& d = p.decl();
    EXPECT_EQ(d.overlay, OverlayMode::Remove) << c.words;
    EXPECT_EQ(d.kind, c.kind) << c.words;
    EXPECT_EQ(d.removeKind, c.words);
    EXPECT_EQ(d.qualified.joined(), "melee.thing");
    ASSERT_EQ(d.citations.size(), 1u);
  }
}

TEST(syntax_decls, SoftKeywordsAsNames) {
  // Words that only mean something in one position are ordinary names elsewhere.
  Rules p(
      "const side = 1\nconst rows = columns + state + phase + table + function\n"
      "function at(by: int): int = by");
  ASSERT_EQ(p.errors(), "");
  EXPECT_EQ(p.decl(0).name.name, "side");
  EXPECT_EQ(syntax::dumpExpr(p.decl(1).value.get()),
            "(+ (+ (+ (+ columns state) phase) table) function)");
  EXPECT_EQ(p.decl(2).name.name, "at");
}

TEST(syntax_decls, OptionalSemicolons) {
  Rules with("const a = 1; const b = 2;");
  Rules without("const a = 1 const b = 2");
  ASSERT_EQ(with.errors(), "");
  ASSERT_EQ(without.errors(), "");
  EXPECT_EQ(with.block().decls.size(), 2u);
  EXPECT_EQ(without.block().decls.size(), 2u);
}

TEST(syntax_decls, CommentsAreSkipped) {
  Rules p("// a line comment\nconst a /* inline */ = 1 /* a\nmulti-line comment */ const b = 2");
  ASSERT_EQ(p.errors(), "");
  ASSERT_EQ(p.block().decls.size(), 2u);
  EXPECT_EQ(p.decl(1).range.begin.line, 4u);
}

TEST(syntax_decls, DeclarationRanges) {
  Rules p("  const answer = 42 §1");
  ASSERT_EQ(p.errors(), "");
  const ast::Decl& d = p.decl();
  EXPECT_EQ(d.range.begin.line, 2u);
  EXPECT_EQ(d.range.begin.col, 2u);
  EXPECT_EQ(d.range.end.col, 22u);
  EXPECT_EQ(d.name.range.begin.col, 8u);
  EXPECT_EQ(d.name.range.end.col, 14u);
  EXPECT_EQ(d.value->range.begin.col, 17u);
  EXPECT_EQ(d.value->range.end.col, 19u);
  EXPECT_EQ(d.citations[0].range.begin.col, 20u);
  EXPECT_EQ(d.citations[0].range.end.col, 22u);  // `§1` is two code points
  EXPECT_EQ(d.range.begin.file, p.id);
}

TEST(syntax_decls, DumpFileCoversAll) {
  Parse p(
      "ruleset r \"R\" {\n"
      "  enum E { a, b }\n"
      "  table t { row 1: a }\n"
      "}\n");
  ASSERT_EQ(p.errors(), "");
  EXPECT_EQ(syntax::dumpFile(*p.file),
            "ruleset r \"R\"\n"
            "  enum E {a, b}\n"
            "  table t | 1: a\n");
}

}  // namespace
}  // namespace polemos
