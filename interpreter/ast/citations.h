// Every rule citation (`§7.43`) a declaration carries, wherever it is written: on the declaration,
// its fields, enum members and unit values, modifier clauses and result cases, and inside its code
// (requirements, rolls, choices, notes, phases, steps, citation values). It only walks the tree;
// what a citation means (its order in the rule book, its coverage) is for the modules above.
#pragma once

#include <functional>

#include "ast/ast.h"

namespace polemos::ast {

using CitationVisitor = std::function<void(const Citation&)>;

void forEachCitation(const Decl& d, const CitationVisitor& visit);
// Every citation of a block: its own, its declarations', and a scenario's (map, sides, forces,
// settings and special rules).
void forEachCitation(const Block& b, const CitationVisitor& visit);

}  // namespace polemos::ast
