#include "analysis/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <memory>

#include "check/loader.h"
#include "check/sandbox.h"
#include "engine/reading.h"
#include "engine/setup.h"
#include "engine/situation.h"
#include "eval/interpreter.h"
#include "hex/coord.h"

namespace polemos::analysis {

using namespace polemos::ir;
using engine::Session;
using engine::Situation;

namespace {

// One step of setting the situation up under a target, in the REPL's notation. Refused fields
// and hexside features are left out (and said); any other refusal stops the comparison.
struct Step {
  enum Kind { Other, Field, HexsideFeature } kind = Other;
  std::string text;
  // Makes the step on the target's game; "" or why it was refused. The sandbox step replaces
  // the game.
  std::function<std::string(std::unique_ptr<Session>&)> run;
};

std::string edit(Session& s, const engine::Edit& e) {
  engine::Outcome o = engine::applyEdit(s, e);
  return o.kind == engine::Outcome::Ok ? "" : o.message;
}

// A house-rule file is one whose first declaration is `house` (comments aside).
bool isHouseFile(const std::string& target) {
  diag::SourceManager sm;
  diag::Diagnostics diags(sm);
  std::ifstream in(check::Loader(diags).findHouse(target));
  for (std::string line; std::getline(in, line);) {
    size_t a = line.find_first_not_of(" \t\r\n");
    if (a == std::string::npos || line.compare(a, 2, "//") == 0) continue;
    return line.compare(a, 6, "house ") == 0;
  }
  return false;
}

// The target's program: its game of the scenario if it can play it, else its rules alone.
// Nothing, with `problem`, when neither loads and starts.
std::shared_ptr<const Program> loadTarget(const engine::GameOrigin& o, std::string& problem) {
  auto attempt = [&](const std::string& scenario) -> std::shared_ptr<const Program> {
    diag::SourceManager sm;
    diag::Diagnostics diags(sm);
    auto loaded = check::Loader(diags).load(check::LoadRequest{o.ruleset, scenario, o.houses});
    if (!loaded.program) {
      std::string text = diags.render(false);
      problem = text.substr(0, text.find('\n'));
      return nullptr;
    }
    Session s(loaded.program, o.session);
    if (loaded.program->sides.empty() && !loaded.program->terrains.empty()) {
      // A ruleset without a scenario starts in a sandbox.
      if (std::string p = s.configProblem(); !p.empty()) {
        problem = "error: " + p;
        return nullptr;
      }
      std::string why;
      if (!engine::openSandbox(*loaded.program, check::SandboxSpec{1, 12, 1, 10, {}}, o.session,
                               why)) {
        problem = "error: " + why;
        return nullptr;
      }
      return loaded.program;
    }
    engine::Outcome started = s.start();
    if (started.kind != engine::Outcome::Ok) {
      problem = "error: " + started.message;
      return nullptr;
    }
    return loaded.program;
  };
  if (!o.scenario.empty())
    if (auto p = attempt(o.scenario)) return p;
  return attempt("");
}

class StepMaker {
 public:
  StepMaker(const Situation& x, const Program& target, const std::map<std::string, std::string>& m,
            const engine::SessionConfig& config)
      : x_(x), target_(target), mapping_(m), config_(config) {}

  // The steps, with the phase reached after the units are placed (their fields last: the steps
  // on the way may set them), or before, when `phaseFirst`.
  std::vector<Step> steps(bool phaseFirst, std::vector<std::string>& substituted,
                          std::vector<std::string>& mapped) {
    std::vector<Step> out;
    out.push_back(sandbox());
    for (const auto& t : x_.terrain) out.push_back(terrain(t, mapped));
    for (const auto& e : x_.elevations) out.push_back(elevation(e));
    for (const auto& hs : x_.hexsides) out.push_back(hexside(hs));
    std::vector<Step> places, fields;
    for (const auto& u : x_.units) unit(u, places, fields, substituted, mapped);
    for (const auto& f : x_.sideFields) fields.push_back(sideField(f));
    if (!x_.phase.empty() && phaseFirst) out.push_back(gotoPhase());
    out.insert(out.end(), places.begin(), places.end());
    if (!x_.phase.empty() && !phaseFirst) out.push_back(gotoPhase());
    out.insert(out.end(), fields.begin(), fields.end());
    return out;
  }

 private:
  // The map's shape (a scenario's map, Chalons's 0100-5526, is re-created with its first hex),
  // and the sides by name when the target's game has others.
  Step sandbox() {
    check::SandboxSpec spec{x_.firstColumn, x_.columns, x_.firstRow, x_.rows, {}};
    std::string text = fmt::format("sandbox {}x{}", x_.columns, x_.rows);
    if (x_.firstColumn != 1 || x_.firstRow != 1) text += " from " + x_.firstHex;
    std::vector<std::string> theirs;
    for (const auto& sd : target_.sides) theirs.push_back(sd.name);
    if (theirs.empty()) theirs = {"blue", "red"};
    if (x_.sides != theirs) {
      std::string list;
      for (const auto& n : x_.sides) list += (list.empty() ? "" : ",") + n;
      text += " sides " + list;
      spec.sides = x_.sides;
    }
    const Program& base = target_;
    engine::SessionConfig config = config_;
    return Step{Step::Other, text, [spec, &base, config](std::unique_ptr<Session>& s) {
                  std::string why;
                  auto made = engine::openSandbox(base, spec, config, why);
                  if (!made) return why;
                  s = std::move(made);
                  return std::string();
                }};
  }

  std::string mapped(const char* what, const std::string& name, std::vector<std::string>& notes) {
    auto it = mapping_.find(name);
    if (it == mapping_.end()) return name;
    std::string note = fmt::format("{} {} → {}", what, name, it->second);
    if (std::find(notes.begin(), notes.end(), note) == notes.end()) notes.push_back(note);
    return it->second;
  }

  Step terrain(const Situation::Terrain& t, std::vector<std::string>& notes) {
    std::string kind = mapped("terrain", t.kind, notes);
    return Step{Step::Other, fmt::format("terrain {} {}", t.hex, kind),
                [hex = t.hex, kind](std::unique_ptr<Session>& s) {
                  std::string why;
                  int32_t h = engine::readHex(s->state(), hex, why);
                  int32_t k = h < 0 ? -1 : engine::readTerrain(s->program(), kind, why);
                  return k < 0 ? why : edit(*s, engine::edit::Terrain{h, k});
                }};
  }

  Step elevation(const Situation::Elevation& e) {
    return Step{Step::Other, fmt::format("elevation {} {}", e.hex, e.level),
                [e](std::unique_ptr<Session>& s) {
                  std::string why;
                  int32_t h = engine::readHex(s->state(), e.hex, why);
                  return h < 0 ? why : edit(*s, engine::edit::Elevation{h, e.level});
                }};
  }

  Step hexside(const Situation::Hexside& hs) {
    return Step{Step::HexsideFeature, fmt::format("hexside {} {} {}", hs.a, hs.b, hs.kind),
                [hs](std::unique_ptr<Session>& s) {
                  std::string why;
                  const auto& m = s->state().map;
                  int32_t a = engine::readHex(s->state(), hs.a, why);
                  int32_t b = a < 0 ? -1 : engine::readHex(s->state(), hs.b, why);
                  if (b < 0) return why;
                  if (!m.adjacent(a, b))
                    return fmt::format("hexes {} and {} are not adjacent", hs.a, hs.b);
                  int32_t f = engine::readFeature(s->program(), hs.kind, why);
                  return f < 0 ? why : edit(*s, engine::edit::Hexside{a, b, f});
                }};
  }

  // A unit type the target lacks (a scenario's own, say) is re-created as a type of the target of
  // the same class, every value of the unit set on it; the substitution is reported.
  void unit(const Situation::Unit& u, std::vector<Step>& places, std::vector<Step>& fields,
            std::vector<std::string>& substituted, std::vector<std::string>& notes) {
    std::string type = u.type;
    bool substitute = !target_.unitTypes.empty() && !mapping_.count(type) &&
                      std::none_of(target_.unitTypes.begin(), target_.unitTypes.end(),
                                   [&](const UnitTypeInfo& t) { return t.name == type; });
    const UnitTypeInfo* stand = nullptr;
    if (substitute) {
      const UnitTypeInfo* pick = &target_.unitTypes.front();
      for (const auto& t : target_.unitTypes)
        if (t.cls >= 0 && static_cast<size_t>(t.cls) < target_.classes.size() &&
            target_.classes[t.cls].name == u.cls) {
          pick = &t;
          break;
        }
      std::string note = fmt::format("{} → {}", type, pick->name);
      if (std::find(substituted.begin(), substituted.end(), note) == substituted.end())
        substituted.push_back(note);
      type = pick->name;
      stand = pick;
    }
    type = mapped("unit type", type, notes);
    std::string text = fmt::format("place {} {} {} as {}", u.side, type, u.hex, u.id);
    if (u.facing >= 0)
      text += fmt::format(" facing={}", hex::directionName(static_cast<hex::Direction>(u.facing)));
    places.push_back(Step{Step::Other, text, [u, type](std::unique_ptr<Session>& s) {
                            std::string why;
                            const Program& P = s->program();
                            engine::edit::Place e;
                            if ((e.side = engine::readSide(P, u.side, why)) < 0 ||
                                (e.type = engine::readUnitType(P, type, why)) < 0 ||
                                (e.hex = engine::readHex(s->state(), u.hex, why)) < 0)
                              return why;
                            e.facing = u.facing;
                            e.id = u.id;
                            return edit(*s, e);
                          }});
    for (const auto& f : u.fields) {
      if (stand) {
        // Standing in for another type: each value that differs from the stand-in's own (a field
        // its class lacks, only if the unit's value is not its type's default).
        const Schema& tcls = target_.classes[stand->cls];
        bool differs = !f.typeDefault;
        for (size_t g = 0; g < tcls.fields.size(); ++g)
          if (tcls.fields[g].name == f.name)
            differs = g >= stand->values.size() ||
                      eval::display(target_, eval::GameState{}, stand->values[g]) != f.value;
        if (!differs) continue;
      } else if (f.typeDefault) {
        continue;
      }
      fields.push_back(
          Step{Step::Field, fmt::format("set {} {}={}", u.id, f.name, f.value),
               [id = u.id, f](std::unique_ptr<Session>& s) {
                 std::string why;
                 const Program& P = s->program();
                 int32_t unit = engine::readUnit(s->state(), id, why);
                 if (unit < 0) return why;
                 int32_t cls = s->state().units[unit].cls;
                 int32_t slot = engine::readUnitField(P, cls, f.name, why);
                 if (slot < 0) return why;
                 auto v = engine::readValue(*s, P.classes[cls].fields[slot].type, f.value, why);
                 if (!v) return why;
                 using Change = engine::edit::SetUnit::Change;
                 return edit(*s, engine::edit::SetUnit{unit, {{Change::FieldValue, slot, *v}}});
               }});
    }
  }

  Step sideField(const Situation::SideField& f) {
    return Step{Step::Field, fmt::format("setside {} {}={}", f.side, f.name, f.value),
                [f](std::unique_ptr<Session>& s) {
                  std::string why;
                  const Program& P = s->program();
                  int32_t side = engine::readSide(P, f.side, why);
                  int32_t slot = side < 0 ? -1 : engine::readSideField(P, f.name, why);
                  if (slot < 0) return why;
                  auto v = engine::readValue(*s, P.sideState.fields[slot].type, f.value, why);
                  if (!v) return why;
                  return edit(*s, engine::edit::SetSide{side, {{slot, *v}}});
                }};
  }

  Step gotoPhase() {
    return Step{Step::Other, fmt::format("goto {} {} --first", x_.phase, x_.phaseSide),
                [phase = x_.phase, side = x_.phaseSide](std::unique_ptr<Session>& s) {
                  std::string why;
                  const Program& P = s->program();
                  int32_t ph = engine::readPhase(P, phase, why);
                  int32_t sd = ph < 0 ? -1 : engine::readSide(P, side, why);
                  if (sd < 0) return why;
                  engine::Outcome o = engine::gotoPhase(*s, ph, sd, true, nullptr);
                  return o.kind == engine::Outcome::Ok ? std::string() : o.message;
                }};
  }

  const Situation& x_;
  const Program& target_;
  const std::map<std::string, std::string>& mapping_;
  engine::SessionConfig config_;
};

void ask(const Session& s, const CompareRequest& req, CompareColumn& c) {
  std::string err;
  auto rep = oddsOfWords(s, req.question, req.odds, err);
  if (!rep) {
    c.problem = err;
  } else if (!rep->error.empty()) {
    c.problem = rep->error;
  } else {
    for (const auto& o : rep->outcomes)
      c.p[o.result.empty() ? "(no result)" : o.result] += o.p.value;
    c.beforeRoll = rep->beforeRoll;
  }
}

// The same refusal for many steps (38 ridge hexsides) is said once, with a count.
struct Refusals {
  struct One {
    std::string first, error;
    int more = 0;
  };
  std::vector<One> list;
  void add(const std::string& step, const std::string& error) {
    for (auto& r : list)
      if (r.error == error) {
        ++r.more;
        return;
      }
    list.push_back(One{step, error});
  }
  std::string render() const {
    std::string s;
    for (const auto& r : list)
      s += (s.empty() ? "" : "; ") +
           fmt::format("`{}`{}: {}", r.first,
                       r.more ? fmt::format(" and {} more like it", r.more) : "", r.error);
    return s;
  }
};

struct Run {
  std::unique_ptr<Session> game;
  Refusals problems, dropped, droppedSides;
  bool gotoRefused = false;
};

Run runSteps(const std::vector<Step>& steps) {
  Run r;
  for (const auto& step : steps) {
    if (!r.game && step.text.rfind("sandbox ", 0) != 0) break;
    std::string why = step.run(r.game);
    if (why.empty()) continue;
    std::string err = "error: " + why;
    if (step.text.rfind("goto ", 0) == 0) r.gotoRefused = true;
    (step.kind == Step::Field            ? r.dropped
     : step.kind == Step::HexsideFeature ? r.droppedSides
                                         : r.problems)
        .add(step.text, err);
    if (!r.game) break;  // no sandbox: nothing to set up
  }
  return r;
}

}  // namespace

CompareResult compareOdds(const Session& game, const engine::GameOrigin& spec,
                          const CompareRequest& req) {
  CompareResult result;
  std::string why;
  auto situation = engine::captureSituation(game, why);
  if (!situation) {
    result.error = why;
    return result;
  }
  CompareColumn here;
  here.name = "this game (" + spec.ruleset;
  for (const auto& f : spec.houses) here.name += " + " + f;
  here.name += ")";
  ask(game, req, here);
  result.columns.push_back(here);
  for (const auto& t : req.targets) {
    engine::GameOrigin o = spec;
    o.session.stepping = false;  // the comparison runs through pauses
    // A sandbox situation is re-created in a sandbox of the target's rules alone.
    if (game.program().scenarioName == "sandbox") o.scenario.clear();
    if (isHouseFile(t)) {
      o.houses.push_back(t);
    } else {
      o.ruleset = t;
      o.houses.clear();
      o.session.level = req.level;
    }
    CompareColumn c;
    c.name = t;
    std::string problem;
    auto target = loadTarget(o, problem);
    if (!target) {
      c.problem = "does not load: " + problem;
      result.columns.push_back(std::move(c));
      continue;
    }
    StepMaker maker(*situation, *target, req.mapping, o.session);
    Run run = runSteps(maker.steps(false, c.substituted, result.mapped));
    // If the phase cannot be reached with the units in place, reach it first, then place them.
    if (run.gotoRefused) {
      std::vector<std::string> ignored, alsoIgnored;
      run = runSteps(maker.steps(true, ignored, alsoIgnored));
    }
    c.problem = run.problems.render();
    c.dropped = run.dropped.render();
    c.droppedSides = run.droppedSides.render();
    if (c.problem.empty() && run.game) ask(*run.game, req, c);
    result.columns.push_back(std::move(c));
  }
  return result;
}

}  // namespace polemos::analysis
