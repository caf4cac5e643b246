// The hand-written AST of the Polemos rule language.
//
// Nodes own their children (unique_ptr) and carry a SourceRange. The AST is a faithful picture of
// the source: names are strings, nothing is resolved, overlays are not merged. The checker
// (interpreter/check/) reads it and lowers it to the IR; the evaluator never sees it. No parse-tree
// type crosses into this header.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "diag/source.h"

namespace polemos::ast {

using diag::SourceRange;

// A rule citation such as `§7.43` (text without the section sign: "7.43").
struct Citation {
  std::string text;
  SourceRange range;
};

struct Ident {
  std::string name;
  SourceRange range;
};

// `a.b.c`
struct QualifiedName {
  std::vector<Ident> parts;
  SourceRange range;
  std::string joined() const;
};

// `int`, `unit`, `list<unit>`, `Weapon?`, `map<side, int>`
struct TypeRef {
  Ident name;
  std::vector<TypeRef> args;
  bool optional = false;
  SourceRange range;
};

// ---------------------------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------------------------

enum class ExprKind {
  Int,
  Odds,
  String,
  Bool,
  None,
  CitationLit,
  Name,
  Member,
  Call,
  Index,
  Unary,
  Binary,
  Cond,
  Lambda,
  List,
  Map,
  Range,
  Roll,
  Choose
};

enum class UnaryOp { Neg, Not };
enum class BinaryOp { Add, Sub, Mul, Div, Mod, Eq, Ne, Lt, Le, Gt, Ge, In, NotIn, And, Or };
enum class RollMode { Sum, Highest, Lowest, Each };

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Arg {
  std::optional<Ident> name;  // `cost: move_cost` (named argument), else positional
  ExprPtr value;
};

struct Expr {
  ExprKind kind;
  SourceRange range;
  // The longest path from this node down through its operands, arguments and roll count (1: a
  // leaf). The builder sets it and refuses a tree deeper than limits::kMaxExprDepth, so that the
  // passes that recurse over expressions (checking, lowering, destruction) stay within the stack.
  uint32_t depth = 1;

  // Int: intValue (may overflow: `overflow` is set and the checker reports it).
  // Odds: oddsA:oddsB.  String/CitationLit/Name: text.  Bool: boolValue.
  int64_t intValue = 0;
  bool overflow = false;
  int64_t oddsA = 0, oddsB = 0;
  std::string text;
  bool boolValue = false;

  // Member: operands[0] '.' member.  Call: operands[0] is the callee, args.  Index: operands[0]
  // and indices in operands[1..].  Unary: operands[0].  Binary/Range: operands[0], operands[1].
  // Cond: operands[0] then [1] else [2].  Lambda: params, operands[0] body.  List: operands.
  // Map: mapKeys[i] -> operands[i].
  UnaryOp unaryOp = UnaryOp::Neg;
  BinaryOp binaryOp = BinaryOp::Add;
  Ident member;
  std::vector<ExprPtr> operands;
  std::vector<Arg> args;
  std::vector<Ident> params;
  std::vector<Ident> mapKeys;

  // Roll: `roll [count] die [mode]`; rollCount is null for one die; dieName is `d6`, `2d6` (then
  // rollCount is null and diceCount holds 2) or a declared die's name.
  ExprPtr rollCount;
  int64_t diceCount = 1;
  Ident dieName;
  RollMode rollMode = RollMode::Sum;

  // Choose: `choose OPTIONS by PLAYER "prompt"`: operands[0] options, operands[1] player.
  std::string prompt;

  std::vector<Citation> citations;  // Roll, Choose

  explicit Expr(ExprKind k) : kind(k) {}
};

// ---------------------------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------------------------

enum class StmtKind {
  Let,
  Assign,
  If,
  For,
  While,
  Require,
  Return,
  Phase,
  Step,
  Alternate,
  Emit,
  Apply,
  Note,
  Pause,  // citations, value: the text
  Block,
  ExprStmt
};

enum class AssignOp { Set, Add, Sub };

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;

// A gate turns a declaration or a phase on and off.
struct Gate {
  enum Kind { Level, If } kind = Level;
  Ident level;   // Level: at this level or above
  ExprPtr cond;  // If
  SourceRange range;
};

// Inside `phase` and `alternate`.
struct PhaseItem {
  enum Kind { Allow, EndRequires, OnStart, OnEnd } kind = Allow;
  std::vector<Ident> actions;       // Allow
  ExprPtr cond;                     // EndRequires
  std::vector<Citation> citations;  // EndRequires
  std::string message;              // EndRequires: `else "message"`; empty: the source text
  std::string condText;             // EndRequires: the condition's source text
  std::vector<StmtPtr> body;        // OnStart / OnEnd
  SourceRange range;
};

struct Stmt {
  StmtKind kind;
  SourceRange range;

  // Let: name, typeRef (optional), value.  Assign: target op value.  If: cond, body, elseBody.
  // For: name in value, body.  While: cond, body.  Require: cond, citations, message, condText.
  // Return: value (may be null).  Phase: name, citations, gates, forPlayer, items.
  // Step: name, citations, gates, body.  Alternate: value (first player), passes, citations,
  // gates, items.  Emit: name, args.  Apply: value (a call).  Note: citations, noteArgs.
  // Block: body.  ExprStmt: value.
  Ident name;
  std::optional<TypeRef> typeRef;
  ExprPtr target;
  AssignOp assignOp = AssignOp::Set;
  ExprPtr value;
  ExprPtr cond;
  ExprPtr forPlayer;
  std::vector<StmtPtr> body;
  std::vector<StmtPtr> elseBody;  // an `else if` is one If statement in elseBody
  bool hasElse = false;
  std::vector<Citation> citations;
  std::vector<Gate> gates;
  std::string message;
  std::string condText;
  std::vector<PhaseItem> items;
  int64_t passes = 0;
  std::vector<Arg> args;
  std::vector<ExprPtr> noteArgs;

  explicit Stmt(StmtKind k) : kind(k) {}
};

// ---------------------------------------------------------------------------------------------
// Declarations
// ---------------------------------------------------------------------------------------------

enum class DeclKind {
  Uses,
  Include,
  Levels,
  Option,
  Enum,
  Const,
  Die,
  SideState,
  GameState,
  HexState,
  UnitClass,
  UnitType,
  TerrainAttributes,
  HexsideAttributes,
  ScenarioAttributes,
  Terrain,
  Hexside,
  Table,
  Quantity,
  Modifier,
  Function,
  Procedure,
  Action,
  Results,
  Event,
  Trigger,
  Sequence
};

// How an overlay treats a declaration: plain (a new one; in an overlay, the same as `add`),
// `replace` (must exist in the base), `add` (must not exist), `remove` (must exist; no body).
enum class OverlayMode { Plain, Replace, Add, Remove };

struct EnumMember {
  Ident name;
  std::vector<Citation> citations;
  std::string description;
};

// A schema field, a state field, or a derived value (`derived` set, `value` is the expression).
// How a player sees a field (`counter "str"`, `marker "D"`); the REPL's views read it.
enum class FieldDisplay { Hidden, Counter, Marker };

struct FieldDecl {
  Ident name;
  std::optional<TypeRef> type;  // absent for derived values
  ExprPtr value;                // default value, or the derived expression
  bool isState = false;
  bool derived = false;
  std::vector<Citation> citations;
  std::string description;
  FieldDisplay display = FieldDisplay::Hidden;
  std::string displayLabel;  // empty: the field's name
  // `in LO..HI`: the values an integer field may hold (boundsOverflow: a bound too large).
  std::optional<std::pair<int64_t, int64_t>> bounds;
  bool boundsOverflow = false;
  SourceRange boundsRange;
  SourceRange range;
};

struct FieldInit {
  Ident name;
  ExprPtr value;
  SourceRange range;
  std::vector<Citation> citations;  // scenario settings only: `turns = 15 §2.1`
};

struct Param {
  Ident name;
  TypeRef type;
  ExprPtr domain;  // actions only: `u: unit in my_units()`
  SourceRange range;
};

// A table key: a number, a range `1-2`, a bound `<=-3`, an odds ratio `3:1`, or a name.
struct TableKey {
  enum Kind { Int, Range, Less, LessEq, Greater, GreaterEq, Odds, Name } kind = Int;
  int64_t lo = 0, hi = 0;  // Int: lo. Range: lo-hi. Bounds: lo. Odds: lo:hi.
  std::string name;
  bool overflow = false;
  SourceRange range;
};

struct TableCell {
  enum Kind { Empty, Int, Odds, String, Name, Bool, None } kind = Empty;  // Empty: `-`
  int64_t intValue = 0, oddsB = 0;
  bool overflow = false;
  std::string text;
  SourceRange range;
};

struct TableRow {
  TableKey key;
  std::vector<TableCell> cells;
  SourceRange range;
};

struct TableSpec {
  std::optional<Ident> rowKind;     // `rows d6` / `rows int` / `rows Weapon`
  std::optional<Ident> columnKind;  // `columns odds ...`
  std::vector<TableKey> columns;
  std::vector<TableRow> rows;
};

enum class ModOpKind { Add, Sub, Mul, Set, Div, Shift };
enum class Rounding { Down, Up, Nearest };

struct ModClause {
  ExprPtr cond;  // null for `always`
  ModOpKind op = ModOpKind::Add;
  ExprPtr operand;
  Rounding rounding = Rounding::Down;
  std::vector<ExprPtr> because;
  SourceRange range;
};

struct ResultCase {
  Ident name;  // `-` is stored as "-"
  std::vector<Citation> citations;
  std::string description;
  std::vector<StmtPtr> body;
  SourceRange range;
};

struct Decl {
  DeclKind kind;
  OverlayMode overlay = OverlayMode::Plain;
  SourceRange range;
  Ident name;                         // most kinds; Quantity/Modifier target use qualified names
  QualifiedName qualified;            // Quantity name; Modifier target; Uses/Remove target
  std::vector<QualifiedName> uses;    // Uses
  std::vector<std::string> includes;  // Include (paths as written)
  std::vector<Ident> levels;          // Levels
  std::optional<TypeRef> type;        // Option/Const/Quantity/Function/Procedure result type
  ExprPtr value;                      // Option/Const/Quantity/Function(`= expr`) value
  std::vector<ExprPtr> faces;         // Die
  std::vector<EnumMember> members;    // Enum
  std::vector<FieldDecl> fields;      // states, classes, attributes
  Ident baseClass;                    // UnitType: its class
  std::vector<FieldInit> inits;       // UnitType, Terrain, Hexside
  TableSpec table;                    // Table
  std::vector<Param> params;          // Quantity/Function/Procedure/Action/Results/Event
  std::vector<Ident> paramNames;      // Modifier (`on q(a, b)`), Trigger (`on eliminated(u)`)
  Ident event;                        // Trigger: the event's name
  std::vector<ModClause> clauses;     // Modifier
  std::vector<ResultCase> cases;      // Results
  std::vector<StmtPtr> body;          // Function/Procedure/Action/Trigger/Sequence
  bool hasBody = false;               // Function: block body rather than `= expr`
  std::vector<Gate> gates;            // Modifier/Action/Trigger
  std::vector<Citation> citations;
  std::string description;
  // Remove: what kind of declaration it names (as written, e.g. "modifier", "unit type").
  std::string removeKind;

  explicit Decl(DeclKind k) : kind(k) {}
};
using DeclPtr = std::unique_ptr<Decl>;

// ---------------------------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------------------------

struct HexRef {
  Ident from;
  std::optional<Ident> to;  // `a..b`: the rectangle with these corners
  SourceRange range;
};

struct HexPair {
  Ident a, b;
  SourceRange range;
};

struct MapItem {
  enum Kind { Default, Terrain, Hexside, Elevation, Group, HexState } kind = Terrain;
  Ident name;  // terrain / hexside feature / group name / hex state field
  int64_t elevation = 0;
  ExprPtr value;  // a hex state field's value (`hex fort = 200: 1510`)
  std::vector<HexRef> hexes;
  std::vector<HexPair> pairs;
  SourceRange range;
};

struct MapSpec {
  int64_t colFrom = 0, colTo = 0, rowFrom = 0, rowTo = 0;
  Ident labels;  // `xxyy` or `letters`; empty name: xxyy
  std::vector<Citation> citations;
  std::vector<MapItem> items;
  SourceRange range;
};

struct UnitPlacement {
  Ident id;
  Ident type;
  std::optional<Ident> hex;
  std::optional<Ident> facing;
  std::vector<FieldInit> inits;
  SourceRange range;
};

struct SideSpec {
  Ident name;
  std::string title;
  std::vector<Citation> citations;
  std::vector<FieldInit> inits;
  SourceRange range;
};

struct ForceSpec {
  Ident side;
  std::vector<Citation> citations;
  std::vector<UnitPlacement> units;
  SourceRange range;
};

struct Scenario {
  std::optional<MapSpec> map;
  std::vector<SideSpec> sides;
  std::vector<ForceSpec> forces;
  std::vector<FieldInit> settings;
  std::vector<DeclPtr> rules;  // special rules: declarations overlaid on the ruleset
};

// ---------------------------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------------------------

enum class BlockKind { Ruleset, House, Module, Scenario };

// A top-level block: `ruleset`, `house`, `module` or `scenario`.
struct Block {
  BlockKind kind;
  Ident name;
  Ident base;  // Ruleset: `extends X` (may be empty). House/Scenario: `for X`.
  QualifiedName moduleName;
  std::string title;
  std::vector<Citation> citations;
  std::vector<DeclPtr> decls;
  Scenario scenario;
  SourceRange range;

  explicit Block(BlockKind k) : kind(k) {}
};

struct File {
  diag::FileId file = diag::kNoFile;
  std::optional<Ident> partOf;  // `part of standard`
  std::vector<std::unique_ptr<Block>> blocks;
  std::vector<DeclPtr> decls;  // top-level declarations (in a `part of` file)
};

}  // namespace polemos::ast
