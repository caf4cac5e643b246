#include "analysis/sim.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

namespace polemos::analysis {

namespace {

int32_t sideField(const ir::Program& P, const std::string& name) {
  for (size_t i = 0; i < P.sideState.fields.size(); ++i)
    if (P.sideState.fields[i].name == name) return static_cast<int32_t>(i);
  return -1;
}

int64_t intOf(const ir::Value& v) { return v.tag == ir::Tag::Int ? v.i : 0; }

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

struct MeanCi {
  double mean = 0, half = 0;
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
  m.half = 1.959964 * sd / std::sqrt(static_cast<double>(xs.size()));
  return m;
}

}  // namespace

SimGame playRandomGame(std::shared_ptr<const ir::Program> program, engine::SessionConfig config, uint64_t index,
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
  // The same generator as the REPL's `auto`, so that a game can be replayed there.
  uint64_t x = config.seed * 7919 + 17;
  while (!s.over() && g.decisions < maxDecisions) {
    auto opts = s.legal();
    if (opts.empty()) {
      g.error = "no legal option: " + s.describeStop();
      break;
    }
    bool done = false;
    engine::Outcome r;
    while (!opts.empty()) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      size_t pick = (x >> 33) % opts.size();
      r = s.apply(opts[pick]);
      if (r.kind == engine::Outcome::Ok) {
        done = true;
        break;
      }
      if (r.kind == engine::Outcome::Error) break;
      opts.erase(opts.begin() + static_cast<std::ptrdiff_t>(pick));
    }
    if (!done) {
      g.error = r.kind == engine::Outcome::Error ? r.message : "every legal option was refused: " + s.describeStop();
      break;
    }
    ++g.decisions;
  }
  if (!s.over() && g.error.empty()) g.error = fmt::format("no result after {} decisions", g.decisions);
  const auto& st = s.state();
  g.finished = s.over() && g.error.empty();
  g.turns = st.turn;
  if (st.result.winner >= 0 && static_cast<size_t>(st.result.winner) < P.sides.size()) g.winner = P.sides[st.result.winner].name;
  g.level = st.result.level;
  int32_t lf = sideField(P, "losses"), vf = sideField(P, "vp");
  for (const auto& side : st.sides) {
    if (lf >= 0) g.losses.push_back(intOf(side.fields[lf]));
    if (vf >= 0) g.vp.push_back(intOf(side.fields[vf]));
  }
  if (trace) *trace = st.trace;
  return g;
}

std::pair<uint64_t, uint64_t> shardRange(uint64_t games, unsigned index, unsigned count) {
  if (count == 0) count = 1;
  uint64_t first = games * (index - 1) / count;
  uint64_t last = games * index / count;
  return {first, last};
}

std::string renderSummary(const SimSpec& spec, const std::vector<std::string>& sides, const std::vector<SimGame>& games) {
  std::string out;
  uint64_t n = games.size();
  uint64_t failed = std::count_if(games.begin(), games.end(), [](const SimGame& g) { return !g.finished; });
  out += fmt::format("{} games of {}{}{} (seeds {} to {}), players {}: {} finished, {} failed\n", n, spec.ruleset,
                     spec.scenario.empty() ? "" : " " + spec.scenario, spec.level.empty() ? "" : " at level " + spec.level,
                     n ? games.front().seed : spec.seed, n ? games.back().seed : spec.seed, spec.players, n - failed, failed);
  std::vector<SimGame> ok;
  for (const auto& g : games)
    if (g.finished) ok.push_back(g);
  uint64_t m = ok.size();
  auto pct = [](double x) { return fmt::format("{:.1f}%", 100 * x); };
  // Winners.
  std::map<std::string, uint64_t> winners, levels;
  for (const auto& g : ok) {
    ++winners[g.winner.empty() ? "draw" : g.winner];
    ++levels[(g.winner.empty() ? std::string("draw") : g.winner) + (g.level.empty() || g.winner.empty() ? "" : " " + g.level)];
  }
  out += "| result | games | share | 95% interval |\n| --- | --- | --- | --- |\n";
  for (const auto& s : sides) {
    uint64_t k = winners.count(s) ? winners[s] : 0;
    auto [lo, hi] = wilson(k, m);
    out += fmt::format("| {} wins | {} | {} | {} to {} |\n", s, k, m ? pct(double(k) / double(m)) : "-", pct(lo), pct(hi));
  }
  {
    uint64_t k = winners.count("draw") ? winners["draw"] : 0;
    auto [lo, hi] = wilson(k, m);
    out += fmt::format("| draw | {} | {} | {} to {} |\n", k, m ? pct(double(k) / double(m)) : "-", pct(lo), pct(hi));
  }
  out += "\n| winner and level | games | share | 95% interval |\n| --- | --- | --- | --- |\n";
  for (const auto& [name, k] : levels) {
    auto [lo, hi] = wilson(k, m);
    out += fmt::format("| {} | {} | {} | {} to {} |\n", name, k, pct(double(k) / double(m)), pct(lo), pct(hi));
  }
  std::vector<double> turns;
  for (const auto& g : ok) turns.push_back(static_cast<double>(g.turns));
  MeanCi t = meanCi(turns);
  out += fmt::format("\n| measure | mean | 95% interval |\n| --- | --- | --- |\n| turns played | {:.2f} | {:.2f} to {:.2f} |\n",
                     t.mean, t.mean - t.half, t.mean + t.half);
  for (size_t s = 0; s < sides.size(); ++s) {
    std::vector<double> l, v;
    for (const auto& g : ok) {
      if (s < g.losses.size()) l.push_back(static_cast<double>(g.losses[s]));
      if (s < g.vp.size()) v.push_back(static_cast<double>(g.vp[s]));
    }
    MeanCi a = meanCi(l), b = meanCi(v);
    // Only the measures the ruleset keeps (side state fields `losses` and `vp`).
    if (!l.empty())
      out += fmt::format("| {} losses (strength points) | {:.2f} | {:.2f} to {:.2f} |\n", sides[s], a.mean, a.mean - a.half, a.mean + a.half);
    if (!v.empty())
      out += fmt::format("| {} victory points | {:.2f} | {:.2f} to {:.2f} |\n", sides[s], b.mean, b.mean - b.half, b.mean + b.half);
  }
  for (const auto& g : games)
    if (!g.finished) out += fmt::format("game {} (seed {}) failed: {}\n", g.index, g.seed, g.error);
  return out;
}

std::string toJson(const SimSpec& spec, const std::vector<std::string>& sides, const std::vector<SimGame>& games) {
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

bool fromJson(const std::string& text, SimSpec& spec, std::vector<std::string>& sides, std::vector<SimGame>& games,
              std::string& error) {
  try {
    auto j = nlohmann::json::parse(text);
    spec.ruleset = j.at("ruleset").get<std::string>();
    spec.scenario = j.at("scenario").get<std::string>();
    spec.level = j.at("level").get<std::string>();
    spec.houses = j.at("houses").get<std::vector<std::string>>();
    spec.options.clear();
    for (auto it = j.at("options").begin(); it != j.at("options").end(); ++it)
      spec.options.emplace_back(it.key(), it.value().get<std::string>());
    spec.seed = j.at("seed").get<uint64_t>();
    spec.games = j.at("games").get<uint64_t>();
    spec.players = j.at("players").get<std::string>();
    sides = j.at("sides").get<std::vector<std::string>>();
    for (const auto& x : j.at("results")) {
      SimGame g;
      g.index = x.at("index").get<uint64_t>();
      g.seed = x.at("seed").get<uint64_t>();
      g.finished = x.at("finished").get<bool>();
      if (x.contains("error")) g.error = x.at("error").get<std::string>();
      g.winner = x.at("winner").get<std::string>();
      g.level = x.at("level").get<std::string>();
      g.turns = x.at("turns").get<int64_t>();
      g.losses = x.at("losses").get<std::vector<int64_t>>();
      g.vp = x.at("vp").get<std::vector<int64_t>>();
      g.decisions = x.at("decisions").get<uint64_t>();
      games.push_back(std::move(g));
    }
  } catch (const std::exception& e) {
    error = e.what();
    return false;
  }
  return true;
}

}  // namespace polemos::analysis
