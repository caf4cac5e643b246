// A note's values are worked out only when the trace is written (docs/language.md 5): the
// compiler puts an Op::SkipUntraced before the code that makes them, which jumps past the note
// in a game without a trace (`sim`, the random player's probes) when that code changes nothing
// but the operand stack (check's quietCode), and goes on to it otherwise. A traced game works
// every value out as before.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "check/loader.h"
#include "diag/diagnostics.h"
#include "engine/session.h"
#include "temp_rules.h"

namespace polemos {
namespace {

using ir::Op;

// Each procedure holds one note of one kind; the sequence runs them and then marks the unit.
constexpr const char* kRules = R"(
ruleset t {
  terrain open { }
  unit class C { state n: int = 0 ; state r: int = 0 ; state done: bool = false }
  unit type inf: C { }
  function zero(): int = 0
  function named(u: unit): string = "unit " + str(u)
  procedure bump(u: unit): int {
    u.n += 1
    return u.n
  }
  // Quiet: made of pure functions, builtins that change nothing, lambdas and operators.
  procedure quiet_case(u: unit) {
    note "quiet", named(u), len(filter(all_units(), x -> x.n >= 0)), u.n + 1
  }
  // An error when worked out.
  procedure failing_case(u: unit) { note "failing", 10 / zero() }
  // Not quiet: a roll, a procedure's call, an effect builtin, a call of a function value.
  procedure roll_case(u: unit) { note "rolled", roll d100 }
  procedure procedure_case(u: unit) { note "bumped", bump(u) }
  procedure effect_case(u: unit) { note "placed", place(u, hex("0202")) }
  procedure value_case(u: unit) {
    let f = bump
    note "called", f(u)
  }
  sequence {
    let u = unit("a")
    quiet_case(u)
    failing_case(u)
    roll_case(u)
    procedure_case(u)
    effect_case(u)
    value_case(u)
    u.r = roll d100
    u.done = true
  }
}
scenario s for t {
  map columns 1..2 rows 1..2 { default open }
  side a { }
  force a { a inf at 0101 }
}
)";

struct Rules : test_helpers::TempRules {
  explicit Rules(const std::string& text) : TempRules(text, "note_untraced") {}
  const ir::Function& function(const std::string& name) const {
    return program->functions[static_cast<size_t>(program->findFunction(name))];
  }
};

// Unit a's field `name` in session s.
ir::Value field(const engine::Session& s, const std::string& name) {
  const ir::Program& p = s.program();
  const eval::UnitState& u = s.state().units.at(0);
  const int32_t slot = p.classes[u.cls].find(p.nameIds.at(name));
  return u.fields.at(static_cast<size_t>(slot));
}

// The SkipUntraced of the only note of function `fn`: where it goes without a trace, and whether
// that is past the note (true) or on to its values (false).
bool skipsPastTheNote(const ir::Function& fn) {
  int found = 0;
  bool past = false;
  for (size_t i = 0; i < fn.code.size(); ++i) {
    const ir::Instr& in = fn.code[i];
    if (in.op != Op::SkipUntraced) continue;
    ++found;
    const auto to = static_cast<size_t>(in.a);
    EXPECT_GT(to, i) << fn.name;
    EXPECT_LE(to, fn.code.size()) << fn.name;
    past = to > i + 1;
    if (past) {
      EXPECT_EQ(fn.code[to - 1].op, Op::Note) << fn.name << ": it lands just past the note";
    } else {
      EXPECT_EQ(to, i + 1) << fn.name;
    }
  }
  EXPECT_EQ(found, 1) << fn.name;
  return past;
}

TEST(NoteUntraced, OnlyANoteWhoseValuesChangeNothingIsJumpedOver) {
  Rules r(kRules);
  ASSERT_TRUE(r.program);
  EXPECT_TRUE(skipsPastTheNote(r.function("quiet_case")));
  EXPECT_TRUE(skipsPastTheNote(r.function("failing_case")));
  EXPECT_FALSE(skipsPastTheNote(r.function("roll_case")));
  EXPECT_FALSE(skipsPastTheNote(r.function("procedure_case")));
  EXPECT_FALSE(skipsPastTheNote(r.function("effect_case")));
  EXPECT_FALSE(skipsPastTheNote(r.function("value_case")));
}

// Without a trace the quiet notes are not worked out (the failing one never fails), and every
// other note is: the roll is made (the later roll is the traced game's), the procedure bumps the
// unit twice, the effect builtin places it.
TEST(NoteUntraced, AGameWithoutATraceWorksOutOnlyTheNotesThatChangeSomething) {
  Rules r(kRules);
  ASSERT_TRUE(r.program);
  engine::SessionConfig quiet;
  quiet.tracing = false;
  quiet.seed = 7;
  engine::Session untraced(r.program, quiet);
  ASSERT_EQ(untraced.start().kind, engine::Outcome::Ok) << untraced.stop().message;
  EXPECT_TRUE(field(untraced, "done").truthy());
  EXPECT_EQ(field(untraced, "n").i, 2);
  EXPECT_EQ(untraced.state().units.at(0).hex, untraced.state().map.parse("0202"));

  // Traced, the same game stops at the failing note's division: its values are worked out.
  engine::SessionConfig traced = quiet;
  traced.tracing = true;
  engine::Session withTrace(r.program, traced);
  withTrace.start();
  EXPECT_NE(withTrace.stop().message.find("division by zero"), std::string::npos)
      << withTrace.stop().message;
  EXPECT_FALSE(field(withTrace, "done").truthy());

  // Without the failing note, the traced game rolls what the untraced one rolled after the
  // note's roll; and the roll after it is another than the note's own (so a skipped roll would
  // have been seen).
  std::string rules = kRules;
  rules.replace(rules.find("    failing_case(u)\n"), 20, "");
  Rules r2(rules);
  ASSERT_TRUE(r2.program);
  engine::Session tracedAgain(r2.program, traced);
  ASSERT_EQ(tracedAgain.start().kind, engine::Outcome::Ok) << tracedAgain.stop().message;
  EXPECT_TRUE(field(tracedAgain, "done").truthy());
  EXPECT_EQ(field(tracedAgain, "r").i, field(untraced, "r").i);
  EXPECT_EQ(field(tracedAgain, "n").i, 2);
  std::string noRoll = rules;
  noRoll.replace(noRoll.find("    roll_case(u)\n"), 17, "");
  Rules r3(noRoll);
  ASSERT_TRUE(r3.program);
  engine::Session shifted(r3.program, traced);
  ASSERT_EQ(shifted.start().kind, engine::Outcome::Ok) << shifted.stop().message;
  EXPECT_NE(field(shifted, "r").i, field(untraced, "r").i) << "seed 7's first two rolls differ";
}

}  // namespace
}  // namespace polemos
