// Exact odds (analysis/odds): a Standard 3:1 attack whose results need decisions (the unit lost
// in an exchange, the retreat hex, the advance) is enumerated exactly, then played 100,000 times
// on copies of the game with the seeded dice; every outcome's frequency must lie within 4.5
// standard errors of its exact probability, and no outcome may be met that the enumeration did
// not list. Also: asking never changes the game, and the REPL's command and its errors.
#include "analysis/odds.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <random>

#include "engine/save.h"
#include "repl/repl.h"

using namespace polemos;

namespace {

// Blue attacks red's d (3) at 0506 with a (5) from 0505 and b (4) from 0606: 9 to 3, the 3:1
// column. Results there (Standard's CRT): 1 no effect, 2 EX, 3-4 DR, 5-6 DL.
const char* kSetup[] = {
    "place blue inf 0505 as a strength=5",
    "place blue inf 0606 as b strength=4",
    "place red inf 0506 as d strength=3",
    "goto combat blue",
};

std::unique_ptr<repl::Repl> standardSandbox() {
  repl::ReplOptions o;
  o.ruleset = "standard";
  o.session.seed = 7;
  auto r = std::make_unique<repl::Repl>(o);
  std::string out;
  EXPECT_TRUE(r->start(out)) << out;
  for (const char* line : kSetup) {
    r->execute(line, out);
  }
  EXPECT_EQ(r->errors(), 0) << out;
  return r;
}

int32_t actionNamed(const engine::Session& s, const std::string& name) {
  const auto& as = s.program().actions;
  for (size_t i = 0; i < as.size(); ++i)
    if (as[i].name == name) return static_cast<int32_t>(i);
  return -1;
}

std::string key(const analysis::OddsOutcome& o) {
  return o.key();
}

// Plays the attack `n` times on copies of `game` (each with its own dice seed), taking decisions
// as the enumeration does (before the first roll the first option; after it as `policy` says,
// Random: uniformly, from a generator of its own), and counts the outcomes as the enumeration
// summarises them.
std::map<std::string, uint64_t> monteCarlo(const engine::Session& game, int32_t attack,
                                           const std::vector<ir::Value>& args,
                                           analysis::OddsPolicy policy,
                                           const std::vector<std::string>& always, uint64_t n) {
  std::map<std::string, uint64_t> counts;
  engine::Session base = game;
  base.restartTrace();
  std::mt19937_64 choices(12345);
  for (uint64_t i = 0; i < n; ++i) {
    engine::Session s = base;
    s.setRngState(1000003ull * (i + 1));
    engine::Outcome o = s.act(attack, args);
    EXPECT_EQ(o.kind, engine::Outcome::Ok) << o.message;
    while (s.stop().kind == eval::Stop::Choose) {
      size_t count = s.stop().options.items().size();
      const auto& tr = s.state().trace;
      bool rolled = std::any_of(tr.begin(), tr.end(), [](const eval::TraceEvent& e) {
        return e.kind == eval::TraceKind::Roll;
      });
      size_t pick = !rolled ? 0
                    : policy == analysis::OddsPolicy::Random
                        ? std::uniform_int_distribution<size_t>(0, count - 1)(choices)
                        : analysis::policyPick(policy, count);
      s.pick(pick);
    }
    analysis::OddsOutcome out = analysis::summarizeOutcome(base, s);
    std::erase_if(out.changes, [&](const std::string& c) {
      return std::find(always.begin(), always.end(), c) != always.end();
    });
    ++counts[key(out)];
  }
  return counts;
}

void checkAgainstMonteCarlo(analysis::OddsPolicy policy, size_t expectedOutcomes) {
  auto r = standardSandbox();
  const engine::Session& game = *r->session();
  int32_t attack = actionNamed(game, "attack");
  ASSERT_GE(attack, 0);
  std::vector<ir::Value> args{ir::Value::of(ir::Tag::Hex, game.state().map.parse("0506"))};
  analysis::OddsRequest req;
  req.policy = policy;
  analysis::OddsReport exact = analysis::oddsOfAction(game, attack, args, req);
  ASSERT_TRUE(exact.error.empty()) << exact.error;
  EXPECT_EQ(exact.outcomes.size(), expectedOutcomes) << analysis::formatOdds(exact, false);
  long double total = 0;
  for (const auto& o : exact.outcomes) total += o.p.value;
  EXPECT_NEAR(static_cast<double>(total), 1.0, 1e-12);

  // 100,000 draws; POLEMOS_MONTE_CARLO_DRAWS sets fewer (scripts/test --sanitize: 20,000, as the
  // sanitizers make each draw several times slower). The bound below is in standard errors of
  // that many draws, so it holds as strictly for any count.
  uint64_t n = 100'000;
  if (const char* env = std::getenv("POLEMOS_MONTE_CARLO_DRAWS"); env && *env)
    n = std::max<uint64_t>(1000, std::strtoull(env, nullptr, 10));
  auto counts = monteCarlo(game, attack, args, policy, exact.always, n);
  std::map<std::string, const analysis::OddsOutcome*> byKey;
  for (const auto& o : exact.outcomes) byKey[key(o)] = &o;
  for (const auto& [k, c] : counts)
    EXPECT_TRUE(byKey.count(k)) << "an outcome the enumeration did not list: " << k;
  for (const auto& o : exact.outcomes) {
    double p = static_cast<double>(o.p.value);
    double f = static_cast<double>(counts[key(o)]) / static_cast<double>(n);
    double se = std::sqrt(p * (1 - p) / static_cast<double>(n));
    EXPECT_LE(std::abs(f - p), 4.5 * se) << o.result << " | p " << p << " f " << f;
  }
}

}  // namespace

TEST(Odds, StandardThreeToOneFirstPolicyIsExact) {
  auto r = standardSandbox();
  const engine::Session& game = *r->session();
  int32_t attack = actionNamed(game, "attack");
  std::vector<ir::Value> args{ir::Value::of(ir::Tag::Hex, game.state().map.parse("0506"))};
  analysis::OddsReport rep = analysis::oddsOfAction(game, attack, args, analysis::OddsRequest{});
  ASSERT_TRUE(rep.error.empty()) << rep.error;
  // The four results of the 3:1 column, as exact fractions.
  std::map<std::string, std::string> byResult;
  for (const auto& o : rep.outcomes) byResult[o.result] = o.p.fraction();
  EXPECT_EQ(byResult.size(), 4u) << analysis::formatOdds(rep, false);
  EXPECT_EQ(byResult["§7.6 result, DR"], "1/3") << analysis::formatOdds(rep, false);
  EXPECT_EQ(byResult["§7.6 result, DL"], "1/3");
  EXPECT_EQ(byResult["§7.6 result, EX"], "1/6");
  EXPECT_EQ(byResult["§7.6 result, none"], "1/6");
}

TEST(Odds, AgreesWithMonteCarloFirstPolicy) {
  checkAgainstMonteCarlo(analysis::OddsPolicy::First, 4);
}

// Random decisions: the lost unit in an exchange, each retreat hex and whether and where to
// advance each become outcomes of their own.
TEST(Odds, AgreesWithMonteCarloRandomPolicy) {
  checkAgainstMonteCarlo(analysis::OddsPolicy::Random, 14);
}

TEST(Odds, NeverChangesTheGame) {
  auto r = standardSandbox();
  std::string before = engine::saveSession(*r->session());
  std::string out;
  r->execute("odds attack 0506", out);
  r->execute("odds attack 0506 --policy random --split", out);
  r->execute("odds attack 0506 --json", out);
  EXPECT_EQ(r->errors(), 0) << out;
  EXPECT_EQ(engine::saveSession(*r->session()), before);
  // From a pending decision inside the attack (the first attacker chosen, the second pending).
  r->execute("attack 0506", out);
  r->execute("pick 1", out);
  std::string pending = engine::saveSession(*r->session());
  std::string o2;
  r->execute("odds", o2);
  EXPECT_NE(o2.find("| §7.6 result, DR |"), std::string::npos) << o2;
  EXPECT_EQ(engine::saveSession(*r->session()), pending);
}

TEST(Odds, SplitKeepsEachDecisionApart) {
  auto r = standardSandbox();
  const engine::Session& game = *r->session();
  int32_t attack = actionNamed(game, "attack");
  std::vector<ir::Value> args{ir::Value::of(ir::Tag::Hex, game.state().map.parse("0506"))};
  analysis::OddsRequest req;
  req.split = true;
  req.picks = {0, 0};  // both attackers (as without picks), then split the follow-on decisions
  analysis::OddsReport rep = analysis::oddsOfAction(game, attack, args, req);
  ASSERT_TRUE(rep.error.empty()) << rep.error;
  // Every row's decisions come after the roll; the rows of one decision each carry the whole
  // probability of reaching it, so the no-effect row (no decision) is still 1/6.
  bool sawNoEffect = false;
  for (const auto& o : rep.outcomes) {
    if (o.result == "§7.6 result, none") {
      sawNoEffect = true;
      EXPECT_TRUE(o.decisions.empty());
      EXPECT_EQ(o.p.fraction(), "1/6");
    } else {
      EXPECT_FALSE(o.decisions.empty()) << o.result;
    }
  }
  EXPECT_TRUE(sawNoEffect);
}

TEST(Odds, ReplRefusals) {
  auto r = standardSandbox();
  std::string out;
  r->execute("odds", out);
  EXPECT_NE(out.find("error: odds takes an action"), std::string::npos) << out;
  out.clear();
  r->execute("odds attack 0101", out);
  EXPECT_NE(out.find("error: odds of attack 0101: illegal"), std::string::npos) << out;
  out.clear();
  r->execute("odds attack 0506 --policy best", out);
  EXPECT_NE(out.find("error: --policy takes"), std::string::npos) << out;
}
