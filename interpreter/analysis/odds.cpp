#include "analysis/odds.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>

#include "engine/reading.h"
#include "eval/trace.h"

namespace polemos::analysis {

using engine::Session;
using eval::Stop;

namespace {

using u128 = unsigned __int128;

uint64_t gcd64(uint64_t a, uint64_t b) {
  return std::gcd(a, b);
}

// Reduces n/d and says whether it fits in 64 bits.
bool reduce(u128 n, u128 d, uint64_t& on, uint64_t& od) {
  u128 a = n, b = d;
  while (b != 0) {
    u128 t = a % b;
    a = b;
    b = t;
  }
  if (a > 1) {
    n /= a;
    d /= a;
  }
  if (n > UINT64_MAX || d > UINT64_MAX) return false;
  on = static_cast<uint64_t>(n);
  od = static_cast<uint64_t>(d);
  return true;
}

std::string percent(long double v) {
  std::string s = fmt::format("{:.2f}%", static_cast<double>(v * 100));
  return s;
}

}  // namespace

Prob Prob::times(uint64_t n, uint64_t d) const {
  Prob r;
  r.value = value * static_cast<long double>(n) / static_cast<long double>(d);
  r.exact = exact && reduce(static_cast<u128>(num) * n, static_cast<u128>(den) * d, r.num, r.den);
  return r;
}

Prob Prob::plus(const Prob& o) const {
  Prob r;
  r.value = value + o.value;
  if (!exact || !o.exact) {
    r.exact = false;
    return r;
  }
  uint64_t g = gcd64(den, o.den);
  u128 d = static_cast<u128>(den / g) * o.den;
  u128 n = static_cast<u128>(num) * (o.den / g) + static_cast<u128>(o.num) * (den / g);
  r.exact = reduce(n, d, r.num, r.den);
  return r;
}

std::string Prob::fraction() const {
  if (!exact) return fmt::format("≈{:.6f}", static_cast<double>(value));
  if (num == 0) return "0";
  if (den == 1) return std::to_string(num);
  return fmt::format("{}/{}", num, den);
}

std::optional<OddsPolicy> parsePolicy(const std::string& s) {
  if (s == "first") return OddsPolicy::First;
  if (s == "last") return OddsPolicy::Last;
  if (s == "random") return OddsPolicy::Random;
  return std::nullopt;
}

const char* policyName(OddsPolicy p) {
  switch (p) {
    case OddsPolicy::First:
      return "first";
    case OddsPolicy::Last:
      return "last";
    case OddsPolicy::Random:
      return "random";
  }
  return "?";
}

size_t policyPick(OddsPolicy policy, size_t options) {
  return policy == OddsPolicy::Last && options > 0 ? options - 1 : 0;
}

std::string OddsOutcome::key() const {
  std::string k = result;
  k += '\x1f';
  for (const auto& c : changes) k += c + '\x1e';
  k += '\x1f';
  for (const auto& d : decisions) k += d + '\x1e';
  return k;
}

OddsOutcome summarizeOutcome(const Session& before, const Session& after) {
  const ir::Program& P = after.program();
  const eval::GameState& a = before.state();
  const eval::GameState& b = after.state();
  OddsOutcome o;
  // The result as the rules traced it: a note naming the result (Standard's "§7.6 result, DR");
  // without one, every note, less its numbers; without notes, the tables looked up.
  std::vector<std::string> resultNotes, tables, notes;
  for (const auto& e : b.trace) {
    if (e.seq <= a.traceSeq) continue;
    std::string cite;
    for (const auto& c : e.citations) cite += c.text() + " ";
    if (e.kind == eval::TraceKind::Note) {
      if (e.subject.rfind("result", 0) == 0) resultNotes.push_back(cite + e.subject);
      // Numbers in a note are the values that went in (die rolls, totals): one outcome per die
      // face is not what is asked, so they are left out ("final melee values, 8, 1, DE" counts
      // as "final melee values, DE").
      std::string kept;
      for (size_t i = 0, j; i <= e.subject.size(); i = j + 2) {
        j = e.subject.find(", ", i);
        if (j == std::string::npos) j = e.subject.size();
        std::string item = e.subject.substr(i, j - i);
        bool number = !item.empty() && item.find_first_not_of("-0123456789") == std::string::npos;
        if (!number) kept += (kept.empty() ? "" : ", ") + item;
      }
      std::string text = cite + kept;
      if (std::find(notes.begin(), notes.end(), text) == notes.end()) notes.push_back(text);
    } else if (e.kind == eval::TraceKind::Table) {
      tables.push_back(cite + e.subject + " → " + e.output);
    }
  }
  const auto& pickList = !resultNotes.empty() ? resultNotes : !notes.empty() ? notes : tables;
  for (const auto& t : pickList) o.result += (o.result.empty() ? "" : "; ") + t;
  if (b.result.over && !a.result.over) {
    std::string who = b.result.winner >= 0 ? P.sides[b.result.winner].name + " wins" : "a draw";
    o.changes.push_back(fmt::format("game over: {}{}", who,
                                    b.result.level.empty() ? "" : " (" + b.result.level + ")"));
  }
  auto field = [&](const std::vector<ir::Value>& x, const std::vector<ir::Value>& y,
                   const std::vector<ir::FieldInfo>& fs, const std::string& owner) {
    for (size_t i = 0; i < y.size() && i < fs.size(); ++i) {
      if (fs[i].derived >= 0) continue;
      if (i < x.size() && x[i] == y[i]) continue;
      std::string was = i < x.size() ? after.display(x[i]) : "none";
      o.changes.push_back(
          fmt::format("{}.{} {} → {}", owner, fs[i].name, was, after.display(y[i])));
    }
  };
  for (size_t u = 0; u < b.units.size(); ++u) {
    const eval::UnitState& y = b.units[u];
    if (u >= a.units.size()) {
      o.changes.push_back(
          fmt::format("{} placed at {}", y.id, y.hex >= 0 ? b.map.label(y.hex) : "none"));
      continue;
    }
    const eval::UnitState& x = a.units[u];
    using S = eval::UnitStatus;
    if (x.status != y.status) {
      switch (y.status) {
        case S::Eliminated:
          o.changes.push_back(y.id + " eliminated");
          break;
        case S::Exited:
          o.changes.push_back(y.id + " left the map");
          break;
        case S::Off:
          o.changes.push_back(y.id + " taken off the map");
          break;
        case S::OnMap:
          o.changes.push_back(fmt::format("{} placed at {}", y.id, b.map.label(y.hex)));
          break;
        case S::Merged:
          o.changes.push_back(y.id + " merged into another unit");
          break;
      }
    } else if (y.status == S::OnMap && x.hex != y.hex) {
      o.changes.push_back(fmt::format("{} {} → {}", y.id, a.map.label(x.hex), b.map.label(y.hex)));
    }
    if (y.status == S::OnMap && x.facing != y.facing && y.facing >= 0)
      o.changes.push_back(fmt::format("{} facing {} → {}", y.id, x.facing, y.facing));
    if (y.cls >= 0 && y.cls < static_cast<int32_t>(P.classes.size()))
      field(x.fields, y.fields, P.classes[y.cls].fields, y.id);
  }
  for (size_t s = 0; s < b.sides.size() && s < P.sides.size(); ++s)
    field(s < a.sides.size() ? a.sides[s].fields : std::vector<ir::Value>{}, b.sides[s].fields,
          P.sideState.fields, P.sides[s].name);
  field(a.game, b.game, P.gameState.fields, "game");
  return o;
}

namespace {

struct Node {
  Session s;
  Prob p;
  std::vector<std::string> decisions;
  size_t picksUsed = 0;
  bool rolled =
      false;  // a roll has been made on the way here: decisions from now on are follow-ons
};

class Enumerator {
 public:
  Enumerator(const Session& before, const OddsRequest& req) : before_(before), req_(req) {}

  // Runs the whole tree from `root`, whose last step returned `first`.
  void run(Session root, const engine::Outcome& first) {
    std::vector<std::pair<Node, engine::Outcome>> stack;
    stack.push_back({Node{std::move(root), Prob::one(), {}, 0, false}, first});
    while (!stack.empty() && error_.empty()) {
      auto [node, last] = std::move(stack.back());
      stack.pop_back();
      walk(std::move(node), last, stack);
    }
  }

  OddsReport finish(OddsReport r) {
    r.error = error_;
    if (!r.error.empty()) return r;
    std::vector<OddsOutcome> outs;
    for (auto& [k, o] : byKey_) outs.push_back(std::move(o));
    // Changes found in every outcome are said once.
    if (!outs.empty()) {
      for (const auto& c : outs[0].changes) {
        bool everywhere = std::all_of(outs.begin(), outs.end(), [&](const OddsOutcome& o) {
          return std::find(o.changes.begin(), o.changes.end(), c) != o.changes.end();
        });
        if (everywhere && outs.size() > 1) r.always.push_back(c);
      }
      for (auto& o : outs)
        o.changes.erase(std::remove_if(o.changes.begin(), o.changes.end(),
                                       [&](const std::string& c) {
                                         return std::find(r.always.begin(), r.always.end(), c) !=
                                                r.always.end();
                                       }),
                        o.changes.end());
    }
    // Grouped by result (the likeliest result first), then the likeliest outcome first; with
    // split, by the decisions taken first.
    std::map<std::string, long double> byResult;
    for (const auto& o : outs) byResult[o.result] += o.p.value;
    std::stable_sort(outs.begin(), outs.end(), [&](const OddsOutcome& a, const OddsOutcome& b) {
      if (a.decisions != b.decisions) return a.decisions < b.decisions;
      if (a.result != b.result) {
        long double x = byResult[a.result], y = byResult[b.result];
        return x != y ? x > y : a.result < b.result;
      }
      return a.p.value > b.p.value;
    });
    r.outcomes = std::move(outs);
    r.branches = leaves_;
    r.chancePoints = chance_;
    r.beforeRoll = prelude_;
    r.decisionPoints = decisions_;
    return r;
  }

 private:
  void leaf(const Node& n, const engine::Outcome& last) {
    ++leaves_;
    OddsOutcome o;
    if (last.kind == engine::Outcome::Illegal) {
      o.result = "illegal: " + last.message + " (the action is undone)";
    } else if (last.kind == engine::Outcome::Error || n.s.stop().kind == Stop::Error) {
      o.result = "error: " + (last.message.empty() ? n.s.stop().message : last.message);
    } else {
      o = summarizeOutcome(before_, n.s);
    }
    o.decisions = n.decisions;
    o.p = n.p;
    o.branches = 1;
    auto k = o.key();
    auto it = byKey_.find(k);
    if (it == byKey_.end()) {
      byKey_.emplace(k, std::move(o));
    } else {
      it->second.p = it->second.p.plus(o.p);
      ++it->second.branches;
    }
  }

  bool budget() {
    if (++steps_ > req_.maxBranches) {
      error_ = fmt::format(
          "more than {} branches: narrow the question (fix decisions with --picks, or use a "
          "deterministic --policy)",
          req_.maxBranches);
      return false;
    }
    return true;
  }

  void walk(Node n, engine::Outcome last, std::vector<std::pair<Node, engine::Outcome>>& stack) {
    for (;;) {
      if (!budget()) return;
      const Stop& st = n.s.stop();
      if (last.kind != engine::Outcome::Ok || st.kind == Stop::Window || st.kind == Stop::End ||
          st.kind == Stop::Error || st.kind == Stop::None || st.kind == Stop::Failed) {
        leaf(n, last);
        return;
      }
      if (st.kind == Stop::Roll) {
        // What the rules worked out before the dice (the strengths, their modifiers, the odds
        // column): the same in every branch, read once, at the first roll.
        if (!preludeTaken_) {
          preludeTaken_ = true;
          for (const auto& e : n.s.state().trace)
            if (e.kind == eval::TraceKind::Modifier || e.kind == eval::TraceKind::Note)
              prelude_.push_back(eval::formatEvent(e));
        }
        ++chance_;
        uint64_t total = 0;
        auto dist = n.s.rollDistribution(total);
        if (dist.empty() || total == 0) {
          error_ = fmt::format("the roll {} has too many outcomes to list",
                               n.s.program().rollText(st.index, st.count));
          return;
        }
        for (size_t i = 1; i < dist.size(); ++i) {
          Node c{n.s, n.p.times(dist[i].second, total), n.decisions, n.picksUsed, true};
          engine::Outcome o = c.s.resolveRoll(dist[i].first);
          stack.push_back({std::move(c), o});
        }
        n.p = n.p.times(dist[0].second, total);
        n.rolled = true;
        last = n.s.resolveRoll(dist[0].first);
        continue;
      }
      // A decision.
      ++decisions_;
      size_t count = st.options.items().size();
      if (count == 0) {
        error_ = "a decision with no options";
        return;
      }
      if (n.picksUsed < req_.picks.size()) {
        size_t i = req_.picks[n.picksUsed++];
        if (i >= count) {
          error_ = fmt::format("--picks: option {} of a decision with {} options ({})", i + 1,
                               count, n.s.describeStop());
          return;
        }
        last = n.s.pick(i);
        continue;
      }
      // Before the first roll, the decisions describe the action (which units attack, which hexes
      // are attacked): the first option, as `--picks` did not say otherwise.
      if (!n.rolled) {
        last = n.s.pick(0);
        continue;
      }
      if (!req_.split && req_.policy != OddsPolicy::Random) {
        last = n.s.pick(policyPick(req_.policy, count));
        continue;
      }
      const ir::ChooseInfo& ci = n.s.program().chooses[st.index];
      std::string cite;
      for (const auto& c : ci.citations) cite += (cite.empty() ? " (§" : " §") + c;
      if (!cite.empty()) cite += ")";
      auto label = [&](size_t i) {
        return fmt::format("{}{} → {}", ci.prompt, cite, n.s.display(st.options.items()[i]));
      };
      for (size_t i = 1; i < count; ++i) {
        Node c{n.s, req_.split ? n.p : n.p.times(1, count), n.decisions, n.picksUsed, n.rolled};
        if (req_.split) c.decisions.push_back(label(i));
        engine::Outcome o = c.s.pick(i);
        stack.push_back({std::move(c), o});
      }
      if (req_.split)
        n.decisions.push_back(label(0));
      else
        n.p = n.p.times(1, count);
      last = n.s.pick(0);
    }
  }

  const Session& before_;
  const OddsRequest& req_;
  std::map<std::string, OddsOutcome> byKey_;
  uint64_t leaves_ = 0, chance_ = 0, decisions_ = 0, steps_ = 0;
  bool preludeTaken_ = false;
  std::vector<std::string> prelude_;
  std::string error_;
};

// A copy of the game to enumerate on: rolls stop instead of being made, dice forced at the prompt
// are not used (every face is counted), the rules trace (the result is read from the trace), and
// the trace so far is dropped (each branch copies the game, and an old trace would be copied with
// it).
Session workingCopy(const Session& game) {
  Session s = game;
  s.clearForcedDice();
  s.setAutoRoll(false);
  s.restartTrace();
  s.setStepping(false);  // a pause inside the action is passed through
  return s;
}

std::string sideName(const Session& s, int32_t side) {
  const auto& sides = s.program().sides;
  return side >= 0 && side < static_cast<int32_t>(sides.size()) ? sides[side].name : "";
}

}  // namespace

OddsReport oddsOfAction(const Session& game, int32_t action, const std::vector<ir::Value>& args,
                        const OddsRequest& request) {
  OddsReport r;
  r.request = request;
  const ir::Program& P = game.program();
  r.question = P.actions.at(action).name;
  for (const auto& a : args) r.question += " " + game.display(a);
  r.actor = sideName(game, game.stop().player);
  if (game.stop().kind != Stop::Window) {
    r.error = game.stop().kind == Stop::Choose
                  ? "a decision is pending: ask `odds` alone for the action under way"
                  : "no action can be taken now";
    return r;
  }
  Session root = workingCopy(game);
  Session before = root;
  engine::Outcome first = root.act(action, args);
  if (first.kind == engine::Outcome::Illegal) {
    r.error = "illegal: " + first.message;
    return r;
  }
  if (first.kind == engine::Outcome::Error) {
    r.error = first.message;
    return r;
  }
  Enumerator e(before, request);
  e.run(std::move(root), first);
  return e.finish(std::move(r));
}

OddsReport oddsFromHere(const Session& game, const OddsRequest& request) {
  OddsReport r;
  r.request = request;
  const Stop& st = game.stop();
  if (st.kind != Stop::Choose && st.kind != Stop::Roll) {
    r.error = "no action is under way: name one, as in `odds attack 0506`";
    return r;
  }
  // The action under way is the last one traced (the session keeps no other record of it).
  std::string action = "the action under way";
  const auto& tr = game.state().trace;
  for (auto it = tr.rbegin(); it != tr.rend(); ++it)
    if (it->kind == eval::TraceKind::Action) {
      action = it->subject + " (under way)";
      break;
    }
  r.question = action + ", from here: " + game.describeStop();
  Session root = workingCopy(game);
  Session before = root;
  Enumerator e(before, request);
  e.run(std::move(root), engine::Outcome{});
  return e.finish(std::move(r));
}

std::string formatOdds(const OddsReport& r, bool json) {
  const OddsRequest& q = r.request;
  std::string picks;
  for (size_t i : q.picks) picks += (picks.empty() ? "" : ",") + std::to_string(i + 1);
  if (json) {
    nlohmann::ordered_json j;
    j["odds"] = r.question;
    j["side"] = r.actor;
    j["policy"] = policyName(q.policy);
    j["split"] = q.split;
    j["picks"] = nlohmann::ordered_json::array();
    for (size_t i : q.picks) j["picks"].push_back(i + 1);
    if (!r.error.empty()) {
      j["error"] = r.error;
      return j.dump() + "\n";
    }
    j["outcomes"] = nlohmann::ordered_json::array();
    for (const auto& o : r.outcomes) {
      nlohmann::ordered_json x;
      x["result"] = o.result;
      x["changes"] = o.changes;
      if (q.split) x["decisions"] = o.decisions;
      x["probability"] = o.p.fraction();
      x["p"] = static_cast<double>(o.p.value);
      x["branches"] = o.branches;
      j["outcomes"].push_back(std::move(x));
    }
    j["always"] = r.always;
    j["branches"] = r.branches;
    j["rolls"] = r.chancePoints;
    j["decisions"] = r.decisionPoints;
    return j.dump() + "\n";
  }
  std::string out;
  std::string how = q.split ? "follow-on decisions split: each option is a row of its own"
                    : q.policy == OddsPolicy::First ? "follow-on decisions take their first option"
                    : q.policy == OddsPolicy::Last
                        ? "follow-on decisions take their last option"
                        : "follow-on decisions at random, each option equally likely";
  out += fmt::format("odds of {}{} ({}{})\n", r.question, r.actor.empty() ? "" : " by " + r.actor,
                     how, picks.empty() ? "" : "; first decisions: options " + picks);
  if (!r.error.empty()) return out + "error: " + r.error + "\n";
  out += q.split ? "| decisions | result | changes | probability | fraction |\n| --- | --- | --- | "
                   "--- | --- |\n"
                 : "| result | changes | probability | fraction |\n| --- | --- | --- | --- |\n";
  auto join = [](const std::vector<std::string>& xs) {
    std::string s;
    for (const auto& x : xs) s += (s.empty() ? "" : "; ") + x;
    return s;
  };
  for (const auto& o : r.outcomes) {
    if (q.split) out += "| " + (o.decisions.empty() ? std::string("-") : join(o.decisions)) + " ";
    out += fmt::format("| {} | {} | {} | {} |\n", o.result.empty() ? "-" : o.result,
                       o.changes.empty() ? "no change" : join(o.changes), percent(o.p.value),
                       o.p.fraction());
  }
  if (!r.always.empty()) out += "in every outcome: " + join(r.always) + "\n";
  bool exact = std::all_of(r.outcomes.begin(), r.outcomes.end(),
                           [](const OddsOutcome& o) { return o.p.exact; });
  out += fmt::format("{} outcome{} from {} branch{} ({} roll{} and {} decision{} met){}\n",
                     r.outcomes.size(), r.outcomes.size() == 1 ? "" : "s", r.branches,
                     r.branches == 1 ? "" : "es", r.chancePoints, r.chancePoints == 1 ? "" : "s",
                     r.decisionPoints, r.decisionPoints == 1 ? "" : "s",
                     exact ? "" : "; some fractions too large to show exactly");
  if (q.split)
    out +=
        "(a decision does not divide the probability: the rows of one decision's options each "
        "carry the chance of reaching it)\n";
  return out;
}

std::optional<OddsReport> oddsOfWords(const Session& game, const std::vector<std::string>& words,
                                      const OddsRequest& request, std::string& why) {
  if (words.empty()) {
    if (game.stop().kind != Stop::Choose) {
      why =
          "odds takes an action, as in `odds attack 0506`, or alone asks about the action under "
          "way (none is)";
      return std::nullopt;
    }
    return oddsFromHere(game, request);
  }
  int32_t action = engine::findAction(game.program(), words[0]);
  if (action < 0) {
    why = fmt::format("odds: '{}' is not an action of this ruleset", words[0]);
    return std::nullopt;
  }
  auto args = engine::readArguments(game, action,
                                    std::vector<std::string>(words.begin() + 1, words.end()), why);
  if (!args) return std::nullopt;
  return oddsOfAction(game, action, *args, request);
}

}  // namespace polemos::analysis
