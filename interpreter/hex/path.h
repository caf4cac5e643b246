// Movement: the cheapest legal path and the set of reachable hexes under caller-supplied rules.
//
// The search is a Dijkstra over dense per-hex arrays. Everything a ruleset decides is a parameter:
// the cost of each step (terrain, hexside extras, trails, prohibited hexes: all inside one
// callback), hexes whose entry ends movement (an enemy zone of control), whether the unit may leave
// its start hex, the budget (movement allowance or action points) and, for games with facing, the
// cost of rotating in place. It knows nothing of units, sides or terrain names.
//
// Facing mode. When MoveSpec::facing is set, the search state is (hex, facing). A unit may rotate
// once in each hex it stands in (at the start, or after entering a hex), from its current facing to
// any other, at the price rotationCost gives: one rotation transition covers any number of
// hexsides, so "one hexside free, 1 MP for more" (Deluxe 8.4) is a callback returning 0 or 1.
// Moving into an adjacent hex is priced by stepCost, which sees the current facing and so can allow
// only the front hex (Deluxe 8.3). After a move the facing is kept, or turned to the direction
// moved (FacingAfterMove).
//
// Tie-breaking. Among legal paths to a state the search prefers, in order: the lowest total cost;
// then the fewest moves (hexes entered); then the fewest transitions (moves plus rotations); then
// the path whose last transition is smallest, where moves come before rotations, moves compare by
// direction in the order N, NE, SE, S, SW, NW, then by the facing they start from, then an
// unrotated start before a rotated one, and rotations compare by the facing they start from. The
// rest of the path is the path chosen, by the same rule, to the state before that last transition.
// For a hex reached in several facings, the hex's path is that of the best facing by the same
// order, ties going to the lowest facing. cheapestPath(to) always equals reachable().path(to).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "hex/coord.h"
#include "hex/grid.h"

namespace polemos::hex {

// A cost callback returns this (or any negative number) to forbid a step or rotation.
inline constexpr int kImpassable = -1;

// One step of movement, as the cost callback sees it.
struct Step {
  Hex from;
  Hex to;
  Direction direction = Direction::N;  // from `from` to `to`
  std::optional<Direction> facing;     // the mover's facing before the step, in facing mode
  // The two hexes' indices in the grid the search runs on, when it gives them (-1: not given);
  // a cost function that works with indices need not look them up again.
  int32_t fromIndex = -1, toIndex = -1;
};

// Costs are integers in the ruleset's units; a game with half movement points counts halves.
using StepCostFn = std::function<int(const Step&)>;
using RotationCostFn = std::function<int(Hex at, Direction from, Direction to)>;
using HexPredicate = std::function<bool(Hex)>;

enum class FacingAfterMove : uint8_t {
  Keep,        // the unit keeps its facing (moving forward only, or sidestepping)
  TurnToMove,  // the unit turns to face the direction it moved
};

struct MoveSpec {
  Hex start;
  // The most the move may cost in total (MA, action points).
  int budget = 0;
  // Required: the cost of entering `to` from `from`, including any hexside extras, or kImpassable.
  // It is never called for off-map hexes.
  StepCostFn stepCost;
  // Optional: entering such a hex ends movement (an enemy ZOC, Standard 5.13). The unit may enter
  // it but not move on; the start hex is not "entered", so this is not asked about it.
  HexPredicate stopsIn;
  // Optional: asked once, about the start hex; if true the unit may not leave it (it may still
  // rotate, if rotationCost allows).
  HexPredicate mayNotLeave;
  // If true, the first transition of the move may be a single step that costs more than the
  // budget (Deluxe 8.3: "moving only one hex straight ahead"); after it only free transitions
  // remain. Impassable steps stay impassable.
  bool firstStepIgnoresBudget = false;

  // Facing mode: set to the unit's facing at the start.
  std::optional<Direction> facing;
  // Facing mode, required: the cost of rotating in hex `at` from one facing to another.
  RotationCostFn rotationCost;
  FacingAfterMove afterMove = FacingAfterMove::Keep;
  // Facing mode, optional: the directions a unit with the given facing may step in, as a mask
  // (bit d: Direction d). Asked at most once per facing and search, when a state with that
  // facing is first expanded; a step in another direction is never priced (stepCost is not
  // called for it), as if stepCost had refused it (Deluxe 8.3: only into the front hex). Unset:
  // all six directions are tried.
  std::function<uint8_t(Direction facing)> stepDirections;
};

enum class PathNodeKind : uint8_t { Start, Move, Rotate };

struct PathNode {
  PathNodeKind kind = PathNodeKind::Start;
  Hex hex;
  std::optional<Direction> facing;  // in facing mode
  int cost = 0;                     // total spent so far
};

struct Path {
  // The start first; then one node per move or rotation.
  std::vector<PathNode> nodes;

  int cost() const { return nodes.empty() ? 0 : nodes.back().cost; }
  // The number of hexes entered.
  int moves() const;
  // The hexes visited in order, the start included, without repeats for rotations.
  std::vector<Hex> hexes() const;
  Hex destination() const { return nodes.back().hex; }
};

// The result of a search: every reachable hex (and facing) with its cost and path. A Reach keeps a
// pointer to its grid, which must outlive it.
class Reach {
 public:
  // A Reach's states come from a pool of its thread's, every state unseen, and go back to it
  // when the Reach is destroyed with the states it touched made unseen again: a search of forty
  // hexes neither allocates nor clears an array the size of the map.
  Reach(Reach&& o) noexcept;
  Reach& operator=(Reach&& o) noexcept;
  Reach(const Reach&) = delete;
  Reach& operator=(const Reach&) = delete;
  ~Reach();

  Hex start() const { return start_; }
  bool facingMode() const { return facing_; }

  // False for unreachable and off-map hexes.
  bool contains(Hex h) const;
  // The cost of the chosen path; throws HexError if h is not reachable.
  int cost(Hex h) const;
  Path path(Hex h) const;
  // Facing mode: the same for arriving in h with the given facing (after any final rotation).
  bool contains(Hex h, Direction facing) const;
  int cost(Hex h, Direction facing) const;
  Path path(Hex h, Direction facing) const;

  // Every reachable hex, in grid index order (the order of the printed hex numbers).
  std::vector<Hex> hexes() const;
  // Without facing: per grid index, the index of the hex before it on its chosen path (kNoIndex
  // for the start and for hexes not reached). Following it back from h gives path(h)'s hexes.
  // Throws HexError in facing mode, where a hex's path may pass another hex in a facing that is
  // not that hex's best.
  std::vector<int32_t> previousHexes() const;
  // The grid indices of the hexes reached, ascending (the indices of hexes()), worked out of the
  // states the search settled rather than by a walk over the map.
  std::vector<int32_t> reachedIndices() const;
  // By grid index, for a hex reached (one of reachedIndices()): the cost of its chosen path (in
  // facing mode the least of its facings'), and without facing the index of the hex before it
  // on that path (kNoIndex for the start). Facing mode: the cost of arriving facing that way,
  // or -1 if it is not reached.
  int costAt(int32_t hexIndex) const;
  int32_t previousIndex(int32_t hexIndex) const;
  int costAt(int32_t hexIndex, Direction facing) const;

 private:
  // Only the search functions make a Reach, so every Reach refers to a grid.
  Reach() = default;
  friend Reach reachable(const Grid& grid, const MoveSpec& spec);
  friend std::optional<Path> cheapestPath(const Grid& grid, const MoveSpec& spec, Hex to);

  struct Node {
    int cost = 0;
    int moves = 0;
    int transitions = 0;
    int32_t parent = -1;
    uint8_t label = 0;  // the last transition, encoded for tie-breaking
    uint8_t state = 0;  // 0 unseen, 1 queued, 2 settled
  };

  // Runs the search into this object; if targetHex is not kNoIndex, stops as soon as a state of
  // that hex is settled and returns it (otherwise, or if it is never reached, returns -1).
  int32_t run(const Grid& grid, const MoveSpec& spec, int32_t targetHex);

  int statesPerHex() const { return facing_ ? 12 : 1; }
  int32_t bestState(int32_t hexIndex) const;  // -1 if none settled
  int32_t requireState(Hex h, std::optional<Direction> facing) const;
  Path pathTo(int32_t state) const;

  const Grid* grid_ = nullptr;
  Hex start_;
  bool facing_ = false;
  // Puts nodes_ back in the pool (its touched states unseen again), leaving it empty.
  void release();

  std::vector<Node> nodes_;
  std::vector<int32_t> settled_;  // the states settled, in the order they were
  std::vector<int32_t> touched_;  // every state made other than unseen
};

// Runs the search from spec.start over the whole budget. Throws HexError if the start is off the
// map or a required callback is missing.
Reach reachable(const Grid& grid, const MoveSpec& spec);

// The chosen path to `to`, or nullopt if it cannot be reached. Stops searching as soon as `to` is
// settled; the answer is the same as reachable(grid, spec).path(to). Throws HexError if `to` or the
// start is off the map.
std::optional<Path> cheapestPath(const Grid& grid, const MoveSpec& spec, Hex to);

}  // namespace polemos::hex
