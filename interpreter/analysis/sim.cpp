#include "analysis/sim.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "engine/random_player.h"

namespace polemos::analysis {

namespace {

int32_t sideField(const ir::Program& P, const std::string& name) {
  for (size_t i = 0; i < P.sideState.fields.size(); ++i)
    if (P.sideState.fields[i].name == name) return static_cast<int32_t>(i);
  return -1;
}

int64_t intOf(const ir::Value& v) {
  return v.tag == ir::Tag::Int ? v.i : 0;
}

// Wilson score interval for k successes in n trials (95%).
std::pair<double, double> wilson(uint64_t k, uint64_t n) {
  if (n == 0) return {0, 0};
  const double z = 1.959964;
  double p = static_cast<double>(k) / static_cast<double>(n);
  double nn = static_cast<double>(n);
  double denom = 1 + z * z / nn;
  double centre = (p + z * z / (2 * nn)) / denom;
  double half = z * std::sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn)) / denom;
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

// The 97.5% quantile of Student's t with `df` degrees of freedom: a 95% interval for a mean
// estimated from df + 1 games. Exact to three decimals up to 30, then the Cornish-Fisher expansion
// about the normal quantile (within 0.001 of the tables beyond).
double tQuantile(size_t df) {
  static const double kTable[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
                                  2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
                                  2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
                                  2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
  if (df == 0) return 0;
  if (df <= 30) return kTable[df - 1];
  const double z = 1.959964, n = static_cast<double>(df);
  return z + (z * z * z + z) / (4 * n) +
         (5 * std::pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * n * n);
}

struct MeanCi {
  double mean = 0, half = 0;
  bool known = false;  // an interval needs two games at least
};
MeanCi meanCi(const std::vector<double>& xs) {
  MeanCi m;
  if (xs.empty()) return m;
  double sum = 0;
  for (double x : xs) sum += x;
  m.mean = sum / static_cast<double>(xs.size());
  if (xs.size() < 2) return m;
  double ss = 0;
  for (double x : xs) ss += (x - m.mean) * (x - m.mean);
  double sd = std::sqrt(ss / static_cast<double>(xs.size() - 1));
  m.half = tQuantile(xs.size() - 1) * sd / std::sqrt(static_cast<double>(xs.size()));
  m.known = true;
  return m;
}

}  // namespace

namespace {

// Hex distance, by the map's own geometry.
int hexDistance(const eval::MapState& m, int32_t a, int32_t b) {
  if (!m.grid) return 0;
  return hex::distance(m.grid->hexAt(a), m.grid->hexAt(b));
}

struct Evaluator {
  const ir::Program& P;
  int32_t vpField, strengthSlot = -1;
  explicit Evaluator(const ir::Program& p) : P(p), vpField(sideField(p, "vp")) {}
  int64_t strength(const eval::UnitState& u) const {
    const ir::Schema& cls = P.classes[u.cls];
    for (size_t f = 0; f < cls.fields.size(); ++f)
      if (cls.fields[f].name == "strength" && f < u.fields.size()) return intOf(u.fields[f]);
    return 0;
  }
  // Side `me`'s standing: its victory points less the enemy's, then its strength on the map less
  // the enemy's (a little).
  double score(const engine::Session& s, int32_t me) const {
    const auto& st = s.state();
    double v = 0;
    if (vpField >= 0)
      for (size_t i = 0; i < st.sides.size(); ++i)
        v += (static_cast<int32_t>(i) == me ? 1 : -1) *
             static_cast<double>(intOf(st.sides[i].fields[vpField]));
    for (const auto& u : st.units)
      if (u.status == eval::UnitStatus::OnMap)
        v += (u.side == me ? 0.2 : -0.2) * static_cast<double>(strength(u));
    if (s.over()) v += st.result.winner == me ? 1000 : st.result.winner >= 0 ? -1000 : 0;
    return v;
  }
};

struct Rng {
  uint64_t x;
  uint64_t next() {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return x >> 33;
  }
};

// Plays a copy on with random decisions until the action under way is over (the game is back at
// a window, or over), and scores it.
double rollout(engine::Session s, const engine::Option& o, int32_t me, const Evaluator& ev,
               Rng& rng, uint64_t seed) {
  s.setRngState(seed);
  if (s.apply(o).kind != engine::Outcome::Ok) return -1e9;
  for (int steps = 0; steps < 200 && s.stop().kind == eval::Stop::Choose; ++steps) {
    auto opts = s.legal();
    if (opts.empty()) break;
    if (s.apply(opts[rng.next() % opts.size()]).kind != engine::Outcome::Ok) break;
  }
  return ev.score(s, me);
}

// What the greedy player decided at a window and still has to say when the action asks: the
// destination of a unit-first move (`move u`, then a choice among hexes).
struct GreedyMemory {
  int64_t pendingHex = -1;
};

// The approach heuristic's gain for unit u moving to hex `to`: how much nearer the nearest enemy
// unit it gets; below zero when the hex is next to more enemy strength than the unit's own.
double approachGain(const eval::GameState& st, const Evaluator& ev, const eval::UnitState& u,
                    int32_t to) {
  int d0 = 1 << 20, d1 = 1 << 20;
  int64_t near = 0;
  for (const auto& e : st.units) {
    if (e.status != eval::UnitStatus::OnMap || e.side == u.side || ev.strength(e) <= 0) continue;
    d0 = std::min(d0, hexDistance(st.map, u.hex, e.hex));
    int d = hexDistance(st.map, to, e.hex);
    d1 = std::min(d1, d);
    if (d <= 1) near += ev.strength(e);
  }
  if (near > 0 && near > ev.strength(u)) return -1;  // not into more than it can take
  return static_cast<double>(d0 - d1);
}

// The greedy player's choice among `opts` (indices into it); -1: none found.
size_t greedyChoice(engine::Session& s, const std::vector<engine::Option>& opts,
                    const Evaluator& ev, Rng& rng, GreedyMemory& memory) {
  const auto& st = s.state();
  int32_t me = s.stop().player;
  const int kRollouts = 4;
  auto tryAll = [&](const std::vector<size_t>& which) {
    size_t best = which.front();
    double bestScore = -1e18;
    for (size_t i : which) {
      double total = 0;
      for (int k = 0; k < kRollouts; ++k)
        total += rollout(s, opts[i], me, ev, rng, rng.next() * 2654435761ull + k);
      double avg =
          total / kRollouts + static_cast<double>(rng.next() % 1000) * 1e-9;  // ties: at random
      if (avg > bestScore) {
        bestScore = avg;
        best = i;
      }
    }
    return best;
  };
  std::vector<size_t> all(opts.size());
  for (size_t i = 0; i < opts.size(); ++i) all[i] = i;
  if (s.stop().kind == eval::Stop::Choose) {
    // The destination it chose for a unit-first move at the window.
    if (memory.pendingHex >= 0) {
      int64_t want = memory.pendingHex;
      memory.pendingHex = -1;
      for (size_t i = 0; i < opts.size(); ++i)
        if (opts[i].args.size() == 1 && opts[i].args[0].tag == ir::Tag::Hex &&
            opts[i].args[0].i == want)
          return i;
    }
    return opts.size() <= 24 ? tryAll(all) : rng.next() % opts.size();
  }
  memory.pendingHex = -1;
  // At a window: moves (a unit and a hex) by the approach heuristic; the other actions by trying.
  // A unit-first move (`move u`, the destination chosen inside the action, as Warfare's orders)
  // is recognised by trying it on a copy: an action of one unit whose first question is a choice
  // among hexes.
  std::vector<size_t> moves, others, unitFirst;
  size_t endIndex = opts.size();
  for (size_t i = 0; i < opts.size(); ++i) {
    const auto& o = opts[i];
    if (o.kind != engine::Option::Action) {
      endIndex = i;
      continue;
    }
    bool move =
        o.args.size() >= 2 && o.args[0].tag == ir::Tag::Unit && o.args[1].tag == ir::Tag::Hex;
    bool oneUnit = o.args.size() == 1 && o.args[0].tag == ir::Tag::Unit;
    (move ? moves : oneUnit ? unitFirst : others).push_back(i);
  }
  double bestFirstGain = 0;
  size_t bestFirst = opts.size();
  int64_t bestFirstHex = -1;
  std::vector<size_t> notMoves;
  for (size_t i : unitFirst) {
    engine::Session copy = s;
    if (copy.apply(opts[i]).kind != engine::Outcome::Ok || copy.stop().kind != eval::Stop::Choose) {
      notMoves.push_back(i);
      continue;
    }
    auto dests = copy.legal();
    if (dests.empty() || dests.front().args.size() != 1 ||
        dests.front().args[0].tag != ir::Tag::Hex) {
      notMoves.push_back(i);
      continue;
    }
    const auto& u = st.units[static_cast<size_t>(opts[i].args[0].i)];
    for (const auto& d : dests) {
      if (d.args.size() != 1 || d.args[0].tag != ir::Tag::Hex) continue;
      double gain = approachGain(st, ev, u, static_cast<int32_t>(d.args[0].i)) +
                    static_cast<double>(rng.next() % 1000) * 1e-6;
      if (gain > bestFirstGain) {
        bestFirstGain = gain;
        bestFirst = i;
        bestFirstHex = d.args[0].i;
      }
    }
  }
  others.insert(others.end(), notMoves.begin(), notMoves.end());
  std::sort(others.begin(), others.end());  // in the order listed, as before they were tried
  if (!others.empty() && others.size() <= 24) {
    size_t best = tryAll(others);
    // Only when it does better than leaving things as they are.
    double now = ev.score(s, me), total = 0;
    for (int k = 0; k < kRollouts; ++k)
      total += rollout(s, opts[best], me, ev, rng, rng.next() + static_cast<uint64_t>(k));
    if (total / kRollouts >= now - 0.5 || endIndex == opts.size()) return best;
  }
  if (!moves.empty()) {
    // Approach: the move that brings a unit nearest an enemy unit, unless the hex is next to more
    // enemy strength than the unit's own.
    double bestGain = 0;
    size_t best = opts.size();
    for (size_t i : moves) {
      const auto& u = st.units[static_cast<size_t>(opts[i].args[0].i)];
      double gain = approachGain(st, ev, u, static_cast<int32_t>(opts[i].args[1].i));
      if (gain < 0) continue;
      gain += static_cast<double>(rng.next() % 1000) * 1e-6;
      if (gain > bestGain) {
        bestGain = gain;
        best = i;
      }
    }
    if (best < opts.size()) return best;
  }
  if (bestFirst < opts.size()) {
    memory.pendingHex = bestFirstHex;
    return bestFirst;
  }
  if (endIndex < opts.size()) return endIndex;
  return rng.next() % opts.size();
}

// An error of the rules met while a player listed or drew its options: the game stops with it,
// as the REPL's `auto` says it (an option it hid could not be played, so the game is not one the
// rules make).
std::optional<std::string> rulesFailed(engine::Session& s) {
  auto errors = s.takeListingErrors();
  if (errors.empty()) return std::nullopt;
  return "the rules failed while a move was drawn: " + errors.front() +
         " (at: " + s.describeStop() + ")";
}

// A whole number of a shard's JSON: one with a fraction or an exponent is refused (converting
// it to an integer past the integer's range would be undefined behaviour).
template <class T>
T whole(const nlohmann::json& v) {
  if (!v.is_number_integer()) throw std::runtime_error("not a whole number: " + v.dump());
  return v.get<T>();
}
std::vector<int64_t> wholes(const nlohmann::json& v) {
  if (!v.is_array()) throw std::runtime_error("not a list of whole numbers: " + v.dump());
  std::vector<int64_t> out;
  for (const auto& x : v) out.push_back(whole<int64_t>(x));
  return out;
}

}  // namespace

SimGame playRandomGame(std::shared_ptr<const ir::Program> program, engine::SessionConfig config,
                       uint64_t index, std::vector<eval::TraceEvent>* trace,
                       uint64_t maxDecisions) {
  return playGame(program, config, index, {}, trace, maxDecisions);
}

SimGame playGame(std::shared_ptr<const ir::Program> program, engine::SessionConfig config,
                 uint64_t index, const std::vector<PlayerKind>& players,
                 std::vector<eval::TraceEvent>* trace, uint64_t maxDecisions) {
  SimGame g;
  g.index = index;
  g.seed = config.seed;
  const ir::Program& P = *program;
  engine::Session s(program, config);
  engine::Outcome o = s.start();
  if (o.kind != engine::Outcome::Ok) {
    g.error = o.message;
    return g;
  }
  // The same player as the REPL's `auto`, so that a game can be replayed there.
  engine::RandomPlayer random = engine::RandomPlayer::forSeed(config.seed);
  Evaluator ev(P);
  Rng greedyRng{config.seed * 0x9E3779B97F4A7C15ull + 1};
  GreedyMemory memory;
  while (!s.over() && g.decisions < maxDecisions) {
    int32_t who = s.stop().player;
    if (who >= 0 && static_cast<size_t>(who) < players.size() &&
        players[static_cast<size_t>(who)] == PlayerKind::Greedy) {
      auto opts = s.legal();
      if (auto e = rulesFailed(s)) {
        g.error = *e;
        break;
      }
      if (opts.empty()) {
        g.error = "no legal option: " + s.describeStop();
        break;
      }
      // The greedy player; a refused choice falls back to the random player.
      eval::Stop stopBefore = s.stop();
      uint64_t keep = s.rngState();
      size_t pick = greedyChoice(s, opts, ev, greedyRng, memory);
      s.setRngState(keep);
      engine::Outcome r = s.apply(opts[pick]);
      if (r.kind == engine::Outcome::Ok) {
        ++g.decisions;
        continue;
      }
      if (r.kind == engine::Outcome::Error) {
        g.error = r.message + " (" + opts[pick].text + ", at: " + s.describeStop() + ")";
        break;
      }
      // A refusal deep in an action puts the game back where the action began: decide again.
      if (s.stop().kind != stopBefore.kind || s.stop().index != stopBefore.index ||
          s.stop().player != stopBefore.player)
        continue;
    }
    engine::RandomPlayer::Move m = random.play(s);
    if (auto e = rulesFailed(s)) {
      g.error = *e;
      break;
    }
    if (m.kind == engine::RandomPlayer::Move::None) {
      g.error = "no legal option: " + s.describeStop();
      break;
    }
    if (m.kind == engine::RandomPlayer::Move::Relist) continue;
    if (m.kind != engine::RandomPlayer::Move::Played) {
      g.error = m.kind == engine::RandomPlayer::Move::Failed
                    ? m.outcome.message
                    : "every legal option was refused: " + s.describeStop();
      break;
    }
    ++g.decisions;
  }
  if (!s.over() && g.error.empty())
    g.error = fmt::format("no result after {} decisions", g.decisions);
  const auto& st = s.state();
  g.finished = s.over() && g.error.empty();
  g.turns = st.turn;
  if (st.result.winner >= 0 && static_cast<size_t>(st.result.winner) < P.sides.size())
    g.winner = P.sides[st.result.winner].name;
  g.level = st.result.level;
  int32_t lf = sideField(P, "losses"), vf = sideField(P, "vp");
  for (const auto& side : st.sides) {
    if (lf >= 0) g.losses.push_back(intOf(side.fields[lf]));
    if (vf >= 0) g.vp.push_back(intOf(side.fields[vf]));
  }
  if (trace) trace->assign(st.trace.begin(), st.trace.end());
  return g;
}

std::pair<uint64_t, uint64_t> shardRange(uint64_t games, unsigned index, unsigned count) {
  if (count == 0) count = 1;
  uint64_t first = games * (index - 1) / count;
  uint64_t last = games * index / count;
  return {first, last};
}

std::string renderSweep(const std::vector<std::string>& sides,
                        const std::vector<SweepColumn>& columns) {
  if (columns.empty()) return "";
  const SimSpec& base = columns.front().spec;
  uint64_t n = base.games;
  std::string out =
      fmt::format("sweep of {} variants of {}{}: {} games each (seeds {} to {}), players {}\n",
                  columns.size(), base.ruleset, base.scenario.empty() ? "" : " " + base.scenario, n,
                  base.seed, base.seed + n - 1, base.players);
  // A measure: per game of a variant, its value (a win is 1 or 0); shares print as percentages.
  struct Measure {
    std::string name;
    bool share;
    std::function<std::optional<double>(const SimGame&)> of;
  };
  std::vector<Measure> measures;
  for (size_t s = 0; s < sides.size(); ++s) {
    std::string side = sides[s];
    measures.push_back({side + " wins", true, [side](const SimGame& g) -> std::optional<double> {
                          return g.winner == side ? 1.0 : 0.0;
                        }});
  }
  measures.push_back({"draw", true, [](const SimGame& g) -> std::optional<double> {
                        return g.winner.empty() ? 1.0 : 0.0;
                      }});
  measures.push_back({"turns played", false, [](const SimGame& g) -> std::optional<double> {
                        return static_cast<double>(g.turns);
                      }});
  for (size_t s = 0; s < sides.size(); ++s) {
    measures.push_back(
        {sides[s] + " losses", false, [s](const SimGame& g) -> std::optional<double> {
           if (s >= g.losses.size()) return std::nullopt;
           return static_cast<double>(g.losses[s]);
         }});
    measures.push_back(
        {sides[s] + " victory points", false, [s](const SimGame& g) -> std::optional<double> {
           if (s >= g.vp.size()) return std::nullopt;
           return static_cast<double>(g.vp[s]);
         }});
  }
  out += "| measure |";
  for (const auto& c : columns) out += " " + c.name + " |";
  out += "\n| --- |";
  for (size_t i = 0; i < columns.size(); ++i) out += " --- |";
  out += "\n| games finished |";
  for (const auto& c : columns) {
    uint64_t ok =
        std::count_if(c.games.begin(), c.games.end(), [](const SimGame& g) { return g.finished; });
    out += fmt::format(" {} of {} |", ok, c.games.size());
  }
  out += "\n";
  auto show = [](bool share, double x) {
    return share ? fmt::format("{:.1f}%", 100 * x) : fmt::format("{:.2f}", x);
  };
  auto showDiff = [](bool share, double x) {
    return share ? fmt::format("{:+.1f} pts", 100 * x) : fmt::format("{:+.2f}", x);
  };
  for (const Measure& m : measures) {
    std::vector<MeanCi> cis;
    bool any = false;
    std::vector<size_t> counts;
    for (const auto& c : columns) {
      std::vector<double> xs;
      for (const auto& g : c.games)
        if (g.finished)
          if (auto v = m.of(g)) xs.push_back(*v);
      any = any || !xs.empty();
      counts.push_back(xs.size());
      cis.push_back(meanCi(xs));
    }
    if (!any) continue;  // a measure the ruleset does not keep
    out += "| " + m.name + " |";
    for (size_t i = 0; i < columns.size(); ++i) {
      if (counts[i] == 0) {
        out += " - |";
        continue;
      }
      out += " " + show(m.share, cis[i].mean);
      if (i > 0 && counts[0] > 0) {
        double d = cis[i].mean - cis[0].mean;
        double half = std::sqrt(cis[i].half * cis[i].half + cis[0].half * cis[0].half);
        out += fmt::format(" ({}, {} to {})", showDiff(m.share, d), showDiff(m.share, d - half),
                           showDiff(m.share, d + half));
      }
      out += " |";
    }
    out += "\n";
  }
  out += "\nEach variant's cell after the first: its difference from " + columns.front().name +
         ", with a 95% interval.\n";
  for (const auto& c : columns) {
    std::string rules;
    for (const auto& h : c.spec.houses) rules += " + house " + h;
    for (const auto& [k, v] : c.spec.options) rules += fmt::format(" with {}={}", k, v);
    if (!c.spec.level.empty()) rules += " at level " + c.spec.level;
    out +=
        fmt::format("- {}: {}{}\n", c.name, c.spec.ruleset, rules.empty() ? " as printed" : rules);
  }
  return out;
}

std::string renderSummary(const SimSpec& spec, const std::vector<std::string>& sides,
                          const std::vector<SimGame>& games) {
  std::string out;
  uint64_t n = games.size();
  uint64_t failed =
      std::count_if(games.begin(), games.end(), [](const SimGame& g) { return !g.finished; });
  // The rules played: house files and options are part of the question a designer asks.
  std::string rules;
  for (const auto& h : spec.houses) rules += " + house " + h;
  for (const auto& [k, v] : spec.options) rules += fmt::format(" with {}={}", k, v);
  out += fmt::format("{} games of {}{}{}{} (seeds {} to {}), players {}: {} finished, {} failed\n",
                     n, spec.ruleset, spec.scenario.empty() ? "" : " " + spec.scenario,
                     spec.level.empty() ? "" : " at level " + spec.level, rules,
                     n ? games.front().seed : spec.seed, n ? games.back().seed : spec.seed,
                     spec.players, n - failed, failed);
  std::vector<SimGame> ok;
  for (const auto& g : games)
    if (g.finished) ok.push_back(g);
  uint64_t m = ok.size();
  auto pct = [](double x) { return fmt::format("{:.1f}%", 100 * x); };
  // Winners.
  std::map<std::string, uint64_t> winners, levels;
  for (const auto& g : ok) {
    ++winners[g.winner.empty() ? "draw" : g.winner];
    ++levels[(g.winner.empty() ? std::string("draw") : g.winner) +
             (g.level.empty() || g.winner.empty() ? "" : " " + g.level)];
  }
  out += "| result | games | share | 95% interval |\n| --- | --- | --- | --- |\n";
  for (const auto& s : sides) {
    uint64_t k = winners.count(s) ? winners[s] : 0;
    auto [lo, hi] = wilson(k, m);
    out += fmt::format("| {} wins | {} | {} | {} to {} |\n", s, k,
                       m ? pct(double(k) / double(m)) : "-", pct(lo), pct(hi));
  }
  {
    uint64_t k = winners.count("draw") ? winners["draw"] : 0;
    auto [lo, hi] = wilson(k, m);
    out += fmt::format("| draw | {} | {} | {} to {} |\n", k, m ? pct(double(k) / double(m)) : "-",
                       pct(lo), pct(hi));
  }
  out += "\n| winner and level | games | share | 95% interval |\n| --- | --- | --- | --- |\n";
  for (const auto& [name, k] : levels) {
    auto [lo, hi] = wilson(k, m);
    out += fmt::format("| {} | {} | {} | {} to {} |\n", name, k, pct(double(k) / double(m)),
                       pct(lo), pct(hi));
  }
  std::vector<double> turns;
  for (const auto& g : ok) turns.push_back(static_cast<double>(g.turns));
  MeanCi t = meanCi(turns);
  // A mean's interval (Student's t): none from a single game.
  auto interval = [](const MeanCi& c) {
    return c.known ? fmt::format("{:.2f} to {:.2f}", c.mean - c.half, c.mean + c.half)
                   : std::string("- (one game)");
  };
  out += fmt::format(
      "\n| measure | mean | 95% interval |\n| --- | --- | --- |\n| turns played | {:.2f} | {} |\n",
      t.mean, interval(t));
  for (size_t s = 0; s < sides.size(); ++s) {
    std::vector<double> l, v;
    for (const auto& g : ok) {
      if (s < g.losses.size()) l.push_back(static_cast<double>(g.losses[s]));
      if (s < g.vp.size()) v.push_back(static_cast<double>(g.vp[s]));
    }
    MeanCi a = meanCi(l), b = meanCi(v);
    // Only the measures the ruleset keeps (side state fields `losses` and `vp`).
    if (!l.empty())
      out += fmt::format("| {} losses (strength points) | {:.2f} | {} |\n", sides[s], a.mean,
                         interval(a));
    if (!v.empty())
      out += fmt::format("| {} victory points | {:.2f} | {} |\n", sides[s], b.mean, interval(b));
  }
  for (const auto& g : games)
    if (!g.finished) out += fmt::format("game {} (seed {}) failed: {}\n", g.index, g.seed, g.error);
  if (spec.players.find("random") != std::string::npos)
    out +=
        "\nNote: random players choose among the legal moves at random: these figures measure the "
        "rules under random play, not under good play (the greedy player, `--players greedy`, "
        "judges its moves).\n";
  return out;
}

std::string toJson(const SimSpec& spec, const std::vector<std::string>& sides,
                   const std::vector<SimGame>& games) {
  nlohmann::ordered_json j;
  j["ruleset"] = spec.ruleset;
  j["scenario"] = spec.scenario;
  j["level"] = spec.level;
  j["houses"] = spec.houses;
  nlohmann::ordered_json opts = nlohmann::ordered_json::object();
  for (const auto& [k, v] : spec.options) opts[k] = v;
  j["options"] = opts;
  j["seed"] = spec.seed;
  j["games"] = spec.games;
  j["players"] = spec.players;
  j["shard"] = fmt::format("{}/{}", spec.shardIndex, spec.shardCount);
  j["sides"] = sides;
  nlohmann::ordered_json gs = nlohmann::ordered_json::array();
  for (const auto& g : games) {
    nlohmann::ordered_json x;
    x["index"] = g.index;
    x["seed"] = g.seed;
    x["finished"] = g.finished;
    if (!g.error.empty()) x["error"] = g.error;
    x["winner"] = g.winner;
    x["level"] = g.level;
    x["turns"] = g.turns;
    x["losses"] = g.losses;
    x["vp"] = g.vp;
    x["decisions"] = g.decisions;
    gs.push_back(x);
  }
  j["results"] = gs;
  return j.dump(1) + "\n";
}

bool fromJson(const std::string& text, SimSpec& spec, std::vector<std::string>& sides,
              std::vector<SimGame>& games, std::string& error) {
  try {
    auto j = nlohmann::json::parse(text);
    spec.ruleset = j.at("ruleset").get<std::string>();
    spec.scenario = j.at("scenario").get<std::string>();
    spec.level = j.at("level").get<std::string>();
    spec.houses = j.at("houses").get<std::vector<std::string>>();
    spec.options.clear();
    for (auto it = j.at("options").begin(); it != j.at("options").end(); ++it)
      spec.options.emplace_back(it.key(), it.value().get<std::string>());
    spec.seed = whole<uint64_t>(j.at("seed"));
    spec.games = whole<uint64_t>(j.at("games"));
    spec.players = j.at("players").get<std::string>();
    sides = j.at("sides").get<std::vector<std::string>>();
    for (const auto& x : j.at("results")) {
      SimGame g;
      g.index = whole<uint64_t>(x.at("index"));
      g.seed = whole<uint64_t>(x.at("seed"));
      g.finished = x.at("finished").get<bool>();
      if (x.contains("error")) g.error = x.at("error").get<std::string>();
      g.winner = x.at("winner").get<std::string>();
      g.level = x.at("level").get<std::string>();
      g.turns = whole<int64_t>(x.at("turns"));
      g.losses = wholes(x.at("losses"));
      g.vp = wholes(x.at("vp"));
      g.decisions = whole<uint64_t>(x.at("decisions"));
      games.push_back(std::move(g));
    }
  } catch (const std::exception& e) {
    error = e.what();
    return false;
  }
  return true;
}

}  // namespace polemos::analysis
