// Hex builtins (see builtins_hex.cpp); registered in the table of builtins.cpp.
#pragma once

#include <span>

#include "ir/value.h"

namespace polemos::eval {

class Context;

ir::Value bDistance(Context& c, std::span<const ir::Value> a);
ir::Value bDirection(Context& c, std::span<const ir::Value> a);
ir::Value bLineOfSight(Context& c, std::span<const ir::Value> a);
ir::Value bReachable(Context& c, std::span<const ir::Value> a);
ir::Value bPathCost(Context& c, std::span<const ir::Value> a);
ir::Value bPath(Context& c, std::span<const ir::Value> a);
ir::Value bReachableFrom(Context& c, std::span<const ir::Value> a);
ir::Value bPathCostFrom(Context& c, std::span<const ir::Value> a);
ir::Value bPathFrom(Context& c, std::span<const ir::Value> a);
ir::Value bZoc(Context& c, std::span<const ir::Value> a);
ir::Value bSectorToward(Context& c, std::span<const ir::Value> a);
ir::Value bSector(Context& c, std::span<const ir::Value> a);

}  // namespace polemos::eval
