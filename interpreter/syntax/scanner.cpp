// The scanner: the lexer rules of grammar/Polemos.g4, written by hand (see Scanner in
// parse_internal.h). It follows the rules' own resolution: the longest match wins, and of two
// matches of one length the rule written first (the literal tokens and keywords, then ARROW, ODDS,
// DICE, INT, CITATION, STRING, ID, the comments, white space and BAD_CHAR). Token types are the
// generated lexer's, read from its vocabulary. It does not report errors: BAD_CHAR tokens, open
// strings and open comments are reported by lexAll (parse.cpp), as for the generated lexer.

#include "syntax/scanner.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <unordered_map>

#include "syntax/parse_internal.h"

namespace polemos::syntax {

using L = PolemosLexer;

namespace {

// The literal tokens and keywords of the grammar, by their text.
struct TokenTypes {
  TokenTypes() {
    const antlr4::dfa::Vocabulary& v = lexerVocabulary();
    for (size_t t = 1; t <= v.getMaxTokenType(); ++t) {
      std::string lit = v.getLiteralName(t);
      if (lit.size() < 3 || lit.front() != '\'' || lit.back() != '\'') continue;
      lit = lit.substr(1, lit.size() - 2);
      const unsigned char first = static_cast<unsigned char>(lit[0]);
      if (std::isalpha(first) != 0 || first == '_') {
        keywords.emplace(lit, t);
      } else if (lit.size() == 1) {
        single[first] = t;
      } else if (lit.size() == 2) {
        pairs.emplace(pairKey(lit[0], lit[1]), t);
      }
    }
  }
  static uint32_t pairKey(char32_t a, char32_t b) { return (a << 8) | b; }

  std::unordered_map<std::string, size_t> keywords;
  std::array<size_t, 128> single{};
  std::unordered_map<uint32_t, size_t> pairs;
};

const TokenTypes& tokenTypes() {
  static const TokenTypes types;
  return types;
}

bool isDigit(char32_t c) {
  return c >= '0' && c <= '9';
}
bool isLower(char32_t c) {
  return c >= 'a' && c <= 'z';
}
bool isAlpha(char32_t c) {
  return isLower(c) || (c >= 'A' && c <= 'Z');
}
bool isAlnum(char32_t c) {
  return isAlpha(c) || isDigit(c);
}
bool isIdStart(char32_t c) {
  return isAlpha(c) || c == '_';
}
bool isIdChar(char32_t c) {
  return isAlnum(c) || c == '_';
}
bool isSpace(char32_t c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f';
}

constexpr char32_t kSection = 0xA7;  // §

}  // namespace

Scanner::Scanner(SourceCharStream& chars, antlr4::TokenSource* source)
    : chars_(chars), source_(source), size_(chars.length()) {}

void Scanner::advanceTo(size_t end) {
  for (; pos_ < end; ++pos_) {
    if (chars_.at(pos_) == '\n') {
      ++line_;
      column_ = 0;
    } else {
      ++column_;
    }
  }
}

namespace {
// The memory of tokens freed, kept for the next ones on the same thread: a file's tokens are
// made one by one and freed together when its parse is done, tens of thousands for `polemos
// check`, each otherwise a trip through the allocator. At most kMaxKept blocks are kept; what
// a thread keeps goes back to the allocator when the thread ends. A block freed on another thread
// than the one that made it (the generated parser runs on a thread of its own) joins that
// thread's blocks: every block is one ::operator new gave, of the one size.
// Under AddressSanitizer nothing is kept, so that a token used after it is freed is still caught.
class TokenBlocks {
 public:
#if defined(__SANITIZE_ADDRESS__)
  static constexpr size_t kMaxKept = 0;
#else
  static constexpr size_t kMaxKept = size_t{1} << 16;
#endif
  ~TokenBlocks() {
    for (void* p : free_) ::operator delete(p);
  }
  void* take(size_t size) {
    if (size != size_ || free_.empty()) return ::operator new(size);
    void* p = free_.back();
    free_.pop_back();
    return p;
  }
  void give(void* p, size_t size) {
    if (size != size_ || free_.size() >= kMaxKept) return ::operator delete(p);
    free_.push_back(p);
  }
  explicit TokenBlocks(size_t size) : size_(size) {}

 private:
  size_t size_;
  std::vector<void*> free_;
};

// A token made with its position given: the runtime's constructor from a source asks the source
// (a lexer that never runs) for a line and a column, through two dynamic casts a token.
class ScannedToken : public antlr4::CommonToken {
 public:
  static void* operator new(size_t size) {
    TokenBlocks* b = blocks();
    return b ? b->take(size) : ::operator new(size);
  }
  static void operator delete(void* p, size_t size) {
    TokenBlocks* b = blocks();
    if (b)
      b->give(p, size);
    else
      ::operator delete(p);
  }
  ScannedToken(std::pair<antlr4::TokenSource*, antlr4::CharStream*> source, size_t type,
               size_t channel, size_t start, size_t stop, size_t line, size_t column)
      : CommonToken(type) {
    _source = source;
    _channel = channel;
    _start = start;
    _stop = stop;
    _line = line;
    _charPositionInLine = column;
  }

 private:
  // This thread's blocks; null once they are gone (a token freed while the thread ends goes
  // straight back to the allocator). `gone` has no destructor, so it can be read to the end.
  static TokenBlocks* blocks() {
    thread_local bool gone = false;
    struct Holder {
      TokenBlocks blocks{sizeof(ScannedToken)};
      ~Holder() { gone = true; }
    };
    if (gone) return nullptr;
    thread_local Holder held;
    return &held.blocks;
  }
};
}  // namespace

std::unique_ptr<antlr4::Token> Scanner::make(size_t type, size_t channel, size_t start, size_t stop,
                                             size_t line, size_t column) {
  return std::make_unique<ScannedToken>(
      std::make_pair(source_, static_cast<antlr4::CharStream*>(&chars_)), type, channel, start,
      stop, line, column);
}

std::unique_ptr<antlr4::Token> Scanner::nextToken() {
  const TokenTypes& types = tokenTypes();
  for (;;) {
    const size_t start = pos_;
    const size_t line = line_;
    const size_t column = column_;
    if (start >= size_) {
      return make(antlr4::Token::EOF, antlr4::Token::DEFAULT_CHANNEL, start, start - 1, line,
                  column);
    }
    const char32_t c = at(start);
    size_t end = start + 1;
    size_t type = L::BAD_CHAR;
    size_t channel = antlr4::Token::DEFAULT_CHANNEL;

    if (isSpace(c)) {  // WS: skipped
      while (end < size_ && isSpace(at(end))) ++end;
      advanceTo(end);
      continue;
    }
    if (c == '/' && at(start + 1) == '/') {  // LINE_COMMENT: skipped
      end = start + 2;
      while (end < size_ && at(end) != '\r' && at(end) != '\n') ++end;
      advanceTo(end);
      continue;
    }
    if (c == '/' && at(start + 1) == '*') {  // BLOCK_COMMENT: to the first */, or to the end
      end = start + 2;
      while (end < size_ && !(at(end) == '*' && end + 1 < size_ && at(end + 1) == '/')) ++end;
      end = end < size_ ? end + 2 : size_;
      type = L::BLOCK_COMMENT;
      channel = antlr4::Token::HIDDEN_CHANNEL;
    } else if (isDigit(c)) {  // INT, or ODDS (3:1), or DICE (2d6)
      size_t digits = start + 1;
      while (isDigit(at(digits))) ++digits;
      end = digits;
      type = L::INT;
      if ((at(digits) == ':' || at(digits) == 'd') && isDigit(at(digits + 1))) {
        type = at(digits) == ':' ? L::ODDS : L::DICE;
        end = digits + 2;
        while (isDigit(at(end))) ++end;
      }
    } else if (isIdStart(c)) {  // a keyword, DICE (d6: DICE is written before ID) or ID
      while (end < size_ && isIdChar(at(end))) ++end;
      bool dice = c == 'd' && end > start + 1;
      for (size_t i = start + 1; dice && i < end; ++i) dice = isDigit(at(i));
      if (dice) {
        type = L::DICE;
      } else {
        std::string word;
        word.reserve(end - start);
        for (size_t i = start; i < end; ++i) word += static_cast<char>(at(i));
        auto k = types.keywords.find(word);
        type = k != types.keywords.end() ? k->second : static_cast<decltype(k->second)>(L::ID);
      }
    } else if (c == kSection) {  // CITATION: § (doc ':')? part ('.' part)*, the longest
      auto body = [&](size_t i) {
        size_t e = i;
        while (isAlnum(at(e))) ++e;
        if (e == i) return i;
        while (at(e) == '.' && isAlnum(at(e + 1))) {
          e += 2;
          while (isAlnum(at(e))) ++e;
        }
        return e;
      };
      size_t best = body(start + 1);
      if (isLower(at(start + 1))) {
        size_t p = start + 2;
        while (isLower(at(p)) || isDigit(at(p)) || at(p) == '_') ++p;
        if (at(p) == ':' && body(p + 1) > p + 1) best = std::max(best, body(p + 1));
      }
      if (best > start + 1) {
        type = L::CITATION;
        end = best;
      }
    } else if (c == '"') {  // STRING: to the closing quote, the end of the line, or the end
      while (end < size_) {
        const char32_t x = at(end);
        if (x == '"') {
          ++end;
          break;
        }
        if (x == '\\') {
          if (end + 1 >= size_) break;
          end += 2;
          continue;
        }
        if (x == '\r' || x == '\n') break;
        ++end;
      }
      type = L::STRING;
    } else if (c < 128) {  // the literal tokens: two characters before one
      const char32_t next = at(start + 1);
      auto two = next < 128 ? types.pairs.find(TokenTypes::pairKey(c, next)) : types.pairs.end();
      if (two != types.pairs.end()) {
        type = two->second;
        end = start + 2;
      } else if (types.single[c] != 0) {
        type = types.single[c];
      }
    }
    advanceTo(end);
    return make(type, channel, start, end - 1, line, column);
  }
}

// ---------------------------------------------------------------------------------------------
// For tests
// ---------------------------------------------------------------------------------------------

std::vector<TokenSummary> scanTokens(std::string_view utf8, Lexer which) {
  SourceCharStream chars(utf8);
  PolemosLexer lexer(&chars);
  lexer.removeErrorListeners();
  Scanner scanner(chars, &lexer);
  std::vector<TokenSummary> out;
  for (;;) {
    std::unique_ptr<antlr4::Token> t =
        which == Lexer::Scanner ? scanner.nextToken() : lexer.nextToken();
    out.push_back(TokenSummary{t->getType(), t->getChannel(), t->getStartIndex(), t->getStopIndex(),
                               t->getLine(), t->getCharPositionInLine(), t->getText()});
    if (t->getType() == antlr4::Token::EOF) break;
  }
  return out;
}

std::string describeToken(const TokenSummary& t) {
  const std::string name =
      t.type == antlr4::Token::EOF ? std::string("EOF") : lexerVocabulary().getDisplayName(t.type);
  return fmt::format("{} '{}' {}:{} [{},{}] {}", name, t.text, t.line, t.column, t.start,
                     static_cast<long long>(t.stop), t.channel);
}

}  // namespace polemos::syntax
