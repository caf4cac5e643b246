// The AST builder on tables: row and column kinds, every key form, and cells, including the rule
// that a '-' touching the number after it is a negative number while a lone '-' is an empty cell.

#include <gtest/gtest.h>

#include "ast/ast.h"
#include "syntax/ast_dump.h"
#include "syntax/parse.h"

namespace polemos {
namespace {

using ast::TableCell;
using ast::TableKey;

struct Table {
  explicit Table(const std::string& body) {
    id = sources.add("test.pol", "ruleset r {\ntable t \"T\" §7.6 {\n" + body + "\n}\n}\n");
    file = syntax::parseFile(diags, id);
  }
  std::string errors() const { return diags.render(); }
  const ast::Decl& decl() const { return *file->blocks.at(0)->decls.at(0); }
  const ast::TableSpec& spec() const { return decl().table; }
  const ast::TableRow& row(size_t i) const { return spec().rows.at(i); }

  diag::SourceManager sources;
  diag::Diagnostics diags{sources};
  diag::FileId id = 0;
  std::unique_ptr<ast::File> file;
};

TEST(syntax_tables, Header) {
  Table t("");
  ASSERT_EQ(t.errors(), "");
  EXPECT_EQ(t.decl().kind, ast::DeclKind::Table);
  EXPECT_EQ(t.decl().name.name, "t");
  EXPECT_EQ(t.decl().description, "T");
  EXPECT_EQ(t.decl().citations.at(0).text, "7.6");
  EXPECT_FALSE(t.spec().rowKind.has_value());
  EXPECT_FALSE(t.spec().columnKind.has_value());
  EXPECT_TRUE(t.spec().rows.empty());
}

TEST(syntax_tables, OddsColumns) {
  Table t(
      "columns odds 1:4 1:3 1:2 1:1 2:1 3:1\n"
      "row 1: AR AR AL AL EX DR\n"
      "row 2: - - - EX \"x\" 3:2");
  ASSERT_EQ(t.errors(), "");
  ASSERT_TRUE(t.spec().columnKind.has_value());
  EXPECT_EQ(t.spec().columnKind->name, "odds");
  ASSERT_EQ(t.spec().columns.size(), 6u);
  EXPECT_EQ(t.spec().columns[0].kind, TableKey::Odds);
  EXPECT_EQ(t.spec().columns[0].lo, 1);
  EXPECT_EQ(t.spec().columns[0].hi, 4);
  ASSERT_EQ(t.spec().rows.size(), 2u);
  const ast::TableRow& r1 = t.row(0);
  EXPECT_EQ(r1.key.kind, TableKey::Int);
  EXPECT_EQ(r1.key.lo, 1);
  ASSERT_EQ(r1.cells.size(), 6u);
  EXPECT_EQ(r1.cells[0].kind, TableCell::Name);
  EXPECT_EQ(r1.cells[0].text, "AR");
  const ast::TableRow& r2 = t.row(1);
  ASSERT_EQ(r2.cells.size(), 6u);
  EXPECT_EQ(r2.cells[0].kind, TableCell::Empty);
  EXPECT_EQ(r2.cells[2].kind, TableCell::Empty);
  EXPECT_EQ(r2.cells[4].kind, TableCell::String);
  EXPECT_EQ(r2.cells[4].text, "x");
  EXPECT_EQ(r2.cells[5].kind, TableCell::Odds);
  EXPECT_EQ(r2.cells[5].intValue, 3);
  EXPECT_EQ(r2.cells[5].oddsB, 2);
  EXPECT_EQ(r2.range.begin.line, 5u);
}

TEST(syntax_tables, RowsAndRangeColumns) {
  Table t(
      "rows d6 columns troops 1-11 12-20 21-30 31-40 >40\n"
      "row <-3: 0 0 0 0 0\n"
      "row -3: 0 0 0 1 1\n"
      "row <=-1: 1 2 3 4 5\n"
      "row >= 4: 1 2 3 4 5\n"
      "row 5: 1 2 3 4 5");
  ASSERT_EQ(t.errors(), "");
  ASSERT_TRUE(t.spec().rowKind.has_value());
  EXPECT_EQ(t.spec().rowKind->name, "d6");
  EXPECT_EQ(t.spec().columnKind->name, "troops");
  const auto& cols = t.spec().columns;
  ASSERT_EQ(cols.size(), 5u);
  EXPECT_EQ(cols[0].kind, TableKey::Range);
  EXPECT_EQ(cols[0].lo, 1);
  EXPECT_EQ(cols[0].hi, 11);
  EXPECT_EQ(cols[4].kind, TableKey::Greater);
  EXPECT_EQ(cols[4].lo, 40);
  EXPECT_EQ(t.row(0).key.kind, TableKey::Less);
  EXPECT_EQ(t.row(0).key.lo, -3);
  EXPECT_EQ(t.row(1).key.kind, TableKey::Int);
  EXPECT_EQ(t.row(1).key.lo, -3);
  EXPECT_EQ(t.row(2).key.kind, TableKey::LessEq);
  EXPECT_EQ(t.row(2).key.lo, -1);
  EXPECT_EQ(t.row(3).key.kind, TableKey::GreaterEq);
  EXPECT_EQ(t.row(3).key.lo, 4);
  EXPECT_EQ(t.row(4).cells.size(), 5u);
}

TEST(syntax_tables, NameKeysAndKinds) {
  Table t("rows Weapon columns range 1 2 3\nrow bow: 2 1 -\nrow javelin: 1 - -");
  ASSERT_EQ(t.errors(), "");
  EXPECT_EQ(t.spec().rowKind->name, "Weapon");
  EXPECT_EQ(t.spec().columns.size(), 3u);
  EXPECT_EQ(t.spec().columns[2].kind, TableKey::Int);
  EXPECT_EQ(t.row(0).key.kind, TableKey::Name);
  EXPECT_EQ(t.row(0).key.name, "bow");
  EXPECT_EQ(t.row(1).key.name, "javelin");
}

TEST(syntax_tables, NegativeCellsTouchTheirNumber) {
  Table t("row 1: -1 - 1 -2-3 4 -\n  5 - ");
  ASSERT_EQ(t.errors(), "");
  const auto& cells = t.row(0).cells;
  // -1 | - | 1 | -2 | -3 | 4 | - | 5 | -
  ASSERT_EQ(cells.size(), 9u);
  EXPECT_EQ(cells[0].kind, TableCell::Int);
  EXPECT_EQ(cells[0].intValue, -1);
  EXPECT_EQ(cells[0].range.begin.col, 7u);
  EXPECT_EQ(cells[0].range.end.col, 9u);
  EXPECT_EQ(cells[1].kind, TableCell::Empty);
  EXPECT_EQ(cells[2].kind, TableCell::Int);
  EXPECT_EQ(cells[2].intValue, 1);
  EXPECT_EQ(cells[3].intValue, -2);
  EXPECT_EQ(cells[4].kind, TableCell::Int);
  EXPECT_EQ(cells[4].intValue, -3);
  EXPECT_EQ(cells[5].intValue, 4);
  // A '-' at the end of a line does not reach the number on the next one.
  EXPECT_EQ(cells[6].kind, TableCell::Empty);
  EXPECT_EQ(cells[7].intValue, 5);
  EXPECT_EQ(cells[8].kind, TableCell::Empty);
}

TEST(syntax_tables, OtherCells) {
  Table t("row 1: true false none EX §7 ");
  // A citation is not a cell.
  EXPECT_NE(t.errors(), "");
  Table u("row 1: true false none EX");
  ASSERT_EQ(u.errors(), "");
  const auto& cells = u.row(0).cells;
  ASSERT_EQ(cells.size(), 4u);
  EXPECT_EQ(cells[0].kind, TableCell::Bool);
  EXPECT_EQ(cells[0].intValue, 1);
  EXPECT_EQ(cells[1].kind, TableCell::Bool);
  EXPECT_EQ(cells[1].intValue, 0);
  EXPECT_EQ(cells[2].kind, TableCell::None);
  EXPECT_EQ(cells[3].kind, TableCell::Name);
}

TEST(syntax_tables, OverflowIsFlagged) {
  Table t(
      "columns n 99999999999999999999 1-99999999999999999999\n"
      "row 1: 99999999999999999999 -9223372036854775808 9223372036854775807\n"
      "row -9223372036854775808: 1");
  ASSERT_EQ(t.errors(), "");
  EXPECT_TRUE(t.spec().columns[0].overflow);
  EXPECT_TRUE(t.spec().columns[1].overflow);
  const auto& cells = t.row(0).cells;
  ASSERT_EQ(cells.size(), 3u);
  EXPECT_TRUE(cells[0].overflow);
  EXPECT_FALSE(cells[1].overflow);
  EXPECT_EQ(cells[1].intValue, INT64_MIN);
  EXPECT_FALSE(cells[2].overflow);
  EXPECT_EQ(cells[2].intValue, INT64_MAX);
  EXPECT_FALSE(t.row(1).key.overflow);
  EXPECT_EQ(t.row(1).key.lo, INT64_MIN);
}

TEST(syntax_tables, Dump) {
  Table t("rows d6 columns odds 1:1 2:1\nrow <=2: - -1\nrow 3-4: AR \"s\"");
  ASSERT_EQ(t.errors(), "");
  EXPECT_EQ(syntax::dumpDecl(&t.decl()),
            "table t §7.6 \"T\" rows d6 columns odds 1:1 2:1 | <=2: - -1 | 3-4: AR \"s\"");
}

}  // namespace
}  // namespace polemos
