// REPL: `compare`: the same situation under other rulesets or house files, side by side.
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "analysis/odds.h"
#include "check/loader.h"
#include "check/sandbox.h"
#include "eval/interpreter.h"
#include "hex/coord.h"
#include "repl/repl.h"
#include "repl/text.h"

namespace polemos::repl {

using namespace polemos::ir;

// `compare` re-creates the situation in a sandbox of another ruleset with these commands. Every
// unit, terrain, hexside, side field and the phase are written by name; what the other ruleset
// lacks makes its sub-game refuse the command, which `compare` reports (never silently).
std::vector<std::string> Repl::situationScript(const Program& target,
                                               const std::map<std::string, std::string>& mapping,
                                               std::vector<std::string>& notes, std::string& why,
                                               bool phaseFirst) const {
  const Program& P = session_->program();
  const auto& st = session_->state();
  std::vector<std::string> cmds;
  if (st.map.size() == 0) {
    why =
        "compare re-creates the situation on a map: this game has none (`sandbox COLSxROWS` makes "
        "one)";
    return {};
  }
  if (st.map.cols() > check::kMaxSandboxSide || st.map.rows() > check::kMaxSandboxSide) {
    why = fmt::format(
        "compare re-creates the map in a sandbox of at most {0}x{0} hexes; this one is {1}x{2}",
        check::kMaxSandboxSide, st.map.cols(), st.map.rows());
    return {};
  }
  // The map's shape (a scenario's map, Chalons's 0100-5526, is re-created with its first hex),
  // and the sides by name when the target's game has others.
  std::string sandbox = fmt::format("sandbox {}x{}", st.map.cols(), st.map.rows());
  if (st.map.col0 != 1 || st.map.row0 != 1) sandbox += " from " + st.map.label(0);
  std::vector<std::string> mine, theirs;
  for (const auto& sd : P.sides) mine.push_back(sd.name);
  for (const auto& sd : target.sides) theirs.push_back(sd.name);
  if (theirs.empty()) theirs = {"blue", "red"};
  if (mine != theirs) {
    std::string list;
    for (const auto& n : mine) list += (list.empty() ? "" : ",") + n;
    sandbox += " sides " + list;
  }
  cmds.push_back(sandbox);
  // Every hex not of the sandbox's own terrain.
  const std::string open = check::sandboxTerrain(P);
  for (int32_t h = 0; h < st.map.size(); ++h)
    if (P.terrains[st.map.terrain[h]].name != open)
      cmds.push_back(
          fmt::format("terrain {} {}", st.map.label(h), P.terrains[st.map.terrain[h]].name));
  for (const auto& [ab, kinds] : st.map.hexsides)
    for (int32_t k : kinds)
      cmds.push_back(fmt::format("hexside {} {} {}", st.map.label(ab.first),
                                 st.map.label(ab.second), P.features[k].name));
  // The fields come after the phase is reached: the steps on the way (a Command Points roll, say)
  // may set them.
  std::vector<std::string> fields;
  for (const auto& u : st.units) {
    if (u.status != eval::UnitStatus::OnMap) continue;
    const Schema& cls = P.classes[u.cls];
    // A unit type the target lacks (a scenario's own, say) is re-created as a type of the target of
    // the same class, every value of the unit set on it; the substitution is reported.
    std::string type = P.unitTypes[u.type].name;
    bool substitute = !target.unitTypes.empty() && !mapping.count(type) &&
                      std::none_of(target.unitTypes.begin(), target.unitTypes.end(),
                                   [&](const UnitTypeInfo& t) { return t.name == type; });
    const UnitTypeInfo* stand = nullptr;
    if (substitute) {
      const UnitTypeInfo* pick = &target.unitTypes.front();
      for (const auto& t : target.unitTypes)
        if (t.cls >= 0 && static_cast<size_t>(t.cls) < target.classes.size() &&
            target.classes[t.cls].name == cls.name) {
          pick = &t;
          break;
        }
      std::string note = fmt::format("{} → {}", type, pick->name);
      if (std::find(notes.begin(), notes.end(), note) == notes.end()) notes.push_back(note);
      type = pick->name;
      stand = pick;
    }
    std::string place =
        fmt::format("place {} {} {} as {}", P.sides[u.side].name, type, st.map.label(u.hex), u.id);
    if (u.facing >= 0)
      place += fmt::format(" facing={}", hex::directionName(static_cast<hex::Direction>(u.facing)));
    cmds.push_back(place);
    const auto& defaults = P.unitTypes[u.type].values;
    for (size_t f = 0; f < cls.fields.size() && f < u.fields.size(); ++f) {
      if (cls.fields[f].derived >= 0) continue;
      std::string value = eval::display(P, st, u.fields[f]);
      if (stand) {
        // Standing in for another type: each value that differs from the stand-in's own (a field
        // its class lacks, only if the unit's value is not its type's default).
        const Schema& tcls = target.classes[stand->cls];
        bool differs = !(f < defaults.size() && defaults[f] == u.fields[f]);
        for (size_t g = 0; g < tcls.fields.size(); ++g)
          if (tcls.fields[g].name == cls.fields[f].name)
            differs = g >= stand->values.size() ||
                      eval::display(target, eval::GameState{}, stand->values[g]) != value;
        if (!differs) continue;
      } else if (f < defaults.size() && defaults[f] == u.fields[f]) {
        continue;
      }
      fields.push_back(fmt::format("set {} {}={}", u.id, cls.fields[f].name, value));
    }
  }
  for (size_t sd = 0; sd < st.sides.size(); ++sd)
    for (size_t f = 0; f < P.sideState.fields.size() && f < st.sides[sd].fields.size(); ++f) {
      if (P.sideState.fields[f].derived >= 0) continue;
      // Only what differs from the declared default (the situation, not the ruleset's constants).
      if (P.sideState.fields[f].init < 0 && P.sideState.fields[f].value == st.sides[sd].fields[f])
        continue;
      fields.push_back(fmt::format("setside {} {}={}", P.sides[sd].name, P.sideState.fields[f].name,
                                   eval::display(P, st, st.sides[sd].fields[f])));
    }
  if (session_->stop().kind == eval::Stop::Window) {
    std::string go = fmt::format("goto {} {} --first", P.phases[session_->stop().index].name,
                                 P.sides[session_->stop().player].name);
    // Before the units when they would stop the way (a phase that cannot end while units stand in
    // enemy zones of control): after the map, before the first `place`.
    if (phaseFirst) {
      auto firstPlace = std::find_if(
          cmds.begin(), cmds.end(), [](const std::string& c) { return c.rfind("place ", 0) == 0; });
      cmds.insert(firstPlace, go);
    } else {
      cmds.push_back(go);
    }
  }
  cmds.insert(cmds.end(), fields.begin(), fields.end());
  return cmds;
}

// `compare TARGET... -- ACTION ARGS [--policy P]`: the same question (the odds of an action)
// asked of this game and of the same situation under each TARGET (a ruleset, or a house-rule
// file over this game's rules), side by side, with the rules that differ listed under the table.
void Repl::cmdCompare(const std::vector<std::string>& args, std::string& out) {
  auto sep = std::find(args.begin(), args.end(), "--");
  std::vector<std::string> targets(args.begin() + 1, sep);
  std::vector<std::string> question = sep == args.end()
                                          ? std::vector<std::string>{}
                                          : std::vector<std::string>(sep + 1, args.end());
  analysis::OddsRequest req;
  std::string level;
  for (size_t i = 0; i < question.size();) {
    if (question[i] == "--policy" && i + 1 < question.size()) {
      auto p = analysis::parsePolicy(question[i + 1]);
      if (!p) return error(out, "--policy takes first, last or random");
      req.policy = *p;
      question.erase(question.begin() + static_cast<std::ptrdiff_t>(i),
                     question.begin() + static_cast<std::ptrdiff_t>(i) + 2);
    } else {
      ++i;
    }
  }
  std::map<std::string, std::string>
      mapping;  // --map FROM=TO: a unit type or terrain by another name
  for (size_t i = 0; i < targets.size();) {
    if (targets[i] == "--level" && i + 1 < targets.size()) {
      level = targets[i + 1];
      targets.erase(targets.begin() + static_cast<std::ptrdiff_t>(i),
                    targets.begin() + static_cast<std::ptrdiff_t>(i) + 2);
    } else if (targets[i] == "--map" && i + 1 < targets.size() &&
               targets[i + 1].find('=') != std::string::npos) {
      const std::string& m = targets[i + 1];
      mapping[m.substr(0, m.find('='))] = m.substr(m.find('=') + 1);
      targets.erase(targets.begin() + static_cast<std::ptrdiff_t>(i),
                    targets.begin() + static_cast<std::ptrdiff_t>(i) + 2);
    } else {
      ++i;
    }
  }
  if (targets.empty() || question.empty())
    return error(out,
                 "compare takes rulesets or house files, then `--` and an action: `compare "
                 "fourbattles -- attack 0506`");
  {
    std::string why;
    std::vector<std::string> notes;
    if (situationScript(session_->program(), mapping, notes, why).empty()) return error(out, why);
  }
  // The explicit mapping, applied to the unit types of `place` and the kinds of `terrain`.
  std::vector<std::string> mapped;
  auto applyMapping = [&](std::vector<std::string>& script) {
    for (auto& cmd : script) {
      auto w = splitWords(cmd);
      size_t at = w[0] == "place" && w.size() > 2     ? 2
                  : w[0] == "terrain" && w.size() > 2 ? 2
                                                      : std::string::npos;
      if (at != std::string::npos && mapping.count(w[at])) {
        std::string note = fmt::format("{} {} → {}", w[0] == "place" ? "unit type" : "terrain",
                                       w[at], mapping[w[at]]);
        if (std::find(mapped.begin(), mapped.end(), note) == mapped.end()) mapped.push_back(note);
        w[at] = mapping[w[at]];
        cmd.clear();
        for (const auto& x : w) cmd += (cmd.empty() ? "" : " ") + x;
      }
    }
  };
  struct Column {
    std::string name;
    std::map<std::string, long double> p;  // result -> probability
    std::string problem;                   // why it could not be compared
    std::string dropped;                   // what of the situation it has no place for
    std::string droppedSides;              // hexside features it does not have
    std::vector<std::string> substituted;  // unit types re-created as another type
    std::vector<std::string> beforeRoll;   // what its rules worked out before the dice
  };
  std::vector<Column> cols;
  auto ask = [&](Repl& r, Column& c) {
    std::string err;
    auto rep = r.computeOdds(question, req, err);
    if (!rep)
      c.problem = err;
    else if (!rep->error.empty())
      c.problem = rep->error;
    else {
      for (const auto& o : rep->outcomes)
        c.p[o.result.empty() ? "(no result)" : o.result] += o.p.value;
      c.beforeRoll = rep->beforeRoll;
    }
  };
  Column here;
  here.name = "this game (" + options_.ruleset + [&] {
    std::string h;
    for (const auto& f : options_.houses) h += " + " + f;
    return h;
  }() + ")";
  ask(*this, here);
  cols.push_back(here);
  for (const auto& t : targets) {
    ReplOptions o = options_;
    o.json = false;
    // A sandbox situation is re-created in a sandbox of the target's rules alone.
    if (session_->program().scenarioName == "sandbox") o.scenario.clear();
    // A house-rule file is one whose first declaration is `house` (comments aside).
    bool house = [&] {
      diag::SourceManager sm;
      diag::Diagnostics diags(sm);
      std::ifstream in(check::Loader(diags).findHouse(t));
      for (std::string line; std::getline(in, line);) {
        line = trim(line);
        if (line.empty() || line.rfind("//", 0) == 0) continue;
        return line.rfind("house ", 0) == 0;
      }
      return false;
    }();
    if (house) {
      o.houses.push_back(t);
    } else {
      o.ruleset = t;
      o.houses.clear();
      o.session.level = level;
    }
    Column c;
    c.name = t;
    // The target plays the same scenario if it can (its unit types, sides and special rules:
    // Chalons under Four Battles); else its rules alone, the situation set up in a sandbox.
    Repl sub(o);
    std::string subOut;
    bool started = !o.scenario.empty() && sub.start(subOut);
    if (!started) {
      o.scenario.clear();
      sub = Repl(o);
      subOut.clear();
      started = sub.start(subOut);
    }
    if (!started) {
      c.problem = "does not load: " + subOut.substr(0, subOut.find('\n'));
    } else {
      std::string why;
      auto script = situationScript(sub.session()->program(), mapping, c.substituted, why);
      applyMapping(script);
      // If the phase cannot be reached with the units in place, reach it first, then place them.
      {
        Repl probe(o);
        std::string probeOut;
        probe.start(probeOut);
        bool gotoRefused = false;
        for (const auto& cmd : script) {
          std::string o2;
          int before = probe.errors();
          probe.execute(cmd, o2);
          if (probe.errors() > before && cmd.rfind("goto ", 0) == 0) gotoRefused = true;
        }
        if (gotoRefused) {
          std::vector<std::string> ignored;
          script = situationScript(sub.session()->program(), mapping, ignored, why, true);
          applyMapping(script);
        }
      }
      // The same refusal for many commands (38 ridge hexsides) is said once, with a count.
      struct Refusal {
        std::string first, error;
        int more = 0;
      };
      std::vector<Refusal> problems, dropped, droppedSides;
      auto note = [](std::vector<Refusal>& into, const std::string& cmd, const std::string& err) {
        for (auto& r : into)
          if (r.error == err) {
            ++r.more;
            return;
          }
        into.push_back(Refusal{cmd, err});
      };
      for (const auto& cmd : script) {
        std::string o2;
        int before = sub.errors();
        sub.execute(cmd, o2);
        if (sub.errors() > before || o2.rfind("illegal:", 0) == 0) {
          std::string err = o2.substr(0, o2.find('\n'));
          // A field or a hexside feature the other ruleset does not have is left out (and said);
          // a unit type, terrain, side or phase it does not have stops the comparison.
          bool field = cmd.rfind("set ", 0) == 0 || cmd.rfind("setside ", 0) == 0;
          bool side = cmd.rfind("hexside ", 0) == 0;
          note(field ? dropped : side ? droppedSides : problems, cmd, err);
        }
      }
      auto render = [](const std::vector<Refusal>& rs) {
        std::string s;
        for (const auto& r : rs)
          s += (s.empty() ? "" : "; ") +
               fmt::format("`{}`{}: {}", r.first,
                           r.more ? fmt::format(" and {} more like it", r.more) : "", r.error);
        return s;
      };
      c.problem = render(problems);
      c.dropped = render(dropped);
      c.droppedSides = render(droppedSides);
      if (c.problem.empty()) ask(sub, c);
    }
    cols.push_back(std::move(c));
  }
  // The table: one row per result, one column per game.
  std::vector<std::string> results;
  for (const auto& c : cols)
    for (const auto& [r, p] : c.p)
      if (std::find(results.begin(), results.end(), r) == results.end()) results.push_back(r);
  std::sort(results.begin(), results.end());
  std::string q;
  for (const auto& w : question) q += (q.empty() ? "" : " ") + w;
  out += fmt::format("compare: odds of {} (follow-on decisions: {})\n", q,
                     analysis::policyName(req.policy));
  for (const auto& m : mapped) out += "mapped in the other rulesets: " + m + "\n";
  out += "| result |";
  for (const auto& c : cols) out += " " + c.name + " |";
  out += "\n| --- |";
  for (size_t i = 0; i < cols.size(); ++i) out += " --- |";
  out += "\n";
  for (const auto& r : results) {
    out += "| " + r + " |";
    for (const auto& c : cols) {
      auto it = c.p.find(r);
      out += c.problem.empty()
                 ? fmt::format(" {:.2f}% |",
                               it == c.p.end() ? 0.0 : static_cast<double>(it->second * 100))
                 : std::string(" - |");
    }
    out += "\n";
  }
  for (const auto& c : cols) {
    if (!c.substituted.empty()) {
      std::string list;
      for (const auto& n : c.substituted) list += (list.empty() ? "" : ", ") + n;
      out += fmt::format(
          "{}: unit types it lacks, each unit re-created as a type of the same class with all its "
          "values: {}\n",
          c.name, list);
    }
    if (!c.problem.empty()) out += fmt::format("{}: not compared: {}\n", c.name, c.problem);
    if (!c.dropped.empty())
      out += fmt::format("{}: left out (no such field): {}\n", c.name, c.dropped);
    if (!c.droppedSides.empty())
      out += fmt::format("{}: left out (no such hexside feature): {}\n", c.name, c.droppedSides);
  }
  // What each game's rules worked out before the dice: the strengths, their modifiers, the odds.
  bool anyBefore = false;
  for (const auto& c : cols) anyBefore = anyBefore || !c.beforeRoll.empty();
  if (anyBefore) {
    out += "before the dice:\n";
    for (const auto& c : cols) {
      if (c.beforeRoll.empty()) continue;
      out += "  " + c.name + ":\n";
      for (const auto& l : c.beforeRoll) out += "    " + l + "\n";
    }
  }
  // The rules that differ, from `diff`.
  // Under a whole other edition that is hundreds of lines: the first ones, the count, and `diff`
  // for the rest.
  constexpr size_t kDiffLines = 40;
  for (const auto& t : targets) {
    std::string d;
    cmdDiff({"diff", t}, d);
    std::vector<std::string> lines;
    std::istringstream in(d);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    out += "rules that differ under " + t + ":\n";
    if (lines.size() <= kDiffLines + 2) {
      out += d;
    } else {
      for (size_t i = 0; i < kDiffLines; ++i) out += lines[i] + "\n";
      out += fmt::format("… {} more lines: `diff {}` lists them all\n",
                         lines.size() - kDiffLines - 1, t);
      out += lines.back() + "\n";
    }
  }
}

}  // namespace polemos::repl
