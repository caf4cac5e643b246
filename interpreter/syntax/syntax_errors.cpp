// Syntax error messages: from ANTLR's recognition exceptions and expected-token sets to sentences
// a rule author can act on, each placed on the whole offending token.
//
// The expected set at an error is often large (everything that may start an expression, every
// declaration keyword, every operator that could continue an expression). It is condensed by
// classes ("a name", "an expression", "a statement", "a declaration"; operators that would only
// continue an expression are dropped) and spelled out only when a few choices remain; otherwise
// the message names the token and the construct it was found in.

#include <fmt/format.h>

#include <algorithm>

#include "syntax/parse_internal.h"
#include "syntax/text.h"

namespace polemos::syntax {

using P = PolemosParser;

// ---------------------------------------------------------------------------------------------
// The sink and the listener
// ---------------------------------------------------------------------------------------------

void ErrorSink::report(diag::SourceRange range, std::string message) {
  diags_.error(range, std::move(message));
  if (diags_.full()) throw ParseAbort{};
}

void ErrorSink::reportWithNote(diag::SourceRange range, std::string message,
                               diag::SourceRange noteRange, std::string note) {
  diag::Diagnostic& d = diags_.error(range, std::move(message));
  diags_.note(d, noteRange, std::move(note));
  if (diags_.full()) throw ParseAbort{};
}

namespace {

// Tokens of recovery cascades: an error this close after the previous one is not reported.
constexpr size_t kCascadeTokens = 2;

std::string openerOf(const std::string& closer) {
  return closer == ")" ? "(" : closer == "]" ? "[" : "{";
}

// The opening bracket that a closing bracket of type `closer` would close at token `index`.
const antlr4::Token* findOpener(antlr4::TokenStream* tokens, size_t index, size_t closer) {
  size_t depth = 0;
  for (size_t i = index; i-- > 0;) {
    const antlr4::Token* t = tokens->get(i);
    const size_t type = t->getType();
    if (type == closer) {
      ++depth;
    } else if (matchingBracket(type) == closer) {
      if (depth == 0) return t;
      --depth;
    }
  }
  return nullptr;
}

}  // namespace

void SyntaxErrorListener::syntaxError(antlr4::Recognizer* recognizer,
                                      antlr4::Token* offendingSymbol, size_t line,
                                      size_t charPositionInLine, const std::string& msg,
                                      std::exception_ptr) {
  const diag::FileId file = sink_.file();
  const size_t closer = pending_.closer;
  pending_.closer = 0;
  if (offendingSymbol == nullptr) {
    // Not expected from the parser (the lexer reports through its own path); place it anyway.
    diag::SourceRange r;
    r.begin = diag::SourceLoc{file, static_cast<uint32_t>(line),
                              static_cast<uint32_t>(charPositionInLine)};
    r.end = r.begin;
    r.end.col += 1;
    sink_.report(r, msg);
    return;
  }
  diag::SourceRange r = tokenRange(file, offendingSymbol);
  if (facts_.firstLexError.valid() && !(r.begin < facts_.firstLexError)) return;
  // Recovery tends to report the token right after an error again; one error per mistake.
  const size_t index = offendingSymbol->getTokenIndex();
  if (index != kInvalidIndex && lastErrorToken_ != SIZE_MAX && index >= lastErrorToken_ &&
      index <= lastErrorToken_ + kCascadeTokens) {
    return;
  }
  lastErrorToken_ = index;
  auto* parser = dynamic_cast<antlr4::Parser*>(recognizer);

  if (facts_.unmatchedClosers.count(offendingSymbol) != 0) {
    const std::string c = offendingSymbol->getText();
    sink_.report(
        r, fmt::format("unexpected '{}': there is no open '{}' for it to close", c, openerOf(c)));
    return;
  }
  if (offendingSymbol->getType() == antlr4::Token::EOF) {
    // At the end of the file, point just past the last token rather than at an empty last line.
    if (parser != nullptr && index != kInvalidIndex && index > 0) {
      diag::SourceRange pr = tokenRange(file, parser->getTokenStream()->get(index - 1));
      r.begin = pr.end;
      r.end = pr.end;
    }
    if (!facts_.unclosed.empty()) {
      const antlr4::Token* open = facts_.unclosed.back();
      sink_.reportWithNote(r, msg, tokenRange(file, open),
                           fmt::format("the '{}' opened here is not closed", open->getText()));
      return;
    }
    sink_.report(r, msg);
    return;
  }
  if (closer != 0 && parser != nullptr && index != kInvalidIndex) {
    // Only worth a note when the opening bracket is not on the line shown anyway.
    const antlr4::Token* open = findOpener(parser->getTokenStream(), index, closer);
    if (open != nullptr && open->getLine() < offendingSymbol->getLine()) {
      sink_.reportWithNote(r, msg, tokenRange(file, open),
                           fmt::format("to close the '{}' opened here", open->getText()));
      return;
    }
  }
  sink_.report(r, msg);
}

// ---------------------------------------------------------------------------------------------
// Describing expected tokens
// ---------------------------------------------------------------------------------------------

namespace {

// What the error messages need to know about tokens, read once from the generated parser: token
// types by literal text ("{" -> its type), and which tokens are names. The grammar decides which
// keywords are soft (usable as names, listed in its `ident` rule); reading that from the ATN keeps
// the messages right when the list changes.
struct TokenTable {
  explicit TokenTable(antlr4::Parser* parser) {
    const antlr4::dfa::Vocabulary& v = parser->getVocabulary();
    for (size_t t = 1; t <= v.getMaxTokenType(); ++t) {
      std::string lit = v.getLiteralName(t);
      if (lit.size() >= 2) literals.emplace_back(lit.substr(1, lit.size() - 2), t);
    }
    const antlr4::atn::ATN& atn = parser->getATN();
    nameTokens = atn.nextTokens(atn.ruleToStartState[P::RuleIdent]);
  }
  size_t type(std::string_view text) const {
    for (const auto& [lit, t] : literals) {
      if (lit == text) return t;
    }
    return 0;
  }
  std::vector<std::pair<std::string, size_t>> literals;
  antlr4::misc::IntervalSet nameTokens;
};

const TokenTable& tokenTable(antlr4::Parser* parser) {
  static const TokenTable table(parser);
  return table;
}

// A keyword that can never be a name (`if`), as opposed to a soft one (`side`).
bool isReservedKeyword(const TokenTable& tt, size_t t) {
  return t >= P::RULESET && t <= P::PHASE && !tt.nameTokens.contains(t);
}

// A token that begins an expression but never a statement (a statement that is not a keyword
// statement begins with a name: `(a).b = 1`, `-x` or `1` alone are not statements).
bool startsExpressionOnly(const antlr4::Token& t) {
  switch (t.getType()) {
    case P::INT:
    case P::ODDS:
    case P::STRING:
    case P::TRUE:
    case P::FALSE:
    case P::NONE:
    case P::ROLL:
    case P::CHOOSE:
    case P::NOT:
      return true;
    default: {
      const std::string text = t.getText();
      return text == "(" || text == "[" || text == "-";
    }
  }
}

// Whether the parser is reading the name of a `step` or `phase` statement.
bool inStepOrPhase(antlr4::Parser* parser) {
  antlr4::tree::ParseTree* c = parser->getContext();
  for (int up = 0; c != nullptr && up < 3; ++up, c = c->parent) {
    if (dynamic_cast<P::StepStmtContext*>(c) != nullptr ||
        dynamic_cast<P::PhaseStmtContext*>(c) != nullptr)
      return true;
  }
  return false;
}

// The construct a rule belongs to, for "unexpected 'x' in ...".
const char* constructName(size_t rule) {
  switch (rule) {
    case P::RuleFile:
    case P::RuleTopItem:
      return "the file";
    case P::RulePartHeader:
      return "a 'part of' header";
    case P::RuleRulesetBlock:
      return "a ruleset";
    case P::RuleHouseBlock:
      return "a house-rule block";
    case P::RuleModuleBlock:
      return "a module";
    case P::RuleScenarioBlock:
    case P::RuleScenarioItem:
      return "a scenario";
    case P::RuleDeclaration:
    case P::RuleDeclBody:
      return "a declaration";
    case P::RuleDeclKind:
      return "a 'remove' declaration";
    case P::RuleEnumMember:
      return "an enum";
    case P::RuleFieldDecl:
      return "a field declaration";
    case P::RuleFieldInit:
      return "a field value";
    case P::RuleGate:
      return "a 'level' or 'if' gate";
    case P::RuleParams:
    case P::RuleParam:
    case P::RuleActionParams:
    case P::RuleActionParam:
      return "a parameter list";
    case P::RuleIdentList:
      return "a list of names";
    case P::RuleTypeRef:
      return "a type";
    case P::RuleQualifiedName:
      return "a name";
    case P::RuleCitation:
      return "a rule citation";
    case P::RuleTableBody:
    case P::RuleTableRowsSpec:
    case P::RuleTableColumnsSpec:
    case P::RuleKeyKind:
      return "a table";
    case P::RuleTableRow:
    case P::RuleTableCell:
      return "a table row";
    case P::RuleTableKey:
      return "a table key";
    case P::RuleModClause:
    case P::RuleModOp:
      return "a modifier clause";
    case P::RuleResultCase:
      return "a results declaration";
    case P::RuleMapItem:
    case P::RuleHexRef:
    case P::RuleHexLabel:
    case P::RuleHexPair:
      return "a map";
    case P::RuleUnitPlacement:
      return "a force";
    case P::RuleBlock:
    case P::RuleStatement:
    case P::RuleIfStmtTail:
      return "a statement";
    case P::RulePhaseItem:
      return "a phase";
    case P::RuleArgs:
    case P::RuleArg:
      return "an argument list";
    case P::RuleRollCount:
    case P::RuleDieRef:
      return "a roll";
    case P::RuleMapEntry:
      return "a map literal";
    case P::RuleIdent:
      return "a name";
    default:
      return "an expression";
  }
}

std::string describeFound(antlr4::Token* t) {
  if (t == nullptr || t->getType() == antlr4::Token::EOF) return "end of file";
  const std::string text = t->getText();
  if (t->getType() == P::STRING) {
    const size_t n = codePointCount(text);
    if (n <= 32) return "the string " + text;
    std::string cut;
    size_t i = 0;
    for (size_t k = 0; k < 28 && i < text.size(); ++k) decodeUtf8(text, i);
    cut = text.substr(0, i);
    return "the string " + cut + "...\"";
  }
  return quoteForMessage(text);
}

// Condenses an expected-token set into phrases, most general first.
std::vector<std::string> describeExpected(antlr4::Parser* parser,
                                          const antlr4::misc::IntervalSet& expected) {
  const antlr4::dfa::Vocabulary& vocab = parser->getVocabulary();
  const TokenTable& tt = tokenTable(parser);
  auto isNameToken = [&](size_t t) { return tt.nameTokens.contains(t); };
  std::vector<size_t> set;
  for (ssize_t t : expected.toList()) set.push_back(static_cast<size_t>(t));
  auto has = [&](size_t t) { return std::find(set.begin(), set.end(), t) != set.end(); };
  auto hasLit = [&](const char* lit) { return has(tt.type(lit)); };
  auto drop = [&](auto pred) {
    set.erase(std::remove_if(set.begin(), set.end(), pred), set.end());
  };
  auto dropTypes = [&](std::initializer_list<size_t> types) {
    drop([&](size_t t) { return std::find(types.begin(), types.end(), t) != types.end(); });
  };
  auto dropLits = [&](std::initializer_list<const char*> lits) {
    for (const char* l : lits) {
      const size_t t = tt.type(l);
      drop([&](size_t x) { return x == t; });
    }
  };

  std::vector<std::string> phrases;
  const bool eof = has(antlr4::Token::EOF);
  drop([](size_t t) { return t == antlr4::Token::EOF; });

  // Operators that would only continue an expression: the expression may end here, so they are
  // not what the author is missing.
  if (hasLit("*") && hasLit("/") && hasLit("%") && hasLit("==") && has(P::AND) && has(P::OR)) {
    dropLits({"+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "..", ".", "[", "("});
    dropTypes({P::AND, P::OR, P::IN, P::NOT});
  }
  const bool declaration = has(P::OPTION) && has(P::ENUM) && has(P::CONST) && has(P::TABLE) &&
                           has(P::MODIFIER) && has(P::FUNCTION) && has(P::ACTION);
  const bool blocks = has(P::RULESET) && has(P::HOUSE) && has(P::MODULE) && has(P::SCENARIO);
  const bool statement = has(P::LET) && has(P::WHILE) && has(P::REQUIRE) && has(P::RETURN) &&
                         has(P::EMIT) && has(P::APPLY);
  const bool expression =
      has(P::ID) && has(P::INT) && has(P::STRING) && has(P::ROLL) && hasLit("(") && hasLit("[");
  const bool name = has(P::ID);

  if (blocks) {
    phrases.emplace_back("a 'ruleset', 'house', 'module' or 'scenario' block");
    dropTypes({P::RULESET, P::HOUSE, P::MODULE, P::SCENARIO});
  }
  if (declaration) {
    phrases.emplace_back("a declaration");
    dropTypes({P::USES,      P::INCLUDE,  P::LEVELS,  P::OPTION,   P::ENUM,     P::CONST,
               P::DIE,       P::SIDE,     P::GAME,    P::HEX,      P::UNIT,     P::TERRAIN,
               P::HEXSIDE,   P::SCENARIO, P::TABLE,   P::QUANTITY, P::MODIFIER, P::FUNCTION,
               P::PROCEDURE, P::ACTION,   P::RESULTS, P::EVENT,    P::TRIGGER,  P::SEQUENCE,
               P::REPLACE,   P::ADD,      P::REMOVE});
  }
  if (statement) {
    phrases.emplace_back("a statement");
    dropTypes({P::LET, P::IF, P::FOR, P::WHILE, P::REQUIRE, P::RETURN, P::ALTERNATE, P::EMIT,
               P::APPLY, P::PHASE, P::STEP, P::NOTE});
    dropLits({"{"});
  }
  if (statement || expression) {
    if (!statement) phrases.emplace_back("an expression");
    drop(isNameToken);
    dropTypes({P::INT, P::ODDS, P::STRING, P::TRUE, P::FALSE, P::NONE, P::CITATION, P::ROLL,
               P::CHOOSE, P::NOT, P::IF});
    dropLits({"[", "{", "(", "-"});
  } else if (name) {
    phrases.emplace_back("a name");
    drop(isNameToken);
  }
  // Soft keywords left over without ID are real keywords at this point ('columns', 'row', ...).
  struct Named {
    size_t type;
    const char* phrase;
  };
  static constexpr Named kNamed[] = {
      {P::INT, "a number"},
      {P::ODDS, "an odds ratio (like 3:1)"},
      {P::DICE, "dice (like d6)"},
      {P::STRING, "a string"},
      {P::CITATION, "a rule citation (like §7.4)"},
  };
  for (const Named& n : kNamed) {
    if (has(n.type)) {
      phrases.emplace_back(n.phrase);
      dropTypes({n.type});
    }
  }
  // Keywords, then punctuation, then closing brackets (`',' or '}'`), each in token order.
  std::sort(set.begin(), set.end(), [](size_t a, size_t b) {
    auto group = [](size_t t) { return t >= P::RULESET ? 0 : bracketDelta(t) < 0 ? 2 : 1; };
    if (group(a) != group(b)) return group(a) < group(b);
    return a < b;
  });
  for (size_t t : set) {
    std::string lit = vocab.getLiteralName(t);
    if (lit.empty()) lit = vocab.getDisplayName(t);
    phrases.push_back(lit);
  }
  if (eof) phrases.emplace_back("end of file");
  return phrases;
}

std::string joinOr(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += (i + 1 == items.size()) ? " or " : ", ";
    out += items[i];
  }
  return out;
}

// More choices than this and the list stops helping.
constexpr size_t kMaxListedChoices = 5;

}  // namespace

std::string describeSyntaxError(antlr4::Parser* parser, antlr4::Token* found,
                                const antlr4::misc::IntervalSet& expected, size_t ruleIndex) {
  std::vector<std::string> phrases = describeExpected(parser, expected);
  const bool atEof = found == nullptr || found->getType() == antlr4::Token::EOF;
  const std::string what = describeFound(found);
  const size_t type = found != nullptr ? found->getType() : 0;

  // Inside a table's rows (also when the row loop has ended and the parser wants the '}').
  bool inRows = ruleIndex == P::RuleTableRow || ruleIndex == P::RuleTableCell;
  if (auto* table = dynamic_cast<P::TableDeclContext*>(parser->getContext())) {
    inRows = inRows || (table->tableBody() != nullptr && !table->tableBody()->tableRow().empty());
  }
  if (inRows) {
    if (atEof) return "unexpected end of file in a table; expected 'row' or '}'";
    // `row 1:2 3` lexes as the row key 1:2 (an odds ratio) and then cells.
    antlr4::TokenStream* in = parser->getTokenStream();
    const size_t index = found->getTokenIndex();
    if (index != kInvalidIndex && index >= 2 && in->get(index - 1)->getType() == P::ODDS &&
        in->get(index - 2)->getType() == P::ROW) {
      return fmt::format(
          "expected ':' after the row key but found {}; '{}' reads as an odds ratio, so write a "
          "space after the ':'",
          what, in->get(index - 1)->getText());
    }
    return fmt::format(
        "unexpected {} in a table row (a cell is a number, a name, a string, an odds ratio, "
        "true, false, none or '-')",
        what);
  }
  if (ruleIndex == P::RuleDeclKind) {
    return fmt::format(
        "expected the kind of declaration to remove (option, enum, const, unit class, unit type, "
        "terrain, hexside, table, quantity, modifier, function, procedure, action, results, "
        "event, trigger, die, phase, step or levels) but found {}",
        what);
  }

  // The token before the offending one, for messages about what it leaves unfinished.
  antlr4::Token* prev = nullptr;
  if (!atEof || found != nullptr) {
    const size_t index = found != nullptr ? found->getTokenIndex() : kInvalidIndex;
    if (index != kInvalidIndex && index > 0) prev = parser->getTokenStream()->get(index - 1);
  }
  if (prev != nullptr && prev->getType() == P::RETURN && found != nullptr) {
    return fmt::format(
        "expected a value, ';' or '}}' after 'return' but found {} (a 'return' without a value "
        "ends its block or is followed by ';': what comes after it in the block would never run)",
        what);
  }
  if (prev != nullptr && prev->getType() == P::NOT && found != nullptr && expected.size() == 1 &&
      expected.contains(static_cast<size_t>(P::IN))) {
    // `x` then `not a` on the next line: after an expression, `not` can only begin `not in`.
    return fmt::format(
        "expected 'in' but found {}: after an expression 'not' begins 'not in' (a statement "
        "cannot begin with 'not'; end the one before with ';' if that was meant)",
        what);
  }
  if (prev != nullptr && (prev->getType() == P::STEP || prev->getType() == P::PHASE) &&
      found != nullptr && found->getType() != P::ID && inStepOrPhase(parser)) {
    // `step(1)` as a statement: `step` and `phase` begin statements of their own.
    return fmt::format(
        "expected a name after '{0}' but found {1} ('{0}' begins a {0} statement, `{0} NAME "
        "…`; a function named {0} can be called inside an expression, not as a statement)",
        prev->getText(), what);
  }
  if (prev != nullptr && prev->getType() == P::ROLL) {
    return fmt::format("expected a die after 'roll' (like d6, 2d6 or a die's name) but found {}",
                       what);
  }
  if (prev != nullptr && prev->getType() == P::CITATION && found != nullptr &&
      found->getText() == "." && prev->getStopIndex() + 1 == found->getStartIndex()) {
    return fmt::format(
        "unexpected '.' after the rule citation '{}' (a citation does not end "
        "with '.')",
        prev->getText());
  }

  const bool statementExpected =
      std::find(phrases.begin(), phrases.end(), "a statement") != phrases.end();
  if (statementExpected && type == P::CITATION) {
    // `f() §3.1` reads as two statements: the citation alone would be silently lost.
    return fmt::format(
        "a citation on its own does nothing: put {} on the declaration, a `require`, a `note`, a "
        "`roll` or a `choose`",
        found->getText());
  }
  const bool nameExpected = std::find(phrases.begin(), phrases.end(), "a name") != phrases.end();
  const bool declarationExpected =
      std::find(phrases.begin(), phrases.end(), "a declaration") != phrases.end();
  std::string hint;
  if (nameExpected && isReservedKeyword(tokenTable(parser), type)) {
    hint = fmt::format(" ('{}' is a reserved word and cannot be used as a name)", found->getText());
  } else if (type == P::DICE && nameExpected) {
    hint = fmt::format(" ('{}' is dice; a name cannot look like d6)", found->getText());
  } else if (declarationExpected && (type == P::LET || type == P::IF || type == P::FOR ||
                                     type == P::WHILE || type == P::REQUIRE || type == P::RETURN ||
                                     type == P::ALTERNATE || type == P::EMIT || type == P::APPLY)) {
    hint = fmt::format(
        " ('{}' starts a statement; statements go in the body of a function, procedure, action, "
        "trigger or sequence)",
        found->getText());
  } else if (statementExpected && found != nullptr && startsExpressionOnly(*found)) {
    hint =
        " (a statement begins with a keyword such as `let` or `if`, or is an assignment or a call "
        "and begins with a name)";
  }

  if (atEof) {
    if (!phrases.empty() && phrases.size() <= kMaxListedChoices) {
      return fmt::format("unexpected end of file; expected {}", joinOr(phrases));
    }
    return "unexpected end of file";
  }
  if (!phrases.empty() && phrases.size() <= kMaxListedChoices) {
    return fmt::format("expected {} but found {}{}", joinOr(phrases), what, hint);
  }
  return fmt::format("unexpected {} in {}{}", what, constructName(ruleIndex), hint);
}

namespace {
// Characters that would be invisible or ambiguous in a message: shown by code point.
bool invisible(char32_t c) {
  return c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0xA0) || (c >= 0x2000 && c <= 0x200F) ||
         c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0xFEFF || c == 0x3000;
}
}  // namespace

std::string describeBadCharacters(const std::string& text) {
  std::vector<char32_t> cps;
  for (size_t i = 0; i < text.size();) cps.push_back(decodeUtf8(text, i));
  const bool single = cps.size() == 1;
  const char32_t first = cps.empty() ? 0 : cps[0];
  std::string shown;
  if (std::all_of(cps.begin(), cps.end(), invisible)) {
    for (size_t k = 0; k < cps.size() && k < 8; ++k) {
      shown += (k > 0 ? " " : "") + codePointName(cps[k]);
    }
    if (cps.size() > 8) shown += " ...";
  } else {
    shown = quoteForMessage(text);
  }
  std::string msg = fmt::format("unexpected character{} {}", single ? "" : "s", shown);
  // Hints for a character, or a run of one character (`&&`).
  if (std::any_of(cps.begin(), cps.end(), [&](char32_t c) { return c != first; })) return msg;
  switch (first) {
    case U'§':
      if (single) return "a rule citation needs a rule number after '§' (like §7.43)";
      return msg;
    case U'\u201C':
    case U'\u201D':
      return msg + "; strings are written between plain double quotes (\")";
    case U'\'':
    case U'\u2018':
    case U'\u2019':
      return msg + "; strings are written between double quotes (\")";
    case U'!':
      return msg + "; write 'not' for negation ('!=' means not equal)";
    case U'&':
      return msg + "; write 'and'";
    case U'|':
      return msg + "; write 'or'";
    case U'#':
      return msg + "; comments start with //";
    case U'\u00A0':
      return msg + " (a no-break space)";
    case U'\u2212':
      return msg + " (a Unicode minus sign); write '-'";
    default:
      return msg;
  }
}

// ---------------------------------------------------------------------------------------------
// The strategy
// ---------------------------------------------------------------------------------------------

namespace {
size_t currentRule(antlr4::Parser* p) {
  antlr4::ParserRuleContext* ctx = p->getContext();
  return ctx != nullptr ? ctx->getRuleIndex() : static_cast<size_t>(P::RuleFile);
}
}  // namespace

void SyntaxErrorStrategy::notify(antlr4::Parser* recognizer, antlr4::Token* found,
                                 const antlr4::misc::IntervalSet& expected, std::exception_ptr e) {
  std::string msg = describeSyntaxError(recognizer, found, expected, currentRule(recognizer));
  // When the parser wants a closing bracket (perhaps after a ','), point at the opening one.
  pending_.closer = 0;
  if (msg.rfind("expected '", 0) == 0 && expected.size() <= 2) {
    size_t closers = 0, closer = 0, others = 0;
    for (ssize_t t : expected.toList()) {
      const size_t type = static_cast<size_t>(t);
      if (bracketDelta(type) < 0) {
        ++closers;
        closer = type;
      } else if (recognizer->getVocabulary().getLiteralName(type) != "','") {
        ++others;
      }
    }
    if (closers == 1 && others == 0) pending_.closer = closer;
  }
  recognizer->notifyErrorListeners(found, msg, e);
}

void SyntaxErrorStrategy::reportNoViableAlternative(antlr4::Parser* recognizer,
                                                    const antlr4::NoViableAltException& e) {
  antlr4::Token* found = e.getOffendingToken();
  antlr4::Token* start = e.getStartToken();
  // If the decision looked ahead past `start` and failed at `found`, the expected set at the
  // decision says nothing about `found`: name the construct instead.
  notify(recognizer, found,
         found == start || found == nullptr ? recognizer->getExpectedTokens()
                                            : antlr4::misc::IntervalSet(),
         std::make_exception_ptr(e));
}

void SyntaxErrorStrategy::reportInputMismatch(antlr4::Parser* recognizer,
                                              const antlr4::InputMismatchException& e) {
  notify(recognizer, e.getOffendingToken(), e.getExpectedTokens(), std::make_exception_ptr(e));
}

void SyntaxErrorStrategy::reportFailedPredicate(antlr4::Parser* recognizer,
                                                const antlr4::FailedPredicateException& e) {
  // The grammar has no semantic predicates; kept for completeness.
  notify(recognizer, e.getOffendingToken(), antlr4::misc::IntervalSet(),
         std::make_exception_ptr(e));
}

void SyntaxErrorStrategy::reportUnwantedToken(antlr4::Parser* recognizer) {
  if (inErrorRecoveryMode(recognizer)) return;
  beginErrorCondition(recognizer);
  notify(recognizer, recognizer->getCurrentToken(), getExpectedTokens(recognizer), nullptr);
}

void SyntaxErrorStrategy::reportMissingToken(antlr4::Parser* recognizer) {
  if (inErrorRecoveryMode(recognizer)) return;
  beginErrorCondition(recognizer);
  notify(recognizer, recognizer->getCurrentToken(), getExpectedTokens(recognizer), nullptr);
}

void SyntaxErrorStrategy::consumeUntil(antlr4::Parser* recognizer,
                                       const antlr4::misc::IntervalSet& set) {
  // ANTLR's recovery skips to the first token that could follow any rule in progress. Skipping a
  // bracketed group whole keeps brackets paired: after `row 1: a ( b` the table's `}` closes the
  // `(`, not the table, so the ruleset's `}` still closes the ruleset. Keywords that only start a
  // declaration end any group: they cannot be inside brackets.
  size_t depth = 0;
  antlr4::TokenStream* in = recognizer->getTokenStream();
  for (;;) {
    antlr4::Token* t = in->LT(1);
    const size_t type = t->getType();
    if (type == antlr4::Token::EOF) return;
    const bool declStart =
        type == P::RULESET || type == P::INCLUDE || type == P::USES || type == P::LEVELS ||
        type == P::OPTION || type == P::ENUM || type == P::CONST || type == P::TABLE ||
        type == P::QUANTITY || type == P::MODIFIER || type == P::FUNCTION || type == P::PROCEDURE ||
        type == P::ACTION || type == P::RESULTS || type == P::TRIGGER || type == P::SEQUENCE;
    if (declStart) depth = 0;
    if (depth == 0 && set.contains(type)) return;
    const int delta = bracketDelta(type);
    if (delta > 0) {
      ++depth;
    } else if (delta < 0 && depth > 0) {
      --depth;
    }
    recognizer->consume();
  }
}

}  // namespace polemos::syntax
