#pragma once
// Rule coverage: which functions of the program ran. Off (a null sink) unless a command asks for
// coverage (`polemos run --coverage`); the evaluator marks a function each time it enters one.
// The sink is per thread, so simulations on several threads can keep their own.
#include <cstdint>
#include <vector>

namespace polemos::eval {

inline thread_local std::vector<uint8_t>* g_coverage = nullptr;         // by function
inline thread_local std::vector<uint8_t>* g_requireCoverage = nullptr;  // by requirement

inline void cover(int32_t fn) {
  if (g_coverage && fn >= 0 && static_cast<size_t>(fn) < g_coverage->size())
    (*g_coverage)[static_cast<size_t>(fn)] = 1;
}

inline void coverRequire(int32_t r) {
  if (g_requireCoverage && r >= 0 && static_cast<size_t>(r) < g_requireCoverage->size())
    (*g_requireCoverage)[static_cast<size_t>(r)] = 1;
}

}  // namespace polemos::eval
