// Hand-written C++ of a few Standard rules: the physical-limit baseline the interpreter is measured
// against (docs/performance.md). Each function does the same work as the interpreted rules it
// mirrors, as a programmer would write it for one edition with nothing interpreted: plain arrays,
// no values, no memo, no trace. It reads the map, the terrain and hexside values and the units
// from a started Session, so that both run on the same data; the rules are written here by hand
// from rulesets/standard (what each leaves out is said at each function). It is not part of the
// program: only the benchmarks (bench/native_bench.cpp) and their agreement test build it.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/session.h"
#include "hex/grid.h"

namespace polemos::native {

// Standard 7.41's terrain effects on combat.
enum class Effect : uint8_t { NE, AH, DD, DT };

struct Terrain {
  bool prohibited = false;  // cost none (5.21)
  int cost = 1;             // MP to enter (5.21-5.25)
  Effect defense = Effect::NE;
};

// What one hexside holds, its features combined (5.22, 5.24, 5.25, 7.42).
struct Hexside {
  int extra = 0;        // added MP to cross
  bool trail = false;   // trail to trail along the trail costs 1
  bool halves = false;  // attacking across it halves the attacker (AH)
};

struct Unit {
  int side = 0;
  bool combat = true;  // a combat unit (not a leader)
  bool dot = false;    // no ZOC (6.1), may disengage (11.1)
  int strength = 0;
  int ma = 0;
  int hex = -1;  // -1: off the map
  bool moved = false;
};

struct Board {
  int size = 0;
  std::vector<std::array<int32_t, 6>> next;   // per hex, the neighbour in each direction or -1
  std::vector<Terrain> terrain;               // per hex
  std::vector<std::array<Hexside, 6>> sides;  // per hex and direction
  std::vector<Unit> units;
  int sideCount = 2;
};

// The board of a started Session of Standard (or an overlay of it): its map, terrain and
// hexsides, and its units with their printed values.
Board boardOf(const engine::Session& s);

// What one side's movement asks of the board, made once per change: per hex, whether it is in a
// zone of control of an enemy (6.0-6.6: every combat unit without a dot exerts one into the six
// hexes around it, none into prohibited terrain), whether an enemy combat unit is in it (5.12),
// and whether a combat unit of any side is (5.32).
struct SideView {
  std::vector<uint8_t> zoc, enemy, combat;
};
SideView viewOf(const Board& b, int side);

// One movement search (5.0-5.34, 6.0, 11.1): the cost of reaching every hex (-1: not reachable;
// the unit's own hex excluded), as the interpreter's reachable(u) and path_cost(u, h) read it:
// terrain costs and prohibited terrain, hexside extras, the trail rule, no entry into a hex with
// an enemy combat unit, a stop on entering an enemy ZOC, no first step from one EZOC hex into
// another, no leaving an EZOC hex unless the unit may disengage (a dotted unit whose MA is at
// least every adjacent enemy's, or a leader). `v` is viewOf(b, the unit's side).
void reach(const Board& b, int unit, const SideView& v, std::vector<int>& cost);

// A melee as Standard resolves it (7.0-7.6, 7.41, 7.42, 7.71-7.73): attack strengths, halved in
// AH terrain or across an AH hexside; the defender's strength, doubled or tripled by its terrain;
// the odds column rounded in the defender's favour (columns 1:4 to 6:1 of the reconstructed
// CRT); the die; the result applied: a loss eliminates the first unit, a retreat moves each unit
// to its first open neighbour (not prohibited, not in an enemy ZOC, free of enemies), or
// eliminates it. Charges, slopes, leaders, refusals, forced hexes and advances are left out (the
// benchmark's attack has none). Returns the result's index (AR AL EX DR DL, 5: no effect).
int resolveMelee(Board& b, const std::vector<int>& attackers, int defender, int die);

// A sampling player's movement phase (5.0, 5.17, 5.32): until it draws `end`, it draws uniformly
// one of (unit that has not moved, hex it can reach and end in) or end, and moves the unit there.
// The draws come from `rng` (a 64-bit LCG state). Returns the moves made.
int randomMovementPhase(Board& b, int side, uint64_t& rng);

}  // namespace polemos::native
