// Movement search: terrain costs, hexside extras, trails, prohibited hexes, stopping in enemy
// zones of control, units that may not leave their hex, facing with rotation costs, plain action
// point budgets, deterministic tie-breaking, and properties over random maps (reachable() agrees
// with cheapestPath(), path costs add up, costs are optimal against a brute-force relaxation).
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "hex/map.h"
#include "hex/path.h"

namespace polemos::hex {
namespace {

// Terrain kinds, hex features and hexside features as a test ruleset numbers them.
constexpr int kClear = 0;
constexpr int kWoods = 1;
constexpr int kRiver = 2;
constexpr int kMarsh = 3;  // prohibited
constexpr int kTrailHex = 0;
constexpr int kStream = 0;
constexpr int kRidge = 1;
constexpr int kTrailSide = 2;

// The Standard rules' movement costs (5.21-5.25), written as a ruleset would write its callback.
int standardCost(const Map& m, const Step& s) {
  // 5.22: trail hex to trail hex through a trail hexside costs 1 whatever else is there.
  if (m.hexHas(s.from, kTrailHex) && m.hexHas(s.to, kTrailHex) &&
      m.hexsideHas(s.from, s.to, kTrailSide)) {
    return 1;
  }
  int cost = 0;
  switch (m.terrain(s.to)) {
    case kClear:
      cost = 1;
      break;
    case kWoods:
      cost = 3;
      break;
    case kRiver:
      cost = 3;
      break;  // 5.23
    default:
      return kImpassable;
  }
  if (m.hexsideHas(s.from, s.to, kStream)) cost += 1;  // 5.24
  if (m.hexsideHas(s.from, s.to, kRidge)) cost += 2;   // 5.25
  return cost;
}

struct Fixture {
  Map map{GridSpec{1, 30, 1, 20}};
  const Grid& g() const { return map.grid(); }
  Hex at(const char* label) const { return map.grid().parse(label); }

  MoveSpec spec(const char* start, int budget) const {
    MoveSpec s;
    s.start = at(start);
    s.budget = budget;
    s.stepCost = [this](const Step& step) { return standardCost(map, step); };
    return s;
  }

  std::vector<std::string> labels(const std::vector<Hex>& hexes) const {
    std::vector<std::string> out;
    for (Hex h : hexes) out.push_back(g().label(h));
    return out;
  }
};

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const HexError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(HexPath, ClearTerrainCostsOnePerHex) {
  Fixture f;
  Reach r = reachable(f.g(), f.spec("1010", 4));
  EXPECT_EQ(r.cost(f.at("1010")), 0);
  EXPECT_EQ(r.cost(f.at("1014")), 4);
  EXPECT_EQ(r.cost(f.at("1410")), 4);
  EXPECT_FALSE(r.contains(f.at("1015")));
  // Every hex within four steps, and no other: 1 + 6 + 12 + 18 + 24.
  EXPECT_EQ(r.hexes().size(), 61u);
}

// A step into a hex already settled cannot change the search, so its cost is not asked for (a
// step cost is a call of the rules): never a step back into the start, each step asked at most
// once, and on open ground far fewer than six asks a hex; the answer is the same.
TEST(HexPath, NoStepCostIsAskedForASettledHex) {
  Fixture f;
  f.map.setTerrain(f.at("1011"), kWoods);
  MoveSpec s = f.spec("1010", 4);
  std::vector<std::pair<int32_t, int32_t>> asked;
  s.stepCost = [&](const Step& step) {
    asked.emplace_back(f.g().indexOf(step.from), f.g().indexOf(step.to));
    return standardCost(f.map, step);
  };
  Reach r = reachable(f.g(), s);
  const int32_t start = f.g().indexOf(f.at("1010"));
  std::set<std::pair<int32_t, int32_t>> once(asked.begin(), asked.end());
  EXPECT_EQ(once.size(), asked.size());
  for (const auto& [from, to] : asked) EXPECT_NE(to, start);
  EXPECT_LT(asked.size(), 6 * r.hexes().size() * 3 / 4);
  Reach all = reachable(f.g(), f.spec("1010", 4));
  EXPECT_EQ(f.labels(r.hexes()), f.labels(all.hexes()));
  for (Hex h : all.hexes()) EXPECT_EQ(r.cost(h), all.cost(h));
}

// Each step the search prices carries its two hexes' indices in the grid, with and without
// facing (a cost function that works with indices uses them instead of looking them up).
TEST(HexPath, EveryStepGivesItsHexesIndices) {
  Fixture f;
  for (bool facing : {false, true}) {
    MoveSpec s = f.spec("1010", 3);
    int steps = 0;
    s.stepCost = [&](const Step& step) {
      ++steps;
      EXPECT_EQ(step.fromIndex, f.g().indexOf(step.from));
      EXPECT_EQ(step.toIndex, f.g().indexOf(step.to));
      return standardCost(f.map, step);
    };
    if (facing) {
      s.facing = Direction::N;
      s.rotationCost = [](Hex, Direction, Direction) { return 0; };
    }
    reachable(f.g(), s);
    EXPECT_GT(steps, 0) << facing;
  }
}

TEST(HexPath, TerrainCostsAndRoutesAroundWoods) {
  Fixture f;
  f.map.setTerrain(f.at("1011"), kWoods);
  Reach r = reachable(f.g(), f.spec("1010", 4));
  EXPECT_EQ(r.cost(f.at("1011")), 3);
  // Two hexes south: around the woods (3) rather than through them (4).
  EXPECT_EQ(r.cost(f.at("1012")), 3);
  EXPECT_EQ(f.labels(r.path(f.at("1012")).hexes()),
            (std::vector<std::string>{"1010", "0910", "0911", "1012"}));
}

TEST(HexPath, StreamIntoWoodsCostsFour) {
  // Standard 5.24: "if a unit moves through a stream hexside into a woods hex, the cost is four
  // MP".
  Fixture f;
  for (Hex h : f.g().hexes()) f.map.setTerrain(h, kWoods);
  f.map.setTerrain(f.at("1010"), kClear);
  f.map.addHexsideFeature(f.at("1010"), f.at("1011"), kStream);
  Reach r = reachable(f.g(), f.spec("1010", 4));
  EXPECT_EQ(r.cost(f.at("1011")), 4);
  EXPECT_EQ(r.cost(f.at("1009")), 3);
  Path p = r.path(f.at("1011"));
  ASSERT_EQ(p.nodes.size(), 2u);
  EXPECT_EQ(p.nodes[1].cost, 4);
  // The same stream into clear terrain costs two; a ridge adds two (5.25).
  f.map.setTerrain(f.at("1011"), kClear);
  f.map.addHexsideFeature(f.at("1010"), f.at("1110"), kRidge);
  f.map.setTerrain(f.at("1110"), kClear);
  Reach r2 = reachable(f.g(), f.spec("1010", 4));
  EXPECT_EQ(r2.cost(f.at("1011")), 2);
  EXPECT_EQ(r2.cost(f.at("1110")), 3);
}

TEST(HexPath, TrailThroughWoodsCostsOne) {
  // Standard 5.22: trail hex to adjacent trail hex through a trail hexside costs one MP.
  Fixture f;
  for (Hex h : f.g().hexes()) f.map.setTerrain(h, kWoods);
  const char* trail[] = {"1010", "1011", "1012", "1013", "1014", "1015", "1016"};
  for (const char* l : trail) f.map.addHexFeature(f.at(l), kTrailHex);
  for (size_t i = 0; i + 1 < std::size(trail); ++i) {
    f.map.addHexsideFeature(f.at(trail[i]), f.at(trail[i + 1]), kTrailSide);
  }
  Reach r = reachable(f.g(), f.spec("1010", 6));
  EXPECT_EQ(r.cost(f.at("1016")), 6);
  EXPECT_EQ(r.cost(f.at("1111")), 4);  // 1 along the trail to 1011, then 3 for woods
  // A gap in the trail hexsides: the step from 1013 to 1014 is plain woods.
  f.map.removeHexsideFeature(*Hexside::between(f.at("1013"), f.at("1014")), kTrailSide);
  Reach r2 = reachable(f.g(), f.spec("1010", 10));
  EXPECT_EQ(r2.cost(f.at("1014")), 6);
  EXPECT_EQ(r2.cost(f.at("1016")), 8);
  // Trail hexes that are neighbours but not joined by a trail hexside do not count either.
  f.map.addHexFeature(f.at("1111"), kTrailHex);
  Reach r3 = reachable(f.g(), f.spec("1010", 10));
  EXPECT_EQ(r3.cost(f.at("1111")), 4);
}

TEST(HexPath, ProhibitedHexesAreNeverEntered) {
  Fixture f;
  f.map.setTerrain(f.at("1011"), kMarsh);
  Reach r = reachable(f.g(), f.spec("1010", 6));
  EXPECT_FALSE(r.contains(f.at("1011")));
  EXPECT_EQ(r.cost(f.at("1012")), 3);
  EXPECT_EQ(errorOf([&] { r.cost(f.at("1011")); }), "hex 1011 cannot be reached from 1010");
  EXPECT_EQ(cheapestPath(f.g(), f.spec("1010", 6), f.at("1011")), std::nullopt);
  // Surrounded by marsh, a unit goes nowhere.
  for (Hex h : f.g().neighbours(f.at("1010"))) f.map.setTerrain(h, kMarsh);
  Reach boxed = reachable(f.g(), f.spec("1010", 6));
  EXPECT_EQ(f.labels(boxed.hexes()), (std::vector<std::string>{"1010"}));
}

struct ZocFixture : Fixture {
  std::set<Hex> enemies;
  std::set<Hex> zoc;
  void enemyAt(const char* label) {
    Hex e = at(label);
    enemies.insert(e);
    for (Hex h : g().neighbours(e)) zoc.insert(h);
  }
  MoveSpec zocSpec(const char* start, int budget) const {
    MoveSpec s = spec(start, budget);
    // 5.12: never into an enemy's hex. 5.13: entering an enemy ZOC ends movement.
    s.stepCost = [this](const Step& step) {
      if (enemies.count(step.to)) return kImpassable;
      return standardCost(map, step);
    };
    s.stopsIn = [this](Hex h) { return zoc.count(h) > 0; };
    return s;
  }
};

TEST(HexPath, EnteringAnEnemyZoneOfControlEndsMovement) {
  ZocFixture f;
  f.enemyAt("1112");  // its ZOC: 1111 1113 1012 1013 1212 1213
  Reach r = reachable(f.g(), f.zocSpec("1010", 3));
  EXPECT_EQ(r.cost(f.at("1012")), 2);  // may enter the ZOC hex
  // 1013 is three MP straight on, the only way there within the MA, but movement stops in 1012.
  EXPECT_FALSE(r.contains(f.at("1013")));
  EXPECT_FALSE(r.contains(f.at("1112")));
  // With enough MP the unit goes around, touching the ZOC only where it ends.
  Reach wide = reachable(f.g(), f.zocSpec("1010", 8));
  ASSERT_TRUE(wide.contains(f.at("1014")));
  std::vector<Hex> route = wide.path(f.at("1014")).hexes();
  for (size_t i = 1; i < route.size(); ++i) {
    EXPECT_FALSE(f.zoc.count(route[i])) << f.g().label(route[i]);
  }
  EXPECT_EQ(wide.cost(f.at("1014")), 5);
  EXPECT_EQ(wide.cost(f.at("1013")), 4);  // by 0910 0911 0912
  std::vector<Hex> toZoc = wide.path(f.at("1013")).hexes();
  for (size_t i = 1; i + 1 < toZoc.size(); ++i) EXPECT_FALSE(f.zoc.count(toZoc[i]));
}

TEST(HexPath, MayNotLeaveTheStartHex) {
  ZocFixture f;
  f.enemyAt("1011");
  MoveSpec s = f.zocSpec("1010", 5);
  // Standard 5.13: a unit in an EZOC may not leave it during movement.
  s.mayNotLeave = [&f](Hex h) { return f.zoc.count(h) > 0; };
  EXPECT_EQ(f.labels(reachable(f.g(), s).hexes()), (std::vector<std::string>{"1010"}));
  // 6.3: light troops may leave; they stop again on entering the next EZOC hex (5.34).
  s.mayNotLeave = {};
  Reach light = reachable(f.g(), s);
  EXPECT_TRUE(light.contains(f.at("1009")));
  EXPECT_TRUE(light.contains(f.at("0910")));  // in the ZOC again: entered and stopped
  EXPECT_EQ(light.path(f.at("0910")).hexes().size(), 2u);
  // The start is never "entered", so starting in a ZOC does not stop a unit that may leave.
  EXPECT_TRUE(light.contains(f.at("1007")));
}

TEST(HexPath, ActionPointBudget) {
  // A Warfare-style budget: one action point per hex, whatever the terrain; the search does not
  // care what the budget means.
  Fixture f;
  MoveSpec s;
  s.start = f.at("1510");
  s.budget = 3;
  s.stepCost = [](const Step&) { return 1; };
  Reach r = reachable(f.g(), s);
  EXPECT_EQ(r.hexes().size(), 37u);
  for (Hex h : r.hexes()) EXPECT_EQ(r.cost(h), distance(s.start, h));
  s.budget = 0;
  EXPECT_EQ(reachable(f.g(), s).hexes().size(), 1u);
}

TEST(HexPath, FirstStepMayExceedTheBudgetWhenAllowed) {
  Fixture f;
  f.map.setTerrain(f.at("1009"), kWoods);
  MoveSpec s = f.spec("1010", 1);
  EXPECT_FALSE(reachable(f.g(), s).contains(f.at("1009")));
  s.firstStepIgnoresBudget = true;
  Reach r = reachable(f.g(), s);
  EXPECT_EQ(r.cost(f.at("1009")), 3);
  EXPECT_FALSE(r.contains(f.at("1008")));  // nothing after the over-budget step
  EXPECT_EQ(r.cost(f.at("1011")), 1);
}

TEST(HexPath, TieBreakPrefersTheLowestLastDirection) {
  Fixture f;
  // 1111 is two steps from 1010 by S then SE, or by SE then S; equal cost and moves. The last step
  // SE (2) beats S (3).
  Reach r = reachable(f.g(), f.spec("1010", 4));
  EXPECT_EQ(f.labels(r.path(f.at("1111")).hexes()),
            (std::vector<std::string>{"1010", "1011", "1111"}));
  // And N (0) beats NE (1): 1009 -> 1108 against 1109 -> 1108.
  EXPECT_EQ(f.labels(r.path(f.at("1108")).hexes()),
            (std::vector<std::string>{"1010", "1109", "1108"}));
}

// ---- Facing (Deluxe 8.2-8.4) ----

struct DeluxeFixture : Fixture {
  // 8.3: a unit moves only into its front hex, paying the terrain cost.
  // 8.4: rotating one hexside is free, more costs 1 MP.
  MoveSpec deluxe(const char* start, Direction facing, int budget) const {
    MoveSpec s = spec(start, budget);
    s.facing = facing;
    s.stepCost = [this](const Step& step) {
      if (step.direction != *step.facing) return kImpassable;
      return standardCost(map, step);
    };
    s.rotationCost = [](Hex, Direction from, Direction to) {
      return turnSteps(from, to) <= 1 ? 0 : 1;
    };
    return s;
  }
};

TEST(HexPathFacing, MovesOnlyIntoTheFrontHex) {
  DeluxeFixture f;
  Reach r = reachable(f.g(), f.deluxe("1010", Direction::N, 1));
  // Straight ahead, or a free one-hexside rotation first (After 1).
  EXPECT_EQ(f.labels(r.hexes()), (std::vector<std::string>{"0909", "1009", "1010", "1109"}));
  EXPECT_EQ(r.cost(f.at("1109")), 1);
  Path p = r.path(f.at("1109"));
  ASSERT_EQ(p.nodes.size(), 3u);
  EXPECT_EQ(p.nodes[1].kind, PathNodeKind::Rotate);
  EXPECT_EQ(p.nodes[1].facing, Direction::NE);
  EXPECT_EQ(p.nodes[1].cost, 0);
  EXPECT_EQ(p.nodes[2].kind, PathNodeKind::Move);
}

// stepDirections: the steps in other directions are refused without being priced, each facing's
// directions are asked once, and the search is the one a step cost refusing them gives.
TEST(HexPathFacing, StepDirectionsLeaveTheOtherStepsUnpriced) {
  DeluxeFixture f;
  MoveSpec plain = f.deluxe("1010", Direction::N, 5);
  MoveSpec told = plain;
  int priced = 0, wrongWay = 0;
  std::map<Direction, int> asked;
  told.stepCost = [&, inner = plain.stepCost](const Step& step) {
    ++priced;
    if (step.direction != *step.facing) ++wrongWay;
    return inner(step);
  };
  told.stepDirections = [&](Direction facing) {
    ++asked[facing];
    return static_cast<uint8_t>(1u << static_cast<int>(facing));
  };
  Reach a = reachable(f.g(), plain), b = reachable(f.g(), told);
  EXPECT_GT(priced, 0);
  EXPECT_EQ(wrongWay, 0);
  EXPECT_EQ(asked.size(), 6u);
  for (const auto& [facing, n] : asked) EXPECT_EQ(n, 1) << directionName(facing);
  ASSERT_EQ(a.hexes(), b.hexes());
  for (Hex h : a.hexes())
    for (Direction d : kAllDirections) {
      ASSERT_EQ(a.contains(h, d), b.contains(h, d));
      if (a.contains(h, d)) {
        EXPECT_EQ(a.cost(h, d), b.cost(h, d));
        EXPECT_EQ(a.path(h, d).nodes.size(), b.path(h, d).nodes.size());
      }
    }
  // Without facing the directions are not asked: every step is priced.
  MoveSpec flat = f.spec("1010", 3);
  bool askedFlat = false;
  flat.stepDirections = [&](Direction) {
    askedFlat = true;
    return uint8_t{0};
  };
  EXPECT_FALSE(reachable(f.g(), flat).hexes().empty());
  EXPECT_FALSE(askedFlat);
}

TEST(HexPathFacing, RotationCostsFollowDeluxe84) {
  DeluxeFixture f;
  Reach r = reachable(f.g(), f.deluxe("1010", Direction::N, 4));
  Hex start = f.at("1010");
  // Turning in place: one hexside free, two or three for 1 MP, and never two free turns in a row.
  EXPECT_EQ(r.cost(start, Direction::N), 0);
  EXPECT_EQ(r.cost(start, Direction::NE), 0);
  EXPECT_EQ(r.cost(start, Direction::SE), 1);
  EXPECT_EQ(r.cost(start, Direction::S), 1);
  // After 3: 1 MP to rotate two hexsides, 1 MP to enter the rear flank hex, then a free rotation.
  Hex rearFlank = f.at("1110");
  EXPECT_EQ(r.cost(rearFlank, Direction::SE), 2);
  EXPECT_EQ(r.cost(rearFlank, Direction::S), 2);
  // After 4: turn around, step back, turn around again: 3 MP to end in the rear hex facing north.
  Hex rear = f.at("1011");
  EXPECT_EQ(r.cost(rear, Direction::S), 2);
  EXPECT_EQ(r.cost(rear, Direction::N), 3);
  Path back = r.path(rear, Direction::N);
  std::vector<PathNodeKind> kinds;
  for (const PathNode& n : back.nodes) kinds.push_back(n.kind);
  EXPECT_EQ(kinds, (std::vector<PathNodeKind>{PathNodeKind::Start, PathNodeKind::Rotate,
                                              PathNodeKind::Move, PathNodeKind::Rotate}));
  // The hex as a whole takes its cheapest facing.
  EXPECT_EQ(r.cost(rear), 2);
  EXPECT_EQ(r.path(rear).nodes.back().facing, Direction::S);
}

TEST(HexPathFacing, StraightAheadMayExceedTheAllowance) {
  // 8.3 exception: one hex straight ahead may exceed the MA, but not after rotating.
  DeluxeFixture f;
  f.map.setTerrain(f.at("1009"), kWoods);
  f.map.setTerrain(f.at("1109"), kWoods);
  MoveSpec s = f.deluxe("1010", Direction::N, 1);
  s.firstStepIgnoresBudget = true;
  Reach r = reachable(f.g(), s);
  EXPECT_EQ(r.cost(f.at("1009")), 3);
  EXPECT_FALSE(r.contains(f.at("1109")));
  EXPECT_TRUE(r.contains(f.at("1009"), Direction::N));
  // Free transitions remain after the step: the free one-hexside rotation.
  EXPECT_TRUE(r.contains(f.at("1009"), Direction::NE));
  EXPECT_FALSE(r.contains(f.at("1009"), Direction::S));
}

TEST(HexPathFacing, NoRotationInAnEnemyZoneOfControl) {
  // Four Battles 16.1: no change of facing while in an enemy ZOC; the callback says so.
  DeluxeFixture f;
  std::set<Hex> zoc = {f.at("1010"), f.at("1008")};
  MoveSpec s = f.deluxe("1010", Direction::N, 4);
  s.rotationCost = [&](Hex at, Direction from, Direction to) {
    if (zoc.count(at)) return kImpassable;
    return turnSteps(from, to) <= 1 ? 0 : 1;
  };
  s.stopsIn = [&](Hex h) { return zoc.count(h) > 0; };
  Reach r = reachable(f.g(), s);
  EXPECT_FALSE(r.contains(f.at("1010"), Direction::NE));
  EXPECT_TRUE(r.contains(f.at("1009"), Direction::NE));
  EXPECT_EQ(r.cost(f.at("1008"), Direction::N), 2);
  // Facing NW in 1008 would be a free rotation after entering it facing N; instead the unit must
  // enter it moving NW, from 1108: N to 1009 (1), free turn NE, to 1108 (2), turn two hexsides
  // (3), NW into 1008 (4).
  EXPECT_EQ(r.cost(f.at("1008"), Direction::NW), 4);
  EXPECT_EQ(r.path(f.at("1008"), Direction::NW).nodes.back().kind, PathNodeKind::Move);
  // 1006 is four MP straight ahead, the only way there within the MA, through the ZOC hex 1008.
  EXPECT_FALSE(r.contains(f.at("1006")));
  EXPECT_TRUE(r.contains(f.at("1007")));  // round by 0908 and 0907, rotating for free
}

TEST(HexPathFacing, TurnToMoveFacesTheDirectionMoved) {
  // A game where a unit may enter any of its three front hexes and then faces the way it went.
  Fixture f;
  MoveSpec s = f.spec("1010", 2);
  s.facing = Direction::N;
  s.afterMove = FacingAfterMove::TurnToMove;
  s.stepCost = [](const Step& step) {
    return turnSteps(*step.facing, step.direction) <= 1 ? 1 : kImpassable;
  };
  s.rotationCost = [](Hex, Direction, Direction) { return kImpassable; };
  Reach r = reachable(f.g(), s);
  EXPECT_TRUE(r.contains(f.at("1109"), Direction::NE));
  EXPECT_FALSE(r.contains(f.at("1109"), Direction::N));
  // Two steps: NE then SE reaches 1210 facing SE; NE then NE reaches 1209 facing NE.
  EXPECT_EQ(r.cost(f.at("1210"), Direction::SE), 2);
  EXPECT_TRUE(r.contains(f.at("1209"), Direction::NE));
  EXPECT_FALSE(r.contains(f.at("1209"), Direction::SE));
  EXPECT_FALSE(r.contains(f.at("1011")));
  EXPECT_EQ(errorOf([&] { r.cost(f.at("1011"), Direction::S); }),
            "hex 1011 facing S cannot be reached from 1010");
}

TEST(HexPath, BadSearchesAreErrors) {
  Fixture f;
  MoveSpec s = f.spec("1010", 3);
  s.start = f.g().toHex(Offset{31, 1});
  EXPECT_EQ(errorOf([&] { reachable(f.g(), s); }),
            "hex 3101 is off the map (columns 1-30, rows 1-20)");
  s = f.spec("1010", 3);
  EXPECT_EQ(errorOf([&] {
              cheapestPath(f.g(), s, f.g().toHex(Offset{5, 21}));
            }),
            "hex 0521 is off the map (columns 1-30, rows 1-20)");
  s.stepCost = {};
  EXPECT_EQ(errorOf([&] { reachable(f.g(), s); }), "a movement search needs a step cost function");
  s = f.spec("1010", 3);
  s.facing = Direction::N;
  EXPECT_EQ(errorOf([&] { reachable(f.g(), s); }),
            "a movement search with facing needs a rotation cost function");
  Reach plain = reachable(f.g(), f.spec("1010", 3));
  EXPECT_EQ(errorOf([&] { plain.cost(f.at("1010"), Direction::N); }),
            "this movement search did not track facing");
  s = f.spec("1010", 3);
  s.facing = Direction::N;
  s.rotationCost = [](Hex, Direction, Direction) { return 0; };
  Reach faced = reachable(f.g(), s);
  EXPECT_EQ(errorOf([&] { faced.previousHexes(); }),
            "previousHexes() is for searches without facing");
}

// ---- Properties over random maps ----

// A random 55 x 27 map: mostly clear, some woods, rivers, marsh (prohibited), streams and ridges.
Map randomMap(uint32_t seed) {
  Map m(GridSpec{1, 55, 1, 27});
  std::mt19937 rng(seed);
  for (Hex h : m.grid().hexes()) {
    int roll = static_cast<int>(rng() % 100);
    m.setTerrain(h, roll < 60 ? kClear : roll < 80 ? kWoods : roll < 90 ? kRiver : kMarsh);
    for (Direction d : {Direction::N, Direction::NE, Direction::SE}) {
      int side = static_cast<int>(rng() % 100);
      if (side < 8) m.addHexsideFeature(Hexside::of(h, d), kStream);
      if (side >= 95) m.addHexsideFeature(Hexside::of(h, d), kRidge);
    }
  }
  return m;
}

// The optimal cost of every state, by brute-force relaxation to a fixed point (Bellman-Ford),
// under the same movement model as path.h: states (hex, facing, rotated here), one rotation per
// hex.
std::vector<int> bruteForceCosts(const Grid& g, const MoveSpec& s) {
  const bool facing = s.facing.has_value();
  const int sph = facing ? 12 : 1;
  std::vector<int> best(static_cast<size_t>(g.size() * sph), INT_MAX);
  int startState = g.indexOf(s.start) * sph + (facing ? static_cast<int>(*s.facing) * 2 : 0);
  best[static_cast<size_t>(startState)] = 0;
  bool locked = s.mayNotLeave && s.mayNotLeave(s.start);
  for (bool changed = true; changed;) {
    changed = false;
    for (int st = 0; st < g.size() * sph; ++st) {
      int cost = best[static_cast<size_t>(st)];
      if (cost == INT_MAX) continue;
      Hex here = g.hexAt(st / sph);
      int f = facing ? (st % 12) / 2 : 0;
      bool rotated = facing && st % 2 == 1;
      bool atStart = st / sph == g.indexOf(s.start);
      auto offer = [&](int to, int total) {
        if (total <= s.budget && total < best[static_cast<size_t>(to)]) {
          best[static_cast<size_t>(to)] = total;
          changed = true;
        }
      };
      // A state at the start hex counts as never having left it (these maps have no zero-cost
      // loops back to the start, so that matches the search).
      bool mayMove = atStart ? !locked : !(s.stopsIn && s.stopsIn(here));
      if (mayMove) {
        for (Direction d : kAllDirections) {
          Hex n = neighbour(here, d);
          if (!g.contains(n)) continue;
          Step step{here, n, d, std::nullopt};
          if (facing) step.facing = static_cast<Direction>(f);
          int w = s.stepCost(step);
          if (w < 0) continue;
          int nf = facing ? (s.afterMove == FacingAfterMove::Keep ? f : static_cast<int>(d)) : 0;
          offer(g.indexOf(n) * sph + nf * 2 * (facing ? 1 : 0), cost + w);
        }
      }
      if (facing && !rotated) {
        for (Direction d : kAllDirections) {
          if (static_cast<int>(d) == f) continue;
          int w = s.rotationCost(here, static_cast<Direction>(f), d);
          if (w < 0) continue;
          offer(st / sph * sph + static_cast<int>(d) * 2 + 1, cost + w);
        }
      }
    }
  }
  return best;
}

// Recomputes a path's cost from the callbacks, checking that every move is to an adjacent hex
// (Standard §5.16: movement from hex to hex is consecutive; a unit never skips a hex).
int sumOfSteps(const Grid& g, const MoveSpec& s, const Path& p) {
  int total = 0;
  for (size_t i = 1; i < p.nodes.size(); ++i) {
    const PathNode& prev = p.nodes[i - 1];
    const PathNode& cur = p.nodes[i];
    if (cur.kind == PathNodeKind::Move) {
      auto d = directionBetween(prev.hex, cur.hex);
      EXPECT_TRUE(d.has_value());
      EXPECT_TRUE(g.contains(cur.hex));
      total += s.stepCost(Step{prev.hex, cur.hex, *d, prev.facing});
    } else {
      EXPECT_EQ(cur.kind, PathNodeKind::Rotate);
      EXPECT_EQ(prev.hex, cur.hex);
      total += s.rotationCost(cur.hex, *prev.facing, *cur.facing);
    }
    EXPECT_EQ(cur.cost, total);
  }
  return total;
}

void checkSearch(const Map& m, const MoveSpec& s) {
  const Grid& g = m.grid();
  Reach r = reachable(g, s);
  std::vector<int> brute = bruteForceCosts(g, s);
  const int sph = s.facing ? 12 : 1;
  std::vector<int32_t> before;
  if (!s.facing) before = r.previousHexes();
  // The answers by grid index are the answers by hex: the hexes reached in grid order, each's
  // cost, the hex before it, its cost in each facing (-1: not reached so).
  std::vector<int32_t> reached;
  for (int32_t i = 0; i < g.size(); ++i)
    if (r.contains(g.hexAt(i))) reached.push_back(i);
  EXPECT_EQ(r.reachedIndices(), reached);
  for (int32_t i : reached) {
    EXPECT_EQ(r.costAt(i), r.cost(g.hexAt(i))) << g.label(g.hexAt(i));
    if (!s.facing) {
      EXPECT_EQ(r.previousIndex(i), before[static_cast<size_t>(i)]);
      continue;
    }
    for (Direction d : kAllDirections) {
      EXPECT_EQ(r.costAt(i, d), r.contains(g.hexAt(i), d) ? r.cost(g.hexAt(i), d) : -1);
    }
  }
  for (int32_t i = 0; i < g.size(); ++i) {
    Hex h = g.hexAt(i);
    if (!s.facing && !r.contains(h)) {
      EXPECT_EQ(before[static_cast<size_t>(i)], kNoIndex);
    }
    int optimal = INT_MAX;
    for (int k = 0; k < sph; ++k)
      optimal = std::min(optimal, brute[static_cast<size_t>(i * sph + k)]);
    ASSERT_EQ(r.contains(h), optimal != INT_MAX) << g.label(h);
    std::optional<Path> cheapest = cheapestPath(g, s, h);
    ASSERT_EQ(cheapest.has_value(), r.contains(h)) << g.label(h);
    if (!r.contains(h)) continue;
    EXPECT_EQ(r.cost(h), optimal) << g.label(h);
    Path p = r.path(h);
    EXPECT_EQ(p.cost(), r.cost(h));
    EXPECT_EQ(sumOfSteps(g, s, p), p.cost());
    EXPECT_LE(p.cost(), s.budget);
    EXPECT_EQ(p.nodes.front().hex, s.start);
    EXPECT_EQ(p.destination(), h);
    // cheapestPath(to) is the very same path, node for node.
    ASSERT_EQ(cheapest->nodes.size(), p.nodes.size()) << g.label(h);
    for (size_t k = 0; k < p.nodes.size(); ++k) {
      EXPECT_EQ(cheapest->nodes[k].hex, p.nodes[k].hex);
      EXPECT_EQ(cheapest->nodes[k].facing, p.nodes[k].facing);
      EXPECT_EQ(cheapest->nodes[k].cost, p.nodes[k].cost);
      EXPECT_EQ(cheapest->nodes[k].kind, p.nodes[k].kind);
    }
    // Following previousHexes back from h gives the path's hexes, the start's entry is none.
    if (!s.facing) {
      std::vector<Hex> back;
      for (int32_t k = i; k != kNoIndex; k = before[static_cast<size_t>(k)])
        back.push_back(g.hexAt(k));
      std::reverse(back.begin(), back.end());
      EXPECT_EQ(back, p.hexes()) << g.label(h);
    }
    // No hex but the last one of a path stops movement.
    if (s.stopsIn) {
      for (size_t k = 1; k + 1 < p.nodes.size(); ++k) {
        EXPECT_TRUE(p.nodes[k].hex == h || !s.stopsIn(p.nodes[k].hex));
      }
    }
    if (s.facing) {
      for (Direction d : kAllDirections) {
        int want = std::min(brute[static_cast<size_t>(i * 12 + static_cast<int>(d) * 2)],
                            brute[static_cast<size_t>(i * 12 + static_cast<int>(d) * 2 + 1)]);
        ASSERT_EQ(r.contains(h, d), want != INT_MAX);
        if (want != INT_MAX) {
          EXPECT_EQ(r.cost(h, d), want);
          EXPECT_EQ(sumOfSteps(g, s, r.path(h, d)), want);
        }
      }
    }
  }
}

TEST(HexPathProperty, ReachableAgreesWithCheapestPathAndBruteForce) {
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    Map m = randomMap(seed);
    const Grid& g = m.grid();
    std::mt19937 rng(seed * 977);
    std::set<Hex> zoc;
    for (int i = 0; i < 40; ++i) zoc.insert(g.hexAt(static_cast<int32_t>(rng() % g.size())));
    MoveSpec s;
    do {
      s.start = g.hexAt(static_cast<int32_t>(rng() % g.size()));
    } while (m.terrain(s.start) == kMarsh);
    s.budget = 4 + static_cast<int>(rng() % 9);
    s.stepCost = [&m](const Step& step) { return standardCost(m, step); };
    if (seed % 2 == 0) s.stopsIn = [&zoc](Hex h) { return zoc.count(h) > 0; };
    SCOPED_TRACE("seed " + std::to_string(seed) + " from " + g.label(s.start));
    checkSearch(m, s);
  }
}

TEST(HexPathProperty, FacingSearchAgreesWithBruteForce) {
  for (uint32_t seed = 11; seed <= 14; ++seed) {
    Map m = randomMap(seed);
    const Grid& g = m.grid();
    std::mt19937 rng(seed);
    MoveSpec s;
    do {
      s.start = g.hexAt(static_cast<int32_t>(rng() % g.size()));
    } while (m.terrain(s.start) == kMarsh);
    s.budget = 3 + static_cast<int>(rng() % 6);
    s.facing = static_cast<Direction>(rng() % 6);
    s.afterMove = seed % 2 == 0 ? FacingAfterMove::Keep : FacingAfterMove::TurnToMove;
    // Front hex only on even seeds, the three front hexes on odd ones.
    int arc = seed % 2 == 0 ? 0 : 1;
    s.stepCost = [&m, arc](const Step& step) {
      if (turnSteps(*step.facing, step.direction) > arc) return kImpassable;
      return standardCost(m, step);
    };
    s.rotationCost = [](Hex, Direction from, Direction to) {
      return turnSteps(from, to) <= 1 ? 0 : 1;
    };
    SCOPED_TRACE("seed " + std::to_string(seed) + " from " + g.label(s.start));
    checkSearch(m, s);
    // Told the same arc as the step directions, the search is the same.
    s.stepDirections = [arc](Direction facing) {
      unsigned mask = 0;
      for (Direction d : kAllDirections)
        if (turnSteps(facing, d) <= arc) mask |= 1u << static_cast<int>(d);
      return static_cast<uint8_t>(mask);
    };
    checkSearch(m, s);
  }
}

// A search's states are reused from the searches before it on its thread (path.h): whatever
// ran before (a larger search still alive, one of another map's size, one stopped by an error in
// a step's cost, one with facing on the same map), each search is the search made afresh.
TEST(HexPathProperty, ASearchIsTheSameWhateverSearchesCameBefore) {
  Map m = randomMap(21);
  Map other = randomMap(22);
  const Grid& g = m.grid();
  auto from = [&](const Map& map, const char* label, int budget) {
    MoveSpec s;
    s.start = map.grid().parse(label);
    s.budget = budget;
    s.stepCost = [&map](const Step& step) { return standardCost(map, step); };
    return s;
  };
  MoveSpec wide = from(m, "2814", 14), small = from(m, "1005", 3);
  checkSearch(m, small);
  {
    Reach alive = reachable(g, wide);  // alive while the others run
    checkSearch(m, small);
    checkSearch(m, wide);
    Reach elsewhere = reachable(other.grid(), from(other, "0303", 6));
    EXPECT_FALSE(elsewhere.reachedIndices().empty());
  }
  MoveSpec failing = wide;
  int asked = 0;
  failing.stepCost = [&](const Step& step) {
    if (++asked == 200) throw HexError("a step cost failed");
    return standardCost(m, step);
  };
  EXPECT_EQ(errorOf([&] { reachable(g, failing); }), "a step cost failed");
  checkSearch(m, wide);
  checkSearch(m, small);
  MoveSpec turning = small;
  turning.facing = Direction::N;
  turning.rotationCost = [](Hex, Direction a, Direction b) { return turnSteps(a, b) <= 1 ? 0 : 1; };
  checkSearch(m, turning);
  checkSearch(m, small);
}

}  // namespace
}  // namespace polemos::hex
