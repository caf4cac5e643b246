// Movement search: Dijkstra over (hex) or (hex, facing, rotated-here) states with a lexicographic
// key (cost, moves, transitions) and a deterministic choice among equal keys.
//
// Every transition increases the key strictly (a move adds a move, a rotation a transition), so a
// state's key and parent are final when it is settled, and an early stop at the target gives the
// same answer as the full search.
#include "hex/path.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <iterator>

namespace polemos::hex {
namespace {

// In facing mode each hex has 12 states: 6 facings, times "has not rotated in this hex yet" (0)
// or "has" (1). The second flag is what limits a unit to one rotation per hex visit.
constexpr int kFacingStates = 12;
// Transition labels at or above this are rotations (see path.h for the order they encode).
constexpr uint8_t kRotationLabel = 72;

constexpr uint8_t kUnseen = 0;
constexpr uint8_t kQueued = 1;
constexpr uint8_t kSettled = 2;

// A queue entry packs the key into two words compared as one 128-bit number: (cost, moves) then
// (transitions, state). All four are non-negative and below 2^32, and comparing words is much
// cheaper than comparing four fields in turn, which is where a search spends its time.
struct QueueEntry {
  uint64_t high;
  uint64_t low;
};

QueueEntry entryFor(int cost, int moves, int transitions, int32_t state) {
  return QueueEntry{(static_cast<uint64_t>(cost) << 32) | static_cast<uint32_t>(moves),
                    (static_cast<uint64_t>(transitions) << 32) | static_cast<uint32_t>(state)};
}

// std::push_heap builds a max-heap; this ordering turns it into a min-heap on (key, state).
bool laterInQueue(const QueueEntry& a, const QueueEntry& b) {
  return a.high > b.high || (a.high == b.high && a.low > b.low);
}

}  // namespace

int Path::moves() const {
  return static_cast<int>(std::count_if(
      nodes.begin(), nodes.end(), [](const PathNode& n) { return n.kind == PathNodeKind::Move; }));
}

std::vector<Hex> Path::hexes() const {
  std::vector<Hex> out;
  for (const PathNode& n : nodes) {
    if (out.empty() || !(out.back() == n.hex)) out.push_back(n.hex);
  }
  return out;
}

namespace {
// Node arrays whose every state is unseen, for this thread's next searches (Reach::release puts
// them back). A few: a search may run while another search's Reach is alive.
template <class Node>
std::vector<std::vector<Node>>& nodePool() {
  static thread_local std::vector<std::vector<Node>> pool;
  return pool;
}
constexpr size_t kPooled = 8;
}  // namespace

Reach::Reach(Reach&& o) noexcept
    : grid_(o.grid_),
      start_(o.start_),
      facing_(o.facing_),
      nodes_(std::move(o.nodes_)),
      settled_(std::move(o.settled_)),
      touched_(std::move(o.touched_)) {
  o.nodes_.clear();
  o.touched_.clear();
}

Reach& Reach::operator=(Reach&& o) noexcept {
  if (this != &o) {
    release();
    grid_ = o.grid_;
    start_ = o.start_;
    facing_ = o.facing_;
    nodes_ = std::move(o.nodes_);
    settled_ = std::move(o.settled_);
    touched_ = std::move(o.touched_);
    o.nodes_.clear();
    o.touched_.clear();
  }
  return *this;
}

Reach::~Reach() {
  release();
}

void Reach::release() {
  if (nodes_.empty()) return;
  for (int32_t s : touched_) nodes_[static_cast<size_t>(s)] = Node{};
  touched_.clear();
  auto& pool = nodePool<Node>();
  if (pool.size() < kPooled) pool.push_back(std::move(nodes_));
  nodes_ = {};
}

int32_t Reach::run(const Grid& grid, const MoveSpec& spec, int32_t targetHex) {
  grid_ = &grid;
  start_ = spec.start;
  facing_ = spec.facing.has_value();
  int32_t startIndex = grid.requireIndex(spec.start);
  if (!spec.stepCost) throw HexError("a movement search needs a step cost function");
  if (facing_ && !spec.rotationCost) {
    throw HexError("a movement search with facing needs a rotation cost function");
  }
  const int sph = statesPerHex();
  release();
  const size_t states = static_cast<size_t>(grid.size()) * static_cast<size_t>(sph);
  auto& pool = nodePool<Node>();
  for (size_t i = pool.size(); i-- > 0;)
    if (pool[i].size() == states) {
      nodes_ = std::move(pool[i]);
      pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(i));
      break;
    }
  if (nodes_.size() != states) nodes_.assign(states, Node{});
  settled_.clear();
  std::vector<int8_t> stopCache;
  if (spec.stopsIn) stopCache.assign(static_cast<size_t>(grid.size()), -1);
  auto stopsIn = [&](int32_t hexIndex) {
    if (!spec.stopsIn) return false;
    int8_t& c = stopCache[static_cast<size_t>(hexIndex)];
    if (c < 0) c = spec.stopsIn(grid.hexAt(hexIndex)) ? 1 : 0;
    return c == 1;
  };
  const bool locked = spec.mayNotLeave && spec.mayNotLeave(spec.start);
  // The directions a step may take from a state of each facing, asked once per facing (bit 6:
  // not asked yet); all six without facing or without stepDirections.
  constexpr unsigned kEveryDirection = (1u << kDirectionCount) - 1, kNotAsked = 1u << 6;
  unsigned directions[kDirectionCount];
  std::fill(std::begin(directions), std::end(directions),
            facing_ && spec.stepDirections ? kNotAsked : kEveryDirection);
  auto directionsFor = [&](int facing) {
    unsigned& m = directions[facing];
    if (m == kNotAsked) m = spec.stepDirections(static_cast<Direction>(facing)) & kEveryDirection;
    return m;
  };

  std::vector<QueueEntry> queue;
  queue.reserve(64);
  auto push = [&](int32_t state) {
    const Node& n = nodes_[static_cast<size_t>(state)];
    queue.push_back(entryFor(n.cost, n.moves, n.transitions, state));
    std::push_heap(queue.begin(), queue.end(), laterInQueue);
  };

  const int32_t startState =
      facing_ ? startIndex * kFacingStates + static_cast<int32_t>(*spec.facing) * 2 : startIndex;
  nodes_[static_cast<size_t>(startState)].state = kQueued;
  touched_.push_back(startState);
  push(startState);

  auto relax = [&](const Node& from, int32_t fromState, int32_t to, int weight, bool isMove,
                   uint8_t label, bool firstTransition) __attribute__((always_inline)) {
    int64_t total = static_cast<int64_t>(from.cost) + weight;
    if (total > INT_MAX) return;
    bool allowed = weight == 0 || total <= spec.budget ||
                   (spec.firstStepIgnoresBudget && firstTransition && isMove);
    if (!allowed) return;
    Node& n = nodes_[static_cast<size_t>(to)];
    if (n.state == kSettled) return;
    int cost = static_cast<int>(total);
    int moves = from.moves + (isMove ? 1 : 0);
    int transitions = from.transitions + 1;
    bool better =
        n.state == kUnseen || cost < n.cost ||
        (cost == n.cost && (moves < n.moves || (moves == n.moves && transitions < n.transitions)));
    bool sameKey =
        n.state != kUnseen && cost == n.cost && moves == n.moves && transitions == n.transitions;
    if (better) {
      if (n.state == kUnseen) touched_.push_back(to);
      n = Node{cost, moves, transitions, fromState, label, kQueued};
      push(to);
    } else if (sameKey && label < n.label) {
      // Same key, so the queue entry stays valid; only the choice of parent changes.
      n.parent = fromState;
      n.label = label;
    }
  };

  while (!queue.empty()) {
    std::pop_heap(queue.begin(), queue.end(), laterInQueue);
    const QueueEntry e = queue.back();
    queue.pop_back();
    const int32_t state = static_cast<int32_t>(e.low & 0xffffffffu);
    Node& node = nodes_[static_cast<size_t>(state)];
    const QueueEntry now = entryFor(node.cost, node.moves, node.transitions, state);
    if (node.state == kSettled || now.high != e.high || now.low != e.low) {
      continue;  // a stale entry, superseded by a better key
    }
    node.state = kSettled;
    settled_.push_back(state);
    const Node current = node;
    const int32_t hexIndex = state / sph;
    if (hexIndex == targetHex) return state;
    const Hex here = grid.hexAt(hexIndex);
    const int facing = facing_ ? (state % kFacingStates) / 2 : 0;
    const int rotated = facing_ ? state % 2 : 0;
    const bool neverLeft = hexIndex == startIndex && current.moves == 0;
    const bool firstTransition = state == startState && current.transitions == 0;
    const bool mayMove = neverLeft ? !locked : !stopsIn(hexIndex);

    if (mayMove) {
      const auto& around = grid.neighbourIndices(hexIndex);
      const unsigned allowed = directionsFor(facing);
      for (int d = 0; d < kDirectionCount; ++d) {
        int32_t next = around[static_cast<size_t>(d)];
        if (next == kNoIndex || !(allowed >> d & 1u)) continue;
        int32_t to = next;
        uint8_t label = static_cast<uint8_t>(d);
        if (facing_) {
          int newFacing = spec.afterMove == FacingAfterMove::Keep ? facing : d;
          to = next * kFacingStates + newFacing * 2;
          label = static_cast<uint8_t>(d * kFacingStates + facing * 2 + rotated);
        }
        // A settled state is final whatever this step costs: the cost is not asked for (a step
        // cost is a call of the rules' move_cost; about half the steps of a search lead back to
        // a settled hex). Which steps are asked depends only on the answers before, so the
        // search stays a function of the costs it asked for.
        if (nodes_[static_cast<size_t>(to)].state == kSettled) continue;
        Step step{here, grid.hexAt(next), static_cast<Direction>(d), std::nullopt, hexIndex, next};
        if (facing_) step.facing = static_cast<Direction>(facing);
        int weight = spec.stepCost(step);
        if (weight < 0) continue;
        relax(current, state, to, weight, true, label, firstTransition);
      }
    }
    if (facing_ && rotated == 0) {
      for (int g = 0; g < kDirectionCount; ++g) {
        if (g == facing) continue;
        if (nodes_[static_cast<size_t>(hexIndex * kFacingStates + g * 2 + 1)].state == kSettled)
          continue;
        int weight =
            spec.rotationCost(here, static_cast<Direction>(facing), static_cast<Direction>(g));
        if (weight < 0) continue;
        int32_t to = hexIndex * kFacingStates + g * 2 + 1;
        relax(current, state, to, weight, false, static_cast<uint8_t>(kRotationLabel + facing),
              false);
      }
    }
  }
  return -1;
}

int32_t Reach::bestState(int32_t hexIndex) const {
  const int sph = statesPerHex();
  int32_t best = -1;
  for (int32_t s = hexIndex * sph; s < (hexIndex + 1) * sph; ++s) {
    const Node& n = nodes_[static_cast<size_t>(s)];
    if (n.state != kSettled) continue;
    if (best < 0) {
      best = s;
      continue;
    }
    const Node& b = nodes_[static_cast<size_t>(best)];
    if (n.cost < b.cost ||
        (n.cost == b.cost &&
         (n.moves < b.moves || (n.moves == b.moves && n.transitions < b.transitions)))) {
      best = s;
    }
  }
  return best;
}

int32_t Reach::requireState(Hex h, std::optional<Direction> facing) const {
  int32_t hexIndex = grid_->requireIndex(h);
  int32_t s = -1;
  if (facing) {
    if (!facing_) throw HexError("this movement search did not track facing");
    // The two states of one facing: not rotated in this hex, then rotated; keep the better.
    int32_t base = hexIndex * kFacingStates + static_cast<int32_t>(*facing) * 2;
    for (int32_t c = base; c < base + 2; ++c) {
      const Node& n = nodes_[static_cast<size_t>(c)];
      if (n.state != kSettled) continue;
      if (s < 0) {
        s = c;
        continue;
      }
      const Node& b = nodes_[static_cast<size_t>(s)];
      if (n.cost < b.cost ||
          (n.cost == b.cost &&
           (n.moves < b.moves || (n.moves == b.moves && n.transitions < b.transitions)))) {
        s = c;
      }
    }
  } else {
    s = bestState(hexIndex);
  }
  if (s < 0) {
    if (facing) {
      throw HexError(fmt::format("hex {} facing {} cannot be reached from {}", grid_->label(h),
                                 directionName(*facing), grid_->label(start_)));
    }
    throw HexError(
        fmt::format("hex {} cannot be reached from {}", grid_->label(h), grid_->label(start_)));
  }
  return s;
}

Path Reach::pathTo(int32_t state) const {
  const int sph = statesPerHex();
  Path path;
  for (int32_t s = state; s >= 0; s = nodes_[static_cast<size_t>(s)].parent) {
    const Node& n = nodes_[static_cast<size_t>(s)];
    PathNode node;
    node.hex = grid_->hexAt(s / sph);
    node.cost = n.cost;
    if (facing_) node.facing = static_cast<Direction>((s % kFacingStates) / 2);
    if (n.parent < 0) {
      node.kind = PathNodeKind::Start;
    } else {
      node.kind =
          (facing_ && n.label >= kRotationLabel) ? PathNodeKind::Rotate : PathNodeKind::Move;
    }
    path.nodes.push_back(node);
  }
  std::reverse(path.nodes.begin(), path.nodes.end());
  return path;
}

bool Reach::contains(Hex h) const {
  int32_t i = grid_->indexOf(h);
  return i != kNoIndex && bestState(i) >= 0;
}

int Reach::cost(Hex h) const {
  return nodes_[static_cast<size_t>(requireState(h, std::nullopt))].cost;
}

Path Reach::path(Hex h) const {
  return pathTo(requireState(h, std::nullopt));
}

bool Reach::contains(Hex h, Direction facing) const {
  int32_t i = grid_->indexOf(h);
  if (i == kNoIndex || !facing_) return false;
  int32_t base = i * kFacingStates + static_cast<int32_t>(facing) * 2;
  return nodes_[static_cast<size_t>(base)].state == kSettled ||
         nodes_[static_cast<size_t>(base) + 1].state == kSettled;
}

int Reach::cost(Hex h, Direction facing) const {
  return nodes_[static_cast<size_t>(requireState(h, facing))].cost;
}

Path Reach::path(Hex h, Direction facing) const {
  return pathTo(requireState(h, facing));
}

std::vector<Hex> Reach::hexes() const {
  std::vector<Hex> out;
  for (int32_t i : reachedIndices()) out.push_back(grid_->hexAt(i));
  return out;
}

std::vector<int32_t> Reach::reachedIndices() const {
  const int sph = statesPerHex();
  std::vector<int32_t> out;
  if (settled_.empty()) return out;
  // In grid order, each hex once: the hexes of the settled states marked in a bitmap over the
  // range they span (a few hundred indices for a unit's move), then read back word by word. (A
  // sort of the settled order mispredicted every other comparison.)
  int32_t lo = INT32_MAX, hi = -1;
  for (int32_t s : settled_) {
    lo = std::min(lo, s / sph);
    hi = std::max(hi, s / sph);
  }
  static thread_local std::vector<uint64_t> bits;
  bits.assign(static_cast<size_t>(hi - lo) / 64 + 1, 0);
  for (int32_t s : settled_) {
    const auto at = static_cast<size_t>(s / sph - lo);
    bits[at / 64] |= uint64_t{1} << (at % 64);
  }
  out.reserve(settled_.size());
  for (size_t w = 0; w < bits.size(); ++w)
    for (uint64_t b = bits[w]; b != 0; b &= b - 1)
      out.push_back(lo + static_cast<int32_t>(w * 64 + static_cast<size_t>(__builtin_ctzll(b))));
  return out;
}

int Reach::costAt(int32_t hexIndex) const {
  const int32_t s = bestState(hexIndex);
  if (s < 0)
    throw HexError(fmt::format("hex {} is not reached", grid_->label(grid_->hexAt(hexIndex))));
  return nodes_[static_cast<size_t>(s)].cost;
}

int32_t Reach::previousIndex(int32_t hexIndex) const {
  if (facing_) throw HexError("previousIndex() is for searches without facing");
  const Node& n = nodes_[static_cast<size_t>(hexIndex)];
  return n.state == kSettled && n.parent >= 0 ? n.parent : kNoIndex;
}

int Reach::costAt(int32_t hexIndex, Direction facing) const {
  if (!facing_) throw HexError("this movement search did not track facing");
  const int32_t base = hexIndex * kFacingStates + static_cast<int32_t>(facing) * 2;
  int best = -1;
  for (int32_t c = base; c < base + 2; ++c) {
    const Node& n = nodes_[static_cast<size_t>(c)];
    if (n.state == kSettled && (best < 0 || n.cost < best)) best = n.cost;
  }
  return best;
}

std::vector<int32_t> Reach::previousHexes() const {
  if (facing_) throw HexError("previousHexes() is for searches without facing");
  std::vector<int32_t> out(nodes_.size(), kNoIndex);
  for (size_t i = 0; i < nodes_.size(); ++i)
    if (nodes_[i].state == kSettled && nodes_[i].parent >= 0) out[i] = nodes_[i].parent;
  return out;
}

Reach reachable(const Grid& grid, const MoveSpec& spec) {
  Reach reach;
  reach.run(grid, spec, kNoIndex);
  return reach;
}

std::optional<Path> cheapestPath(const Grid& grid, const MoveSpec& spec, Hex to) {
  int32_t target = grid.requireIndex(to);
  Reach reach;
  int32_t state = reach.run(grid, spec, target);
  if (state < 0) return std::nullopt;
  return reach.pathTo(state);
}

}  // namespace polemos::hex
