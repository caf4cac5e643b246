// The REPL refuses bad input with a clear message and leaves the game exactly as it was: for
// each case the whole saved game (state, suspended code, dice) is compared before and after.
#include <gtest/gtest.h>

#include "engine/save.h"
#include "repl/repl.h"

using namespace polemos;

namespace {

struct BadCase {
  const char* command;
  const char* message;  // the start of what the REPL prints
};

const BadCase kCases[] = {
    {"bogus", "error: unknown command 'bogus'"},
    {"pick", "error: pick takes an option number"},
    {"pick x", "error: no option is written 'x'"},
    {"pick no such option", "error: no option is written 'no such option'"},
    {"pick 0", "error: pick a number from 1 to 3"},
    {"pick 99", "error: pick a number from 1 to 3"},
    {"pick -1", "error: pick a number from 1 to 3"},
    {"strike", "error: strike takes 1 argument: strike u"},
    {"strike r1 r2", "error: strike takes 1 argument"},
    {"strike nobody", "error: no unit 'nobody'"},
    {"strike b1", "illegal: §7.0 b1 is not one of the possible u for strike"},
    {"trace sideways", "error: trace takes off, results, on or all"},
    {"trace on off", "error: trace takes"},
    {"log -3", "error: log takes a positive number of events"},
    {"log many", "error: log takes a positive number of events"},
    {"dice --bogus", "error: '--bogus' is not a die face"},
    {"dice 4 x", "error: 'x' is not a die face"},
    {"undo", "error: nothing to undo"},
    {"undo 0", "error: undo takes a positive number of moves"},
    {"redo", "error: nothing to redo"},
    {"eval", "error: eval takes an expression"},
    {"eval 1 +", "<eval>:1:4: error: unexpected end of file"},
    {"eval nosuchname", "<eval>:1:1: error: unknown name 'nosuchname'"},
    {"eval 1 / 0", "error: division by zero"},
    {"eval ((((1", "<eval>:1:"},
    {"eval \xff", "error: a command is UTF-8 text"},
    {"expect", "error: expect takes an expression"},
    {"show", "error: show takes a unit id, a side or a hex"},
    {"show zz99", "error: 'zz99' is neither a unit, a side nor a hex of this map"},
    {"show r1 --every", "error: show takes a unit id, a side or a hex"},
    {"show 0101 --all", "error: '0101' is neither a unit nor a side: --all is for their fields"},
    {"units nobody", "error: no side 'nobody'"},
    {"pass", "error: use `end` to end this phase"},
    {"save", "error: save takes a file name"},
    {"save /nonexistent/dir/x.json", "error: cannot write '/nonexistent/dir/x.json'"},
    {"load", "error: load takes a file name"},
    {"load /nonexistent.json", "error: cannot read '/nonexistent.json'"},
    {"auto 0", "error: auto takes a positive number of moves"},
    {"help nothing", "error: no command or action 'nothing'"},
    {"terrain 9999 open", "error: '9999' is not a hex of this map"},
    {"terrain 0101 lava", "error: unknown terrain 'lava' (this ruleset has: open)"},
    {"terrain 0101", "error: terrain takes a hex and a terrain kind"},
    {"hexside 0101 0303 stream", "error: hexes 0101 and 0303 are not adjacent"},
    {"hexside 0101 0102 lava", "error: unknown hexside kind 'lava'"},
    {"place green fighter 0101", "error: no side 'green'"},
    {"place red fighter 0101 as r1", "error: unit id 'r1' is already used"},
    {"place red fighter 0101 facing UP", "error: unknown facing 'UP'"},
    // Not UTF-8: a unit with such an id once made `save` abort (fuzz target repl).
    {"place red fighter 0101 as x\x88\x88", "error: a command is UTF-8 text"},
    {"status \xff", "error: a command is UTF-8 text"},
    {"set r1 nosuch=1", "error: unit class C has no field 'nosuch' that can be set"},
    {"set r1 hits=lots", "error: 'lots' is not a whole number"},
    {"set r1 facing=UP", "error: unknown facing 'UP'"},
    {"setside red nosuch=1", "error: the side state has no field 'nosuch' that can be set"},
    {"setside red", "error: setside takes a side and KEY=VALUE"},
    {"remove nobody", "error: no unit 'nobody'"},
    {"sandbox 0x0", "error: sandbox takes the map's size as COLSxROWS"},
    {"sandbox big", "error: sandbox takes the map's size as COLSxROWS"},
    {"goto nowhere", "error: this ruleset has no phase 'nowhere'"},
    {"goto combat purple", "error: no side 'purple'"},
    {"ruleset nosuch", "polemos: error: unknown ruleset 'nosuch'"},
    {"scenario nosuch", "polemos: error: unknown scenario 'nosuch'"},
    {"map 0101", "error: map takes a unit or a region of two corner hexes"},
    {"map r1 0101", "error: map takes one unit or one region"},
    {"level nosuch", "error: unknown level 'nosuch'"},
    {"house /nonexistent/house.pol", "polemos: error: cannot read"},
    {"house a b", "error: house takes at most one argument"},
    {"end r43", "error: end takes no arguments"},
    {"undo 2 3", "error: undo takes at most one argument"},
    {"quit now", "error: quit takes no arguments"},
    {"exit", "error: to leave, type quit"},
    {"legal nobody", "error: no unit 'nobody'"},
    {"status extra", "error: status takes no arguments"},
    {"help a b", "error: help takes at most one argument"},
    {"expect fired", "error: expect fired takes a rule number"},
    {"expect fired x7", "error: 'x7' is not a rule number"},
    {"expect not fired nonsense", "error: 'nonsense' is not a rule number"},
    {"set r1 hits=r2", "error: 'r2' is not a whole number"},
    // Several pairs: one bad pair refuses the whole command, the good ones included.
    {"set r1 hits=2 facing=UP", "error: unknown facing 'UP'"},
    {"set r1 facing=S hex=9999", "error: '9999' is not a hex of this map"},
    {"set r1 hits=2 lots", "error: set takes a unit and KEY=VALUE"},
    {"setside red nosuch=1 nosuch2=2",
     "error: the side state has no field 'nosuch' that can be set"},
    {"goto combat red --second", "error: goto takes a phase, optionally a side and --first"},
};

class BadCommand : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadCommand, IsRefusedAndChangesNothing) {
  repl::ReplOptions o;
  o.ruleset = std::string(POLEMOS_TEST_DIR) + "/golden/duel.pol";
  o.scenario = o.ruleset;
  repl::Repl r(o);
  std::string out;
  ASSERT_TRUE(r.start(out)) << out;
  std::string before = engine::saveSession(*r.session());
  std::string statusBefore;
  r.execute("status", statusBefore);
  out.clear();
  EXPECT_TRUE(r.execute(GetParam().command, out));
  EXPECT_EQ(out.rfind(GetParam().message, 0), 0u) << "printed: " << out;
  EXPECT_EQ(engine::saveSession(*r.session()), before);
  std::string statusAfter;
  r.execute("status", statusAfter);
  EXPECT_EQ(statusAfter, statusBefore);
}

INSTANTIATE_TEST_SUITE_P(Repl, BadCommand, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<BadCase>& info) {
                           return "case" + std::to_string(info.index);
                         });

// The same for illegal moves in the middle of an action (at a pending choice).
TEST(BadCommandMidAction, ActionsAndEndAreRefusedWhileAChoiceIsPending) {
  repl::ReplOptions o;
  o.ruleset = std::string(POLEMOS_TEST_DIR) + "/golden/duel.pol";
  o.scenario = o.ruleset;
  repl::Repl r(o);
  std::string out;
  ASSERT_TRUE(r.start(out));
  r.execute("dice 3", out);
  r.execute("strike r1", out);
  std::string before = engine::saveSession(*r.session());
  for (const char* c : {"strike r2", "end", "pass", "pick 7"}) {
    out.clear();
    r.execute(c, out);
    EXPECT_EQ(out.rfind("error: ", 0), 0u) << c << ": " << out;
    EXPECT_EQ(engine::saveSession(*r.session()), before) << c;
  }
}

}  // namespace
