// The one door to the ANTLR runtime and the generated lexer and parser. Only files in
// interpreter/syntax/ include this header, and nothing declared through it appears in a header
// outside syntax/: the rest of the interpreter sees the AST only.
//
// The runtime and the generated code do not compile cleanly under our warning flags (-Wattributes,
// unused parameters, overloaded virtuals, ...); they are not ours to fix, so their warnings are
// silenced here and only here.
#pragma once

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wall"
#pragma GCC diagnostic ignored "-Wextra"
#pragma GCC diagnostic ignored "-Wattributes"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Woverloaded-virtual"
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#pragma GCC diagnostic ignored "-Wnon-virtual-dtor"
#pragma GCC diagnostic ignored "-Wsuggest-override"
#pragma GCC diagnostic ignored "-Wshadow"

#include "PolemosLexer.h"
#include "PolemosParser.h"
#include "antlr4-runtime.h"

#pragma GCC diagnostic pop
