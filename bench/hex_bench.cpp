// Hex geometry benchmarks: the movement search for an MA-8 unit on an open 55 x 27 map (with and
// without facing), 1,000 line-of-sight queries between random pairs, and baselines measured in the
// same run so results can be quoted as ratios: a plain breadth-first search over the same grid, a
// loop of 1,000 distance computations, and the common floating-point "sample N+1 points and round"
// line that cannot detect lines along hexsides.
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <vector>

#include "hex/los.h"
#include "hex/map.h"
#include "hex/path.h"

namespace {

using namespace polemos::hex;

constexpr int kClear = 0;
constexpr int kWoods = 1;
constexpr int kPairs = 1000;

// An open 55 x 27 map, the size of the Chalons map.
const Map& openMap() {
  static const Map m(GridSpec{1, 55, 1, 27});
  return m;
}

// The same map with one hex in five woods, so that sight lines are sometimes blocked.
const Map& woodedMap() {
  static const Map m = [] {
    Map w(GridSpec{1, 55, 1, 27});
    std::mt19937 rng(2024);
    for (Hex h : w.grid().hexes()) w.setTerrain(h, rng() % 5 == 0 ? kWoods : kClear);
    return w;
  }();
  return m;
}

const std::vector<std::pair<Hex, Hex>>& randomPairs() {
  static const std::vector<std::pair<Hex, Hex>> pairs = [] {
    const Grid& g = openMap().grid();
    std::mt19937 rng(7);
    std::uniform_int_distribution<int32_t> pick(0, g.size() - 1);
    std::vector<std::pair<Hex, Hex>> out;
    for (int i = 0; i < kPairs; ++i) out.emplace_back(g.hexAt(pick(rng)), g.hexAt(pick(rng)));
    return out;
  }();
  return pairs;
}

MoveSpec ma8Spec(const Map& m) {
  MoveSpec s;
  s.start = m.grid().parse("2714");
  s.budget = 8;
  s.stepCost = [&m](const Step& step) { return m.terrain(step.to) == kClear ? 1 : 3; };
  return s;
}

void BM_ReachableMa8(benchmark::State& state) {
  const Map& m = openMap();
  MoveSpec s = ma8Spec(m);
  for (auto _ : state) {
    Reach r = reachable(m.grid(), s);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_ReachableMa8);

void BM_ReachableMa8Facing(benchmark::State& state) {
  const Map& m = openMap();
  MoveSpec s = ma8Spec(m);
  s.facing = Direction::N;
  s.stepCost = [&m](const Step& step) {
    if (step.direction != *step.facing) return kImpassable;
    return m.terrain(step.to) == kClear ? 1 : 3;
  };
  s.rotationCost = [](Hex, Direction from, Direction to) {
    return turnSteps(from, to) <= 1 ? 0 : 1;
  };
  for (auto _ : state) {
    Reach r = reachable(m.grid(), s);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_ReachableMa8Facing);

void BM_CheapestPathMa8(benchmark::State& state) {
  const Map& m = openMap();
  MoveSpec s = ma8Spec(m);
  Hex to = m.grid().parse("3218");
  for (auto _ : state) {
    auto p = cheapestPath(m.grid(), s, to);
    benchmark::DoNotOptimize(p);
  }
}
BENCHMARK(BM_CheapestPathMa8);

// Baseline: breadth-first search to depth 8 over the grid's neighbour table, with the same per-step
// terrain lookup, a fresh distance array per query and no callbacks.
void BM_BaselineBfsMa8(benchmark::State& state) {
  const Map& m = openMap();
  const Grid& g = m.grid();
  int32_t start = g.indexOf(g.parse("2714"));
  for (auto _ : state) {
    std::vector<int> dist(static_cast<size_t>(g.size()), -1);
    std::vector<int32_t> frontier;
    frontier.reserve(256);
    frontier.push_back(start);
    dist[static_cast<size_t>(start)] = 0;
    for (size_t i = 0; i < frontier.size(); ++i) {
      int32_t cur = frontier[i];
      int d = dist[static_cast<size_t>(cur)];
      if (d == 8) continue;
      for (int32_t n : g.neighbourIndices(cur)) {
        if (n == kNoIndex || dist[static_cast<size_t>(n)] >= 0) continue;
        if (m.terrain(g.hexAt(n)) != kClear) continue;
        dist[static_cast<size_t>(n)] = d + 1;
        frontier.push_back(n);
      }
    }
    benchmark::DoNotOptimize(dist.data());
  }
}
BENCHMARK(BM_BaselineBfsMa8);

void BM_LineOfSight1000(benchmark::State& state) {
  const Map& m = woodedMap();
  const Grid& g = m.grid();
  HexBlocks blocks = [&m](Hex h) { return m.terrain(h) == kWoods; };
  int clear = 0;
  for (auto _ : state) {
    clear = 0;
    for (auto [a, b] : randomPairs()) clear += lineOfSight(g, a, b, blocks).clear ? 1 : 0;
    benchmark::DoNotOptimize(clear);
  }
  state.counters["clear"] = clear;
}
BENCHMARK(BM_LineOfSight1000);

// Sight lines on the open map never stop early, so every line is traced in full.
void BM_LineOfSightOpen1000(benchmark::State& state) {
  const Map& m = openMap();
  const Grid& g = m.grid();
  HexBlocks blocks = [&m](Hex h) { return m.terrain(h) == kWoods; };
  for (auto _ : state) {
    int clear = 0;
    for (auto [a, b] : randomPairs()) clear += lineOfSight(g, a, b, blocks).clear ? 1 : 0;
    benchmark::DoNotOptimize(clear);
  }
}
BENCHMARK(BM_LineOfSightOpen1000);

void BM_TraceLine1000(benchmark::State& state) {
  const Grid& g = openMap().grid();
  for (auto _ : state) {
    size_t steps = 0;
    for (auto [a, b] : randomPairs()) steps += traceLine(g, a, b).steps.size();
    benchmark::DoNotOptimize(steps);
  }
}
BENCHMARK(BM_TraceLine1000);

// Baseline: 1,000 distance computations.
void BM_BaselineDistance1000(benchmark::State& state) {
  for (auto _ : state) {
    int total = 0;
    for (auto [a, b] : randomPairs()) total += distance(a, b);
    benchmark::DoNotOptimize(total);
  }
}
BENCHMARK(BM_BaselineDistance1000);

// Baseline: the usual floating-point line (sample distance + 1 points, round each to a hex) with
// the same predicate. Cheaper, but it picks one side arbitrarily where a line runs along a hexside.
void BM_BaselineSampledLine1000(benchmark::State& state) {
  const Map& m = woodedMap();
  const Grid& g = m.grid();
  for (auto _ : state) {
    int clear = 0;
    for (auto [a, b] : randomPairs()) {
      int n = distance(a, b);
      bool ok = true;
      for (int i = 1; i < n && ok; ++i) {
        double t = static_cast<double>(i) / n;
        double x = a.q + (b.q - a.q) * t + 1e-6;
        double z = a.r + (b.r - a.r) * t + 2e-6;
        double y = -x - z;
        double rx = std::round(x);
        double ry = std::round(y);
        double rz = std::round(z);
        double dx = std::abs(rx - x);
        double dy = std::abs(ry - y);
        double dz = std::abs(rz - z);
        if (dx > dy && dx > dz) {
          rx = -ry - rz;
        } else if (dy <= dz) {
          rz = -rx - ry;
        }
        Hex h{static_cast<int>(rx), static_cast<int>(rz)};
        ok = !(g.contains(h) && m.terrain(h) == kWoods);
      }
      clear += ok ? 1 : 0;
    }
    benchmark::DoNotOptimize(clear);
  }
}
BENCHMARK(BM_BaselineSampledLine1000);

}  // namespace
