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

// --- Adversarial snippets ----------------------------------------------------------------------

// Small files written from the grammar (not from descent.cpp), each aimed at a place where a
// recursive descent could decide differently from ANTLR's adaptive prediction or from the AST
// builder: soft keywords as names, optional parts and the ends of loops, precedence and
// associativity, table keys and cells, map items, field displays, ambiguities that ANTLR resolves
// to its first alternative (`terrain attributes {}`, `columns d6 1 -2`, a `default` after a hex
// list), and near misses that the generated path reports (the hand-written parser must decline
// those). The comment above a snippet says what the generated path makes of it.

// Names that are keywords elsewhere (more in the templates below).
const char* const kNames[] = {
    R"pol(ruleset t { procedure p() { end = 1; end.x += 2; x.end -= 3; x.row = 4; x.row.end(1) } })pol",
    // `note` is no statement name: NOTE then an expression, and `= 1` is none.
    R"pol(ruleset t { procedure p() { note = 1 } })pol",
    R"pol(ruleset t { procedure p() { phase(1) } })pol",
    R"pol(ruleset t { procedure p() { step(1) } })pol",
    R"pol(ruleset t { procedure p() { pause = 1 } })pol",
    // A note whose first argument is in parentheses, and notes of names spelled like keywords.
    R"pol(ruleset t { procedure p() { note (1), 2; pause (x) note note pause pause } })pol",
    R"pol(ruleset t { procedure p() { let step = phase; x = step + note * pause } })pol",
    R"pol(ruleset t { const c = x.note.pause.phase.step.row.end.state })pol",
    R"pol(ruleset t { procedure p() { end requires x } })pol",
    R"pol(ruleset t { const c = x.if })pol",
    R"pol(ruleset t { const c = x.1 })pol",
    R"pol(ruleset t { const c = row })pol",
    R"pol(ruleset t { const d6x = d + d6x + x_d6 + dd6 })pol",
    R"pol(ruleset t { const d6 = 1 })pol",
    R"pol(ruleset t { const c = f(end: 1, by: 2, state: end -> end, row: 3) })pol",
    R"pol(ruleset t { const c = {end: 1, state: 2, if: 3} })pol",
};

// note, pause and require: citations before an expression that may itself be one.
const char* const kCitations[] = {
    // citations [§1], arguments [§2]
    R"pol(ruleset t { procedure p() { note §1 §2 } })pol",
    R"pol(ruleset t { procedure p() { note §1 §2 x } })pol",
    // citations [§1], arguments [§2], then `x = 1` (the greedy reading fails at `=`)
    R"pol(ruleset t { procedure p() { note §1 §2
      x = 1 } })pol",
    // both readings parse: ANTLR's first alternative takes §2 as a citation and `f(x)` as the
    // argument
    R"pol(ruleset t { procedure p() { note §1 §2
      f(x) } })pol",
    R"pol(ruleset t { procedure p() { note §1, §2; note §1 §2, §3; note §1; note §1 §2 §3 "x", y } })pol",
    R"pol(ruleset t { procedure p() { note } })pol",
    R"pol(ruleset t { procedure p() { note; } })pol",
    R"pol(ruleset t { procedure p() { note §1 §2 -x } })pol",
    // `§1 .x`: only the member reading parses
    R"pol(ruleset t { procedure p() { note §1 .x } })pol",
    R"pol(ruleset t { procedure p() { note §1 [0] } })pol",
    R"pol(ruleset t { procedure p() { note §1 (x) } })pol",
    R"pol(ruleset t { procedure p() { pause §1 - 1 } })pol",
    R"pol(ruleset t { procedure p() { pause §1 §2; pause §1 "s"; pause "s" } })pol",
    R"pol(ruleset t { procedure p() { pause §1 "a", "b" } })pol",
    // the condition is §1, the citations [§2]
    R"pol(ruleset t { procedure p() { require §1 §2 } })pol",
    R"pol(ruleset t { procedure p() { require x §1 else "m" require y else "n"; require z §1 §2; } })pol",
    R"pol(ruleset t { procedure p() { require x else "m" §1 } })pol",
    R"pol(ruleset t { procedure p() { require x else y } })pol",
    R"pol(ruleset t { procedure p() { require x else } })pol",
    // the roll takes §1 (its own citations come first), the choice its prompt and citation
    R"pol(ruleset t { procedure p() { require x > roll d6 §1 else "m"; require choose a by b "p" §1 } })pol",
    // condText keeps the comments
    R"pol(ruleset t { procedure p() { require a /* why */ and // because
          b §1 else "m" } })pol",
    R"pol(ruleset t { procedure p() { require (a) require a
      require b } })pol",
};

// `return` at the end of a block, with `;`, with a value.
const char* const kReturns[] = {
    R"pol(ruleset t { procedure p() { return } })pol",
    R"pol(ruleset t { procedure p() { return; } })pol",
    R"pol(ruleset t { function f() { return 1 } })pol",
    R"pol(ruleset t { function f() { return 1; } })pol",
    R"pol(ruleset t { procedure p() { return; return } })pol",
    R"pol(ruleset t { procedure p() { return
      x = 1 } })pol",
    // `return {}` returns an empty map
    R"pol(ruleset t { function f() { return {} } })pol",
    R"pol(ruleset t { function f() { if a { return } else { return; } return -1 } })pol",
    R"pol(ruleset t { procedure p() { return return } })pol",
    R"pol(ruleset t { procedure p() { return ; ; } })pol",
    R"pol(ruleset t { function f() { return if a then b else c } })pol",
    R"pol(ruleset t { procedure p() { { return } { } {{}} } })pol",
    R"pol(ruleset t { function f() { return x
    } })pol",
    R"pol(ruleset t { procedure p() { return x y } })pol",
    R"pol(ruleset t { procedure p() { f() return } })pol",
};

// roll and choose.
const char* const kRollsAndChoices[] = {
    R"pol(ruleset t { const a = roll 2 d6  const b = roll 2d6  const c = roll d6 each  const d = roll (n + 1) d6 highest §1  const e = roll 3 mydie lowest §1 §2 })pol",
    R"pol(ruleset t { const a = roll highest  const b = roll 2 highest highest  const c = roll each each  const d = roll 2 3d6 const e = roll (2) 0d0 })pol",
    // both readings parse: the roll takes `highest`, and the call applies to it
    R"pol(ruleset t { procedure p() { let a = roll d6
      highest(x) } })pol",
    // only the reading without a mode parses
    R"pol(ruleset t { procedure p() { let a = roll d6
      highest = 3 } })pol",
    R"pol(ruleset t { const a = roll (n) })pol",
    R"pol(ruleset t { const a = roll 2 })pol",
    R"pol(ruleset t { const a = roll n d6 })pol",
    R"pol(ruleset t { const a = roll d6 d6 })pol",
    R"pol(ruleset t { const a = roll d6 highest lowest })pol",
    R"pol(ruleset t { const a = roll d6.x + roll d6(1)[2] + roll d6 §1 .y })pol",
    R"pol(ruleset t { const a = roll d6 §1.2.A §chalons:6.1 })pol",
    R"pol(ruleset t { const a = roll 99999999999999999999d6 + 99999999999999999999 + 99999999999999999999:1 + roll 99999999999999999999 d6 })pol",
    R"pol(ruleset t { const a = choose xs by p "prompt" §2  const b = choose by by by  const c = choose choose a by b by c  const d = choose a by choose b by c "s" })pol",
    // the choice takes the string as its prompt: the option has no description
    R"pol(ruleset t { option o = choose a by b "p" })pol",
    // the choice takes §1; "d" is the quantity's description
    R"pol(ruleset t { quantity q() = choose a by b §1 "d" })pol",
    R"pol(ruleset t { const a = choose x -> y by if a then b else c })pol",
    R"pol(ruleset t { const a = choose a })pol",
    R"pol(ruleset t { const a = choose a by })pol",
    R"pol(ruleset t { const a = choose a by b §1 "p" })pol",
};

// Lambdas, parentheses, conditional expressions.
const char* const kLambdas[] = {
    R"pol(ruleset t { const a = (a) -> x  const b = (a, b) -> x  const c = x -> y -> z  const d = (a) })pol",
    R"pol(ruleset t { const a = (a, b) })pol",
    R"pol(ruleset t { const a = () -> x })pol",
    R"pol(ruleset t { const a = ((a)) -> x })pol",
    R"pol(ruleset t { const a = (a,) -> x })pol",
    R"pol(ruleset t { const a = (a b) -> x })pol",
    R"pol(ruleset t { const a = 1 + x -> y })pol",
    R"pol(ruleset t { const a = f(x) -> y })pol",
    R"pol(ruleset t { const a = (row) -> 1 })pol",
    R"pol(ruleset t { const a = f(x -> x + 1, y)  const b = (x -> x)(1)  const c = (a) -> (b) -> c  const d = f(by: x -> x) })pol",
    R"pol(ruleset t { const a = (a).b  const b = (a)[0]  const c = (a)(b)  const d = ((a))  const e = (((1 + 2)) * 3) })pol",
    R"pol(ruleset t { const a = if a then b else if c then d else e  const b = if a then x -> x else y -> y  const c = x -> if a then b else c + 1 })pol",
    R"pol(ruleset t { const a = 1 + if a then b else c })pol",
    R"pol(ruleset t { const a = (if a then b else c) + 1  const b = if if a then b else c then d else e })pol",
    R"pol(ruleset t { const a = not if a then b else c })pol",
    R"pol(ruleset t { const a = if a then b })pol",
    R"pol(ruleset t { const a = if a then b else })pol",
    R"pol(ruleset t { const a = f(x -> if a then b else c, d)  const b = x -> choose x by y "p" })pol",
};

// Precedence and associativity (every pair of operators in the templates below).
const char* const kPrecedence[] = {
    R"pol(ruleset t { const a = -a.b(c)[d]  const b = (-a).b  const c = -a * b  const d = a * -b  const e = a * -b + c })pol",
    // a prefix `not` takes everything down to its own level: a + (not (b == c))
    R"pol(ruleset t { const a = a + not b == c  const b = a + not b == c and d  const c = a * not b + c  const d = - not a + b  const e = - not a and b  const f = not - a + b })pol",
    R"pol(ruleset t { const a = not not x  const b = - - x  const c = a--b  const d = a - - - b  const e = not a and b  const f = not a == b })pol",
    R"pol(ruleset t { const a = a or b and c  const b = a and b or c  const c = a or not b and c  const d = a == not b and c  const e = a and not b or c  const f = a or b or c and d and e })pol",
    R"pol(ruleset t { const a = a + b * c  const b = a * b + c  const c = a - b - c  const d = a / b * c % d  const e = a - (b - c)  const f = (a + b) * c })pol",
    R"pol(ruleset t { const a = a..b + c  const b = a + b..c  const c = a..b < c  const d = a < b..c  const e = -a..-b  const f = a * b..c })pol",
    R"pol(ruleset t { const a = x in y..z  const b = x not in y  const c = not x in y  const d = x in not y  const e = x not in not y  const f = x..y in z })pol",
    R"pol(ruleset t { const a = a < b < c })pol",
    R"pol(ruleset t { const a = a == b == c })pol",
    R"pol(ruleset t { const a = 1..2..3 })pol",
    R"pol(ruleset t { const a = (a < b) < c  const b = a < (b < c)  const c = (1..2)..3  const d = 1..(2..3) })pol",
    // the second comparison is inside the `not`: a < (not (b < c)), which does not chain
    R"pol(ruleset t { const a = a < not b < c })pol",
    R"pol(ruleset t { const a = a < -b < c })pol",
    R"pol(ruleset t { const a = a in b in c })pol",
    R"pol(ruleset t { const a = a not in b == c })pol",
    R"pol(ruleset t { const a = not a < b < c })pol",
    R"pol(ruleset t { const a = a == b..c..d })pol",
    R"pol(ruleset t { const a = a..b..c == d })pol",
    R"pol(ruleset t { const a = -a..b..c })pol",
    R"pol(ruleset t { const a = a not b })pol",
    R"pol(ruleset t { const a = a -= 1 })pol",
    R"pol(ruleset t { const a = a + + b })pol",
    R"pol(ruleset t { const a = a * })pol",
    R"pol(ruleset t { const a = a <= b and c >= d or e != f and g > h  const b = a.b.c(1)(2)[3][4, 5].row })pol",
    R"pol(ruleset t { const a = a < b and b < c  const b = (a < b) == (c < d)  const c = (a..b) == (c..d) })pol",
    R"pol(ruleset t { const a = b
      (c)  const d = e
      [1]  const f = g
      -1  const h = i
      .j })pol",
};

// Lists, maps, arguments.
const char* const kLists[] = {
    R"pol(ruleset t { const a = []  const b = [1,]  const c = [1, 2,]  const d = {}  const e = {a: 1,}  const f = {a: 1, b: [2, {c: 3}]} })pol",
    R"pol(ruleset t { const a = [,] })pol",
    R"pol(ruleset t { const a = [1,,2] })pol",
    R"pol(ruleset t { const a = {,} })pol",
    R"pol(ruleset t { const a = {3:1} })pol",
    R"pol(ruleset t { const a = {a: 1 b: 2} })pol",
    R"pol(ruleset t { const a = x[] })pol",
    R"pol(ruleset t { const a = x[1,] })pol",
    R"pol(ruleset t { const a = f(1,) })pol",
    R"pol(ruleset t { const a = f(,) })pol",
    R"pol(ruleset t { const a = x[1, 2]  const b = f()  const c = f(a: 1, 2, b: c)  const d = f(3:1, x : y, z:1) })pol",
    R"pol(ruleset t { const a = f(a: b: c) })pol",
    R"pol(ruleset t { const a = {row: 1} })pol",
    R"pol(ruleset t { die d = [1, 2,] })pol",
    R"pol(ruleset t { die d = [] })pol",
    R"pol(ruleset t { die d = [1, -1, 2] §1 "d"; die e = [x] die f = [roll d6 §2] "f" })pol",
    R"pol(ruleset t { die d = [1] "d" §1 })pol",
};

// Tables.
const char* const kTables[] = {
    R"pol(ruleset t { table crt "CRT" §7 { rows d6; columns odds 1:2 1:1 2:1 3:1; row 1: AR - EX DE; row 2-3: - -1 - 1 -; row 4 - 5: "x" true false none end } })pol",
    // both readings parse; ANTLR's first alternative makes `1 -2` the range 1-2: keys [1-2, 3]
    R"pol(ruleset t { table tb { columns d6 1 -2 3 row 1: a } })pol",
    R"pol(ruleset t { table tb { columns d6 1 - 2 -3 -4 row 1: a } })pol",
    R"pol(ruleset t { table tb { columns d6 -3..-1 - 3 .. - 1 <= -3 > 4 >= - 2 < 0 -2 row -2: a row <= -3: b row 3:1: c row x: d } })pol",
    R"pol(ruleset t { table tb { rows d6 row 1: a b row 2: c } })pol",
    // cells: empty, -1 (touching), empty, -1, -1, -1, 1, -1, empty "s", empty x, empty 3:1, empty
    R"pol(ruleset t { table tb { row 1: --1 - -1 -1-1 1-1 -"s" -x -3:1 - } })pol",
    R"pol(ruleset t { table tb { row 1:; row 2: ; row 3: } })pol",
    R"pol(ruleset t { table tb { } table tc "c" §1 { rows 2d6 } table td { columns e a } })pol",
    // `rows` after the columns is one more column key: [a, b, rows, x]
    R"pol(ruleset t { table tb { columns e a b rows x row 1: y } })pol",
    R"pol(ruleset t { table tb { columns d6 1 rows d6 } })pol",
    R"pol(ruleset t { table tb { columns d6 row 1: a } })pol",
    R"pol(ruleset t { table tb { row row: a } })pol",
    R"pol(ruleset t { table tb { row 1: d6 } })pol",
    R"pol(ruleset t { table tb { row 1: a row } })pol",
    R"pol(ruleset t { table tb { rows rows; columns columns columns row end: end rows columns } })pol",
    R"pol(ruleset t { table tb { row 1 -2: a } })pol",
    R"pol(ruleset t { table tb { row -1-2: a } })pol",
    R"pol(ruleset t { table tb { row < x: a } })pol",
    R"pol(ruleset t { table tb { row 1 row 2: a } })pol",
    R"pol(ruleset t { table tb { row 99999999999999999999: 99999999999999999999 -9223372036854775808 -9223372036854775809 row -9223372036854775808..9223372036854775807: 1 } })pol",
    // a `-` and the INT on the next line do not touch
    R"pol(ruleset t { table tb { rows d6 columns 2d6 2-12 row 1: -
    1 - /* c */1 } })pol",
    R"pol(ruleset t { table tb { columns d6 1:1 <2 row 1: a } })pol",
    R"pol(ruleset t { table tb { columns odds 1 : 2 row 1: a } })pol",
    R"pol(ruleset t { table tb { columns d6 1 2 3; rows d6 } })pol",
    R"pol(ruleset t { table tb { row 1: (a) } })pol",
    R"pol(ruleset t { table tb { row 1: a; ; } })pol",
};

// Modifiers.
const char* const kModifiers[] = {
    R"pol(ruleset t { modifier m on a.b(x, y) §1 level basic if c "d" { when x == 1: + 1 because a, b; always: / 2 up; always: shift 1; when y: = 3 when z: - 1 always: * 2 } })pol",
    R"pol(ruleset t { modifier m on a { always: / up up } })pol",
    R"pol(ruleset t { modifier m on a { always: / up } })pol",
    R"pol(ruleset t { modifier m on a { when up: / up up because up, up } })pol",
    R"pol(ruleset t { modifier m on a() { always: / 2 nearest always: / 2 down; always: / 2 } })pol",
    R"pol(ruleset t { modifier m on a { } })pol",
    R"pol(ruleset t { modifier m on a { when x:= 1 } })pol",
    R"pol(ruleset t { modifier m on a { when f(a: 1): + {b: 2} when 2:2: + 1 when {}: -1 } })pol",
    R"pol(ruleset t { modifier m on a { always: shift shift } })pol",
    R"pol(ruleset t { modifier m on a { always: shift } })pol",
    R"pol(ruleset t { modifier m on a { always: + 1 because } })pol",
    R"pol(ruleset t { modifier m on a if if a then b else c "d" { always: - -1 } })pol",
    R"pol(ruleset t { modifier m on a "d" level l { always: + 1 } })pol",
    R"pol(ruleset t { modifier m on a(x,) { always: + 1 } })pol",
    R"pol(ruleset t { modifier m on a { always + 1 } })pol",
    R"pol(ruleset t { modifier m on a { when x: % 2 } })pol",
    R"pol(ruleset t { modifier m on a { always: / 2 up down } })pol",
    R"pol(ruleset t { modifier m on a level l level m if x if y { always: + roll d6 §1 because roll d6 §2 } })pol",
};

// Declarations.
const char* const kDeclarations[] = {
    // ambiguous: ANTLR takes the first alternative, the terrain attributes
    R"pol(ruleset t { terrain attributes { } })pol",
    // a field init: a terrain named `attributes`
    R"pol(ruleset t { terrain attributes { x = 1 } })pol",
    R"pol(ruleset t { terrain attributes { x: int = 1 } })pol",
    R"pol(ruleset t { terrain attributes "A" { } })pol",
    R"pol(ruleset t { terrain attributes §1 { } hexside attributes §1 { x = 1 } })pol",
    R"pol(ruleset t { scenario attributes { x: int } hexside attributes { state: int; state state: bool; ready := 1 } })pol",
    R"pol(ruleset t { terrain attributes { state = 1 } terrain attributes { x := 1 } })pol",
    R"pol(ruleset t { scenario attributes "s" { } })pol",
    // at the top: a scenario named `attributes`, then the scenario attributes
    R"pol(scenario attributes for r { }
scenario attributes { x: int }
terrain attributes { }
terrain attributes { x = 1 })pol",
    R"pol(ruleset t { terrain woods "W" §1 { cost = 2; blocks = true } hexside river { } terrain t §1 "s" { } })pol",
    R"pol(ruleset t { unit class c §1 {
      strength: int in 0..9 = 0 §2.1 "S" counter "str"; x: int in -1..3; y: int in -3..-1 marker
      z: int in - 1 .. 3 = -1 counter; counter: int = 0 counter "c"; marker: bool marker "M"
      state: int; state state: int; ready := strength > 0 §1 "r" marker "R"; } })pol",
    // a second field named `counter`, not a display
    R"pol(ruleset t { unit class c { x: int = 0
      counter: int } })pol",
    R"pol(ruleset t { unit class c { x: int = counter counter "c" } })pol",
    R"pol(ruleset t { unit class c { x: int = 0 counter
      marker: bool } })pol",
    R"pol(ruleset t { unit class c { x: int = 0
      counter := 1 } })pol",
    R"pol(ruleset t { unit class c { x: int counter
      "s" } })pol",
    R"pol(ruleset t { unit class c { state x := 1 } })pol",
    R"pol(ruleset t { unit class c { x: int "d" counter "c" §1 } })pol",
    R"pol(ruleset t { unit class c { x: int in 0..99999999999999999999 y: int in -9223372036854775808..0 } })pol",
    R"pol(ruleset t { unit class c { x: int = 1 = 2 } })pol",
    R"pol(ruleset t { unit class c { x } })pol",
    R"pol(ruleset t { unit class c { x: int counter counter } })pol",
    R"pol(ruleset t { unit type legion: Combat "Legion" §2.2 { strength = 6 moves = 4; } unit type type: class { class = 1 } })pol",
    R"pol(ruleset t { unit type x "s": c { } })pol",
    R"pol(ruleset t { unit type x: c { y: int } })pol",
    R"pol(ruleset t { unit class unit { unit: unit } side state { side: side } game state §1 { turn: int = 1 } hex state { } })pol",
    R"pol(ruleset t { unit x { } })pol",
    R"pol(ruleset t { remove unit type X remove unit class Y §1; remove phase movement; remove step a.b remove levels l remove die d remove option o remove enum e remove const c remove terrain t remove hexside h remove table tb remove quantity q.r remove modifier m remove function f remove procedure p remove action a remove results r remove event e remove trigger tr })pol",
    R"pol(ruleset t { remove sequence })pol",
    R"pol(ruleset t { remove x })pol",
    R"pol(ruleset t { remove unit x })pol",
    R"pol(ruleset t { remove terrain attributes; replace terrain attributes { } add hexside attributes { x = 1 } })pol",
    R"pol(ruleset t { replace const x = 1 add function f() = 1 replace sequence { } add unit type u: c { } replace scenario attributes { } })pol",
    R"pol(ruleset t { replace remove const x })pol",
    R"pol(ruleset t { remove const a.b. })pol",
    R"pol(ruleset t { remove scenario s })pol",
    R"pol(ruleset t { add uses a add include "x" replace levels a < b })pol",
    R"pol(ruleset t { enum e { a, } enum f { a §1 "A", b "B" } enum g §1 { x } enum h { a §1 §2, b, } })pol",
    R"pol(ruleset t { enum e { } })pol",
    R"pol(ruleset t { enum e { a "A" §1 } })pol",
    R"pol(ruleset t { enum e { a b } })pol",
    R"pol(ruleset t { enum e { , } })pol",
    R"pol(ruleset t { uses a.b, c; uses d include "x.pol", "y.pol"; levels basic < advanced < optional §1; levels solo })pol",
    R"pol(ruleset t { uses a.row })pol",
    R"pol(ruleset t { levels a < })pol",
    R"pol(ruleset t { option o: int = 1 §1 "d"; option p = "a" "b" option q = §1 §2 })pol",
    R"pol(ruleset t { const x: map<string, list<int>>? = {} const y: a<b>? = none; const z: int?= 1 })pol",
    R"pol(ruleset t { const x: list<int>= [] })pol",
    R"pol(ruleset t { const x: list<> = [] })pol",
    R"pol(ruleset t { const x: int?? = 1 })pol",
    R"pol(ruleset t { const x = §1 §2 })pol",
    R"pol(ruleset t { const x = 1 §7.4. })pol",
    R"pol(ruleset t { const x = 1 §4.A §chalons:6.1 §17.2.1 §a_1:B2 })pol",
    R"pol(ruleset t { const x = 1 §Chalons:6.1 })pol",
    R"pol(ruleset t { function f(a: int, b: list<int>?): map<string, int> §1 = a; function g() §1 { } function h() = {} function i() {} })pol",
    R"pol(ruleset t { function f(a: int,) = 1 })pol",
    R"pol(ruleset t { function f() = x
      { } })pol",
    R"pol(ruleset t { function f(a) = 1 })pol",
    R"pol(ruleset t { function f() = 1; ; })pol",
    R"pol(ruleset t { procedure p(): int §1 { return 1 } })pol",
    R"pol(ruleset t { procedure p() = 1 })pol",
    R"pol(ruleset t { action a(u: unit in xs, h: hex, v: list<int>? in 1..3, w: int in a in b) §1 "d" level basic if x { move(u, h) } action b() {} })pol",
    R"pol(ruleset t { action a() "d" §1 {} })pol",
    R"pol(ruleset t { action a() level level level level {} action b() if x level l if {} {} })pol",
    R"pol(ruleset t { action a(u: unit in) {} })pol",
    R"pol(ruleset t { results r(x: int) §1 { A §1 "d" { } - { } end { return } - §2 "none" { x = 1 } } })pol",
    R"pol(ruleset t { results r() { } })pol",
    R"pol(ruleset t { results r() { A "d" §1 { } } })pol",
    R"pol(ruleset t { results r() { 1 { } } })pol",
    R"pol(ruleset t { event e(u: unit) §1; event f() trigger t on e(a, b) §1 level x if y { } trigger on on on() { } })pol",
    R"pol(ruleset t { trigger t on e() level x "d" { } })pol",
    R"pol(ruleset t { trigger t on e { } })pol",
    R"pol(ruleset t { event e })pol",
    R"pol(ruleset t { quantity melee.attack(u: unit): int §1 = u.x §2 "d"; quantity q() = 1 quantity a.b.c() = roll d6 §1 "d" })pol",
    R"pol(ruleset t { quantity q = 1 })pol",
    R"pol(ruleset t { sequence §1 { phase p §2 level l if c for x { allow a, b; end requires x §1 else "m"; on start { } on end { return } } step s §3 level l if x { } alternate from x until 2 passes §4 level l { allow a allow b } } })pol",
    R"pol(ruleset t { sequence { phase p { allow allow, allow allow end end requires end end requires end on end { } } } })pol",
    R"pol(ruleset t { sequence { phase p for side { } phase q if {} {} phase r if a level c for b { } } })pol",
    R"pol(ruleset t { sequence { phase r if a for b level c { } } })pol",
    R"pol(ruleset t { sequence { phase p { x = 1 } } })pol",
    R"pol(ruleset t { sequence { alternate from until until 2 passes { on start { } } } })pol",
    R"pol(ruleset t { sequence { alternate from x until y passes { } } })pol",
    R"pol(ruleset t { sequence { phase p { end requires x else y } } })pol",
    R"pol(ruleset t { sequence { phase p { allow } } })pol",
    R"pol(ruleset t { sequence { phase p { allow a, } } })pol",
    R"pol(ruleset t { sequence { phase p { on x { } } } })pol",
    R"pol(ruleset t { sequence { phase p for { } } })pol",
    R"pol(ruleset t { procedure p() { phase p { } step s { } alternate from a until 1 passes { } } })pol",
    R"pol(ruleset t { sequence })pol",
};

// A `;` where the grammar has none, then one wherever it has an optional one.
const char* const kSemicolons[] = {
    R"pol(ruleset t { procedure p() { if a {}; } })pol",
    R"pol(ruleset t { procedure p() { if a {} else {}; } })pol",
    R"pol(ruleset t { procedure p() { for x in y {}; } })pol",
    R"pol(ruleset t { procedure p() { while a {}; } })pol",
    R"pol(ruleset t { procedure p() { {}; } })pol",
    R"pol(ruleset t { procedure p() { phase q {}; } })pol",
    R"pol(ruleset t { procedure p() { step q {}; } })pol",
    R"pol(ruleset t { procedure p() { alternate from a until 1 passes {}; } })pol",
    R"pol(ruleset t { procedure p() { return; ; } })pol",
    R"pol(ruleset t { enum e { a }; })pol",
    R"pol(ruleset t { unit class c { }; })pol",
    R"pol(ruleset t { unit type u: c { }; })pol",
    R"pol(ruleset t { game state { }; })pol",
    R"pol(ruleset t { terrain attributes { }; })pol",
    R"pol(ruleset t { terrain w { }; })pol",
    R"pol(ruleset t { table tb { }; })pol",
    R"pol(ruleset t { modifier m on a { always: + 1 }; })pol",
    R"pol(ruleset t { function f() { }; })pol",
    R"pol(ruleset t { procedure p() { }; })pol",
    R"pol(ruleset t { action a() { }; })pol",
    R"pol(ruleset t { results r() { A { }; } })pol",
    R"pol(ruleset t { results r() { A { } }; })pol",
    R"pol(ruleset t { trigger tr on e() { }; })pol",
    R"pol(ruleset t { sequence { }; })pol",
    R"pol(ruleset t { };)pol",
    R"pol(ruleset t { enum e { a; } })pol",
    R"pol(ruleset t { sequence { phase q { on start { }; } } })pol",
    R"pol(scenario s for r { map columns 1..2 rows 1..2 { }; })pol",
    R"pol(scenario s for r { side x { }; })pol",
    R"pol(scenario s for r { force x { }; })pol",
    R"pol(scenario s for r { rules { }; })pol",
    // where the grammar has an optional `;`, each one
    R"pol(ruleset t {
      uses a; include "x"; levels a < b; option o = 1; const c = 1; die d = [1]; quantity q() = 1;
      function f() = 1; event e(); remove const c;
      unit class k { x: int; y := 1; } unit type u: k { x = 1; } table tb { rows d6; columns d6 1; row 1: a; }
      modifier m on q { always: + 1; when a: - 1 because b; }
      procedure p() { let a = 1; require a; return a; emit e(); apply a; note a; pause a; x = 1; f(); return; }
      sequence { phase q { allow a; end requires a; } }
    }
    scenario s for r { map columns 1..2 rows 1..2 { default d; terrain t: 0101; hexside h: a/b; elevation 1: a; group g: a; hex v = 1: a; }
      side x { a = 1; } force x { a b; c d at 0101 facing N e = 1; } turns = 1; })pol",
};

// A trailing comma where the grammar allows none.
const char* const kTrailingCommas[] = {
    R"pol(ruleset t { uses a, })pol",
    R"pol(ruleset t { include "a", })pol",
    R"pol(ruleset t { modifier m on a { always: + 1 because a, } })pol",
    R"pol(ruleset t { trigger tr on e(a,) { } })pol",
    R"pol(ruleset t { action a(u: unit,) { } })pol",
    R"pol(ruleset t { results r(u: unit,) { A { } } })pol",
    R"pol(ruleset t { event e(u: unit,) })pol",
    R"pol(ruleset t { quantity q(u: unit,) = 1 })pol",
    R"pol(ruleset t { procedure p() { emit e(1,) } })pol",
    R"pol(ruleset t { procedure p() { note a, } })pol",
    R"pol(ruleset t { const x: map<a, b,> = {} })pol",
    R"pol(ruleset t { enum e { a,, } })pol",
    R"pol(ruleset t { const a = [1, 2,,] })pol",
};

// Optional parts in the wrong order.
const char* const kWrongOrder[] = {
    R"pol(house h for r §1 "t" { })pol",
    R"pol(ruleset t { unit type x: c §1 "s" { } })pol",
    R"pol(ruleset t { terrain t §1 "s" { } })pol",
    R"pol(ruleset t { table tb §1 "s" { } })pol",
    R"pol(ruleset t { option o = 1 "d" §1 })pol",
    R"pol(ruleset t { enum e "s" { a } })pol",
    R"pol(ruleset t { results r() "s" { A { } } })pol",
    R"pol(ruleset t { event e() "s" })pol",
    R"pol(ruleset t { trigger tr on e() "s" { } })pol",
    R"pol(ruleset t { action a() level l "d" { } })pol",
    R"pol(ruleset t { action a() if x §1 { } })pol",
    R"pol(ruleset t { modifier m on q "d" §1 { always: + 1 } })pol",
    R"pol(ruleset t { quantity q() = 1 "d" §1 })pol",
    R"pol(ruleset t { quantity q() = 1 §1 "d" §2 })pol",
    R"pol(ruleset t { unit class c { x: int "d" §1 } })pol",
    R"pol(ruleset t { unit class c { x: int = 1 counter "c" "d" } })pol",
    R"pol(ruleset t { unit class c { x: int counter "c" = 1 } })pol",
    R"pol(ruleset t { unit class c { x: int = 1 in 0..3 } })pol",
    R"pol(scenario s for r { side x §1 "t" { } })pol",
    R"pol(scenario s for r { map columns 1..2 rows 1..2 §1 labels x { } })pol",
    R"pol(scenario s for r { force x "t" { } })pol",
    R"pol(ruleset t { sequence { phase q level l §1 { } } })pol",
    R"pol(ruleset t { sequence { step q if x §1 { } } })pol",
    R"pol(ruleset t { sequence { alternate from x until 1 passes level l §1 { } } })pol",
    R"pol(ruleset t { sequence { phase q for x if y { } } })pol",
    R"pol(ruleset t { sequence { phase q { end requires x else "m" §1 } } })pol",
    R"pol(ruleset t { const a = roll d6 §1 highest })pol",
    R"pol(ruleset t { const a = roll highest d6 })pol",
    R"pol(ruleset t { const a = choose a "p" by b })pol",
    R"pol(ruleset t { table tb { columns d6 1; rows d6; } })pol",
    R"pol(ruleset t { table tb { row 1: a; rows d6 } })pol",
    R"pol(ruleset r "t" extends b §1 { } ruleset s §1 "t" { })pol",
    R"pol(ruleset t { unit state { } })pol",
    R"pol(ruleset t { terrain state { } side attributes { } })pol",
    R"pol(ruleset t { terrain state { x = 1 } game state { } hex state { state: int } })pol",
    R"pol(ruleset t { scenario state { } })pol",
    R"pol(ruleset t { levels; })pol",
    R"pol(ruleset t { include x })pol",
    R"pol(ruleset t { uses "x" })pol",
};

// More around names, expressions and positions.
const char* const kMore[] = {
    R"pol(ruleset t { unit class c { ready := x
      counter: int; done := counter counter
      marker: bool } })pol",
    R"pol(ruleset t { terrain attributes { state x: int } terrain attributes { state state = 1 } })pol",
    R"pol(ruleset t { const a = 007 + 0 + 00 const b = roll 007d06 + roll 0d0 const c = 007:010 })pol",
    R"pol(ruleset t { procedure p() { require a == "😀" /* 😀 */ or b } const s = "😀𝄞" const u = 1 })pol",
    R"pol(ruleset t { const a = "a\" })pol",
    R"pol(ruleset t { const a = "a\\" })pol",
    R"pol(ruleset t { const a = § })pol",
    R"pol(ruleset t { table tb { row 1: -/**/1 -// c
      1 -1 } })pol",
    R"pol(ruleset t { const a = x./**/y + f/**/(1) })pol",
    R"pol(scenario s for r { map columns 1..2 rows 1..2 { elevation 99999999999999999999: 0101 } rules { } rules { const x = 1 } force f { } })pol",
    R"pol(ruleset t { sequence { alternate from x until 99999999999999999999 passes { } } })pol",
    // both readings parse; ANTLR's first alternative goes on with the hex list: [default, d]
    R"pol(scenario s for r { map columns 1..2 rows 1..2 { terrain t: default d; } })pol",
    R"pol(scenario s for r { map columns 1..2 rows 1..2 { terrain t: ; default d; } })pol",
    R"pol(ruleset t { terrain t §1 { } table tb "s" §1 { } })pol",
    R"pol(ruleset t { const a = f(x)(y)[z].w  const b = -f(x)  const c = not f(x).y  const d = [a][0]  const e = {a: 1}.a })pol",
    R"pol(ruleset t { const a = "s"[0] + "t".len + 3:1 .x + §1(2) + true.x + none[0] })pol",
    R"pol(ruleset t { const a = roll d6 + 1  const b = roll d6 * roll 2 d6  const c = -roll d6  const d = not roll d6 highest })pol",
    R"pol(ruleset t { const a = if a then b else c
      const b = 2 })pol",
    R"pol(ruleset t { const a = (x) -> (y)  const b = (x) -> [y]  const c = (x) -> -y  const d = x -> (y) -> z })pol",
    R"pol(ruleset t { const a = (a) -> })pol",
    R"pol(ruleset t { const a = x -> })pol",
    R"pol(ruleset t { const a = (x, y -> z) })pol",
    R"pol(ruleset t { const a = f(x: y -> z, (p, q) -> r, s: (t) -> u) })pol",
    R"pol(ruleset t { const a = f(x -> y: z) })pol",
    R"pol(ruleset t { procedure p() { for x in (y) { } for x in [y] { } for x in {} { } if (a) { } while (a) { } } })pol",
    R"pol(ruleset t { procedure p() { if a { } else if b { } else c { } } })pol",
    R"pol(ruleset t { procedure p() { else { } } })pol",
    R"pol(ruleset t { procedure p() { x.y.z(1)[2] += f(3) -= 4 } })pol",
    R"pol(ruleset t { procedure p() { x.y.z(1)[2] += f(3); y -= -4 } })pol",
};

// Statements.
const char* const kStatements[] = {
    R"pol(ruleset t { procedure p() { if a { } else if b { } else { } if a {} else {} if {} {} while not x { } for end in 1..n { } for x in y in z { } } })pol",
    R"pol(ruleset t { procedure p() { if a then b else c } })pol",
    R"pol(ruleset t { procedure p() { if x {} else x = 1 } })pol",
    R"pol(ruleset t { procedure p() { if x {} else } })pol",
    R"pol(ruleset t { procedure p() { let x: int = 1 let y = {} { f() } let z = f
      { } } })pol",
    R"pol(ruleset t { procedure p() { let m = x
      {a: 1} } })pol",
    // the bracket on the next line still continues the expression
    R"pol(ruleset t { procedure p() { x = y
      [1]; f
      (1) } })pol",
    R"pol(ruleset t { procedure p() { a = b
      -c = 1 } })pol",
    R"pol(ruleset t { procedure p() { (f)(x) } })pol",
    R"pol(ruleset t { procedure p() { 1 } })pol",
    R"pol(ruleset t { procedure p() { roll d6 } })pol",
    R"pol(ruleset t { procedure p() { x == y } })pol",
    R"pol(ruleset t { procedure p() { x = y = z } })pol",
    R"pol(ruleset t { procedure p() { x += } })pol",
    R"pol(ruleset t { procedure p() { emit e(by: x, 1); emit f() apply x; apply roll d6 §1 } })pol",
    R"pol(ruleset t { procedure p() { emit e } })pol",
    R"pol(ruleset t { procedure p() { emit e.f() } })pol",
    R"pol(ruleset t { procedure p() { x; y; f(x).y = 1; z[0] += 1; w.row -= 2; g()(); h[1](2).k } })pol",
    R"pol(ruleset t { procedure p() { ; } })pol",
    R"pol(ruleset t { procedure p() { for in in x { } } })pol",
    R"pol(ruleset t { procedure p() { for x in y } })pol",
    R"pol(ruleset t { procedure p() { if x { a } { b } } })pol",
    R"pol(ruleset t { procedure p() { while a {} else {} } })pol",
    R"pol(ruleset t { procedure p() { if a {} else if b {} else if c {} else { if d {} } } })pol",
    R"pol(ruleset t { procedure p() { let x = 1;; } })pol",
    R"pol(ruleset t { procedure p() { let x } })pol",
    R"pol(ruleset t { procedure p() { let x: = 1 } })pol",
    R"pol(ruleset t { procedure p() { let row = 1 } })pol",
    R"pol(ruleset t { procedure p() { if x -> y { } for x in y -> z { } while {a: 1}.a { } } })pol",
    R"pol(ruleset t { procedure p() { x = if a then b else c; y = x -> x } })pol",
};

// Scenarios.
const char* const kScenarios[] = {
    R"pol(scenario s for r "S" §1 { map columns 1..10 rows 1..8 labels xxyy §2 { default clear; terrain woods: 0101 0102..0203; hexside river: 0101/0102 0102 / 0103; elevation 2: 0101..0105; group g: a b; hex fort = 2: 0101..0203; } })pol",
    R"pol(scenario s for r { map columns 1..2 rows 1..2 { terrain woods: 0101 0102 terrain hill: 0201 } })pol",
    // `terrain` before the `}` is a hex label
    R"pol(scenario s for r { map columns 1..2 rows 1..2 { terrain woods: 0101 terrain } })pol",
    // both readings parse; ANTLR's first alternative goes on with the hex list: woods [0101,
    // default, clear] and no default terrain
    R"pol(scenario s for r { map columns 1..2 rows 1..2 { terrain woods: 0101 default clear } })pol",
    R"pol(scenario s for r { map columns 1..2 rows 1..2 { terrain woods: 0101; default clear } })pol",
    R"pol(scenario s for r { map columns 1..2 rows 1..2 { terrain woods: 0101 hex fort = 2: 0201 group g: 0301 elevation 2: 0401 hexside h: 0101/0102 } })pol",
    // woods [0101, terrain], then hill [0201]
    R"pol(scenario s for r { map columns 1..2 rows 1..2 { terrain woods: 0101 terrain terrain hill: 0201 } })pol",
    R"pol(scenario s for r { map columns 1..2 rows 1..2 { terrain terrain: terrain terrain } })pol",
    // pairs [0101/0102, default/x], then the default terrain y
    R"pol(scenario s for r { map columns 1..2 rows 1..2 { hexside r: 0101/0102 default/x default y } })pol",
    R"pol(scenario s for r { map columns 1..2 rows 1..2 { default default default clear } })pol",
    R"pol(scenario s for r { map columns 1..2 rows 1..2 { group g: 0101 group group: group } })pol",
    R"pol(scenario s for r { map columns 1..2 rows 1..2 { group g: a elevation elevation 3: b } })pol",
    R"pol(scenario s for r { map columns 1..2 rows 1..2 { hex x = 3:1: 0101 hex y = 3: 0101 hex z = f(a: 1): a..b hex w = {a: 1}: hex } })pol",
    R"pol(scenario s for r { map columns 1..2 rows 1..2 { hex x = 3:0101 } })pol",
    R"pol(scenario s for r { map columns 1..2 rows 1..2 { elevation -1: 0101 } })pol",
    R"pol(scenario s for r { map columns 1..2 rows 1..2 { terrain t: 0101d6 } })pol",
    R"pol(scenario s for r { map columns 1..2 rows 1..2 { terrain t: 0101.. } })pol",
    R"pol(scenario s for r { map columns 1..2 rows 1..2 { hexside h: 0101 } })pol",
    R"pol(scenario s for r { map columns 1..2 rows 1..2 { terrain t 0101 } })pol",
    R"pol(scenario s for r { map columns 1..2 rows 1..2 { terrain t: ; default d; ; } })pol",
    // a second map: the builder reports it
    R"pol(scenario s for r { map columns 1..2 rows 1..2 {} map columns 1..2 rows 1..2 {} })pol",
    R"pol(scenario s for r { map columns 1 .. 99999999999999999999 rows 1..2 labels labels { } })pol",
    R"pol(scenario s for r { map columns 1..2 rows 1..2 labels { } })pol",
    R"pol(scenario s for r { map rows 1..2 columns 1..2 { } })pol",
    R"pol(scenario s for r { side roman "Romans" §2 { morale = 3 } side side { side = 1 } force roman §3.1 { r1 legion at 0101 facing N strength = 5; r2 legion r3 legion at a facing b } turns = 15 §2.1 map = 1 side = 2 force = 3 rules = {} rules { const x = 1 } })pol",
    // `at = 3` and `facing = 2` are field inits
    R"pol(scenario s for r { force f { r1 legion at = 3 facing = 2 } })pol",
    // two placements: `facing N` is the second
    R"pol(scenario s for r { force f { r1 legion strength = 5 facing N } })pol",
    R"pol(scenario s for r { force f { at at at at facing facing facing facing } })pol",
    // both readings parse; ANTLR's first alternative places r1 at c
    R"pol(scenario s for r { force f { r1 legion at c } })pol",
    R"pol(scenario s for r { force f { r1 legion at at = 1 } })pol",
    R"pol(scenario s for r { force f { 1 legion } })pol",
    R"pol(scenario s for r { force f { r1 } })pol",
    R"pol(scenario s for r { force f { r1 legion at 0101 at 0102 } })pol",
    R"pol(scenario s for r { force f { r1 legion facing N at 0101 } })pol",
    R"pol(scenario s for r { side x = 1 })pol",
    R"pol(scenario s for r { map columns = 1 })pol",
    R"pol(scenario s for r { columns = 1 labels = x default = y turns = x
      side s { } rules = 1 §1; state = 2 })pol",
    R"pol(scenario s for r { rules { scenario attributes { } remove const x } })pol",
    R"pol(scenario s for r { const x = 1 })pol",
    R"pol(scenario s for r { x = 1 = 2 })pol",
    R"pol(scenario s for r §1 "t" { })pol",
    R"pol(scenario s { })pol",
};

// Files and blocks.
const char* const kFiles[] = {
    R"pol(scenario scenario for scenario { } house house for house { } module module.module "m" { } ruleset extends extends extends { })pol",
    R"pol(ruleset r extends { })pol",
    R"pol(module m §1 { })pol",
    R"pol(ruleset r extends b "t" { })pol",
    R"pol(house h for r "t" §1 §2 { remove const x replace const x = 2 } ruleset s "" §1 { })pol",
    R"pol(part of standard
const x = 1
function f() = 2
ruleset r { })pol",
    R"pol(part of part)pol",
    R"pol(part of x part of y)pol",
    R"pol(part x)pol",
    R"pol(ruleset r { } })pol",
    R"pol(ruleset r { )pol",
    R"pol(ruleset r { } const)pol",
    "",
    "// only a comment\n",
    "/* only a comment */",
    "/* open",
    "const x = 1 @",
    "const x = \u201Ca\u201D",
    "const x = 'a'",
    "const x\xC2\xA0= 1",
};

// Strings, comments and positions.
const char* const kStrings[] = {
    R"pol(ruleset t { const a = "\"\\\n\t" const b = "" const c = "é日本" const d = "§1 // not a comment /* nor this */" })pol",
    R"pol(ruleset t { const a = "\q" })pol",
    R"pol(ruleset t { const a = "a\
b" })pol",
    R"pol(ruleset t { const a = "open })pol",
    R"pol(ruleset t { const a = "\é" })pol",
    R"pol(ruleset t "title \"quoted\"" { include "a\\b.pol" })pol",
    R"pol(ruleset t { procedure p() { require a /* é */ and
      // ü
      b } })pol",
    R"pol(/* a
   é */ const x = 1 /* ü */ const y = "日本語" const z = 2)pol",
    R"pol(ruleset t { const a = 1 /* unterminated )pol",
    R"pol(ruleset t { const a = 1 } // trailing)pol",
    R"pol(ruleset t { procedure p() { require a/**/==/**/b else "x" } })pol",
    R"pol(ruleset t { procedure p() { require roll d6 §1 > 3 ; require x -> y §2 } })pol",
    R"pol(ruleset t { sequence { phase p { end requires a /* x */ or
      b §1 else "m" } } })pol",
};

// More ambiguities that ANTLR resolves to the inner construct.
const char* const kInner[] = {
    R"pol(ruleset t { unit class k { x: int = roll d6 §1; y := roll d6 §2 "d"; z: int = choose a by b "p" §3 "d" counter; w: int = choose a by b "d" marker } })pol",
    R"pol(ruleset t { option o = roll d6 §1  option p = choose a by b "p" §1  quantity q() = choose a by b "p" })pol",
    R"pol(scenario s for r { turns = roll d6 §1 map columns 1..2 rows 1..2 { hex v = roll d6 §2: 0101 } })pol",
    R"pol(ruleset t { sequence { phase q { end requires roll d6 §1 else "m" end requires choose a by b "p" } } })pol",
    // the choice in the gate takes the string: the modifier has no description
    R"pol(ruleset t { modifier m on q if choose a by b "s" { always: + 1 } })pol",
    R"pol(ruleset t { action a() if choose a by b "s" { } })pol",
    R"pol(ruleset t { procedure p() { require if a then b else c else "m" if if a then b else c { } } })pol",
    R"pol(ruleset t { sequence { phase q { end requires if a then b else c else "m" } } } })pol",
    R"pol(ruleset t { action a() if if a then b else c { } action b() if x -> y { } })pol",
    R"pol(ruleset t { procedure p() { while {} {} for x in {a: 1} {} if {a: 1} == x {} } })pol",
    R"pol(ruleset t { const a = choose xs by x -> x "p"  const b = choose xs by x -> choose y by z "p"  const c = m[(a) -> b] })pol",
    // [1, -2..3]: only the reading with a single key 1 parses
    R"pol(ruleset t { table tb { columns d6 1 - 2..3 row 1: a } })pol",
    R"pol(ruleset t { table tb { columns d6 1-2..3 row 1: a } })pol",
    // ambiguous: [1-2, -3..4] (ANTLR's first alternative) or [1, -2, -3..4]
    R"pol(ruleset t { table tb { columns d6 1 - 2 - 3..4 row 1: a } })pol",
    R"pol(ruleset t { table tb { row 1 - 2..3: x } })pol",
    R"pol(ruleset t { table tb { rows columns columns columns columns } table tc { rows rows rows } })pol",
    R"pol(ruleset t { table tb { rows columns columns columns columns } })pol",
    R"pol(ruleset t { const a = x < y in z  const b = x in y < z })pol",
    R"pol(ruleset t { const a = not in x })pol",
    R"pol(ruleset t { const a = x not /* c */ in y  const b = x in in y })pol",
    R"pol(ruleset t { const a = x not /* c */ in y })pol",
    R"pol(scenario s for r { force f { a b c = roll d6 each x y z } })pol",
    R"pol(scenario s for r { force f { a b c = roll d6 each x y } })pol",
    R"pol(scenario s for r { x = roll d6
      each = 1 y = roll d6
      highest(1) })pol",
};

// The snippets written out above, by group.
struct SnippetGroup {
  const char* name;
  const char* const* snippets;
  size_t size;
};

template <size_t N>
SnippetGroup group(const char* name, const char* const (&snippets)[N]) {
  return {name, snippets, N};
}

const SnippetGroup kAdversarial[] = {
    group("kNames", kNames),           group("kCitations", kCitations),
    group("kReturns", kReturns),       group("kRollsAndChoices", kRollsAndChoices),
    group("kLambdas", kLambdas),       group("kPrecedence", kPrecedence),
    group("kLists", kLists),           group("kTables", kTables),
    group("kModifiers", kModifiers),   group("kDeclarations", kDeclarations),
    group("kSemicolons", kSemicolons), group("kTrailingCommas", kTrailingCommas),
    group("kWrongOrder", kWrongOrder), group("kMore", kMore),
    group("kStatements", kStatements), group("kScenarios", kScenarios),
    group("kFiles", kFiles),           group("kStrings", kStrings),
    group("kInner", kInner),
};

// Snippets that are not easily written as raw strings: line endings, tabs, a byte-order mark.
std::vector<std::string> adversarialEncodings() {
  const std::string body =
      "ruleset t {\n  procedure p() {\n    require a and\n      b // c\n    note \"\xC3\xA9\", "
      "x\n  }\n  table tb { row 1: -1 -\n 2 }\n}\n";
  std::vector<std::string> out;
  auto replaceAll = [](std::string s, const std::string& from, const std::string& to) {
    for (size_t i = 0; (i = s.find(from, i)) != std::string::npos; i += to.size())
      s.replace(i, from.size(), to);
    return s;
  };
  out.push_back(replaceAll(body, "\n", "\r\n"));                   // CRLF
  out.push_back(replaceAll(body, "\n", "\r"));                     // CR alone
  out.push_back(replaceAll(body, "  ", "\t"));                     // tabs
  out.push_back("\xEF\xBB\xBF" + body);                            // a BOM
  out.push_back("\xEF\xBB\xBF" + replaceAll(body, "\n", "\r\n"));  // both
  out.push_back("\xEF\xBB\xBF");                                   // a BOM alone
  out.push_back("ruleset t {\f const a = 1\v }");                  // a form feed, a bad \v
  out.push_back(std::string("ruleset t { const a = 1 }\0", 26));   // a NUL
  out.push_back("ruleset t { const a = \"\t\" }");                 // a tab in a string
  out.push_back("ruleset t { const a = \"a\\\r\nb\" }");           // backslash, CRLF
  out.push_back("ruleset t { procedure p() { require a\r\n\t/* \xE2\x82\xAC */ or b } }");
  // Not UTF-8: refused before either parser sees a token.
  out.push_back("ruleset t { const a = \"\xFF\" }");          // an invalid byte
  out.push_back("ruleset t { const a = \"\xC0\xAF\" }");      // an overlong form
  out.push_back("ruleset t { const a = \"\xED\xA0\x80\" }");  // a surrogate
  out.push_back("ruleset t { const a = \"\xE2\x82\" }");      // a truncated sequence
  return out;
}

// Bad field bounds and bad `..` table keys: the generated path crashed on these (the AST builder
// read a bound that error recovery left unset: FieldBounds lo/hi in build_decls.cpp, DotRangeKey
// hi in build_tables.cpp); both parsers read them, and the hand-written one must decline them.
const char* const kCrashTheGeneratedPath[] = {
    R"pol(ruleset t { table tb { row 1..: a } })pol",
    R"pol(ruleset t { table tb { row 1..x: a } })pol",
    R"pol(ruleset t { unit class c { x: int in 1:2 } })pol",
    R"pol(ruleset t { unit class c { x: int in x..3 } })pol",
    R"pol(ruleset t { unit class c { x: int in 0..x } })pol",
    R"pol(ruleset t { unit class c { x: int in ..3 } })pol",
    R"pol(ruleset t { unit class c { x: int in -..3 } })pol",
    R"pol(ruleset t { unit class c { x: int in 0.. } })pol",
    R"pol(ruleset t { unit class c { x: int in 0 } })pol",
    R"pol(ruleset t { unit class c { x: int in } })pol",
};

// Every position a name can take, with `@` for the name; each is filled with every word below.
const char* const kNameTemplates[] = {
    R"pol(ruleset t { const @ = @ })pol",
    R"pol(ruleset t { function f(@: int, b: @<@>?): @ = @ })pol",
    R"pol(ruleset t { procedure p() { @ = 1 } })pol",
    R"pol(ruleset t { procedure p() { @(1); @.x += 2; @[0] -= 3; @ } })pol",
    R"pol(ruleset t { procedure p() { let @: @ = @; for @ in @ { } } })pol",
    R"pol(ruleset t { const c = x.@ + @.@ })pol",
    R"pol(ruleset t { const c = f(@ -> @, (@, b) -> @, (@) -> @) })pol",
    R"pol(ruleset t { const c = f(@: 1, b: @) })pol",
    R"pol(ruleset t { const c = {@: 1, b: @} })pol",
    R"pol(ruleset t { table tb { rows @; columns @ @ x; row @: @ - @ @ } })pol",
    R"pol(ruleset t { enum @ { @ §1 "d", b, @ } })pol",
    R"pol(ruleset t { unit class @ { @: int; state @: @ = @; @ := @ } })pol",
    R"pol(ruleset t { unit type @: @ { @ = 1 } })pol",
    R"pol(ruleset t { terrain @ { @ = 1 } hexside @ "h" { } })pol",
    R"pol(scenario s for t { map columns 1..2 rows 1..2 labels @ { default @; terrain @: @ 0101..@; hexside @: @/0102; group @: @; hex @ = @: @ } })pol",
    R"pol(scenario s for t { map columns 1..2 rows 1..2 { terrain w: 0101 @ } })pol",
    R"pol(scenario s for t { force @ { @ @ at @ facing @ @ = 1 } side @ { @ = 1 } @ = 2 })pol",
    R"pol(ruleset t { modifier @ on @.@(@, b) level @ { when @: + @ because @ } })pol",
    R"pol(ruleset t { trigger @ on @(@) { } event @(@: @) })pol",
    R"pol(ruleset t { results @(@: int) { @ { } } })pol",
    R"pol(ruleset t { sequence { phase @ for @ { allow @, @; end requires @ } step @ { } } })pol",
    R"pol(ruleset @ extends @ { } house @ for @ { } module @.@ { } scenario @ for @ { })pol",
    R"pol(part of @)pol",
    R"pol(ruleset t { levels @ < @; uses @.@; option @: @ = @; die @ = [@] })pol",
    R"pol(ruleset t { remove const @.@ })pol",
    R"pol(ruleset t { quantity @.@(@: @) = @ })pol",
    R"pol(ruleset t { action @(@: @ in @) level @ { } })pol",
    R"pol(ruleset t { procedure p() { emit @(@: @); apply @; note @; pause @ } })pol",
    R"pol(ruleset t { const c = roll @  const d = roll 2 @  const e = choose @ by @ })pol",
    R"pol(ruleset t { procedure p() { alternate from @ until 2 passes { on start { @ = 1 } } } })pol",
    R"pol(ruleset t { const c = if @ then @ else @ })pol",
    R"pol(ruleset t { const c = a @ b })pol",
};

// The soft keywords (the `ident` rule), some reserved words (never names) and some near misses.
const char* const kNameWords[] = {
    // soft keywords
    "part", "of", "side", "game", "state", "unit", "class", "type", "terrain", "hexside",
    "attributes", "rows", "columns", "on", "because", "always", "up", "down", "nearest", "shift",
    "level", "map", "labels", "default", "elevation", "group", "force", "at", "facing", "rules",
    "from", "until", "passes", "allow", "end", "requires", "start", "by", "highest", "lowest",
    "each", "add", "remove", "replace", "event", "note", "die", "step", "phase", "extends", "house",
    "module", "scenario", "table", "function", "pause", "hex", "counter", "marker",
    // reserved words
    "ruleset", "include", "uses", "levels", "option", "enum", "const", "quantity", "modifier",
    "procedure", "action", "results", "trigger", "sequence", "when", "let", "if", "else", "for",
    "in", "while", "require", "return", "alternate", "emit", "apply", "then", "and", "or", "not",
    "true", "false", "none", "roll", "choose", "row",
    // plain names and words that look like keywords or dice
    "x", "_", "Row", "END", "ends", "row_", "_end", "d", "d6x", "d6", "2d6", "odds", "x1"};

// `t` with every `@` replaced by `a` and every `$` by `b`.
std::string fillTemplate(const std::string& t, const std::string& a, const std::string& b = "") {
  std::string out;
  for (char c : t) {
    if (c == '@') {
      out += a;
    } else if (c == '$') {
      out += b;
    } else {
      out += c;
    }
  }
  return out;
}

// Every position an expression can take, with `@` for the expression.
const char* const kExprTemplates[] = {
    R"pol(ruleset t { const c = @ })pol",
    R"pol(ruleset t { option o: int = @ "d" })pol",
    R"pol(ruleset t { unit class k { x: int = @; y := @ } })pol",
    R"pol(ruleset t { unit type u: k { x = @ } terrain w { x = @ } })pol",
    R"pol(ruleset t { die d = [1, @] })pol",
    R"pol(ruleset t { quantity q() = @ })pol",
    R"pol(ruleset t { function f() = @ })pol",
    R"pol(ruleset t { action a(u: unit in @) if @ { } })pol",
    R"pol(ruleset t { modifier m on q if @ { when @: + @ because @, @ always: / @ up } })pol",
    R"pol(ruleset t { trigger tr on e() if @ { } })pol",
    R"pol(ruleset t { procedure p() { let x = @; x = @; x += @; @ } })pol",
    R"pol(ruleset t { procedure p() { if @ { } else if @ { } for x in @ { } while @ { } } })pol",
    R"pol(ruleset t { procedure p() { require @ else "m"; emit e(@, by: @); apply @; note @, @; pause @ } })pol",
    R"pol(ruleset t { function f() { return @ } })pol",
    R"pol(ruleset t { sequence { phase q if @ for @ { end requires @ } step s if @ { } alternate from @ until 2 passes { } } })pol",
    R"pol(scenario s for r { turns = @ side x { a = @ } force x { a b c = @ } map columns 1..2 rows 1..2 { hex v = @: 0101 } })pol",
    R"pol(ruleset t { procedure p() { x(@) = 1; y[@] -= 2; z(@) } })pol",
};

// The first depthFillers(): `x`, 1000 deep and 1001 deep, without a wrapper.
constexpr size_t kPlainDepthFillers = 3;

// Expressions around the builder's depth limit (1000 levels in the tree): `x + x + ... + x` with
// n operators is n + 1 deep, and each wrapper below adds one level (parentheses add none).
std::vector<std::string> depthFillers() {
  auto chain = [](int n) {
    std::string s = "x";
    for (int i = 0; i < n; ++i) s += " + x";
    return s;
  };
  const std::string e999 = chain(999);  // 1000 deep: the most the builder takes
  std::vector<std::string> out = {"x",
                                  e999,
                                  chain(1000),  // the kPlainDepthFillers
                                  chain(998),
                                  "(" + e999 + ")",
                                  "((" + e999 + "))"};
  const char* const wrappers[] = {"f(@)",
                                  "f(a: @)",
                                  "[@]",
                                  "{a: @}",
                                  "x[@]",
                                  "x[1, @]",
                                  "(@).y",
                                  "(@)(1)",
                                  "-(@)",
                                  "not (@)",
                                  "roll (@) d6",
                                  "choose (@) by x",
                                  "choose x by (@)",
                                  "if (@) then a else b",
                                  "if a then (@) else b",
                                  "if a then b else (@)",
                                  "y -> @",
                                  "(a, b) -> @",
                                  "(@) + x",
                                  "x * (@)",
                                  "x..(@)",
                                  "(@) == x",
                                  "x and (@)",
                                  "(@) or x"};
  for (const char* w : wrappers) out.push_back(fillTemplate(w, e999));
  return out;
}

// Every position a string can take, with `@` for the string.
const char* const kStringTemplates[] = {
    R"pol(ruleset t @ { include @, @ })pol",
    R"pol(house h for r @ { } module m @ { } scenario s for r @ { })pol",
    R"pol(ruleset t { option o = 1 @ enum e { a @ } die d = [1] @ })pol",
    R"pol(ruleset t { unit class k { x: int @ counter @; y := 1 @ marker @ } unit type u: k @ { } })pol",
    R"pol(ruleset t { terrain w @ { } table tb @ { row 1: @ - @ } quantity q() = 1 @ })pol",
    R"pol(ruleset t { modifier m on q @ { always: + 1 } action a() @ { } })pol",
    R"pol(ruleset t { results r() { A @ { } - @ { } } })pol",
    R"pol(ruleset t { procedure p() { require x else @; let c = choose a by b @; note @; pause @ } })pol",
    R"pol(ruleset t { sequence { phase q { end requires x else @ } } })pol",
    R"pol(scenario s for r { side x @ { a = @ } turns = @ })pol",
    R"pol(ruleset t { const c = [@, {a: @}, f(@), @.x, @[0]] })pol",
};

const char* const kStringFillers[] = {
    R"pol("ok")pol", R"pol("\"\\\n\t")pol", R"pol("é日本😀")pol", R"pol("\q")pol",
    R"pol("\é")pol",
    R"pol("a\
b")pol",       R"pol("\ ")pol",       R"pol("\0")pol",     R"pol("\u0041")pol",
};

// Two operators in one expression, every ordered pair of the levels (and of some operators in one
// level), in several shapes: `@` and `$` are the operators.
const char* const kOperatorShapes[] = {
    R"pol(ruleset t { const c = a @ b $ c })pol",
    R"pol(ruleset t { const c = a @ -b $ c })pol",
    R"pol(ruleset t { const c = a @ not b $ c })pol",
    R"pol(ruleset t { const c = -a @ b $ c })pol",
    R"pol(ruleset t { const c = not a @ b $ c })pol",
    R"pol(ruleset t { const c = a.x @ b(1) $ c[2] })pol",
    R"pol(ruleset t { const c = (a @ b) $ c  const d = a @ (b $ c) })pol",
    R"pol(ruleset t { procedure p() { require a @ b $ c /* x */ §1 } })pol",
};

const char* const kOperators[] = {
    "*", "/", "%", "+", "-", "..", "==", "!=", "<", "<=", ">", ">=", "in", "not in", "and", "or"};

// Long inputs at the nesting limits: the generated path refuses some (the parse listener's
// level limit, the builder's depth limit), which the hand-written parser must then decline.
std::vector<std::string> adversarialNesting() {
  std::vector<std::string> out;
  auto repeat = [](const std::string& s, int n) {
    std::string r;
    for (int i = 0; i < n; ++i) r += s;
    return r;
  };
  const std::string head = "ruleset t { procedure p() { x = ";
  const std::string tail = " } }";
  for (int n : {100, 400, 997, 998, 999, 1000, 1001}) {
    out.push_back(head + repeat("not ", n) + "x" + tail);
    out.push_back(head + repeat("- ", n) + "x" + tail);
    out.push_back(head + "x" + repeat(" + x", n) + tail);
    out.push_back(head + "-x" + repeat(" + x", n) + tail);
    out.push_back(head + "not x" + repeat(" and x", n) + tail);
    out.push_back(head + "x" + repeat("(1)", n) + tail);
    out.push_back(head + "x" + repeat(".y", n) + tail);
    out.push_back(head + repeat("if a then b else ", n) + "c" + tail);
    out.push_back(head + repeat("y -> ", n) + "c" + tail);
    out.push_back(head + repeat("choose a by ", n) + "c" + tail);
    out.push_back("ruleset t { const x: " + repeat("list<", n) + "int" + repeat(">", n) + " = 1 }");
    out.push_back("ruleset t { procedure p() { if a { }" + repeat(" else if a { }", n) + " } }");
  }
  // Nesting of several kinds at once: brackets (limited on their own before parsing) with prefix
  // operators, lambdas, conditional expressions, `else if`s and blocks inside each bracket.
  for (int n : {20, 100, 198}) {
    for (int k : {1, 3, 10}) {
      out.push_back(head + repeat("(" + repeat("not ", k), n) + "x" + repeat(")", n) + tail);
      out.push_back(head + repeat("[" + repeat("- ", k), n) + "x" + repeat("]", n) + tail);
      out.push_back(head + repeat("f(" + repeat("y -> ", k), n) + "x" + repeat(")", n) + tail);
      out.push_back(head + repeat("(" + repeat("if a then b else ", k), n) + "x" + repeat(")", n) +
                    tail);
      out.push_back(head + repeat("{a: " + repeat("choose a by ", k), n) + "x" + repeat("}", n) +
                    tail);
      out.push_back("ruleset t { procedure p() { " +
                    repeat("if a { }" + repeat(" else if a { }", k) + " else { ", n) +
                    repeat("} ", n) + "} }");
      out.push_back("ruleset t { const x: " + repeat("map<" + repeat("list<", k) + "int, ", n) +
                    "int" + repeat(repeat(">", k) + ">", n) + " = f(" +
                    repeat("(" + repeat("x -> ", k), n / 2) + "1" + repeat(")", n / 2) + ") }");
    }
  }
  for (int n : {150, 197, 198, 199, 200, 201}) {
    out.push_back(head + repeat("(", n) + "x" + repeat(")", n) + tail);
    out.push_back(head + repeat("[", n) + "x" + repeat("]", n) + tail);
    out.push_back("ruleset t { procedure p() " + repeat("{ ", n) + repeat("} ", n) + "}");
  }
  return out;
}

TEST(HandWrittenParser, AdversarialSnippetsParseAlike) {
  struct Snippet {
    std::string text;
    std::string what;  // for a failure message
    Generated when = Generated::Always;
  };
  std::vector<Snippet> snippets;
  for (const SnippetGroup& g : kAdversarial) {
    for (size_t i = 0; i < g.size; ++i)
      snippets.push_back({g.snippets[i], std::string(g.name) + "[" + std::to_string(i) + "]"});
  }
  const size_t written = snippets.size();
  const std::vector<std::string> encodings = adversarialEncodings();
  for (size_t i = 0; i < encodings.size(); ++i)
    snippets.push_back({encodings[i], "adversarialEncodings()[" + std::to_string(i) + "]"});
  for (size_t i = 0; i < std::size(kCrashTheGeneratedPath); ++i) {
    snippets.push_back(
        {kCrashTheGeneratedPath[i], "kCrashTheGeneratedPath[" + std::to_string(i) + "]"});
  }
  const size_t fromTemplates = snippets.size();
  for (const char* t : kNameTemplates) {
    for (const char* w : kNameWords)
      snippets.push_back({fillTemplate(t, w), std::string("the name '") + w + "' in " + t});
  }
  // Every filler in the first template; the plain ones in every template.
  const std::vector<std::string> depths = depthFillers();
  for (const char* t : kExprTemplates) {
    const size_t n = t == kExprTemplates[0] ? depths.size() : kPlainDepthFillers;
    for (size_t i = 0; i < n; ++i) {
      snippets.push_back(
          {fillTemplate(t, depths[i]), "depthFillers()[" + std::to_string(i) + "] in " + t});
    }
  }
  for (const char* t : kStringTemplates) {
    for (const char* s : kStringFillers)
      snippets.push_back({fillTemplate(t, s), std::string("the string ") + s + " in " + t});
  }
  for (const char* t : kOperatorShapes) {
    for (const char* a : kOperators) {
      for (const char* b : kOperators) {
        snippets.push_back({fillTemplate(t, a, b),
                            std::string("the operators '") + a + "' and '" + b + "' in " + t});
      }
    }
  }
  const size_t atLimits = snippets.size();
  const std::vector<std::string> nesting = adversarialNesting();
  for (size_t i = 0; i < nesting.size(); ++i)
    snippets.push_back({nesting[i], "adversarialNesting()[" + std::to_string(i) + "]"});

  size_t accepted = 0, generatedClean = 0, declinedClean = 0, failed = 0;
  for (const Snippet& s : snippets) {
    Both both("snippet.pol", s.text, s.when);
    const bool generatedClean1 = both.generatedRead && both.generated.clean();
    if (both.handWritten.clean()) ++accepted;
    if (generatedClean1) ++generatedClean;
    if (generatedClean1 && !both.handWritten.clean()) ++declinedClean;
    const std::string v = both.violation();
    if (!v.empty()) {
      ++failed;
      const std::string shown = s.text.size() > 600 ? s.text.substr(0, 600) + "..." : s.text;
      ADD_FAILURE() << s.what << ": " << v << "\n--- the snippet ---\n" << shown << "\n---";
    }
  }
  std::cout << "[ snippets ] " << snippets.size() << " snippets (" << fromTemplates
            << " written out, " << atLimits - fromTemplates << " from templates, "
            << snippets.size() - atLimits << " at the nesting limits): " << generatedClean
            << " read without a diagnostic by the generated parser, " << accepted
            << " accepted by the hand-written parser (" << declinedClean
            << " declined that the generated parser reads without a diagnostic)\n";
  EXPECT_EQ(failed, 0u) << "of " << snippets.size() << " snippets";
  EXPECT_GE(written, 150u);
}

}  // namespace
}  // namespace polemos
