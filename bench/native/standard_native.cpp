// The Standard rules by hand (bench/native/standard_native.h says which and what is left out).
#include "native/standard_native.h"

#include <algorithm>
#include <string>

namespace polemos::native {

namespace {

int fieldOf(const ir::Schema& s, const std::string& name) {
  for (size_t f = 0; f < s.fields.size(); ++f)
    if (s.fields[f].name == name) return static_cast<int>(f);
  return -1;
}

Effect effectOf(const std::string& name) {
  if (name == "AH") return Effect::AH;
  if (name == "DD") return Effect::DD;
  if (name == "DT") return Effect::DT;
  return Effect::NE;
}

// The reconstructed Combat Results Table of rulesets/standard/tables.pol: rows die 1-6, columns
// 1:4 1:3 1:2 1:1 2:1 3:1 4:1 5:1 6:1; results AR AL EX DR DL, 5 no effect.
enum { AR, AL, EX, DR, DL, NO };
constexpr int kCrt[6][9] = {
    {AL, AL, AL, AR, AR, NO, EX, DR, DR}, {AL, AL, AR, AR, NO, EX, DR, DR, DL},
    {AL, AR, AR, NO, EX, DR, DR, DL, DL}, {AR, AR, NO, EX, DR, DR, DL, DL, DL},
    {AR, NO, EX, DR, DR, DL, DL, DL, DL}, {NO, EX, DR, DR, DL, DL, DL, DL, DL}};
constexpr int kColumnOdds[9][2] = {{1, 4}, {1, 3}, {1, 2}, {1, 1}, {2, 1},
                                   {3, 1}, {4, 1}, {5, 1}, {6, 1}};

// The highest column whose odds are at most attack:defense (-1: below 1:4); the defender's
// rounding, as stdlib's odds_column.
int oddsColumn(int attack, int defense) {
  if (defense <= 0) return 8;
  int best = -1;
  for (int c = 0; c < 9; ++c)
    if (kColumnOdds[c][0] * defense <= attack * kColumnOdds[c][1]) best = c;
  return best;
}

}  // namespace

Board boardOf(const engine::Session& s) {
  const ir::Program& P = s.program();
  const eval::GameState& st = s.state();
  Board b;
  const hex::Grid& g = *st.map.grid;
  b.size = g.size();
  b.sideCount = static_cast<int>(st.sides.size());
  b.next.resize(static_cast<size_t>(b.size));
  b.terrain.resize(static_cast<size_t>(b.size));
  b.sides.resize(static_cast<size_t>(b.size));
  int cost = fieldOf(P.terrainAttrs, "cost"), defense = fieldOf(P.terrainAttrs, "defense");
  int extra = fieldOf(P.hexsideAttrs, "extra"), trail = fieldOf(P.hexsideAttrs, "trail"),
      across = fieldOf(P.hexsideAttrs, "attack_across");
  for (int h = 0; h < b.size; ++h) {
    b.next[static_cast<size_t>(h)] = g.neighbourIndices(h);
    Terrain& t = b.terrain[static_cast<size_t>(h)];
    int kind = st.map.terrain[static_cast<size_t>(h)];
    if (kind < 0) {
      t.prohibited = true;
      continue;
    }
    const ir::KindInfo& k = P.terrains[static_cast<size_t>(kind)];
    const ir::Value& c = k.values[static_cast<size_t>(cost)];
    t.prohibited = c.isNone();
    t.cost = c.isNone() ? 0 : static_cast<int>(c.i);
    t.defense = effectOf(s.display(k.values[static_cast<size_t>(defense)]));
  }
  for (const auto& [pair, features] : st.map.hexsides) {
    for (int d = 0; d < 6; ++d) {
      int a = pair.first, z = pair.second;
      for (int turn = 0; turn < 2; ++turn) {
        if (b.next[static_cast<size_t>(a)][static_cast<size_t>(d)] != z) {
          std::swap(a, z);
          continue;
        }
        Hexside& side = b.sides[static_cast<size_t>(a)][static_cast<size_t>(d)];
        for (int32_t f : features) {
          const ir::KindInfo& k = P.features[static_cast<size_t>(f)];
          side.extra += static_cast<int>(k.values[static_cast<size_t>(extra)].i);
          side.trail = side.trail || k.values[static_cast<size_t>(trail)].truthy();
          side.halves = side.halves ||
                        effectOf(s.display(k.values[static_cast<size_t>(across)])) == Effect::AH;
        }
        std::swap(a, z);
      }
    }
  }
  for (const eval::UnitState& u : st.units) {
    Unit n;
    n.side = u.side;
    const ir::Schema& cls = P.classes[static_cast<size_t>(u.cls)];
    n.combat = cls.name == "Combat";
    auto field = [&](const char* name) -> const ir::Value* {
      int f = fieldOf(cls, name);
      return f < 0 ? nullptr : &u.fields[static_cast<size_t>(f)];
    };
    if (const ir::Value* v = field("strength")) n.strength = static_cast<int>(v->i);
    if (const ir::Value* v = field("ma")) n.ma = static_cast<int>(v->i);
    if (const ir::Value* v = field("dot")) n.dot = v->truthy();
    n.hex = u.status == eval::UnitStatus::OnMap ? u.hex : -1;
    b.units.push_back(n);
  }
  return b;
}

SideView viewOf(const Board& b, int side) {
  SideView v;
  v.zoc.assign(static_cast<size_t>(b.size), 0);
  v.enemy.assign(static_cast<size_t>(b.size), 0);
  v.combat.assign(static_cast<size_t>(b.size), 0);
  for (const Unit& e : b.units) {
    if (e.hex < 0 || !e.combat) continue;
    v.combat[static_cast<size_t>(e.hex)] = 1;
    if (e.side == side) continue;
    v.enemy[static_cast<size_t>(e.hex)] = 1;
    if (e.dot) continue;
    for (int32_t n : b.next[static_cast<size_t>(e.hex)])
      if (n >= 0 && !b.terrain[static_cast<size_t>(n)].prohibited)
        v.zoc[static_cast<size_t>(n)] = 1;
  }
  return v;
}

void reach(const Board& b, int unit, const SideView& v, std::vector<int>& cost) {
  const std::vector<uint8_t>& zoc = v.zoc;
  const Unit& u = b.units[static_cast<size_t>(unit)];
  cost.assign(static_cast<size_t>(b.size), -1);
  if (u.hex < 0) return;
  const int start = u.hex;
  // 5.13, 6.3, 11.1: a unit in an EZOC hex leaves it only if it may disengage.
  if (zoc[static_cast<size_t>(start)]) {
    bool disengage = !u.combat;
    if (!disengage && u.dot) {
      disengage = true;
      for (const Unit& e : b.units) {
        if (e.hex < 0 || e.side == u.side) continue;
        bool adjacent = false;
        for (int32_t n : b.next[static_cast<size_t>(start)]) adjacent = adjacent || n == e.hex;
        if (adjacent && e.ma > u.ma) disengage = false;
      }
    }
    if (!disengage) return;
  }
  // Dijkstra with a bucket per cost (costs are small integers up to the MA).
  const int budget = u.ma;
  std::vector<std::vector<int32_t>> buckets(static_cast<size_t>(budget) + 1);
  std::vector<int> best(static_cast<size_t>(b.size), -1);
  best[static_cast<size_t>(start)] = 0;
  buckets[0].push_back(start);
  for (int c = 0; c <= budget; ++c) {
    for (size_t i = 0; i < buckets[static_cast<size_t>(c)].size(); ++i) {
      int32_t h = buckets[static_cast<size_t>(c)][i];
      if (best[static_cast<size_t>(h)] != c) continue;
      // 6.0: entering an EZOC hex ends the move (the start hex does not).
      if (h != start && zoc[static_cast<size_t>(h)]) continue;
      for (int d = 0; d < 6; ++d) {
        int32_t to = b.next[static_cast<size_t>(h)][static_cast<size_t>(d)];
        if (to < 0) continue;
        const Terrain& t = b.terrain[static_cast<size_t>(to)];
        if (t.prohibited) continue;  // 5.21
        // 5.34: never straight from one EZOC hex into another on the first step.
        if (h == start && zoc[static_cast<size_t>(h)] && zoc[static_cast<size_t>(to)]) continue;
        if (v.enemy[static_cast<size_t>(to)]) continue;  // 5.12
        const Hexside& s = b.sides[static_cast<size_t>(h)][static_cast<size_t>(d)];
        int step = s.trail ? 1 : t.cost + s.extra;  // 5.22-5.25
        int now = c + step;
        if (now > budget) continue;
        int& was = best[static_cast<size_t>(to)];
        if (was >= 0 && was <= now) continue;
        was = now;
        buckets[static_cast<size_t>(now)].push_back(to);
      }
    }
  }
  for (int h = 0; h < b.size; ++h)
    if (h != start) cost[static_cast<size_t>(h)] = best[static_cast<size_t>(h)];
}

int resolveMelee(Board& b, const std::vector<int>& attackers, int defender, int die) {
  Unit& d = b.units[static_cast<size_t>(defender)];
  const int target = d.hex;
  const Terrain& t = b.terrain[static_cast<size_t>(target)];
  int attack = 0;
  for (int a : attackers) {
    const Unit& u = b.units[static_cast<size_t>(a)];
    int s = u.strength;
    if (t.defense == Effect::AH) s /= 2;  // 7.41
    for (int dir = 0; dir < 6; ++dir)     // 7.42
      if (b.next[static_cast<size_t>(u.hex)][static_cast<size_t>(dir)] == target &&
          b.sides[static_cast<size_t>(u.hex)][static_cast<size_t>(dir)].halves)
        s /= 2;
    attack += s;
  }
  int defense = d.strength * (t.defense == Effect::DD ? 2 : t.defense == Effect::DT ? 3 : 1);
  int col = oddsColumn(attack, defense);
  int r = col < 0 ? AL : kCrt[die - 1][col];
  auto retreat = [&](int who, int side) {
    Unit& u = b.units[static_cast<size_t>(who)];
    std::vector<uint8_t> zoc = viewOf(b, side).zoc;
    for (int32_t n : b.next[static_cast<size_t>(u.hex)]) {
      if (n < 0 || b.terrain[static_cast<size_t>(n)].prohibited || zoc[static_cast<size_t>(n)])
        continue;
      bool free = true;
      for (const Unit& x : b.units)
        if (x.hex == n && (x.side != side || x.combat)) free = false;
      if (free) {
        u.hex = n;
        return;
      }
    }
    u.hex = -1;  // 7.73: no hex to retreat into
  };
  if (r == AL || r == EX) b.units[static_cast<size_t>(attackers.front())].hex = -1;
  if (r == DL || r == EX) d.hex = -1;
  if (r == AR)
    for (int a : attackers) retreat(a, b.units[static_cast<size_t>(a)].side);
  if (r == DR) retreat(defender, d.side);
  return r;
}

int randomMovementPhase(Board& b, int side, uint64_t& rng) {
  auto draw = [&](size_t n) {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<size_t>((rng >> 33) % n);
  };
  for (Unit& u : b.units)
    if (u.side == side) u.moved = false;
  std::vector<int> cost;
  std::vector<std::pair<int, int>> options;
  int moves = 0;
  for (;;) {
    SideView v = viewOf(b, side);
    options.clear();
    for (size_t i = 0; i < b.units.size(); ++i) {
      const Unit& u = b.units[i];
      if (u.side != side || u.hex < 0 || u.moved) continue;
      reach(b, static_cast<int>(i), v, cost);
      for (int h = 0; h < b.size; ++h) {
        if (cost[static_cast<size_t>(h)] < 0) continue;
        // 5.32: a combat unit may not end its move stacked with another combat unit.
        if (u.combat && v.combat[static_cast<size_t>(h)]) continue;
        options.emplace_back(static_cast<int>(i), h);
      }
    }
    size_t pick = draw(options.size() + 1);
    if (pick == options.size()) return moves;  // end
    Unit& u = b.units[static_cast<size_t>(options[pick].first)];
    u.hex = options[pick].second;
    u.moved = true;
    ++moves;
  }
}

}  // namespace polemos::native
