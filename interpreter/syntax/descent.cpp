// The hand-written parser (see descent.h): one function per rule of grammar/Polemos.g4, each
// building what the AstBuilder builds from that rule's parse tree (syntax/build_*.cpp), with the
// same source ranges: a rule's range runs from its first token to its last, an operator's from
// its left operand's to its right operand's, as the builder makes them.
//
// Where the grammar leaves a choice to the generated parser's prediction, this parser takes the
// longer match (a loop goes on, an optional part is taken), which is the choice the generated
// parser makes when both would parse; where only a look further ahead could tell, it looks ahead
// the few tokens that decide (`terrain hill:` ends a list of hexes) or declines. It declines
// whatever the builder would report (a chained comparison, an unknown escape in a string, a
// second map, an expression deeper than limits::kMaxExprDepth) and nesting deeper than
// kMaxDepth, so that every message comes from one place (the generated parser's path). A test
// holds the two parsers to the same AST on every shipped file, every test file, the parser fuzz
// corpus, mutants of the shipped files and snippets written from the grammar alone
// (tests/unit/syntax_handwritten_test.cpp).
#include "syntax/descent.h"

#include <algorithm>
#include <optional>

#include "limits/limits.h"
#include "syntax/ast_builder_internal.h"
#include "syntax/keywords.h"
#include "syntax/text.h"

namespace polemos::syntax {
namespace {

using namespace polemos::ast;
using P = PolemosParser;

// Thrown to decline the file (caught in parseByDescent).
struct Decline {};

// Nesting (expressions, blocks, types, `else if`) past which the file is left to the generated
// parser, whose limits and messages cover deep nesting. Real rules nest under 30.
constexpr int kMaxDepth = 256;

// The literal tokens' types, found by their literal names in the generated vocabulary.
struct Literals {
  size_t lparen = 0, rparen = 0, lbrack = 0, rbrack = 0, lbrace = 0, rbrace = 0, comma = 0,
         semi = 0, colon = 0, dot = 0, dotdot = 0, assign = 0, define = 0, plusAssign = 0,
         minusAssign = 0, plus = 0, minus = 0, star = 0, slash = 0, percent = 0, eq = 0, ne = 0,
         lt = 0, le = 0, gt = 0, ge = 0, question = 0;
  std::vector<uint8_t> ident, stmtName;  // by token type: usable as a name / to begin a statement
  Literals() {
    const std::pair<const char*, size_t*> names[] = {
        {"'('", &lparen},  {"')'", &rparen},      {"'['", &lbrack},       {"']'", &rbrack},
        {"'{'", &lbrace},  {"'}'", &rbrace},      {"','", &comma},        {"';'", &semi},
        {"':'", &colon},   {"'.'", &dot},         {"'..'", &dotdot},      {"'='", &assign},
        {"':='", &define}, {"'+='", &plusAssign}, {"'-='", &minusAssign}, {"'+'", &plus},
        {"'-'", &minus},   {"'*'", &star},        {"'/'", &slash},        {"'%'", &percent},
        {"'=='", &eq},     {"'!='", &ne},         {"'<'", &lt},           {"'<='", &le},
        {"'>'", &gt},      {"'>='", &ge},         {"'?'", &question}};
    for (const auto& [name, field] : names) *field = literalTokenType(name);
    // grammar/Polemos.g4, rules `ident` (ID and the soft keywords) and `stmtName` (less four).
    ident.assign(lexerVocabulary().getMaxTokenType() + 1, 0);
    ident[P::ID] = 1;
    for (size_t t : softKeywordTypes()) ident[t] = 1;
    stmtName = ident;
    for (size_t t : {size_t{P::NOTE}, size_t{P::PAUSE}, size_t{P::PHASE}, size_t{P::STEP}})
      stmtName[t] = 0;
  }
};

const Literals& literals() {
  static const Literals l;
  return l;
}

class Descent {
 public:
  Descent(const std::vector<std::unique_ptr<antlr4::Token>>& tokens, diag::FileId file,
          antlr4::CharStream* chars)
      : toks_(tokens), file_(file), chars_(chars), L(literals()) {
    if (toks_.empty() || toks_.back()->getType() != antlr4::Token::EOF) throw Decline{};
  }

  void file(File& out);

 private:
  // --- Tokens --------------------------------------------------------------------------------
  const antlr4::Token* tok(size_t k = 0) const {
    return toks_[std::min(pos_ + k, toks_.size() - 1)].get();
  }
  size_t t(size_t k = 0) const { return tok(k)->getType(); }
  bool isIdent(size_t type) const { return type < L.ident.size() && L.ident[type] != 0; }
  bool isStmtName(size_t type) const { return type < L.stmtName.size() && L.stmtName[type] != 0; }
  const antlr4::Token* take(size_t type) {
    if (t() != type) throw Decline{};
    return toks_[pos_++].get();
  }
  const antlr4::Token* next() {
    if (t() == antlr4::Token::EOF) throw Decline{};
    return toks_[pos_++].get();
  }
  bool accept(size_t type) {
    if (t() != type) return false;
    ++pos_;
    return true;
  }
  // The range of the tokens from `start` to the last one taken, as a parse-tree node's.
  diag::SourceRange from(size_t start) const {
    diag::SourceRange r = tokenRange(file_, toks_[start].get());
    if (pos_ > start + 1) {
      const antlr4::Token* stop = toks_[pos_ - 1].get();
      if (stop->getType() != antlr4::Token::EOF) r = spanRanges(r, tokenRange(file_, stop));
    }
    return r;
  }
  diag::SourceRange rangeOf(const antlr4::Token* t) const { return tokenRange(file_, t); }
  // The source text of tokens [a, b].
  std::string sourceText(size_t a, size_t b) const {
    const size_t x = toks_[a]->getStartIndex(), y = toks_[b]->getStopIndex();
    if (chars_ == nullptr || x == kInvalidIndex || y == kInvalidIndex || y < x ||
        y >= chars_->size())
      return {};
    return chars_->getText(antlr4::misc::Interval(x, y));
  }

  struct Deeper {
    explicit Deeper(Descent& d) : d_(d) {
      if (++d_.depth_ > kMaxDepth) throw Decline{};
    }
    ~Deeper() { --d_.depth_; }
    Deeper(const Deeper&) = delete;
    Deeper& operator=(const Deeper&) = delete;
    Descent& d_;
  };

  // --- Leaves --------------------------------------------------------------------------------
  Ident ident() {
    if (!isIdent(t())) throw Decline{};
    const antlr4::Token* x = next();
    return Ident{x->getText(), rangeOf(x)};
  }
  Ident tokenIdent(const antlr4::Token* x) { return Ident{x->getText(), rangeOf(x)}; }
  std::vector<Ident> identList() {
    std::vector<Ident> out;
    out.push_back(ident());
    while (accept(L.comma)) out.push_back(ident());
    return out;
  }
  QualifiedName qualifiedName() {
    const size_t start = pos_;
    QualifiedName q;
    q.parts.push_back(ident());
    while (accept(L.dot)) q.parts.push_back(ident());
    q.range = from(start);
    return q;
  }
  TypeRef typeRef() {
    Deeper deeper(*this);
    const size_t start = pos_;
    TypeRef tr;
    tr.name = ident();
    if (accept(L.lt)) {
      tr.args.push_back(typeRef());
      while (accept(L.comma)) tr.args.push_back(typeRef());
      take(L.gt);
    }
    tr.optional = accept(L.question);
    tr.range = from(start);
    return tr;
  }
  Citation citation() {
    const antlr4::Token* x = take(P::CITATION);
    Citation c;
    c.range = rangeOf(x);
    c.text = citationText(x->getText());
    return c;
  }
  void citations(std::vector<Citation>& out) {
    while (t() == P::CITATION) out.push_back(citation());
  }
  std::string string(const antlr4::Token* x) {
    Unescaped u = unescapeString(x->getText());
    if (u.badEscape) throw Decline{};  // the builder reports it
    return std::move(u.value);
  }
  std::string optString() { return t() == P::STRING ? string(next()) : std::string(); }
  IntValue integer(const antlr4::Token* x, bool negative = false) {
    return parseInt(x->getText(), negative);
  }

  // --- Expressions ---------------------------------------------------------------------------
  static ExprPtr make(ExprKind k, diag::SourceRange r) {
    auto e = std::make_unique<Expr>(k);
    e->range = r;
    return e;
  }
  // Sets e's depth; declines past the builder's limit (which it reports).
  static ExprPtr bounded(ExprPtr e) {
    building::measure(*e);
    if (e->depth > static_cast<uint32_t>(limits::kMaxExprDepth)) throw Decline{};
    return e;
  }
  static ExprPtr binary(BinaryOp op, ExprPtr lhs, ExprPtr rhs) {
    return bounded(building::binary(op, std::move(lhs), std::move(rhs)));
  }

  ExprPtr expr();
  // What an operator made (a range or a comparison: they do not chain), with the node.
  enum class Form { Other, Range, Compare };
  struct Operand {
    ExprPtr e;
    Form form = Form::Other;
  };
  Operand opExpr(int minPrec);
  ExprPtr postfix(ExprPtr e);
  ExprPtr primary();
  std::vector<Arg> args();
  bool lambdaParamsAhead() const;

  // --- Statements ----------------------------------------------------------------------------
  std::vector<StmtPtr> block();
  StmtPtr statement();
  StmtPtr ifStatement();
  std::vector<PhaseItem> phaseItems();
  std::vector<Gate> gates();

  // --- Declarations --------------------------------------------------------------------------
  void declarations(std::vector<DeclPtr>& out) {
    while (t() != L.rbrace) out.push_back(declaration());
  }
  DeclPtr declaration();
  DeclPtr removeDecl();
  DeclPtr declBody();
  std::vector<Param> params(bool action);
  void fieldDecls(std::vector<FieldDecl>& out);
  std::vector<FieldInit> fieldInits();
  FieldInit fieldInit();
  void tableBody(TableSpec& out);
  Ident keyKind();
  TableKey tableKey();
  bool tableKeyAhead() const;
  TableRow tableRow();
  ModClause modClause();
  ResultCase resultCase();

  // --- Blocks and scenarios ------------------------------------------------------------------
  std::unique_ptr<Block> topBlock(BlockKind kind);
  void scenarioItem(Scenario& out);
  MapSpec mapSpec();
  MapItem mapItem();
  bool mapItemAhead() const;
  std::vector<HexRef> hexRefs();
  Ident hexLabel();
  UnitPlacement unitPlacement();

  const std::vector<std::unique_ptr<antlr4::Token>>& toks_;
  diag::FileId file_;
  antlr4::CharStream* chars_;
  const Literals& L;
  size_t pos_ = 0;
  int depth_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Expressions (build_exprs.cpp)
// ---------------------------------------------------------------------------------------------

// `(a, b) ->`: a lambda's parameters, rather than an expression in parentheses.
bool Descent::lambdaParamsAhead() const {
  size_t k = 1;
  for (;;) {
    if (!isIdent(t(k))) return false;
    ++k;
    if (t(k) == L.comma) {
      ++k;
      continue;
    }
    return t(k) == L.rparen && t(k + 1) == P::ARROW;
  }
}

ExprPtr Descent::expr() {
  Deeper deeper(*this);
  const size_t start = pos_;
  if (isIdent(t()) && t(1) == P::ARROW) {
    Ident param = ident();
    take(P::ARROW);
    ExprPtr body = expr();
    auto e = make(ExprKind::Lambda, from(start));
    e->params.push_back(std::move(param));
    e->operands.push_back(std::move(body));
    return bounded(std::move(e));
  }
  if (t() == L.lparen && lambdaParamsAhead()) {
    take(L.lparen);
    std::vector<Ident> params = identList();
    take(L.rparen);
    take(P::ARROW);
    ExprPtr body = expr();
    auto e = make(ExprKind::Lambda, from(start));
    e->params = std::move(params);
    e->operands.push_back(std::move(body));
    return bounded(std::move(e));
  }
  if (t() == P::IF) {
    take(P::IF);
    ExprPtr c = expr();
    take(P::THEN);
    ExprPtr a = expr();
    take(P::ELSE);
    ExprPtr b = expr();
    auto e = make(ExprKind::Cond, from(start));
    e->operands.push_back(std::move(c));
    e->operands.push_back(std::move(a));
    e->operands.push_back(std::move(b));
    return bounded(std::move(e));
  }
  return bounded(opExpr(0).e);
}

// Precedence climbing over the alternatives of `opExpr`, with the generated parser's levels
// (the first alternative binds tightest): postfix 9, unary minus 8, * / % 7, + - 6, .. 5,
// comparisons 4, not 3, and 2, or 1. A prefix operator's operand takes the operators above its
// own level; a binary operator's right operand those above its level (left associative).
Descent::Operand Descent::opExpr(int minPrec) {
  Deeper deeper(*this);
  const size_t start = pos_;
  Operand left;
  if (t() == L.minus || t() == P::NOT) {
    const bool neg = t() == L.minus;
    next();
    ExprPtr operand = opExpr(neg ? 8 : 3).e;
    auto e = make(ExprKind::Unary, from(start));
    e->unaryOp = neg ? UnaryOp::Neg : UnaryOp::Not;
    e->operands.push_back(std::move(operand));
    left.e = bounded(std::move(e));
  } else {
    left.e = primary();
  }
  for (;;) {
    const size_t type = t();
    if (type == L.lparen || type == L.lbrack || type == L.dot) {
      left.e = postfix(std::move(left.e));
      left.form = Form::Other;
    } else if ((type == L.star || type == L.slash || type == L.percent) && minPrec <= 7) {
      next();
      const BinaryOp op = type == L.slash     ? BinaryOp::Div
                          : type == L.percent ? BinaryOp::Mod
                                              : BinaryOp::Mul;
      left.e = binary(op, std::move(left.e), opExpr(8).e);
      left.form = Form::Other;
    } else if ((type == L.plus || type == L.minus) && minPrec <= 6) {
      next();
      left.e =
          binary(type == L.minus ? BinaryOp::Sub : BinaryOp::Add, std::move(left.e), opExpr(7).e);
      left.form = Form::Other;
    } else if (type == L.dotdot && minPrec <= 5) {
      if (left.form == Form::Range) throw Decline{};  // `1..2..3`: the builder reports it
      next();
      ExprPtr rhs = opExpr(6).e;
      auto r = make(ExprKind::Range, from(start));
      r->operands.push_back(std::move(left.e));
      r->operands.push_back(std::move(rhs));
      left.e = bounded(std::move(r));
      left.form = Form::Range;
    } else if ((type == L.eq || type == L.ne || type == L.lt || type == L.le || type == L.gt ||
                type == L.ge || type == P::IN || (type == P::NOT && t(1) == P::IN)) &&
               minPrec <= 4) {
      if (left.form == Form::Compare) throw Decline{};  // `a < b < c`: the builder reports it
      BinaryOp op = type == L.ne    ? BinaryOp::Ne
                    : type == L.lt  ? BinaryOp::Lt
                    : type == L.le  ? BinaryOp::Le
                    : type == L.gt  ? BinaryOp::Gt
                    : type == L.ge  ? BinaryOp::Ge
                    : type == P::IN ? BinaryOp::In
                                    : BinaryOp::Eq;
      if (type == P::NOT) {
        next();
        op = BinaryOp::NotIn;
      }
      next();
      left.e = binary(op, std::move(left.e), opExpr(5).e);
      left.form = Form::Compare;
    } else if (type == P::AND && minPrec <= 2) {
      next();
      left.e = binary(BinaryOp::And, std::move(left.e), opExpr(3).e);
      left.form = Form::Other;
    } else if (type == P::OR && minPrec <= 1) {
      next();
      left.e = binary(BinaryOp::Or, std::move(left.e), opExpr(2).e);
      left.form = Form::Other;
    } else {
      return left;
    }
  }
}

ExprPtr Descent::postfix(ExprPtr e) {
  const size_t start = pos_;
  if (accept(L.lparen)) {
    std::vector<Arg> as = t() == L.rparen ? std::vector<Arg>{} : args();
    take(L.rparen);
    auto c = make(ExprKind::Call, spanRanges(e->range, from(start)));
    c->operands.push_back(std::move(e));
    c->args = std::move(as);
    return bounded(std::move(c));
  }
  if (accept(L.lbrack)) {
    std::vector<ExprPtr> xs;
    xs.push_back(expr());
    while (accept(L.comma)) xs.push_back(expr());
    take(L.rbrack);
    auto c = make(ExprKind::Index, spanRanges(e->range, from(start)));
    c->operands.push_back(std::move(e));
    for (ExprPtr& x : xs) c->operands.push_back(std::move(x));
    return bounded(std::move(c));
  }
  take(L.dot);
  // `h.row`: `row` is a keyword (it starts a table row) but a fine member name.
  Ident member = t() == P::ROW ? tokenIdent(next()) : ident();
  auto c = make(ExprKind::Member, spanRanges(e->range, from(start)));
  c->operands.push_back(std::move(e));
  c->member = std::move(member);
  return bounded(std::move(c));
}

std::vector<Arg> Descent::args() {
  std::vector<Arg> out;
  do {
    Arg a;
    if (isIdent(t()) && t(1) == L.colon) {
      a.name = ident();
      take(L.colon);
    }
    a.value = expr();
    out.push_back(std::move(a));
  } while (accept(L.comma));
  return out;
}

ExprPtr Descent::primary() {
  Deeper deeper(*this);
  const size_t start = pos_;
  const size_t type = t();
  ExprPtr e;
  if (type == P::INT) {
    const antlr4::Token* x = next();
    e = make(ExprKind::Int, {});
    e->text = x->getText();
    IntValue v = parseInt(e->text);
    e->intValue = v.value;
    e->overflow = v.overflow;
  } else if (type == P::ODDS) {
    OddsValue v = parseOdds(next()->getText());
    e = make(ExprKind::Odds, {});
    e->oddsA = v.a;
    e->oddsB = v.b;
    e->overflow = v.overflow;
  } else if (type == P::STRING) {
    e = make(ExprKind::String, {});
    e->text = string(next());
  } else if (type == P::TRUE || type == P::FALSE) {
    next();
    e = make(ExprKind::Bool, {});
    e->boolValue = type == P::TRUE;
  } else if (type == P::NONE) {
    next();
    e = make(ExprKind::None, {});
  } else if (type == P::CITATION) {
    e = make(ExprKind::CitationLit, {});
    e->text = citation().text;
  } else if (type == P::ROLL) {
    next();
    e = make(ExprKind::Roll, {});
    const size_t countAt = pos_;
    if (t() == P::INT) {
      const antlr4::Token* x = next();
      auto n = make(ExprKind::Int, rangeOf(x));
      n->text = x->getText();
      IntValue v = parseInt(n->text);
      n->intValue = v.value;
      n->overflow = v.overflow;
      e->rollCount = std::move(n);
    } else if (accept(L.lparen)) {
      ExprPtr x = expr();
      take(L.rparen);
      x->range = from(countAt);  // with its parentheses
      e->rollCount = std::move(x);
    }
    if (t() == P::DICE) {
      const antlr4::Token* x = next();
      DiceValue v = parseDice(x->getText());
      e->diceCount = v.count;
      e->overflow = v.overflow;
      e->dieName.name = std::move(v.die);
      e->dieName.range = rangeOf(x);
    } else {
      e->dieName = ident();
    }
    if (t() == P::HIGHEST || t() == P::LOWEST || t() == P::EACH) {
      e->rollMode = t() == P::HIGHEST  ? RollMode::Highest
                    : t() == P::LOWEST ? RollMode::Lowest
                                       : RollMode::Each;
      next();
    }
    citations(e->citations);
  } else if (type == P::CHOOSE) {
    next();
    e = make(ExprKind::Choose, {});
    e->operands.push_back(expr());
    take(P::BY);
    e->operands.push_back(expr());
    e->prompt = optString();
    citations(e->citations);
  } else if (type == L.lbrack) {
    next();
    e = make(ExprKind::List, {});
    if (t() != L.rbrack) {
      e->operands.push_back(expr());
      while (accept(L.comma) && t() != L.rbrack) e->operands.push_back(expr());
    }
    take(L.rbrack);
  } else if (type == L.lbrace) {
    next();
    e = make(ExprKind::Map, {});
    if (t() != L.rbrace) {
      do {
        if (t() == L.rbrace) break;  // a trailing comma
        e->mapKeys.push_back(ident());
        take(L.colon);
        e->operands.push_back(expr());
      } while (accept(L.comma));
    }
    take(L.rbrace);
  } else if (type == L.lparen) {
    next();
    ExprPtr inner = expr();
    take(L.rparen);
    inner->range = from(start);  // the parentheses belong to the expression
    return bounded(std::move(inner));
  } else if (isIdent(type)) {
    const antlr4::Token* x = next();
    e = make(ExprKind::Name, {});
    e->text = x->getText();
  } else {
    throw Decline{};
  }
  e->range = from(start);
  return bounded(std::move(e));
}

// ---------------------------------------------------------------------------------------------
// Statements (build_stmts.cpp)
// ---------------------------------------------------------------------------------------------

std::vector<StmtPtr> Descent::block() {
  Deeper deeper(*this);
  take(L.lbrace);
  std::vector<StmtPtr> out;
  while (t() != L.rbrace) {
    if (t() == P::RETURN && t(1) == L.rbrace) {  // finalReturn
      auto s = std::make_unique<Stmt>(StmtKind::Return);
      s->range = rangeOf(next());
      out.push_back(std::move(s));
      break;
    }
    out.push_back(statement());
  }
  take(L.rbrace);
  return out;
}

StmtPtr Descent::ifStatement() {
  Deeper deeper(*this);
  const size_t start = pos_;
  take(P::IF);
  auto s = std::make_unique<Stmt>(StmtKind::If);
  s->cond = expr();
  s->body = block();
  if (accept(P::ELSE)) {
    s->hasElse = true;
    if (t() == P::IF) {
      s->elseBody.push_back(ifStatement());
    } else {
      s->elseBody = block();
    }
  }
  s->range = from(start);
  return s;
}

std::vector<Gate> Descent::gates() {
  std::vector<Gate> out;
  for (;;) {
    const size_t start = pos_;
    Gate g;
    if (t() == P::LEVEL && isIdent(t(1))) {
      next();
      g.kind = Gate::Level;
      g.level = ident();
    } else if (t() == P::IF) {
      next();
      g.kind = Gate::If;
      g.cond = expr();
    } else {
      return out;
    }
    g.range = from(start);
    out.push_back(std::move(g));
  }
}

std::vector<PhaseItem> Descent::phaseItems() {
  take(L.lbrace);
  std::vector<PhaseItem> out;
  while (t() != L.rbrace) {
    const size_t start = pos_;
    PhaseItem item;
    if (t() == P::ALLOW) {
      next();
      item.kind = PhaseItem::Allow;
      item.actions = identList();
      accept(L.semi);
    } else if (t() == P::END && t(1) == P::REQUIRES) {
      next();
      next();
      item.kind = PhaseItem::EndRequires;
      const size_t condAt = pos_;
      item.cond = expr();
      item.condText = sourceText(condAt, pos_ - 1);
      citations(item.citations);
      if (accept(P::ELSE)) item.message = string(take(P::STRING));
      accept(L.semi);
    } else if (t() == P::ON && (t(1) == P::START || t(1) == P::END)) {
      next();
      item.kind = next()->getType() == P::START ? PhaseItem::OnStart : PhaseItem::OnEnd;
      item.body = block();
    } else {
      throw Decline{};
    }
    item.range = from(start);
    out.push_back(std::move(item));
  }
  take(L.rbrace);
  return out;
}

StmtPtr Descent::statement() {
  const size_t start = pos_;
  const size_t type = t();
  if (type == P::IF) return ifStatement();
  StmtPtr s;
  auto begin = [&](StmtKind k) {
    s = std::make_unique<Stmt>(k);
    next();
  };
  if (type == P::LET) {
    begin(StmtKind::Let);
    s->name = ident();
    if (accept(L.colon)) s->typeRef = typeRef();
    take(L.assign);
    s->value = expr();
    accept(L.semi);
  } else if (type == P::FOR) {
    begin(StmtKind::For);
    s->name = ident();
    take(P::IN);
    s->value = expr();
    s->body = block();
  } else if (type == P::WHILE) {
    begin(StmtKind::While);
    s->cond = expr();
    s->body = block();
  } else if (type == P::REQUIRE) {
    begin(StmtKind::Require);
    const size_t condAt = pos_;
    s->cond = expr();
    s->condText = sourceText(condAt, pos_ - 1);
    citations(s->citations);
    if (accept(P::ELSE)) s->message = string(take(P::STRING));
    accept(L.semi);
  } else if (type == P::RETURN) {
    begin(StmtKind::Return);
    if (!accept(L.semi)) {
      s->value = expr();
      accept(L.semi);
    }
  } else if (type == P::PHASE) {
    begin(StmtKind::Phase);
    s->name = ident();
    citations(s->citations);
    s->gates = gates();
    if (accept(P::FOR)) s->forPlayer = expr();
    s->items = phaseItems();
  } else if (type == P::STEP) {
    begin(StmtKind::Step);
    s->name = ident();
    citations(s->citations);
    s->gates = gates();
    s->body = block();
  } else if (type == P::ALTERNATE) {
    begin(StmtKind::Alternate);
    take(P::FROM);
    s->value = expr();
    take(P::UNTIL);
    s->passes = integer(take(P::INT)).value;
    take(P::PASSES);
    citations(s->citations);
    s->gates = gates();
    s->items = phaseItems();
  } else if (type == P::EMIT) {
    begin(StmtKind::Emit);
    s->name = ident();
    take(L.lparen);
    if (t() != L.rparen) s->args = args();
    take(L.rparen);
    accept(L.semi);
  } else if (type == P::APPLY) {
    begin(StmtKind::Apply);
    s->value = expr();
    accept(L.semi);
  } else if (type == P::NOTE) {
    begin(StmtKind::Note);
    citations(s->citations);
    s->noteArgs.push_back(expr());
    while (accept(L.comma)) s->noteArgs.push_back(expr());
    accept(L.semi);
  } else if (type == P::PAUSE) {
    begin(StmtKind::Pause);
    citations(s->citations);
    s->value = expr();
    accept(L.semi);
  } else if (type == L.lbrace) {
    s = std::make_unique<Stmt>(StmtKind::Block);
    s->body = block();
  } else if (isStmtName(type)) {
    // A name with its calls, fields and indexes: assigned to when an operator follows, else a
    // call made for what it does.
    const antlr4::Token* x = next();
    ExprPtr target = make(ExprKind::Name, rangeOf(x));
    target->text = x->getText();
    target = bounded(std::move(target));
    while (t() == L.lparen || t() == L.lbrack || t() == L.dot) target = postfix(std::move(target));
    const size_t op = t();
    if (op == L.assign || op == L.plusAssign || op == L.minusAssign) {
      next();
      s = std::make_unique<Stmt>(StmtKind::Assign);
      s->target = std::move(target);
      s->assignOp = op == L.plusAssign    ? AssignOp::Add
                    : op == L.minusAssign ? AssignOp::Sub
                                          : AssignOp::Set;
      s->value = expr();
    } else {
      s = std::make_unique<Stmt>(StmtKind::ExprStmt);
      s->value = std::move(target);
    }
    accept(L.semi);
  } else {
    throw Decline{};
  }
  s->range = from(start);
  return s;
}

// ---------------------------------------------------------------------------------------------
// Declarations (build_decls.cpp)
// ---------------------------------------------------------------------------------------------

DeclPtr Descent::declaration() {
  const size_t start = pos_;
  if (t() == P::REMOVE) return removeDecl();
  OverlayMode mode = OverlayMode::Plain;
  if (t() == P::REPLACE || t() == P::ADD) {
    mode = next()->getType() == P::REPLACE ? OverlayMode::Replace : OverlayMode::Add;
  }
  DeclPtr d = declBody();
  d->overlay = mode;
  d->range = from(start);
  return d;
}

DeclPtr Descent::removeDecl() {
  const size_t start = pos_;
  take(P::REMOVE);
  std::string words = tok()->getText();
  const size_t first = next()->getType();
  if (first == P::UNIT) {
    if (t() != P::CLASS && t() != P::TYPE) throw Decline{};
    words += ' ' + tok()->getText();
  }
  const std::optional<DeclKind> kind =
      removedDeclKind(first, first == P::UNIT ? next()->getType() : 0);
  if (!kind) throw Decline{};
  auto d = std::make_unique<Decl>(*kind);
  d->overlay = OverlayMode::Remove;
  d->removeKind = std::move(words);
  d->qualified = qualifiedName();
  citations(d->citations);
  accept(L.semi);
  d->range = from(start);
  return d;
}

std::vector<Param> Descent::params(bool action) {
  take(L.lparen);
  std::vector<Param> out;
  if (t() != L.rparen) {
    do {
      const size_t start = pos_;
      Param p;
      p.name = ident();
      take(L.colon);
      p.type = typeRef();
      if (action && accept(P::IN)) p.domain = expr();
      p.range = from(start);
      out.push_back(std::move(p));
    } while (accept(L.comma));
  }
  take(L.rparen);
  return out;
}

DeclPtr Descent::declBody() {
  const size_t type = t();
  DeclPtr d;
  auto make = [&](DeclKind k) {
    d = std::make_unique<Decl>(k);
    next();
  };
  if (type == P::USES) {
    make(DeclKind::Uses);
    d->uses.push_back(qualifiedName());
    while (accept(L.comma)) d->uses.push_back(qualifiedName());
    d->qualified = d->uses.front();
    accept(L.semi);
  } else if (type == P::INCLUDE) {
    make(DeclKind::Include);
    d->includes.push_back(string(take(P::STRING)));
    while (accept(L.comma)) d->includes.push_back(string(take(P::STRING)));
    accept(L.semi);
  } else if (type == P::LEVELS) {
    make(DeclKind::Levels);
    d->levels.push_back(ident());
    while (accept(L.lt)) d->levels.push_back(ident());
    citations(d->citations);
    accept(L.semi);
  } else if (type == P::OPTION || type == P::CONST) {
    make(type == P::OPTION ? DeclKind::Option : DeclKind::Const);
    d->name = ident();
    if (accept(L.colon)) d->type = typeRef();
    take(L.assign);
    d->value = expr();
    citations(d->citations);
    if (type == P::OPTION) d->description = optString();
    accept(L.semi);
  } else if (type == P::ENUM) {
    make(DeclKind::Enum);
    d->name = ident();
    citations(d->citations);
    take(L.lbrace);
    do {
      if (t() == L.rbrace && !d->members.empty()) break;  // a trailing comma
      EnumMember m;
      m.name = ident();
      citations(m.citations);
      m.description = optString();
      d->members.push_back(std::move(m));
    } while (accept(L.comma));
    take(L.rbrace);
  } else if (type == P::DIE) {
    make(DeclKind::Die);
    d->name = ident();
    take(L.assign);
    take(L.lbrack);
    d->faces.push_back(expr());
    while (accept(L.comma)) d->faces.push_back(expr());
    take(L.rbrack);
    citations(d->citations);
    d->description = optString();
    accept(L.semi);
  } else if ((type == P::SIDE || type == P::GAME || type == P::HEX) && t(1) == P::STATE) {
    make(type == P::GAME  ? DeclKind::GameState
         : type == P::HEX ? DeclKind::HexState
                          : DeclKind::SideState);
    next();
    citations(d->citations);
    fieldDecls(d->fields);
  } else if (type == P::UNIT && t(1) == P::CLASS) {
    make(DeclKind::UnitClass);
    next();
    d->name = ident();
    citations(d->citations);
    fieldDecls(d->fields);
  } else if (type == P::UNIT && t(1) == P::TYPE) {
    make(DeclKind::UnitType);
    next();
    d->name = ident();
    take(L.colon);
    d->baseClass = ident();
    d->description = optString();
    citations(d->citations);
    d->inits = fieldInits();
  } else if ((type == P::TERRAIN || type == P::HEXSIDE || type == P::SCENARIO) &&
             t(1) == P::ATTRIBUTES && type != P::SCENARIO && t(2) == P::STRING) {
    // `terrain attributes "..." {`: a terrain named `attributes` (only a kind takes a title).
    make(type == P::HEXSIDE ? DeclKind::Hexside : DeclKind::Terrain);
    d->name = ident();
    d->description = optString();
    citations(d->citations);
    d->inits = fieldInits();
  } else if ((type == P::TERRAIN || type == P::HEXSIDE || type == P::SCENARIO) &&
             t(1) == P::ATTRIBUTES) {
    make(type == P::HEXSIDE    ? DeclKind::HexsideAttributes
         : type == P::SCENARIO ? DeclKind::ScenarioAttributes
                               : DeclKind::TerrainAttributes);
    next();
    citations(d->citations);
    // `terrain attributes { x = 1 }` would be a terrain named `attributes`: left to the
    // generated parser, which looks far enough ahead to tell.
    if (t() == L.lbrace && isIdent(t(1)) && t(2) == L.assign) throw Decline{};
    fieldDecls(d->fields);
  } else if (type == P::TERRAIN || type == P::HEXSIDE) {
    make(type == P::HEXSIDE ? DeclKind::Hexside : DeclKind::Terrain);
    d->name = ident();
    d->description = optString();
    citations(d->citations);
    d->inits = fieldInits();
  } else if (type == P::TABLE) {
    make(DeclKind::Table);
    d->name = ident();
    d->description = optString();
    citations(d->citations);
    take(L.lbrace);
    tableBody(d->table);
    take(L.rbrace);
  } else if (type == P::QUANTITY) {
    make(DeclKind::Quantity);
    d->qualified = qualifiedName();
    d->params = params(false);
    if (accept(L.colon)) d->type = typeRef();
    citations(d->citations);
    take(L.assign);
    d->value = expr();
    citations(d->citations);
    d->description = optString();
    accept(L.semi);
  } else if (type == P::MODIFIER) {
    make(DeclKind::Modifier);
    d->name = ident();
    take(P::ON);
    d->qualified = qualifiedName();
    if (accept(L.lparen)) {
      if (t() != L.rparen) d->paramNames = identList();
      take(L.rparen);
    }
    citations(d->citations);
    d->gates = gates();
    d->description = optString();
    take(L.lbrace);
    do d->clauses.push_back(modClause());
    while (t() != L.rbrace);
    take(L.rbrace);
  } else if (type == P::FUNCTION || type == P::PROCEDURE) {
    make(type == P::FUNCTION ? DeclKind::Function : DeclKind::Procedure);
    d->name = ident();
    d->params = params(false);
    if (accept(L.colon)) d->type = typeRef();
    citations(d->citations);
    if (type == P::FUNCTION && accept(L.assign)) {
      d->value = expr();
      accept(L.semi);
    } else {
      d->hasBody = true;
      d->body = block();
    }
  } else if (type == P::ACTION) {
    make(DeclKind::Action);
    d->name = ident();
    d->params = params(true);
    citations(d->citations);
    d->description = optString();
    d->gates = gates();
    d->hasBody = true;
    d->body = block();
  } else if (type == P::RESULTS) {
    make(DeclKind::Results);
    d->name = ident();
    d->params = params(false);
    citations(d->citations);
    take(L.lbrace);
    do d->cases.push_back(resultCase());
    while (t() != L.rbrace);
    take(L.rbrace);
  } else if (type == P::EVENT) {
    make(DeclKind::Event);
    d->name = ident();
    d->params = params(false);
    citations(d->citations);
    accept(L.semi);
  } else if (type == P::TRIGGER) {
    make(DeclKind::Trigger);
    d->name = ident();
    take(P::ON);
    d->event = ident();
    take(L.lparen);
    if (t() != L.rparen) d->paramNames = identList();
    take(L.rparen);
    citations(d->citations);
    d->gates = gates();
    d->hasBody = true;
    d->body = block();
  } else if (type == P::SEQUENCE) {
    make(DeclKind::Sequence);
    citations(d->citations);
    d->hasBody = true;
    d->body = block();
  } else {
    throw Decline{};
  }
  return d;
}

void Descent::fieldDecls(std::vector<FieldDecl>& out) {
  take(L.lbrace);
  while (t() != L.rbrace) {
    const size_t start = pos_;
    FieldDecl f;
    if (t() == P::STATE && isIdent(t(1))) {
      next();
      f.isState = true;
    }
    f.name = ident();
    if (!f.isState && accept(L.define)) {
      f.derived = true;
      f.value = expr();
    } else {
      take(L.colon);
      f.type = typeRef();
      if (t() == P::IN) {
        const size_t boundsAt = pos_;
        next();
        const bool loNeg = accept(L.minus);
        const antlr4::Token* lo = take(P::INT);
        take(L.dotdot);
        const bool hiNeg = accept(L.minus);
        const antlr4::Token* hi = take(P::INT);
        IntValue a = integer(lo, loNeg), b = integer(hi, hiNeg);
        f.bounds = std::make_pair(a.value, b.value);
        f.boundsOverflow = a.overflow || b.overflow;
        f.boundsRange = from(boundsAt);
      }
      if (accept(L.assign)) f.value = expr();
    }
    citations(f.citations);
    f.description = optString();
    // `counter "str"` / `marker "D"` (a field named `counter` begins the next declaration).
    if ((t() == P::COUNTER || t() == P::MARKER) && t(1) != L.colon && t(1) != L.define) {
      f.display = next()->getType() == P::COUNTER ? FieldDisplay::Counter : FieldDisplay::Marker;
      f.displayLabel = optString();
    }
    accept(L.semi);
    f.range = from(start);
    out.push_back(std::move(f));
  }
  take(L.rbrace);
}

FieldInit Descent::fieldInit() {
  const size_t start = pos_;
  FieldInit f;
  f.name = ident();
  take(L.assign);
  f.value = expr();
  accept(L.semi);
  f.range = from(start);
  return f;
}

std::vector<FieldInit> Descent::fieldInits() {
  take(L.lbrace);
  std::vector<FieldInit> out;
  while (t() != L.rbrace) out.push_back(fieldInit());
  take(L.rbrace);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Tables, modifiers, results (build_tables.cpp)
// ---------------------------------------------------------------------------------------------

Ident Descent::keyKind() {
  if (t() == P::DICE) return tokenIdent(next());
  return ident();
}

bool Descent::tableKeyAhead() const {
  const size_t type = t();
  return type == P::INT || type == L.minus || type == L.lt || type == L.le || type == L.gt ||
         type == L.ge || type == P::ODDS || isIdent(type);
}

void Descent::tableBody(TableSpec& out) {
  if (accept(P::ROWS)) {
    out.rowKind = keyKind();
    accept(L.semi);
  }
  if (accept(P::COLUMNS)) {
    out.columnKind = keyKind();
    do out.columns.push_back(tableKey());
    while (tableKeyAhead());
    accept(L.semi);
  }
  while (t() == P::ROW) out.rows.push_back(tableRow());
}

TableKey Descent::tableKey() {
  const size_t start = pos_;
  TableKey k;
  const size_t type = t();
  if (type == P::INT && t(1) == L.minus && t(2) == P::INT) {
    k.kind = TableKey::Range;
    IntValue lo = integer(next());
    next();
    IntValue hi = integer(next());
    k.lo = lo.value;
    k.hi = hi.value;
    k.overflow = lo.overflow || hi.overflow;
  } else if ((type == P::INT && t(1) == L.dotdot) ||
             (type == L.minus && t(1) == P::INT && t(2) == L.dotdot)) {
    // LO..HI, either end negative (Warfare 18.8: -5..-1).
    k.kind = TableKey::Range;
    const bool loNeg = accept(L.minus);
    IntValue lo = integer(take(P::INT), loNeg);
    take(L.dotdot);
    const bool hiNeg = accept(L.minus);
    IntValue hi = integer(take(P::INT), hiNeg);
    k.lo = lo.value;
    k.hi = hi.value;
    k.overflow = lo.overflow || hi.overflow;
  } else if (type == L.lt || type == L.le || type == L.gt || type == L.ge) {
    next();
    k.kind = type == L.lt   ? TableKey::Less
             : type == L.le ? TableKey::LessEq
             : type == L.gt ? TableKey::Greater
                            : TableKey::GreaterEq;
    const bool neg = accept(L.minus);
    IntValue v = integer(take(P::INT), neg);
    k.lo = v.value;
    k.overflow = v.overflow;
  } else if (type == P::INT || type == L.minus) {
    k.kind = TableKey::Int;
    const bool neg = accept(L.minus);
    IntValue v = integer(take(P::INT), neg);
    k.lo = v.value;
    k.overflow = v.overflow;
  } else if (type == P::ODDS) {
    k.kind = TableKey::Odds;
    OddsValue v = parseOdds(next()->getText());
    k.lo = v.a;
    k.hi = v.b;
    k.overflow = v.overflow;
  } else {
    k.kind = TableKey::Name;
    k.name = ident().name;
  }
  k.range = from(start);
  return k;
}

TableRow Descent::tableRow() {
  const size_t start = pos_;
  take(P::ROW);
  TableRow row;
  row.key = tableKey();
  take(L.colon);
  for (;;) {
    const size_t type = t();
    const bool isCell = type == L.minus || type == P::INT || type == P::ODDS || type == P::STRING ||
                        type == P::TRUE || type == P::FALSE || type == P::NONE || isIdent(type);
    if (!isCell) break;
    const antlr4::Token* x = next();
    TableCell cell;
    cell.range = rangeOf(x);
    if (type == L.minus) {
      // '-': a negative number when it touches the INT that follows, else an empty cell.
      cell.kind = TableCell::Empty;
      cell.text = "-";
      const antlr4::Token* n = tok();
      if (n->getType() == P::INT && x->getStopIndex() + 1 == n->getStartIndex()) {
        next();
        cell.kind = TableCell::Int;
        cell.text.clear();
        IntValue v = integer(n, true);
        cell.intValue = v.value;
        cell.overflow = v.overflow;
        cell.range = spanRanges(cell.range, rangeOf(n));
      }
    } else if (type == P::INT) {
      cell.kind = TableCell::Int;
      IntValue v = integer(x);
      cell.intValue = v.value;
      cell.overflow = v.overflow;
    } else if (type == P::ODDS) {
      cell.kind = TableCell::Odds;
      OddsValue v = parseOdds(x->getText());
      cell.intValue = v.a;
      cell.oddsB = v.b;
      cell.overflow = v.overflow;
    } else if (type == P::STRING) {
      cell.kind = TableCell::String;
      cell.text = string(x);
    } else if (type == P::TRUE || type == P::FALSE) {
      cell.kind = TableCell::Bool;
      cell.intValue = type == P::TRUE ? 1 : 0;
      cell.text = type == P::TRUE ? "true" : "false";
    } else if (type == P::NONE) {
      cell.kind = TableCell::None;
    } else {
      cell.kind = TableCell::Name;
      cell.text = x->getText();
    }
    row.cells.push_back(std::move(cell));
  }
  accept(L.semi);
  row.range = from(start);
  return row;
}

ModClause Descent::modClause() {
  const size_t start = pos_;
  ModClause m;
  if (accept(P::WHEN)) {
    m.cond = expr();
  } else if (!accept(P::ALWAYS)) {
    throw Decline{};
  }
  take(L.colon);
  const size_t op = t();
  if (op == L.plus || op == L.minus || op == L.star || op == L.assign) {
    next();
    m.op = op == L.minus    ? ModOpKind::Sub
           : op == L.star   ? ModOpKind::Mul
           : op == L.assign ? ModOpKind::Set
                            : ModOpKind::Add;
    m.operand = expr();
  } else if (op == L.slash) {
    next();
    m.op = ModOpKind::Div;
    m.operand = expr();
    if (t() == P::UP || t() == P::DOWN || t() == P::NEAREST) {
      const size_t r = next()->getType();
      m.rounding = r == P::UP ? Rounding::Up : r == P::NEAREST ? Rounding::Nearest : Rounding::Down;
    }
  } else if (op == P::SHIFT) {
    next();
    m.op = ModOpKind::Shift;
    m.operand = expr();
  } else {
    throw Decline{};
  }
  if (accept(P::BECAUSE)) {
    m.because.push_back(expr());
    while (accept(L.comma)) m.because.push_back(expr());
  }
  accept(L.semi);
  m.range = from(start);
  return m;
}

ResultCase Descent::resultCase() {
  const size_t start = pos_;
  ResultCase rc;
  if (t() == L.minus) {
    rc.name.name = "-";
    rc.name.range = rangeOf(next());
  } else {
    rc.name = ident();
  }
  citations(rc.citations);
  rc.description = optString();
  rc.body = block();
  rc.range = from(start);
  return rc;
}

// ---------------------------------------------------------------------------------------------
// Files, blocks and scenarios (ast_builder.cpp, build_tables.cpp)
// ---------------------------------------------------------------------------------------------

void Descent::file(File& out) {
  if (t() == P::PART && t(1) == P::OF) {
    next();
    next();
    out.partOf = ident();
  }
  while (t() != antlr4::Token::EOF) {
    const size_t type = t();
    if (type == P::RULESET) {
      out.blocks.push_back(topBlock(BlockKind::Ruleset));
    } else if (type == P::HOUSE) {
      out.blocks.push_back(topBlock(BlockKind::House));
    } else if (type == P::MODULE) {
      out.blocks.push_back(topBlock(BlockKind::Module));
    } else if (type == P::SCENARIO && isIdent(t(1)) && t(2) == P::FOR) {
      out.blocks.push_back(topBlock(BlockKind::Scenario));
    } else {
      out.decls.push_back(declaration());
    }
  }
}

std::unique_ptr<Block> Descent::topBlock(BlockKind kind) {
  const size_t start = pos_;
  next();
  auto b = std::make_unique<Block>(kind);
  if (kind == BlockKind::Module) {
    b->moduleName = qualifiedName();
    b->title = optString();
  } else {
    b->name = ident();
    if (kind == BlockKind::Ruleset) {
      b->title = optString();
      if (accept(P::EXTENDS)) b->base = ident();
    } else {
      take(P::FOR);
      b->base = ident();
      b->title = optString();
    }
    citations(b->citations);
  }
  take(L.lbrace);
  if (kind == BlockKind::Scenario) {
    while (t() != L.rbrace) scenarioItem(b->scenario);
  } else {
    declarations(b->decls);
  }
  take(L.rbrace);
  b->range = from(start);
  return b;
}

void Descent::scenarioItem(Scenario& out) {
  const size_t start = pos_;
  const size_t type = t();
  if (type == P::MAP && t(1) == P::COLUMNS) {
    if (out.map) throw Decline{};  // the builder reports a second map
    out.map = mapSpec();
  } else if (type == P::SIDE && isIdent(t(1))) {
    next();
    SideSpec side;
    side.name = ident();
    side.title = optString();
    citations(side.citations);
    side.inits = fieldInits();
    side.range = from(start);
    out.sides.push_back(std::move(side));
  } else if (type == P::FORCE && isIdent(t(1))) {
    next();
    ForceSpec force;
    force.side = ident();
    citations(force.citations);
    take(L.lbrace);
    while (t() != L.rbrace) force.units.push_back(unitPlacement());
    take(L.rbrace);
    force.range = from(start);
    out.forces.push_back(std::move(force));
  } else if (type == P::RULES && t(1) == L.lbrace) {
    next();
    next();
    declarations(out.rules);
    take(L.rbrace);
  } else {
    FieldInit init;
    init.name = ident();
    take(L.assign);
    init.value = expr();
    citations(init.citations);
    accept(L.semi);
    init.range = from(start);
    out.settings.push_back(std::move(init));
  }
}

MapSpec Descent::mapSpec() {
  const size_t start = pos_;
  MapSpec m;
  take(P::MAP);
  take(P::COLUMNS);
  m.colFrom = integer(take(P::INT)).value;
  take(L.dotdot);
  m.colTo = integer(take(P::INT)).value;
  take(P::ROWS);
  m.rowFrom = integer(take(P::INT)).value;
  take(L.dotdot);
  m.rowTo = integer(take(P::INT)).value;
  if (accept(P::LABELS)) m.labels = ident();
  citations(m.citations);
  take(L.lbrace);
  while (t() != L.rbrace) m.items.push_back(mapItem());
  take(L.rbrace);
  m.range = from(start);
  return m;
}

// Whether a map item begins here, where a list of hexes could also go on (`terrain hill:` after
// `terrain woods: 0101` ends the list; those words are also names, and so hex labels).
bool Descent::mapItemAhead() const {
  switch (t()) {
    case P::TERRAIN:
    case P::HEXSIDE:
    case P::GROUP:
      return isIdent(t(1)) && t(2) == L.colon;
    case P::ELEVATION:
      return t(1) == P::INT && t(2) == L.colon;
    case P::HEX:
      return isIdent(t(1)) && t(2) == L.assign;
    case P::DEFAULT:
      // `default clear` reads as two more hexes as well as a new item: left to the generated
      // parser.
      if (isIdent(t(1))) throw Decline{};
      return false;
    default:
      return false;
  }
}

MapItem Descent::mapItem() {
  const size_t start = pos_;
  MapItem m;
  const size_t type = t();
  next();
  if (type == P::DEFAULT) {
    m.kind = MapItem::Default;
    m.name = ident();
  } else if (type == P::TERRAIN || type == P::GROUP) {
    m.kind = type == P::TERRAIN ? MapItem::Terrain : MapItem::Group;
    m.name = ident();
    take(L.colon);
    m.hexes = hexRefs();
  } else if (type == P::HEXSIDE) {
    m.kind = MapItem::Hexside;
    m.name = ident();
    take(L.colon);
    while ((t() == P::INT || isIdent(t())) && !mapItemAhead()) {
      const size_t at = pos_;
      HexPair pair;
      pair.a = hexLabel();
      take(L.slash);
      pair.b = hexLabel();
      pair.range = from(at);
      m.pairs.push_back(std::move(pair));
    }
  } else if (type == P::ELEVATION) {
    m.kind = MapItem::Elevation;
    m.elevation = integer(take(P::INT)).value;
    take(L.colon);
    m.hexes = hexRefs();
  } else if (type == P::HEX) {
    m.kind = MapItem::HexState;
    m.name = ident();
    take(L.assign);
    m.value = expr();
    take(L.colon);
    m.hexes = hexRefs();
  } else {
    throw Decline{};
  }
  accept(L.semi);
  m.range = from(start);
  return m;
}

std::vector<HexRef> Descent::hexRefs() {
  std::vector<HexRef> out;
  while ((t() == P::INT || isIdent(t())) && !mapItemAhead()) {
    const size_t start = pos_;
    HexRef ref;
    ref.from = hexLabel();
    if (accept(L.dotdot)) ref.to = hexLabel();
    ref.range = from(start);
    out.push_back(std::move(ref));
  }
  return out;
}

Ident Descent::hexLabel() {
  if (t() == P::INT) return tokenIdent(next());  // as written: "0305" keeps its leading zero
  return ident();
}

UnitPlacement Descent::unitPlacement() {
  const size_t start = pos_;
  UnitPlacement u;
  u.id = ident();
  u.type = ident();
  if (t() == P::AT && (t(1) == P::INT || isIdent(t(1)))) {
    next();
    u.hex = hexLabel();
  }
  if (t() == P::FACING && isIdent(t(1))) {
    next();
    u.facing = ident();
  }
  while (isIdent(t()) && t(1) == L.assign) u.inits.push_back(fieldInit());
  accept(L.semi);
  u.range = from(start);
  return u;
}

}  // namespace

bool parseByDescent(const std::vector<std::unique_ptr<antlr4::Token>>& tokens, diag::FileId file,
                    antlr4::CharStream* chars, ast::File& out) {
  try {
    Descent d(tokens, file, chars);
    d.file(out);
    return true;
  } catch (Decline&) {
    return false;
  }
}

}  // namespace polemos::syntax
