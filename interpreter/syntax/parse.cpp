// parseFile and parseExpression: the guarded path from bytes to AST.
//
//   1. Refuse what cannot be parsed safely: files over the size limit, invalid UTF-8.
//   2. A file: scan it and try the hand-written parser (descent.cpp), on the calling thread, with
//      what the scan would report kept aside. A correct file ends here, with its AST.
//   3. Scan (scanner.cpp), token by token, reporting bad characters, unterminated strings and
//      comments, and measuring bracket nesting; refuse input nested deeper than the limit.
//   4. Parse in two stages: SLL with the bail strategy (fast, and enough for almost every correct
//      file), then, only if that fails, full LL with error recovery and readable messages.
//   5. Build the AST from the parse tree.
//
// Steps 3-5 run on a thread with a large stack, and a parse listener stops the parser past a
// nesting limit, so that no input (a million `not`s, a thousand-branch `else if`) can exhaust the
// stack. A token stream that counts lookahead stops pathological predictions. Every exception is
// caught and becomes a diagnostic: no input crashes, hangs or aborts the interpreter.

#include "syntax/parse.h"

#include <fmt/format.h>
#include <pthread.h>

#include <algorithm>
#include <functional>
#include <mutex>

#include "syntax/ast_builder.h"
#include "syntax/descent.h"
#include "syntax/parse_internal.h"
#include "syntax/text.h"

namespace polemos::syntax {
namespace {

using P = PolemosParser;

// The parser thread's stack. The nesting limits below keep real use far under it (a few MiB at
// the limits); the rest is margin against anything the limits do not foresee. Only touched pages
// are ever backed by memory.
constexpr size_t kParserStackBytes = size_t{256} << 20;

// Levels of nesting a person can see (an expression inside another, a block inside a block, an
// `else if`, a type argument, a `not` or a unary minus) that the parser accepts. Brackets are
// limited separately (ParseLimits::maxNesting) before parsing; this limit also covers nesting
// without brackets: `not not not ... x`, `- - - x`, long `else if` chains, `if a then b else if`.
constexpr int kMinNestingLevels = 1000;
constexpr int kMaxNestingLevels = 10000;
// Grammar rules per level of nesting at most (an expression in parentheses goes through a few:
// `expr`, `opExpr`, `primary`; a margin is kept); the rule-depth limit follows from the level
// limit with this factor.
constexpr int kRulesPerLevel = 16;

// Lookahead. A prediction may look this many tokens ahead. The grammar lets a statement show its
// kind at its first word and a `return` whether it has a value at the next token, so correct
// files need little; what is left is inside expressions (`(a, b) -> x` against `(a, b)`).
// Pathological input (`if if if ... x` a hundred thousand times) would otherwise make one
// prediction scan the whole file with ever deeper context, which takes minutes; at this limit it
// is stopped within a second.
constexpr size_t kMaxPredictionLookahead = 10000;
// The whole parse may move through the stream this many times the number of tokens (plus a
// constant): correct files stay far under it (well under 10 moves per token); it stops input that
// makes every decision look far ahead (a statement of a hundred thousand citations).
constexpr size_t kLookaheadBudgetPerToken = 50;
constexpr size_t kLookaheadBudgetBase = 1000000;

// The ANTLR C++ runtime shares its prediction caches between all parsers of a grammar; parses
// are serialized so that concurrent callers cannot race on them.
std::mutex& parserMutex() {
  static std::mutex m;
  return m;
}

std::string formatSize(size_t bytes) {
  if (bytes >= (size_t{1} << 20) && bytes % (size_t{1} << 20) == 0) {
    return fmt::format("{} MiB", bytes >> 20);
  }
  if (bytes >= 1024 && bytes % 1024 == 0) return fmt::format("{} KiB", bytes >> 10);
  return fmt::format("{} bytes", bytes);
}

diag::SourceRange fileRange(diag::FileId file) {
  diag::SourceRange r;
  r.begin.file = file;
  r.end.file = file;
  return r;
}

// Runs `fn` on a thread with a large stack and waits for it. Falls back to the calling thread if
// the system will not create one (the nesting limits still apply, with less margin).
void runWithLargeStack(const std::function<void()>& fn) {
  pthread_attr_t attr;
  bool ok = pthread_attr_init(&attr) == 0;
  if (ok && pthread_attr_setstacksize(&attr, kParserStackBytes) != 0) ok = false;
  pthread_t thread;
  auto trampoline = [](void* arg) -> void* {
    try {
      (*static_cast<const std::function<void()>*>(arg))();
    } catch (...) {
      // runParse catches everything itself; an exception must never leave a thread.
    }
    return nullptr;
  };
  if (ok && pthread_create(&thread, &attr, trampoline,
                           const_cast<void*>(static_cast<const void*>(&fn))) == 0) {
    pthread_attr_destroy(&attr);
    pthread_join(thread, nullptr);
    return;
  }
  if (ok) pthread_attr_destroy(&attr);
  fn();
}

// A token stream that counts how far the parser moves through it, to stop predictions that
// would look ahead without bound. Adaptive prediction marks the stream, consumes lookahead and
// seeks back; so does nothing else in the runtime.
class GuardedTokenStream : public antlr4::CommonTokenStream {
 public:
  GuardedTokenStream(antlr4::TokenSource* source, ErrorSink& sink, size_t tokenCount)
      : CommonTokenStream(source),
        sink_(sink),
        budget_(kLookaheadBudgetBase + kLookaheadBudgetPerToken * tokenCount) {}

  ssize_t mark() override {
    if (marks_++ == 0) markIndex_ = index();
    return CommonTokenStream::mark();
  }
  void release(ssize_t marker) override {
    if (marks_ > 0) --marks_;
    CommonTokenStream::release(marker);
  }
  void consume() override {
    ++moves_;
    if (marks_ > 0 && index() > markIndex_ + kMaxPredictionLookahead) {
      fail("this statement is too long to parse: the parser would have to look more than " +
           std::to_string(kMaxPredictionLookahead) + " tokens ahead");
    }
    if (moves_ > budget_) fail("this file is too complex to parse (the parser gave up)");
    CommonTokenStream::consume();
  }
  size_t moves() const { return moves_; }
  void resetBudget() {
    moves_ = 0;
    marks_ = 0;
  }

 private:
  [[noreturn]] void fail(const std::string& message) {
    antlr4::Token* at = get(marks_ > 0 ? markIndex_ : index());
    // The stream is rewound by the runtime while the exception unwinds; report first.
    sink_.diags().error(tokenRange(sink_.file(), at), message);
    throw ParseAbort{};
  }

  ErrorSink& sink_;
  size_t budget_;
  size_t moves_ = 0;
  size_t marks_ = 0;
  size_t markIndex_ = 0;
};

// Stops the parser past the nesting limits. It also remembers the root of the tree, so that an
// aborted parse still yields what it had built.
class NestingGuard : public antlr4::tree::ParseTreeListener {
 public:
  NestingGuard(ErrorSink& sink, int maxLevels)
      : sink_(sink), maxLevels_(maxLevels), maxRules_(maxLevels * kRulesPerLevel + 200) {}

  void enterEveryRule(antlr4::ParserRuleContext* ctx) override {
    if (root_ == nullptr) root_ = ctx;
    ++rules_;
    const Level level = levelOf(ctx);
    levelStack_.push_back(level);
    if (level != Level::None) {
      ++levels_;
      ++byKind_[static_cast<int>(level)];
    }
    if (levels_ > maxLevels_ || rules_ > maxRules_) {
      // Name what makes up most of the nesting.
      auto most = [&](Level l) { return byKind_[static_cast<int>(l)] * 2 > levels_; };
      const char* what = most(Level::ElseIf)  ? "'else if' chain too long"
                         : most(Level::Block) ? "blocks nested too deeply"
                         : most(Level::Type)  ? "type nested too deeply"
                                              : "expression nested too deeply";
      sink_.diags().error(tokenRange(sink_.file(), ctx->start),
                          fmt::format("{} (more than {} levels)", what, maxLevels_));
      throw ParseAbort{};
    }
  }
  void exitEveryRule(antlr4::ParserRuleContext*) override {
    if (rules_ > 0) --rules_;
    if (!levelStack_.empty()) {
      const Level level = levelStack_.back();
      levelStack_.pop_back();
      if (level != Level::None) {
        --levels_;
        --byKind_[static_cast<int>(level)];
      }
    }
  }
  void visitTerminal(antlr4::tree::TerminalNode*) override {}
  void visitErrorNode(antlr4::tree::ErrorNode*) override {}

  antlr4::ParserRuleContext* root() const { return root_; }

 private:
  enum class Level { None, Expr, Block, ElseIf, Type };

  static Level levelOf(antlr4::ParserRuleContext* ctx) {
    switch (ctx->getRuleIndex()) {
      case P::RuleExpr:
        return Level::Expr;
      case P::RuleBlock:
        return Level::Block;
      case P::RuleIfStmtTail:
        return Level::ElseIf;
      case P::RuleTypeRef:
        return Level::Type;
      case P::RuleOpExpr: {
        // A prefix operator nests without a bracket: `not not not ... x`, `- - - x`.
        const size_t t = ctx->start != nullptr ? ctx->start->getType() : 0;
        return t == P::NOT || t == minusTokenType() ? Level::Expr : Level::None;
      }
      default:
        return Level::None;
    }
  }

  ErrorSink& sink_;
  int maxLevels_;
  int maxRules_;
  int rules_ = 0;
  int levels_ = 0;
  int byKind_[5] = {0, 0, 0, 0, 0};
  std::vector<Level> levelStack_;
  antlr4::ParserRuleContext* root_ = nullptr;
};

enum class Entry { File, Expression };

struct ParseJob {
  diag::Diagnostics& diags;
  diag::FileId file;
  const ParseLimits& limits;
  Entry entry;
  ast::File* fileOut = nullptr;
  ast::ExprPtr exprOut;
};

// Whether a STRING token has its closing quote (the lexer accepts a string left open at the end
// of its line, so that it can be reported as one error).
bool isTerminatedString(const std::string& text) {
  for (size_t i = 1; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == '"') {
      return i + 1 == text.size();
    }
  }
  return false;
}

// Lexes everything, reporting lexical errors as it goes. Returns false if parsing should not go
// on (nesting too deep).
// A string written with typographic or single quotes (“Woods”, 'Woods') on one line: the closing
// quote's code-point index, or 0 if `open` does not start one.
size_t misquotedStringEnd(const SourceCharStream& chars, size_t open) {
  const char32_t q = chars.at(open);
  char32_t close = 0;
  if (q == U'\u201C' || q == U'\u201D') close = U'\u201D';
  if (q == U'\u2018' || q == U'\u2019') close = U'\u2019';
  if (q == U'\'') close = U'\'';
  if (close == 0) return 0;
  for (size_t i = open + 1; i < chars.length(); ++i) {
    const char32_t c = chars.at(i);
    if (c == '\n' || c == '\r') return 0;
    if (c == close || (close == U'\u201D' && c == U'\u201C')) return i;
  }
  return 0;
}

bool lexAll(Scanner& lexer, const SourceCharStream& chars, ErrorSink& sink,
            const ParseLimits& limits, std::vector<std::unique_ptr<antlr4::Token>>& out,
            TokenFacts& facts) {
  const diag::FileId file = sink.file();
  std::vector<const antlr4::Token*> open;  // open brackets, innermost last
  const antlr4::Token* badRunStart = nullptr;
  const antlr4::Token* badRunEnd = nullptr;
  std::string badRun;
  auto flushBad = [&] {
    if (badRunStart == nullptr) return;
    diag::SourceRange r = tokenRange(file, badRunStart);
    r.end = tokenRange(file, badRunEnd).end;
    badRunStart = badRunEnd = nullptr;
    if (!facts.firstLexError.valid()) facts.firstLexError = r.begin;
    sink.report(r, describeBadCharacters(badRun));
    badRun.clear();
  };
  std::unique_ptr<antlr4::Token> next;  // one token of lookahead, pushed back
  for (;;) {
    std::unique_ptr<antlr4::Token> tok = next ? std::move(next) : lexer.nextToken();
    size_t type = tok->getType();
    if (type == P::BAD_CHAR) {
      if (const size_t end = misquotedStringEnd(chars, tok->getStartIndex()); end != 0) {
        // “Woods” or 'Woods': one error, and the parser sees the string that was meant.
        flushBad();
        const size_t start = tok->getStartIndex();
        while ((next = lexer.nextToken())->getType() != antlr4::Token::EOF &&
               next->getStartIndex() <= end) {
        }
        std::string inner;
        for (char c : chars.view(start + 1, end - 1)) {
          if (c == '"' || c == '\\') inner += '\\';
          inner += c;
        }
        auto str = std::make_unique<antlr4::CommonToken>(
            std::make_pair(tok->getTokenSource(), tok->getInputStream()), P::STRING,
            antlr4::Token::DEFAULT_CHANNEL, start, end);
        str->setLine(tok->getLine());
        str->setCharPositionInLine(tok->getCharPositionInLine());
        str->setText("\"" + inner + "\"");
        std::string quotes;
        appendUtf8(quotes, chars.at(start));
        quotes += " and ";
        appendUtf8(quotes, chars.at(end));
        sink.report(tokenRange(file, str.get()),
                    chars.at(start) == U'\''
                        ? std::string("strings are written between double quotes (\"), not single "
                                      "quotes")
                        : "strings are written between plain double quotes (\"), not " + quotes);
        tok = std::move(str);
        type = P::STRING;
      }
    }
    if (type == P::BAD_CHAR) {
      // A run of adjacent bad characters is one error.
      if (badRunEnd != nullptr && badRunEnd->getLine() == tok->getLine() &&
          badRunEnd->getStopIndex() + 1 == tok->getStartIndex()) {
        badRunEnd = tok.get();
      } else {
        flushBad();
        badRunStart = badRunEnd = tok.get();
      }
      badRun += tok->getText();
      out.push_back(std::move(tok));  // kept alive for the run's range; dropped below
      continue;
    }
    flushBad();
    if (type == P::BLOCK_COMMENT) {
      // On the hidden channel only so that an open one can be reported here; never parsed.
      const std::string text = tok->getText();
      if (text.size() < 4 || text.compare(text.size() - 2, 2, "*/") != 0) {
        diag::SourceRange r = tokenRange(file, tok.get());
        r.end = r.begin;
        r.end.col += 2;
        if (!facts.firstLexError.valid()) facts.firstLexError = r.begin;
        sink.report(r, "unterminated comment: this '/*' has no matching '*/'");
      }
      continue;
    }
    if (type == P::STRING && !isTerminatedString(tok->getText())) {
      // The parser still sees a string, so one missing quote makes one error.
      diag::SourceRange r = tokenRange(file, tok.get());
      if (!facts.firstLexError.valid()) facts.firstLexError = r.begin;
      sink.report(r, "unterminated string: the line ends before the closing '\"'");
    }
    if (const int delta = bracketDelta(type); delta != 0) {
      if (delta > 0) {
        open.push_back(tok.get());
        if (open.size() > static_cast<size_t>(limits.maxNesting)) {
          sink.report(
              tokenRange(file, tok.get()),
              fmt::format("brackets nested too deeply (more than {} levels)", limits.maxNesting));
          return false;
        }
      } else {
        if (open.empty()) {
          facts.unmatchedClosers.insert(tok.get());
        } else {
          open.pop_back();
        }
      }
    }
    out.push_back(std::move(tok));
    if (type == antlr4::Token::EOF) break;
  }
  // Drop the bad characters: they are reported, and the parser does better without them.
  std::vector<std::unique_ptr<antlr4::Token>> kept;
  kept.reserve(out.size());
  for (auto& t : out) {
    if (t->getType() != P::BAD_CHAR) kept.push_back(std::move(t));
  }
  out.swap(kept);
  facts.unclosed = std::move(open);
  return true;
}

// Steps 3-5 of the file comment, on the parser thread.
void runParse(ParseJob& job, std::string_view input) {
  ErrorSink sink(job.diags, job.file);
  SourceCharStream chars(input);
  // The generated lexer does not run (the scanner reads the text): it is the source the tokens
  // name, through which error recovery makes the tokens it conjures.
  PolemosLexer lexer(&chars);
  lexer.removeErrorListeners();
  std::vector<std::unique_ptr<antlr4::Token>> tokens;
  TokenFacts facts;
  antlr4::tree::ParseTree* tree = nullptr;
  // Declared so that they are destroyed in the safe order: the parser (and its tree) first,
  // then the listeners it points to, then the token stream.
  std::unique_ptr<antlr4::ListTokenSource> source;
  std::unique_ptr<GuardedTokenStream> stream;
  PendingError pending;
  SyntaxErrorListener listener(sink, facts, pending);
  std::unique_ptr<NestingGuard> guard;
  std::unique_ptr<P> parser;
  const int maxLevels = std::clamp(job.limits.maxNesting * 4, kMinNestingLevels, kMaxNestingLevels);
  try {
    Scanner scanner(chars, &lexer);
    if (!lexAll(scanner, chars, sink, job.limits, tokens, facts)) return;
    // Tokens are moved into the source below; the facts keep raw pointers, which stay valid
    // because the tokens themselves do not move.
    const size_t count = tokens.size();
    source = std::make_unique<antlr4::ListTokenSource>(std::move(tokens));
    stream = std::make_unique<GuardedTokenStream>(source.get(), sink, count);
    stream->fill();

    auto startRule = [&](P& p) -> antlr4::tree::ParseTree* {
      if (job.entry == Entry::File) return p.file();
      return p.replExpr();
    };

    // Stage 1: SLL, bail out at the first error.
    bool stage1 = false;
    {
      parser = std::make_unique<P>(stream.get());
      parser->removeErrorListeners();
      parser->setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
      parser->getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
          antlr4::atn::PredictionMode::SLL);
      guard = std::make_unique<NestingGuard>(sink, maxLevels);
      parser->addParseListener(guard.get());
      try {
        tree = startRule(*parser);
        stage1 = true;
      } catch (antlr4::ParseCancellationException&) {
        stage1 = false;
      }
    }
    // Stage 2: full LL, with error recovery and messages.
    if (!stage1) {
      tree = nullptr;
      stream->seek(0);
      stream->resetBudget();
      parser = std::make_unique<P>(stream.get());
      parser->removeErrorListeners();
      parser->addErrorListener(&listener);
      parser->setErrorHandler(std::make_shared<SyntaxErrorStrategy>(pending));
      parser->getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
          antlr4::atn::PredictionMode::LL);
      guard = std::make_unique<NestingGuard>(sink, maxLevels);
      parser->addParseListener(guard.get());
      try {
        tree = startRule(*parser);
      } catch (ParseAbort&) {
        tree = guard->root();
      }
      parser->removeErrorListeners();
    }
    AstBuilder builder(job.diags, job.file, &chars);
    if (job.entry == Entry::File) {
      builder.buildFile(dynamic_cast<P::FileContext*>(tree), *job.fileOut);
    } else {
      job.exprOut = builder.buildReplExpr(dynamic_cast<P::ReplExprContext*>(tree));
    }
  } catch (ParseAbort&) {
    // Reported by whoever threw. Build what the parser got to, if anything.
    if (job.entry == Entry::File && guard != nullptr && guard->root() != nullptr) {
      try {
        AstBuilder builder(job.diags, job.file, &chars);
        builder.buildFile(dynamic_cast<P::FileContext*>(guard->root()), *job.fileOut);
      } catch (...) {
      }
    }
    job.exprOut = nullptr;
  } catch (std::exception& e) {
    job.diags.error(fileRange(job.file), fmt::format("internal parser error: {}", e.what()));
    job.exprOut = nullptr;
  } catch (...) {
    job.diags.error(fileRange(job.file), "internal parser error");
    job.exprOut = nullptr;
  }
}

// The hand-written parser's attempt (syntax/descent.cpp): the file scanned, its messages kept
// aside, and parsed if it scanned without one. True when the AST is in job.fileOut; false (and
// nothing reported, job.fileOut untouched) when the file is to be read by the generated parser.
bool parseCorrectFile(ParseJob& job, std::string_view input) {
  try {
    diag::Diagnostics aside(job.diags.sources());
    ErrorSink sink(aside, job.file);
    SourceCharStream chars(input);
    PolemosLexer lexer(&chars);
    lexer.removeErrorListeners();
    std::vector<std::unique_ptr<antlr4::Token>> tokens;
    TokenFacts facts;
    Scanner scanner(chars, &lexer);
    if (!lexAll(scanner, chars, sink, job.limits, tokens, facts)) return false;
    if (aside.reportCount() != 0 || !aside.all().empty() || !facts.unclosed.empty() ||
        !facts.unmatchedClosers.empty())
      return false;
    ast::File out;
    out.file = job.file;
    if (!parseByDescent(tokens, job.file, &chars, out)) return false;
    *job.fileOut = std::move(out);
    return true;
  } catch (...) {
    return false;  // the generated parser's path reports whatever it was
  }
}

// Steps 1 and 2, then 3 to 5 on the parser thread (for what the hand-written parser declines).
void parseGuarded(ParseJob& job) {
  const std::string& text = job.diags.sources().text(job.file);
  if (text.size() > job.limits.maxBytes) {
    job.diags.error(fileRange(job.file),
                    fmt::format("file is too large ({} bytes; the limit is {})", text.size(),
                                formatSize(job.limits.maxBytes)));
    return;
  }
  if (std::optional<Utf8Error> bad = validateUtf8(text)) {
    diag::SourceRange r;
    r.begin = diag::SourceLoc{job.file, bad->line, bad->col};
    r.end = r.begin;
    r.end.col += 1;
    job.diags.error(r, fmt::format("invalid UTF-8 byte 0x{:02x} (the file must be UTF-8 text)",
                                   static_cast<unsigned>(bad->byte)));
    return;
  }
  // A byte-order mark is one code point: replaced by a space, columns stay as they were (the
  // runtime would otherwise drop it and shift the first line by one).
  std::string withoutBom;
  std::string_view input = text;
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) {
    withoutBom = " " + text.substr(3);
    input = withoutBom;
  }
  // A file goes to the hand-written parser first, on this thread: it nests no deeper than its
  // own limit and shares nothing with other parses. What it declines (anything with an error
  // among it) is scanned again, and parsed by the generated parser, which reports.
  if (job.entry == Entry::File && job.limits.parser != ParserChoice::Generated) {
    if (parseCorrectFile(job, input)) return;
    if (job.limits.parser == ParserChoice::HandWritten) {
      job.diags.error(fileRange(job.file), "declined by the hand-written parser");
      return;
    }
  }
  std::lock_guard<std::mutex> lock(parserMutex());
  std::function<void()> fn = [&] { runParse(job, input); };
  runWithLargeStack(fn);
}

}  // namespace

std::unique_ptr<ast::File> parseFile(diag::Diagnostics& diags, diag::FileId file,
                                     const ParseLimits& limits) {
  auto out = std::make_unique<ast::File>();
  out->file = file;
  if (file >= diags.sources().fileCount()) {
    diags.error(diag::SourceRange{}, "internal error: parseFile called with an unknown file");
    return out;
  }
  ParseJob job{diags, file, limits, Entry::File, out.get(), nullptr};
  parseGuarded(job);
  return out;
}

ast::ExprPtr parseExpression(diag::Diagnostics& diags, diag::FileId file,
                             const ParseLimits& limits) {
  if (file >= diags.sources().fileCount()) {
    diags.error(diag::SourceRange{}, "internal error: parseExpression called with an unknown file");
    return nullptr;
  }
  const size_t before = diags.reportCount();
  ParseJob job{diags, file, limits, Entry::Expression, nullptr, nullptr};
  parseGuarded(job);
  if (diags.reportCount() != before) return nullptr;
  return std::move(job.exprOut);
}

}  // namespace polemos::syntax
