#include "ast/ast.h"

namespace polemos::ast {

std::string QualifiedName::joined() const {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += '.';
    out += parts[i].name;
  }
  return out;
}

}  // namespace polemos::ast
