// The language's reserved and soft keywords, for REPL tab completion and for messages. Kept in
// the same order as grammar/Polemos.g4; tests/unit/syntax_keywords_test.cpp checks that every
// word here is a keyword of the generated lexer that cannot be used as a name, and that every
// such keyword is here.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace polemos::syntax {

// Words that can never be names. (`row` is one: it starts a table row, so a name spelled `row`
// would be ambiguous in a table. `table` and `function` are soft: the grammar lists them in
// `ident`, so that they can also name things.)
inline constexpr std::array<std::string_view, 36> kReservedWords = {
    "ruleset",  "include",   "uses",   "levels",  "option",  "enum",     "const",  "quantity",
    "modifier", "procedure", "action", "results", "trigger", "sequence", "when",   "let",
    "if",       "else",      "for",    "in",      "while",   "require",  "return", "alternate",
    "emit",     "apply",     "then",   "and",     "or",      "not",      "true",   "false",
    "none",     "roll",      "choose", "row"};

// Every keyword the generated lexer knows, reserved or soft (`side`, `state`, `phase`, ...), in
// grammar order. Soft keywords are ordinary names wherever they do not start a construct.
std::vector<std::string> lexerKeywords();

// The token types of the soft keywords (every keyword of the lexer not in kReservedWords): with
// ID, the tokens the grammar's `ident` accepts as a name.
std::vector<size_t> softKeywordTypes();

}  // namespace polemos::syntax
