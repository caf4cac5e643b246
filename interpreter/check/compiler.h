// The checker's last passes: names, types, table shapes and citations, and lowering to the IR.
//
// Input: the merged declarations of a ruleset (after overlays), the scenario, in source order.
// Output: a Program whose functions are bytecode with every name resolved to a slot or an index.
// Errors go to the diagnostics engine with the offending token's range; compilation goes on after
// an error so that one run reports several.
#pragma once

#include <vector>

#include "ast/ast.h"
#include "diag/diagnostics.h"
#include "ir/program.h"

namespace polemos::check {

struct MergedDecl {
  const ast::Decl* decl = nullptr;
  int layer = 0;  // 0 = the base ruleset; higher layers are overlays
};

// Compiles `decls` (and `scenario` if not null) into `out`. Returns false on errors.
bool compileProgram(diag::Diagnostics& diags, const std::vector<MergedDecl>& decls,
                    const ast::Block* scenario, ir::Program& out);

// Compiles a standalone expression (the REPL's `eval` and `expect`) against an already compiled
// program, appending one pure function of no parameters to `program` (a copy: the shared program
// stays immutable). Returns its index, or -1 with errors in `diags`.
int32_t compileExpression(diag::Diagnostics& diags, const ast::Expr& expr, ir::Program& program);

}  // namespace polemos::check
