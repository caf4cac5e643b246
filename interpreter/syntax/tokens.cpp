// Tokens and characters for the rest of syntax/: the character stream the lexer reads, bracket
// token types, and source ranges of tokens and parse-tree nodes (in code points, as the lexer
// counts them and the diagnostics engine draws them).

#include <algorithm>

#include "syntax/parse_internal.h"
#include "syntax/text.h"

namespace polemos::syntax {

using P = PolemosParser;

// ---------------------------------------------------------------------------------------------
// The character stream
// ---------------------------------------------------------------------------------------------

SourceCharStream::SourceCharStream(std::string_view utf8)
    : antlr4::ANTLRInputStream(std::string()), src_(utf8) {
  _data.clear();
  _data.reserve(utf8.size());
  size_t i = 0;
  size_t extra = 0;
  while (i < utf8.size()) {
    const size_t start = i;
    const char32_t c = decodeUtf8(utf8, i);
    if (i - start > 1) {
      extra += i - start - 1;
      multi_.push_back(_data.size());
      extra_.push_back(extra);
    }
    _data.push_back(static_cast<decltype(_data)::value_type>(c));
  }
  p = 0;
}

size_t SourceCharStream::byteOffset(size_t cp) const {
  // Multi-byte characters before `cp` add their extra bytes.
  auto it = std::lower_bound(multi_.begin(), multi_.end(), cp);
  const size_t k = static_cast<size_t>(it - multi_.begin());
  return cp + (k > 0 ? extra_[k - 1] : 0);
}

std::string_view SourceCharStream::view(size_t first, size_t last) const {
  if (first > last || last >= _data.size()) return {};
  const size_t a = byteOffset(first);
  const size_t b = byteOffset(last + 1);
  return src_.substr(a, b - a);
}

std::string SourceCharStream::getText(const antlr4::misc::Interval& interval) {
  if (interval.a < 0 || interval.b < 0) return {};
  const size_t first = static_cast<size_t>(interval.a);
  size_t last = static_cast<size_t>(interval.b);
  if (_data.empty() || first >= _data.size()) return {};
  if (last >= _data.size()) last = _data.size() - 1;
  return std::string(view(first, last));
}

// ---------------------------------------------------------------------------------------------
// Brackets
// ---------------------------------------------------------------------------------------------

const antlr4::dfa::Vocabulary& lexerVocabulary() {
  // A lexer over empty input reads it; kept for the life of the program.
  static antlr4::ANTLRInputStream input{std::string()};
  static PolemosLexer lexer(&input);
  return lexer.getVocabulary();
}

size_t literalTokenType(std::string_view literal) {
  const antlr4::dfa::Vocabulary& v = lexerVocabulary();
  for (size_t t = 1; t <= v.getMaxTokenType(); ++t)
    if (v.getLiteralName(t) == literal) return t;
  return 0;
}

namespace {
struct BracketTable {
  BracketTable() {
    const size_t n = lexerVocabulary().getMaxTokenType() + 1;
    delta.assign(n, 0);
    match.assign(n, 0);
    static constexpr std::pair<const char*, const char*> kPairs[] = {
        {"'('", "')'"}, {"'['", "']'"}, {"'{'", "'}'"}};
    for (const auto& [open, close] : kPairs) {
      const size_t o = literalTokenType(open), c = literalTokenType(close);
      if (o != 0 && c != 0) {
        delta[o] = 1;
        delta[c] = -1;
        match[o] = c;
      }
    }
    minus = literalTokenType("'-'");
  }
  std::vector<int> delta;
  std::vector<size_t> match;
  size_t minus = 0;
};
const BracketTable& brackets() {
  static const BracketTable table;
  return table;
}
}  // namespace

int bracketDelta(size_t type) {
  const BracketTable& b = brackets();
  return type < b.delta.size() ? b.delta[type] : 0;
}

size_t minusTokenType() {
  return brackets().minus;
}

size_t matchingBracket(size_t type) {
  const BracketTable& b = brackets();
  return type < b.match.size() ? b.match[type] : 0;
}

// ---------------------------------------------------------------------------------------------
// Ranges
// ---------------------------------------------------------------------------------------------

size_t tokenLength(const antlr4::Token* t) {
  if (t == nullptr) return 0;
  const size_t start = t->getStartIndex();
  const size_t stop = t->getStopIndex();
  if (t->getType() == antlr4::Token::EOF || start == kInvalidIndex || stop == kInvalidIndex ||
      stop < start) {
    return 0;
  }
  return stop - start + 1;
}

diag::SourceRange tokenRange(diag::FileId file, const antlr4::Token* t) {
  diag::SourceRange r;
  if (t == nullptr) return r;
  r.begin = diag::SourceLoc{file, static_cast<uint32_t>(t->getLine()),
                            static_cast<uint32_t>(t->getCharPositionInLine())};
  r.end = r.begin;
  const size_t len = tokenLength(t);
  if (t->getType() == P::STRING) {
    // Only a string can span lines (a backslash before the line break).
    const std::string text = t->getText();
    const size_t nl = text.rfind('\n');
    if (nl != std::string::npos) {
      r.end.line += static_cast<uint32_t>(std::count(text.begin(), text.end(), '\n'));
      r.end.col = static_cast<uint32_t>(codePointCount(std::string_view(text).substr(nl + 1)));
      return r;
    }
  }
  r.end.col += static_cast<uint32_t>(len);
  return r;
}

diag::SourceRange spanRanges(const diag::SourceRange& a, const diag::SourceRange& b) {
  if (!a.valid()) return b;
  if (!b.valid()) return a;
  diag::SourceRange r;
  r.begin = a.begin;
  r.end = b.end < a.end ? a.end : b.end;
  return r;
}

diag::SourceRange contextRange(diag::FileId file, const antlr4::ParserRuleContext* ctx) {
  if (ctx == nullptr) return {};
  const antlr4::Token* start = ctx->start;
  const antlr4::Token* stop = ctx->stop;
  if (start == nullptr) return {};
  diag::SourceRange r = tokenRange(file, start);
  // An empty rule has its stop token before its start token; a half-built one may have none.
  if (stop != nullptr && stop->getType() != antlr4::Token::EOF &&
      stop->getTokenIndex() != kInvalidIndex && start->getTokenIndex() != kInvalidIndex &&
      stop->getTokenIndex() > start->getTokenIndex()) {
    r = spanRanges(r, tokenRange(file, stop));
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// Declaration kinds
// ---------------------------------------------------------------------------------------------

std::optional<ast::DeclKind> removedDeclKind(size_t first, size_t second) {
  using K = ast::DeclKind;
  switch (first) {
    case P::OPTION:
      return K::Option;
    case P::ENUM:
      return K::Enum;
    case P::CONST:
      return K::Const;
    case P::UNIT:
      return second == P::TYPE ? K::UnitType : K::UnitClass;
    case P::TERRAIN:
      return K::Terrain;
    case P::HEXSIDE:
      return K::Hexside;
    case P::TABLE:
      return K::Table;
    case P::QUANTITY:
      return K::Quantity;
    case P::MODIFIER:
      return K::Modifier;
    case P::FUNCTION:
      return K::Function;
    case P::PROCEDURE:
      return K::Procedure;
    case P::ACTION:
      return K::Action;
    case P::RESULTS:
      return K::Results;
    case P::EVENT:
      return K::Event;
    case P::TRIGGER:
      return K::Trigger;
    case P::DIE:
      return K::Die;
    case P::LEVELS:
      return K::Levels;
    // Phases and steps live in the sequence of play; the declaration's removeKind says which.
    case P::PHASE:
    case P::STEP:
      return K::Sequence;
    default:
      return std::nullopt;
  }
}

}  // namespace polemos::syntax
