// Type names as the language writes them (`int`, `list<unit>`, `Weapon?`), for messages and help.
#include <fmt/format.h>

#include <string>

#include "ir/program.h"

namespace polemos::ir {

std::string typeName(const Program& p, const Type& t) {
  std::string base;
  switch (t.kind) {
    case TypeKind::Any:
      base = "any";
      break;
    case TypeKind::None:
      base = "none";
      break;
    case TypeKind::Bool:
      base = "bool";
      break;
    case TypeKind::Int:
      base = "int";
      break;
    case TypeKind::Odds:
      base = "odds";
      break;
    case TypeKind::Str:
      base = "string";
      break;
    case TypeKind::Enum:
      base = t.id >= 0 ? p.enums[t.id].name : "enum";
      break;
    case TypeKind::Unit:
      base = t.id >= 0 ? fmt::format("unit ({})", p.classes[t.id].name) : "unit";
      break;
    case TypeKind::Side:
      base = "side";
      break;
    case TypeKind::Hex:
      base = "hex";
      break;
    case TypeKind::Terrain:
      base = "terrain";
      break;
    case TypeKind::Feature:
      base = "hexside kind";
      break;
    case TypeKind::UnitType:
      base = "unit type";
      break;
    case TypeKind::Level:
      base = "level";
      break;
    case TypeKind::Table:
      base = "table";
      break;
    case TypeKind::Column:
      base = "column";
      break;
    case TypeKind::Die:
      base = "die";
      break;
    case TypeKind::List:
      base = "list<" + typeName(p, t.element()) + ">";
      break;
    case TypeKind::Func:
      base = "function";
      break;
    case TypeKind::Void:
      base = "nothing";
      break;
  }
  return t.optional ? base + "?" : base;
}

}  // namespace polemos::ir

namespace polemos::ir {

std::string FieldInfo::outOfBounds(const std::string& who, const Value& v) const {
  std::string cites;
  for (const auto& c : citations) cites += (cites.empty() ? " (§" : " §") + c;
  if (!cites.empty()) cites += ")";
  return fmt::format("{} would be {}, outside its range {}..{}{}", who, v.i, bounds->first,
                     bounds->second, cites);
}

}  // namespace polemos::ir
