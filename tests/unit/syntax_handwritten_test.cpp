// The hand-written parser (syntax/descent.cpp) held to the generated (ANTLR) parser's AST.
//
// Every file is parsed through parseFile with ParserChoice::HandWritten and with
// ParserChoice::Generated (for the mutants, only when the hand-written parser accepts it), into
// the same file id, and the two ASTs are compared member by member (ast_equal.h). The rule
// everywhere: a file the hand-written parser accepts (no diagnostic at all) must be one the
// generated parser reads without a diagnostic, into the same AST; a file the generated parser
// reports anything about, the hand-written parser must decline. The shipped rules (rulesets/,
// stdlib/) must moreover be accepted. The comparator itself is tested first, on the generated
// parser alone.
//
// What this does not test: whether either AST is right (the syntax_*_test.cpp files do that for
// the generated path), the generated parser's error messages, parseExpression (the REPL's entry,
// which the hand-written parser does not serve), or how fast the hand-written parser is.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "ast/ast.h"
#include "ast_equal.h"
#include "diag/diagnostics.h"
#include "syntax/parse.h"

namespace polemos {
namespace {

namespace fs = std::filesystem;
using syntax::ParserChoice;
using test_helpers::firstAstDifference;

const fs::path kTestDir = fs::path(POLEMOS_TEST_DIR);
const fs::path kRoot = kTestDir.parent_path();

std::string readText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every *.pol under `dirs`, sorted (so that the order, and the mutations below, are the same on
// every run).
std::vector<fs::path> polFiles(const std::vector<fs::path>& dirs) {
  std::vector<fs::path> out;
  for (const fs::path& dir : dirs) {
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
      if (e.is_regular_file() && e.path().extension() == ".pol") out.push_back(e.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<fs::path> shippedFiles() {
  return polFiles({kRoot / "rulesets", kRoot / "stdlib"});
}

std::string displayName(const fs::path& p) {
  return p.lexically_relative(kRoot).string();
}

// One parse of a file through parseFile, with its own Diagnostics.
struct Parsed {
  std::unique_ptr<ast::File> file;
  size_t diagnostics = 0;  // recorded: errors, warnings and notes
  size_t reports = 0;      // errors reported, those past the engine's limit included
  std::string rendered;    // the diagnostics, rendered (only when there are some)

  bool clean() const { return diagnostics == 0 && reports == 0; }
};

Parsed parseWith(diag::SourceManager& sources, diag::FileId id, ParserChoice choice) {
  diag::Diagnostics diags(sources);
  syntax::ParseLimits limits;
  limits.parser = choice;
  Parsed p;
  p.file = syntax::parseFile(diags, id, limits);
  p.diagnostics = diags.all().size();
  p.reports = diags.reportCount();
  if (!p.clean()) p.rendered = diags.render().substr(0, 1500);
  return p;
}

// One text parsed both ways, into one file id (so that the ranges name the same file).
// Always: both parsers read it. WhenAccepted: the generated parser reads it only if the
// hand-written one accepts it, which is all the rule needs (the generated parser's error recovery
// is what takes the time on broken input).
enum class Generated { Always, WhenAccepted };

struct Both {
  explicit Both(std::string name, std::string text, Generated when = Generated::Always) {
    id = sources.add(std::move(name), std::move(text));
    handWritten = parseWith(sources, id, ParserChoice::HandWritten);
    if (when == Generated::Always || handWritten.clean()) {
      generated = parseWith(sources, id, ParserChoice::Generated);
      generatedRead = true;
    }
  }

  // The rule: "" if it holds, else what broke it.
  std::string violation() const {
    if (!handWritten.clean()) return "";  // declined: nothing to hold it to
    if (!generatedRead) return "internal: the generated parser did not read it";
    if (!generated.clean()) {
      return "the hand-written parser accepted what the generated parser reports:\n" +
             generated.rendered;
    }
    const std::string d = firstAstDifference(*generated.file, *handWritten.file);
    return d.empty() ? "" : "the ASTs differ (generated vs hand-written): " + d;
  }

  diag::SourceManager sources;
  diag::FileId id = 0;
  Parsed generated;
  Parsed handWritten;
  bool generatedRead = false;
};

// --- The comparator ----------------------------------------------------------------------------

// A bit of most constructs, for the comparator's own tests. The ruleset's declarations are found
// by name (decl()), the procedure's statements by position (stmt()).
const char* const kSample = R"pol(ruleset r "R" extends base §1.0 {
  enum Weapon { bow §1.1 "Bow", sling }
  const max_x: int = 3
  const ratio = 3:1
  const flag = true
  const lookup = {a: 1, b: 2}
  unit class Combat §2 {
    strength: int in 0..9 = 0 §2.1 "Strength" counter "str"
    missile: Weapon? = none
    state moved: bool = false
    ready := strength > 0
  }
  unit type legion: Combat "Legion" §2.2 { strength = 6 }
  table crt §7.6 {
    columns odds 1:2 1:1 2:1
    row 1: AR - EX
    row 2-3: "x" 3:2 true
  }
  modifier terrain_defense on melee.defense(d, a) §7.41 level basic {
    when d.x == 1: * 2 because d, a
    always: / 2 up
  }
  function double(x: int): int = x * 2;
  action go(u: unit in all_units(), to: hex) §5.0 "Go" if flag { move(u, to) }
  procedure p(u: unit, n: int) §3 {
    let a: list<int> = [1, -n, roll 2 d6 highest §3.1]
    require u.strength >= 1 and not u.moved §5.17 else "moved already"
    if a == none { return } else { a[0] += 1 }
    emit eliminated(u, by: u)
    note §7.4 "doubled", a
    for i in 1..n { f(x -> x + 1) }
    let c = choose [1, 2] by u "pick one" §3.2
  }
  results melee_result(a: list<unit>) §7.6 {
    EX §7.6 "exchange" { eliminate(a) }
  }
  sequence §4.0 {
    phase movement §4.A {
      allow move, go
      end requires ok(player) §5.32 else "no"
    }
  }
}
scenario s for r "S" §S.1 {
  map columns 1..5 rows 1..5 labels xxyy §2.1 {
    default clear;
    terrain woods: 0101 0102..0203
    hexside river: 0101/0102
  }
  side roman "Romans" §2 { morale = 3 }
  force roman §3.1 { r1 legion at 0101 facing N strength = 5 }
  turns = 15 §2.1
}
)pol";

struct GeneratedParse {
  explicit GeneratedParse(const std::string& text) {
    id = sources.add("sample.pol", text);
    parsed = parseWith(sources, id, ParserChoice::Generated);
  }
  ast::File& file() { return *parsed.file; }

  diag::SourceManager sources;
  diag::FileId id = 0;
  Parsed parsed;
};

ast::Decl& decl(ast::File& f, const std::string& name) {
  for (auto& d : f.blocks.at(0)->decls) {
    if (d->name.name == name) return *d;
  }
  throw std::runtime_error("no declaration " + name);
}

ast::Stmt& stmt(ast::File& f, size_t i) {
  return *decl(f, "p").body.at(i);
}

ast::Scenario& scenario(ast::File& f) {
  return f.blocks.at(1)->scenario;
}

// Path prefixes of the declarations in kSample (checked below).
const std::string kRuleset = "blocks[0]";
const std::string kP = "blocks[0].decls[11]";  // procedure p

TEST(HandWrittenParser, ComparatorSampleParsesAndEqualsItself) {
  GeneratedParse a(kSample);
  GeneratedParse b(kSample);
  ASSERT_TRUE(a.parsed.clean()) << a.parsed.rendered;
  ASSERT_EQ(a.file().blocks.size(), 2u);
  ASSERT_EQ(&decl(a.file(), "p"), a.file().blocks[0]->decls.at(11).get());
  EXPECT_EQ(firstAstDifference(a.file(), b.file()), "");
  EXPECT_EQ(firstAstDifference(a.file(), a.file()), "");
}

// One changed member at a time: each must be reported, at its path, both ways round.
TEST(HandWrittenParser, ComparatorSeesEveryDifference) {
  struct Mutation {
    const char* what;
    std::function<void(ast::File&)> apply;
    std::string path;  // the reported difference starts with this
  };
  auto expr = [](ast::ExprPtr& e) -> ast::Expr& { return *e; };
  const std::vector<Mutation> mutations = {
      // Source ranges: every part of both ends.
      {"a range's end column", [](ast::File& f) { decl(f, "max_x").range.end.col += 1; },
       kRuleset + ".decls[1].range: 3:2-3:22 vs 3:2-3:23"},
      {"a range's begin column", [](ast::File& f) { decl(f, "max_x").range.begin.col -= 1; },
       kRuleset + ".decls[1].range: 3:2-3:22 vs 3:1-3:22"},
      {"a range's begin line", [](ast::File& f) { decl(f, "max_x").name.range.begin.line += 1; },
       kRuleset + ".decls[1].name.range: "},
      {"a range's end line", [](ast::File& f) { decl(f, "max_x").name.range.end.line += 1; },
       kRuleset + ".decls[1].name.range: "},
      {"a range's file", [](ast::File& f) { decl(f, "max_x").name.range.end.file = 7; },
       kRuleset + ".decls[1].name.range: file0:3:8-file0:3:13 vs file0:3:8-file7:3:13"},
      {"a range's begin file", [](ast::File& f) { f.blocks[1]->range.begin.file = 3; },
       "blocks[1].range: "},
      {"an expression's range",
       [&](ast::File& f) { expr(decl(f, "double").value).operands[0]->range.end.col += 1; },
       kRuleset + ".decls[9].value.operands[0].range: "},
      // Expressions.
      {"an expression's text",
       [&](ast::File& f) { expr(decl(f, "double").value).operands[0]->text = "y"; },
       kRuleset + ".decls[9].value.operands[0].text: \"x\" vs \"y\""},
      {"an expression's kind",
       [&](ast::File& f) { expr(decl(f, "double").value).kind = ast::ExprKind::Call; },
       kRuleset + ".decls[9].value.kind: "},
      {"an expression's depth", [&](ast::File& f) { expr(decl(f, "double").value).depth += 1; },
       kRuleset + ".decls[9].value.depth: 2 vs 3"},
      {"an int's value", [&](ast::File& f) { expr(decl(f, "max_x").value).intValue = 4; },
       kRuleset + ".decls[1].value.intValue: 3 vs 4"},
      {"an int's overflow", [&](ast::File& f) { expr(decl(f, "max_x").value).overflow = true; },
       kRuleset + ".decls[1].value.overflow: false vs true"},
      {"odds A", [&](ast::File& f) { expr(decl(f, "ratio").value).oddsA = 2; },
       kRuleset + ".decls[2].value.oddsA: 3 vs 2"},
      {"odds B", [&](ast::File& f) { expr(decl(f, "ratio").value).oddsB = 2; },
       kRuleset + ".decls[2].value.oddsB: 1 vs 2"},
      {"a bool's value", [&](ast::File& f) { expr(decl(f, "flag").value).boolValue = false; },
       kRuleset + ".decls[3].value.boolValue: true vs false"},
      {"a map's keys", [&](ast::File& f) { expr(decl(f, "lookup").value).mapKeys[1].name = "c"; },
       kRuleset + ".decls[4].value.mapKeys[1].name: \"b\" vs \"c\""},
      {"a binary operator",
       [&](ast::File& f) { expr(decl(f, "double").value).binaryOp = ast::BinaryOp::Add; },
       kRuleset + ".decls[9].value.binaryOp: "},
      {"a unary operator",
       [](ast::File& f) { stmt(f, 0).value->operands[1]->unaryOp = ast::UnaryOp::Not; },
       kP + ".body[0].value.operands[1].unaryOp: "},
      {"a member name",
       [](ast::File& f) {
         // `u.strength >= 1 and not u.moved`: and(>=(u.strength, 1), not(u.moved))
         stmt(f, 1).cond->operands[0]->operands[0]->member.name = "str";
       },
       kP + ".body[1].cond.operands[0].operands[0].member.name: \"strength\" vs \"str\""},
      {"an extra operand",
       [](ast::File& f) {
         auto& list = *stmt(f, 0).value;
         list.operands.push_back(std::make_unique<ast::Expr>(ast::ExprKind::None));
       },
       kP + ".body[0].value.operands: 3 vs 4 elements (the common ones are equal)"},
      {"a lambda's parameter",
       [](ast::File& f) { stmt(f, 5).body[0]->value->args[0].value->params[0].name = "y"; },
       kP + ".body[5].body[0].value.args[0].value.params[0].name: \"x\" vs \"y\""},
      {"a roll's count", [](ast::File& f) { stmt(f, 0).value->operands[2]->rollCount.reset(); },
       kP + ".body[0].value.operands[2].rollCount: non-null vs null"},
      {"a roll's dice count", [](ast::File& f) { stmt(f, 0).value->operands[2]->diceCount = 3; },
       kP + ".body[0].value.operands[2].diceCount: "},
      {"a roll's die", [](ast::File& f) { stmt(f, 0).value->operands[2]->dieName.name = "d8"; },
       kP + ".body[0].value.operands[2].dieName.name: \"d6\" vs \"d8\""},
      {"a roll's mode",
       [](ast::File& f) { stmt(f, 0).value->operands[2]->rollMode = ast::RollMode::Lowest; },
       kP + ".body[0].value.operands[2].rollMode: "},
      {"a roll's citation",
       [](ast::File& f) { stmt(f, 0).value->operands[2]->citations[0].text = "3.2"; },
       kP + ".body[0].value.operands[2].citations[0].text: \"3.1\" vs \"3.2\""},
      {"a choice's prompt", [](ast::File& f) { stmt(f, 6).value->prompt = "pick two"; },
       kP + ".body[6].value.prompt: \"pick one\" vs \"pick two\""},
      // Statements.
      {"a statement's condText", [](ast::File& f) { stmt(f, 1).condText += " "; },
       kP + ".body[1].condText: "},
      {"a statement's message", [](ast::File& f) { stmt(f, 1).message.clear(); },
       kP + ".body[1].message: \"moved already\" vs \"\""},
      {"a missing optional type", [](ast::File& f) { stmt(f, 0).typeRef.reset(); },
       kP + ".body[0].typeRef: present vs absent"},
      {"a type argument", [](ast::File& f) { stmt(f, 0).typeRef->args.clear(); },
       kP + ".body[0].typeRef.args: 1 vs 0 elements"},
      {"a type's optional mark", [](ast::File& f) { stmt(f, 0).typeRef->optional = true; },
       kP + ".body[0].typeRef.optional: false vs true"},
      {"hasElse", [](ast::File& f) { stmt(f, 2).hasElse = false; },
       kP + ".body[2].hasElse: true vs false"},
      {"an else body", [](ast::File& f) { stmt(f, 2).elseBody.clear(); },
       kP + ".body[2].elseBody: 1 vs 0 elements"},
      {"an assignment's operator",
       [](ast::File& f) { stmt(f, 2).elseBody[0]->assignOp = ast::AssignOp::Sub; },
       kP + ".body[2].elseBody[0].assignOp: "},
      {"an assignment's target", [](ast::File& f) { stmt(f, 2).elseBody[0]->target.reset(); },
       kP + ".body[2].elseBody[0].target: non-null vs null"},
      {"a statement's kind", [](ast::File& f) { stmt(f, 3).kind = ast::StmtKind::Apply; },
       kP + ".body[3].kind: "},
      {"an argument's name", [](ast::File& f) { stmt(f, 3).args[1].name.reset(); },
       kP + ".body[3].args[1].name: present vs absent"},
      {"a note's arguments", [](ast::File& f) { stmt(f, 4).noteArgs.pop_back(); },
       kP + ".body[4].noteArgs: 2 vs 1 elements"},
      {"a note's citation", [](ast::File& f) { stmt(f, 4).citations[0].range.end.col += 1; },
       kP + ".body[4].citations[0].range: "},
      {"a statement's passes", [](ast::File& f) { stmt(f, 4).passes = 2; },
       kP + ".body[4].passes: 0 vs 2"},
      {"a statement's forPlayer",
       [](ast::File& f) {
         stmt(f, 4).forPlayer = std::make_unique<ast::Expr>(ast::ExprKind::None);
       },
       kP + ".body[4].forPlayer: null vs non-null"},
      {"a phase item's condText",
       [](ast::File& f) { decl(f, "").body.at(0)->items.at(1).condText = "ok(p)"; },
       kRuleset + ".decls[13].body[0].items[1].condText: \"ok(player)\" vs \"ok(p)\""},
      {"a phase item's message",
       [](ast::File& f) { decl(f, "").body.at(0)->items.at(1).message = ""; },
       kRuleset + ".decls[13].body[0].items[1].message: \"no\" vs \"\""},
      {"a phase item's actions",
       [](ast::File& f) { decl(f, "").body.at(0)->items.at(0).actions[1].name = "stay"; },
       kRuleset + ".decls[13].body[0].items[0].actions[1].name: \"go\" vs \"stay\""},
      // Declarations.
      {"an extra enum member",
       [](ast::File& f) {
         auto& d = decl(f, "Weapon");
         d.members.push_back(d.members[0]);
       },
       kRuleset + ".decls[0].members: 2 vs 3 elements (the common ones are equal)"},
      {"an enum member's description",
       [](ast::File& f) { decl(f, "Weapon").members[0].description = "Sling"; },
       kRuleset + ".decls[0].members[0].description: \"Bow\" vs \"Sling\""},
      {"a declaration's overlay",
       [](ast::File& f) { decl(f, "max_x").overlay = ast::OverlayMode::Replace; },
       kRuleset + ".decls[1].overlay: "},
      {"a declaration's value", [](ast::File& f) { decl(f, "double").value.reset(); },
       kRuleset + ".decls[9].value: non-null vs null"},
      {"hasBody", [](ast::File& f) { decl(f, "double").hasBody = true; },
       kRuleset + ".decls[9].hasBody: false vs true"},
      {"a field's bounds", [](ast::File& f) { decl(f, "Combat").fields[0].bounds.reset(); },
       kRuleset + ".decls[5].fields[0].bounds: present vs absent"},
      {"a field's upper bound",
       [](ast::File& f) { decl(f, "Combat").fields[0].bounds->second = 8; },
       kRuleset + ".decls[5].fields[0].bounds.second: 9 vs 8"},
      {"a field's boundsOverflow",
       [](ast::File& f) { decl(f, "Combat").fields[0].boundsOverflow = true; },
       kRuleset + ".decls[5].fields[0].boundsOverflow: false vs true"},
      {"a field's boundsRange",
       [](ast::File& f) { decl(f, "Combat").fields[0].boundsRange.begin.col += 1; },
       kRuleset + ".decls[5].fields[0].boundsRange: "},
      {"a field's display",
       [](ast::File& f) { decl(f, "Combat").fields[0].display = ast::FieldDisplay::Marker; },
       kRuleset + ".decls[5].fields[0].display: "},
      {"a field's displayLabel",
       [](ast::File& f) { decl(f, "Combat").fields[0].displayLabel = "STR"; },
       kRuleset + ".decls[5].fields[0].displayLabel: \"str\" vs \"STR\""},
      {"a field's isState", [](ast::File& f) { decl(f, "Combat").fields[2].isState = false; },
       kRuleset + ".decls[5].fields[2].isState: true vs false"},
      {"a field's derived", [](ast::File& f) { decl(f, "Combat").fields[3].derived = false; },
       kRuleset + ".decls[5].fields[3].derived: true vs false"},
      {"a field's type", [](ast::File& f) { decl(f, "Combat").fields[1].type->optional = false; },
       kRuleset + ".decls[5].fields[1].type.optional: true vs false"},
      {"a unit type's base class", [](ast::File& f) { decl(f, "legion").baseClass.name = "C"; },
       kRuleset + ".decls[6].baseClass.name: \"Combat\" vs \"C\""},
      {"an init's value", [](ast::File& f) { decl(f, "legion").inits[0].value->intValue = 5; },
       kRuleset + ".decls[6].inits[0].value.intValue: 6 vs 5"},
      {"a table's column kind", [](ast::File& f) { decl(f, "crt").table.columnKind.reset(); },
       kRuleset + ".decls[7].table.columnKind: present vs absent"},
      {"a table's row kind",
       [](ast::File& f) { decl(f, "crt").table.rowKind = ast::Ident{"d6", {}}; },
       kRuleset + ".decls[7].table.rowKind: absent vs present"},
      {"a table key's upper end", [](ast::File& f) { decl(f, "crt").table.rows[1].key.hi = 4; },
       kRuleset + ".decls[7].table.rows[1].key.hi: 3 vs 4"},
      {"a column key's odds", [](ast::File& f) { decl(f, "crt").table.columns[2].hi = 2; },
       kRuleset + ".decls[7].table.columns[2].hi: 1 vs 2"},
      {"a table cell's text",
       [](ast::File& f) { decl(f, "crt").table.rows[0].cells[2].text = "DR"; },
       kRuleset + ".decls[7].table.rows[0].cells[2].text: \"EX\" vs \"DR\""},
      {"a table cell's odds", [](ast::File& f) { decl(f, "crt").table.rows[1].cells[1].oddsB = 1; },
       kRuleset + ".decls[7].table.rows[1].cells[1].oddsB: 2 vs 1"},
      {"a table cell's kind",
       [](ast::File& f) { decl(f, "crt").table.rows[0].cells[1].kind = ast::TableCell::None; },
       kRuleset + ".decls[7].table.rows[0].cells[1].kind: "},
      {"a modifier's target",
       [](ast::File& f) { decl(f, "terrain_defense").qualified.parts[1].name = "attack"; },
       kRuleset + ".decls[8].qualified.parts[1].name: \"defense\" vs \"attack\""},
      {"a modifier's parameter names",
       [](ast::File& f) { decl(f, "terrain_defense").paramNames.pop_back(); },
       kRuleset + ".decls[8].paramNames: 2 vs 1 elements"},
      {"a clause's rounding",
       [](ast::File& f) { decl(f, "terrain_defense").clauses[1].rounding = ast::Rounding::Down; },
       kRuleset + ".decls[8].clauses[1].rounding: "},
      {"a clause's because",
       [](ast::File& f) { decl(f, "terrain_defense").clauses[0].because.pop_back(); },
       kRuleset + ".decls[8].clauses[0].because: 2 vs 1 elements"},
      {"an always clause's condition",
       [](ast::File& f) {
         decl(f, "terrain_defense").clauses[1].cond =
             std::make_unique<ast::Expr>(ast::ExprKind::None);
       },
       kRuleset + ".decls[8].clauses[1].cond: null vs non-null"},
      {"a gate's level", [](ast::File& f) { decl(f, "terrain_defense").gates[0].level.name = "x"; },
       kRuleset + ".decls[8].gates[0].level.name: \"basic\" vs \"x\""},
      {"a gate's condition", [](ast::File& f) { decl(f, "go").gates[0].cond.reset(); },
       kRuleset + ".decls[10].gates[0].cond: non-null vs null"},
      {"a parameter's domain", [](ast::File& f) { decl(f, "go").params[0].domain.reset(); },
       kRuleset + ".decls[10].params[0].domain: non-null vs null"},
      {"a parameter's type", [](ast::File& f) { decl(f, "go").params[1].type.name.name = "unit"; },
       kRuleset + ".decls[10].params[1].type.name.name: \"hex\" vs \"unit\""},
      {"a declaration's description", [](ast::File& f) { decl(f, "go").description = ""; },
       kRuleset + ".decls[10].description: \"Go\" vs \"\""},
      {"a result case's description",
       [](ast::File& f) { decl(f, "melee_result").cases[0].description = ""; },
       kRuleset + ".decls[12].cases[0].description: \"exchange\" vs \"\""},
      {"a result case's body",
       [](ast::File& f) { decl(f, "melee_result").cases[0].body.clear(); },
       kRuleset + ".decls[12].cases[0].body: 1 vs 0 elements"},
      {"a declaration's removeKind", [](ast::File& f) { decl(f, "flag").removeKind = "const"; },
       kRuleset + ".decls[3].removeKind: \"\" vs \"const\""},
      {"a declaration's includes", [](ast::File& f) { decl(f, "flag").includes.push_back("x"); },
       kRuleset + ".decls[3].includes: 0 vs 1 elements"},
      {"an extra declaration",
       [](ast::File& f) {
         f.blocks[0]->decls.insert(f.blocks[0]->decls.begin() + 1,
                                   std::make_unique<ast::Decl>(ast::DeclKind::Const));
       },
       kRuleset + ".decls: 14 vs 15 elements; first unequal element: [1].range: "
                  "file0:3:2-file0:3:22 vs nofile:0:0-nofile:0:0"},
      // Blocks, the scenario and the file.
      {"a block's title", [](ast::File& f) { f.blocks[0]->title = "Q"; },
       "blocks[0].title: \"R\" vs \"Q\""},
      {"a block's base", [](ast::File& f) { f.blocks[0]->base.name.clear(); },
       "blocks[0].base.name: \"base\" vs \"\""},
      {"a block's citation", [](ast::File& f) { f.blocks[1]->citations.clear(); },
       "blocks[1].citations: 1 vs 0 elements"},
      {"a missing map", [](ast::File& f) { scenario(f).map.reset(); },
       "blocks[1].scenario.map: present vs absent"},
      {"a map's last column", [](ast::File& f) { scenario(f).map->colTo = 6; },
       "blocks[1].scenario.map.colTo: 5 vs 6"},
      {"a map's labels", [](ast::File& f) { scenario(f).map->labels.name = "letters"; },
       "blocks[1].scenario.map.labels.name: \"xxyy\" vs \"letters\""},
      {"a hex rectangle's corner", [](ast::File& f) { scenario(f).map->items[1].hexes[1].to.reset(); },
       "blocks[1].scenario.map.items[1].hexes[1].to: present vs absent"},
      {"a hexside's second hex", [](ast::File& f) { scenario(f).map->items[2].pairs[0].b.name = "0201"; },
       "blocks[1].scenario.map.items[2].pairs[0].b.name: \"0102\" vs \"0201\""},
      {"a map item's kind",
       [](ast::File& f) { scenario(f).map->items[0].kind = ast::MapItem::Group; },
       "blocks[1].scenario.map.items[0].kind: "},
      {"a map item's elevation", [](ast::File& f) { scenario(f).map->items[0].elevation = 1; },
       "blocks[1].scenario.map.items[0].elevation: 0 vs 1"},
      {"a side's title", [](ast::File& f) { scenario(f).sides[0].title = "Rome"; },
       "blocks[1].scenario.sides[0].title: \"Romans\" vs \"Rome\""},
      {"a unit's facing", [](ast::File& f) { scenario(f).forces[0].units[0].facing.reset(); },
       "blocks[1].scenario.forces[0].units[0].facing: present vs absent"},
      {"a unit's hex", [](ast::File& f) { scenario(f).forces[0].units[0].hex->name = "0102"; },
       "blocks[1].scenario.forces[0].units[0].hex.name: \"0101\" vs \"0102\""},
      {"a setting's citation", [](ast::File& f) { scenario(f).settings[0].citations.clear(); },
       "blocks[1].scenario.settings[0].citations: 1 vs 0 elements"},
      {"an extra scenario rule",
       [](ast::File& f) {
         scenario(f).rules.push_back(std::make_unique<ast::Decl>(ast::DeclKind::Const));
       },
       "blocks[1].scenario.rules: 0 vs 1 elements"},
      {"a part-of header", [](ast::File& f) { f.partOf = ast::Ident{"standard", {}}; },
       "partOf: absent vs present"},
      {"the file id", [](ast::File& f) { f.file = 5; }, "file: 0 vs 5"},
      {"an extra top-level declaration",
       [](ast::File& f) { f.decls.push_back(std::make_unique<ast::Decl>(ast::DeclKind::Const)); },
       "decls: 0 vs 1 elements"},
  };
  GeneratedParse original(kSample);
  ASSERT_TRUE(original.parsed.clean()) << original.parsed.rendered;
  for (const Mutation& m : mutations) {
    GeneratedParse changed(kSample);
    m.apply(changed.file());
    const std::string d = firstAstDifference(original.file(), changed.file());
    EXPECT_EQ(d.substr(0, m.path.size()), m.path) << m.what << ": got \"" << d << "\"";
    EXPECT_NE(firstAstDifference(changed.file(), original.file()), "") << m.what;
  }
}

// Text moved by one column: the first difference is the first range that moved, in the order of
// ast.h (a declaration's range before its members).
TEST(HandWrittenParser, ComparatorSeesAMovedToken) {
  GeneratedParse a("ruleset r { const a = 1 }");
  GeneratedParse b("ruleset r { const a =  1 }");
  ASSERT_TRUE(a.parsed.clean() && b.parsed.clean());
  EXPECT_EQ(firstAstDifference(a.file(), b.file()),
            "blocks[0].decls[0].range: 1:12-1:23 vs 1:12-1:24");
  GeneratedParse c("ruleset r { const a = 1 }\n");
  EXPECT_EQ(firstAstDifference(a.file(), c.file()), "");
}

// Every shipped file parsed twice by the generated parser: the same AST (the comparator sees no
// difference where there is none, and the generated path is deterministic).
TEST(HandWrittenParser, ComparatorFindsShippedFilesEqualToThemselves) {
  size_t count = 0;
  for (const fs::path& p : shippedFiles()) {
    diag::SourceManager sources;
    const diag::FileId id = sources.add(displayName(p), readText(p));
    const Parsed a = parseWith(sources, id, ParserChoice::Generated);
    const Parsed b = parseWith(sources, id, ParserChoice::Generated);
    EXPECT_TRUE(a.clean()) << displayName(p) << "\n" << a.rendered;
    EXPECT_EQ(firstAstDifference(*a.file, *b.file), "") << displayName(p);
    ++count;
  }
  EXPECT_GE(count, 70u);
}

// --- The hand-written parser against the generated one -----------------------------------------

// At most this many failures are printed in full by a test that runs over many files.
constexpr size_t kMaxPrinted = 10;

TEST(HandWrittenParser, ShippedFilesParseAlike) {
  size_t count = 0;
  size_t failed = 0;
  for (const fs::path& p : shippedFiles()) {
    ++count;
    Both both(displayName(p), readText(p));
    std::string problem;
    if (!both.generated.clean()) {
      problem = "the generated parser reports:\n" + both.generated.rendered;
    } else if (!both.handWritten.clean()) {
      problem = "the hand-written parser declines it:\n" + both.handWritten.rendered;
    } else {
      const std::string d = firstAstDifference(*both.generated.file, *both.handWritten.file);
      if (!d.empty()) problem = "the ASTs differ (generated vs hand-written): " + d;
    }
    if (!problem.empty() && ++failed <= kMaxPrinted) {
      ADD_FAILURE() << displayName(p) << ": " << problem;
    }
  }
  std::cout << "[ shipped  ] " << count << " files, " << count - failed
            << " parsed alike by both parsers\n";
  EXPECT_EQ(failed, 0u) << "of " << count << " shipped files";
  EXPECT_GE(count, 70u);
}

TEST(HandWrittenParser, TestFilesParseAlike) {
  size_t count = 0, generatedClean = 0, accepted = 0, declinedClean = 0, failed = 0;
  for (const fs::path& p : polFiles({kTestDir})) {
    ++count;
    Both both(displayName(p), readText(p));
    if (both.generated.clean()) ++generatedClean;
    if (both.handWritten.clean()) ++accepted;
    if (both.generated.clean() && !both.handWritten.clean()) ++declinedClean;
    const std::string v = both.violation();
    if (!v.empty() && ++failed <= kMaxPrinted) ADD_FAILURE() << displayName(p) << ": " << v;
  }
  std::cout << "[ tests/   ] " << count << " files: " << generatedClean
            << " read without a diagnostic by the generated parser, " << accepted
            << " accepted by the hand-written parser (" << declinedClean
            << " declined that the generated parser reads without a diagnostic)\n";
  EXPECT_EQ(failed, 0u) << "of " << count << " files under tests/";
  EXPECT_GT(count, 0u);
}

// The parser fuzz target's corpus and past crashes (tests/fuzz): hostile text of every kind
// (binary bytes, deep nesting, half-written declarations), held to the same rule.
TEST(HandWrittenParser, FuzzCorpusParsesAlike) {
  size_t count = 0, accepted = 0, failed = 0;
  for (const char* dir : {"corpus/parse", "crashes/parse"}) {
    const fs::path d = kTestDir / "fuzz" / dir;
    if (!fs::exists(d)) continue;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(d))
      if (e.is_regular_file()) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& p : files) {
      ++count;
      Both both(displayName(p), readText(p), Generated::WhenAccepted);
      if (both.handWritten.clean()) ++accepted;
      const std::string v = both.violation();
      if (!v.empty() && ++failed <= kMaxPrinted) ADD_FAILURE() << displayName(p) << ": " << v;
    }
  }
  std::cout << "[ fuzz     ] " << count << " inputs, " << accepted
            << " accepted by the hand-written parser\n";
  EXPECT_EQ(failed, 0u);
  EXPECT_GT(count, 100u);
}

// --- Mutated shipped files ---------------------------------------------------------------------

// A crude tokenizer, enough to make plausible mistakes: words (names, keywords, numbers, dice:
// `[A-Za-z0-9_]+`), strings, citations, comments, the two-character operators and any other single
// character (a UTF-8 sequence whole). Each token keeps the whitespace before it, so that the text
// can be put back together with its lines where they were.
struct Token {
  std::string space;  // the whitespace before it
  std::string text;
  bool comment = false;
};

bool isWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

std::vector<Token> tokenize(const std::string& s, std::string& trailing) {
  static const char* const kTwoChar[] = {"==", "!=", "<=", ">=", "->", "..", ":=", "+=", "-="};
  std::vector<Token> out;
  size_t i = 0;
  while (true) {
    Token t;
    const size_t ws = i;
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
    t.space = s.substr(ws, i - ws);
    if (i >= s.size()) {
      trailing = t.space;
      return out;
    }
    const size_t start = i;
    const char c = s[i];
    if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n') ++i;
      t.comment = true;
    } else if (s.compare(i, 2, "/*") == 0) {
      const size_t end = s.find("*/", i + 2);
      i = end == std::string::npos ? s.size() : end + 2;
      t.comment = true;
    } else if (c == '"') {
      ++i;
      while (i < s.size() && s[i] != '"' && s[i] != '\n') i += s[i] == '\\' ? 2 : 1;
      if (i < s.size() && s[i] == '"') ++i;
      i = std::min(i, s.size());
    } else if (s.compare(i, 2, "\xC2\xA7") == 0) {  // §
      i += 2;
      while (i < s.size() && (isWordChar(s[i]) || s[i] == '.' || s[i] == ':')) ++i;
      while (i > start + 2 && (s[i - 1] == '.' || s[i - 1] == ':')) --i;  // `§7.4.` ends a sentence
    } else if (isWordChar(c)) {
      while (i < s.size() && isWordChar(s[i])) ++i;
    } else {
      bool two = false;
      for (const char* op : kTwoChar) two = two || s.compare(i, 2, op) == 0;
      if (two) {
        i += 2;
      } else {
        ++i;
        while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) ++i;
      }
    }
    t.text = s.substr(start, i - start);
    out.push_back(std::move(t));
  }
}

struct Mutant {
  std::string text;
  std::string what;   // the mutation, for a failure message
  size_t offset = 0;  // where in `text` it is
};

// One deterministic mutation of `tokens`: delete, duplicate, swap with the next, replace by
// another token of the file, or insert `-`, `not`, `(`, `,` or `;` before a token. Comments are
// kept as they are and never chosen.
Mutant mutate(const std::vector<Token>& tokens, const std::vector<size_t>& code,
              const std::string& trailing, std::mt19937& rng) {
  static const char* const kInserted[] = {"-", "not", "(", ",", ";"};
  std::vector<Token> t = tokens;
  auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  const size_t at = code[pick(code.size() - 1)];  // not the last one, so that a next exists
  Mutant m;
  std::string& tok = t[at].text;
  switch (pick(5)) {
    case 0:
      m.what = "deleted '" + tok + "'";
      tok.clear();
      break;
    case 1:
      m.what = "duplicated '" + tok + "'";
      tok = tok + (pick(2) == 0 ? " " : "") + tok;
      break;
    case 2: {
      const size_t next = *std::upper_bound(code.begin(), code.end(), at);
      m.what = "swapped '" + tok + "' and '" + t[next].text + "'";
      std::swap(tok, t[next].text);
      break;
    }
    case 3: {
      const std::string& other = t[code[pick(code.size())]].text;
      m.what = "replaced '" + tok + "' by '" + other + "'";
      tok = other;
      break;
    }
    default: {
      const std::string ins = kInserted[pick(std::size(kInserted))];
      m.what = "inserted '" + ins + "' before '" + tok + "'";
      tok = ins + " " + tok;
      break;
    }
  }
  for (size_t i = 0; i < t.size(); ++i) {
    if (i == at) m.offset = m.text.size() + t[i].space.size();
    m.text += t[i].space;
    m.text += t[i].text;
  }
  m.text += trailing;
  return m;
}

// The text around a mutation, at most 2,000 characters.
std::string around(const Mutant& m) {
  const size_t from = m.offset > 1000 ? m.offset - 1000 : 0;
  return m.text.substr(from, 2000);
}

TEST(HandWrittenParser, TokenizerPutsTheTextBackTogether) {
  const std::string text =
      "ruleset r §1.0 { // note\n  const a = [1..2] /* x */ §7.4. \"a \\\"b\\\"\" x->y a.b <= "
      "3:1\n}\n";
  std::string trailing;
  const std::vector<Token> tokens = tokenize(text, trailing);
  std::string back;
  std::vector<std::string> texts;
  for (const Token& t : tokens) {
    back += t.space + t.text;
    texts.push_back(t.text);
  }
  EXPECT_EQ(back + trailing, text);
  const std::vector<std::string> expected = {"ruleset",
                                             "r",
                                             "\xC2\xA7"
                                             "1.0",
                                             "{",
                                             "// note",
                                             "const",
                                             "a",
                                             "=",
                                             "[",
                                             "1",
                                             "..",
                                             "2",
                                             "]",
                                             "/* x */",
                                             "\xC2\xA7"
                                             "7.4",
                                             ".",
                                             "\"a \\\"b\\\"\"",
                                             "x",
                                             "->",
                                             "y",
                                             "a",
                                             ".",
                                             "b",
                                             "<=",
                                             "3",
                                             ":",
                                             "1",
                                             "}"};
  EXPECT_EQ(texts, expected);
}

TEST(HandWrittenParser, MutatedFilesParseAlike) {
  constexpr int kMutationsPerFile = 40;
  const auto started = std::chrono::steady_clock::now();
  std::mt19937 rng(20240607);  // fixed: the same mutants on every run
  size_t mutants = 0, accepted = 0, failed = 0;
  for (const fs::path& p : shippedFiles()) {
    const std::string text = readText(p);
    std::string trailing;
    const std::vector<Token> tokens = tokenize(text, trailing);
    std::vector<size_t> code;  // the tokens that are not comments
    for (size_t i = 0; i < tokens.size(); ++i) {
      if (!tokens[i].comment) code.push_back(i);
    }
    if (code.size() < 2) continue;
    for (int k = 0; k < kMutationsPerFile; ++k) {
      const Mutant m = mutate(tokens, code, trailing, rng);
      ++mutants;
      Both both(displayName(p), m.text, Generated::WhenAccepted);
      if (both.handWritten.clean()) ++accepted;
      const std::string v = both.violation();
      if (!v.empty() && ++failed <= kMaxPrinted) {
        ADD_FAILURE() << displayName(p) << ", mutant " << k << " (" << m.what << "): " << v
                      << "\n--- the mutant around the mutation ---\n"
                      << around(m) << "\n---";
      }
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cout << "[ mutants  ] " << mutants << " mutants: " << accepted
            << " accepted by the hand-written parser (" << accepted - failed
            << " of them read alike by the generated parser), " << mutants - accepted
            << " declined by it (" << seconds << " s)\n";
  EXPECT_EQ(failed, 0u) << "of " << mutants << " mutants";
  EXPECT_GT(mutants, 0u);
}

}  // namespace
}  // namespace polemos
