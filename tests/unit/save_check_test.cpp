// Saves that cannot lie: `load` makes the game again from the save's set-up and commands and
// compares it with the state the file holds. A save whose state the rules could not have reached
// (a strength raised, a unit moved by hand, a unit added, the dice generator changed) is refused
// with the first difference named and the game in play kept; `load --trust` loads it unchecked
// and marks the game as edited, and a save of an edited game needs --trust again. A save made by
// another build from the same rule files is played again from its commands; one whose rule files
// changed is refused with the changed file named. `auto` after a load goes on as it would have.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "repl/repl.h"
#include "repl_test_helpers.h"

using namespace polemos;
namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

namespace {

using polemos::test_helpers::chalons;
using polemos::test_helpers::run;

struct SaveCheck : ::testing::Test {
  fs::path dir;
  void SetUp() override {
    dir = fs::temp_directory_path() / ("polemos_save_check_" + std::to_string(::getpid()));
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  // A Chalons game a few moves in (a move, a phase ended, dice rolled), saved.
  json played(repl::Repl& r) {
    std::string out;
    EXPECT_TRUE(r.start(out)) << out;
    run(r, "move r43 2621");
    run(r, "auto 12");
    fs::path f = dir / "played.json";
    run(r, "save " + f.string());
    std::ifstream in(f);
    return json::parse(in);
  }
  std::string write(const json& j, const std::string& name) {
    fs::path f = dir / name;
    std::ofstream(f) << j.dump(1);
    return f.string();
  }
  // The field index of a unit's class field, by name, read from the game.
  static int unitIndex(const json& save, const std::string& id) {
    for (size_t i = 0; i < save["units"].size(); ++i)
      if (save["units"][i]["id"] == id) return static_cast<int>(i);
    return -1;
  }
};

TEST_F(SaveCheck, AnHonestSaveLoadsChecked) {
  repl::Repl r(chalons(3));
  json save = played(r);
  repl::Repl other(chalons(3));
  std::string out;
  ASSERT_TRUE(other.start(out));
  std::string said = run(other, "load " + write(save, "honest.json"));
  EXPECT_NE(said.find("loaded"), std::string::npos) << said;
  EXPECT_EQ(said.find("error"), std::string::npos) << said;
  EXPECT_TRUE(other.saveText() == r.saveText()) << "the loaded game's save differs";
}

TEST_F(SaveCheck, ARaisedFieldIsRefusedAndNamed) {
  repl::Repl r(chalons(3));
  json save = played(r);
  int u = unitIndex(save, "r43");
  ASSERT_GE(u, 0);
  // Every integer field of r43 raised by 3 in turn: each is a state no command made.
  auto& fields = save["units"][u]["fields"];
  bool tried = false;
  for (size_t k = 0; k < fields.size(); ++k) {
    // [tag, sub, i, j] with tag 1 = int (the save's value form)
    if (!fields[k].is_array() || fields[k].size() != 4) continue;
    json tampered = save;
    tampered["units"][u]["fields"][k][2] = fields[k][2].get<int64_t>() + 3;
    std::string before = r.saveText();
    std::string said = run(r, "load " + write(tampered, "raised.json"));
    EXPECT_NE(said.find("not a game the rules can reach: unit r43's "), std::string::npos) << said;
    EXPECT_NE(said.find("in the file"), std::string::npos) << said;
    EXPECT_NE(said.find("the current game is unchanged"), std::string::npos) << said;
    EXPECT_TRUE(r.saveText() == before) << "the game in play changed";
    tried = true;
    break;
  }
  EXPECT_TRUE(tried);
}

// A number with an exponent where the save holds whole numbers (a fuzzer's find: an elevation of
// 9.2e19, read as an integer, was undefined behaviour) is refused as malformed, even trusted.
TEST_F(SaveCheck, ANumberThatIsNotWholeIsRefusedEvenTrusted) {
  repl::Repl r(chalons(3));
  json save = played(r);
  for (const char* where : {"elevation", "turn"}) {
    json tampered = save;
    if (std::string(where) == "turn")
      tampered["turn"] = 9.2233720368547758e19;
    else
      tampered["map"]["elevation"][0] = 9.2233720368547758e19;
    std::string before = r.saveText();
    std::string f = write(tampered, std::string("float_") + where + ".json");
    for (const std::string& cmd : {"load " + f, "load --trust " + f}) {
      std::string said = run(r, cmd);
      EXPECT_NE(said.find("a number in the save is not a whole number"), std::string::npos)
          << where << ": " << said;
      EXPECT_TRUE(r.saveText() == before) << "the game in play changed";
    }
  }
}

// A value is [kind, sub, index, second]; only odds have a second term (1 of 3:1). A field that is
// an int, a bool or a unit with a second term is malformed, even trusted: no game writes one.
TEST_F(SaveCheck, ASecondTermOnAValueThatIsNotOddsIsRefusedEvenTrusted) {
  repl::Repl r(chalons(3));
  json save = played(r);
  int u = unitIndex(save, "r43");
  ASSERT_GE(u, 0);
  auto& fields = save["units"][u]["fields"];
  size_t k = 0;
  while (k < fields.size() && !(fields[k].is_array() && fields[k].size() == 4 &&
                                fields[k][0].get<int>() != 3))  // 3: odds
    ++k;
  ASSERT_LT(k, fields.size());
  json tampered = save;
  tampered["units"][u]["fields"][k][3] = 7;
  std::string before = r.saveText();
  std::string f = write(tampered, "second_term.json");
  for (const std::string& cmd : {"load " + f, "load --trust " + f}) {
    std::string said = run(r, cmd);
    EXPECT_NE(said.find("a value is malformed"), std::string::npos) << said;
    EXPECT_TRUE(r.saveText() == before) << "the game in play changed";
  }
}

TEST_F(SaveCheck, AMovedUnitADuplicatedUnitAndAChangedGeneratorAreRefused) {
  repl::Repl r(chalons(3));
  json save = played(r);
  int u = unitIndex(save, "r43");
  ASSERT_GE(u, 0);
  json moved = save;
  moved["units"][u]["hex"] = save["units"][u]["hex"].get<int>() + 1;
  std::string said = run(r, "load " + write(moved, "moved.json"));
  EXPECT_NE(said.find("unit r43's hex is"), std::string::npos) << said;

  json twice = save;
  twice["units"].push_back(save["units"][u]);
  said = run(r, "load " + write(twice, "twice.json"));
  EXPECT_NE(said.find("was not loaded"), std::string::npos) << said;
  EXPECT_NE(said.find("the current game is unchanged"), std::string::npos) << said;

  json dice = save;
  dice["rng"] = "0000000000000001";
  said = run(r, "load " + write(dice, "rng.json"));
  EXPECT_NE(said.find("its rng is"), std::string::npos) << said;

  json turn = save;
  turn["turn"] = 5;
  said = run(r, "load " + write(turn, "turn.json"));
  EXPECT_NE(said.find("its turn is 5 in the file"), std::string::npos) << said;
}

TEST_F(SaveCheck, TrustLoadsUncheckedAndMarksTheGameEdited) {
  repl::Repl r(chalons(3));
  json save = played(r);
  int u = unitIndex(save, "r43");
  json moved = save;
  moved["units"][u]["hex"] = save["units"][u]["hex"].get<int>() + 1;
  std::string file = write(moved, "moved.json");
  std::string said = run(r, "load --trust " + file);
  EXPECT_NE(said.find("unchecked, as an edited game"), std::string::npos) << said;
  // Its save says so, and needs --trust again.
  fs::path again = dir / "again.json";
  run(r, "save " + again.string());
  std::ifstream in(again);
  json resaved = json::parse(in);
  EXPECT_EQ(resaved["replay"]["edited"], true);
  repl::Repl other(chalons(3));
  std::string out;
  ASSERT_TRUE(other.start(out));
  said = run(other, "load " + again.string());
  EXPECT_NE(said.find("it is an edited game"), std::string::npos) << said;
  said = run(other, "load " + again.string() + " --trust");
  EXPECT_NE(said.find("loaded"), std::string::npos) << said;
}

TEST_F(SaveCheck, ASaveWithoutItsCommandsNeedsTrust) {
  repl::Repl r(chalons(3));
  json save = played(r);
  save.erase("replay");
  std::string file = write(save, "bare.json");
  std::string said = run(r, "load " + file);
  EXPECT_NE(said.find("holds no record of the commands that made it"), std::string::npos) << said;
  EXPECT_NE(said.find("load --trust"), std::string::npos) << said;
  said = run(r, "load --trust " + file);
  EXPECT_NE(said.find("unchecked"), std::string::npos) << said;
}

TEST_F(SaveCheck, RecordedCommandsThatAreRefusedAreNamed) {
  repl::Repl r(chalons(3));
  json save = played(r);
  save["replay"]["commands"].push_back("move r43 9999");
  std::string said = run(r, "load " + write(save, "refused.json"));
  EXPECT_NE(said.find("its commands do not make a game here: 'move r43 9999'"), std::string::npos)
      << said;
}

TEST_F(SaveCheck, AnotherBuildsSaveOfTheSameRulesIsPlayedAgain) {
  repl::Repl r(chalons(3));
  json save = played(r);
  // What another build would write: the same rule files, another program.
  save["program"] = "0123456789abcdef";
  save["machine"]["frames"] = json::array();
  std::string said = run(r, "load " + write(save, "older.json"));
  EXPECT_NE(said.find("made by another build"), std::string::npos) << said;
  EXPECT_EQ(said.find("error"), std::string::npos) << said;
}

TEST_F(SaveCheck, ASaveOfChangedRulesNamesTheChangedFile) {
  repl::Repl r(chalons(3));
  json save = played(r);
  ASSERT_TRUE(save.contains("sources"));
  ASSERT_TRUE(save["sources"].contains("rulesets/standard/tables.pol")) << save["sources"].dump();
  save["program"] = "0123456789abcdef";
  save["sources"]["rulesets/standard/tables.pol"] = "0000000000000000";
  std::string said = run(r, "load " + write(save, "changed.json"));
  EXPECT_NE(said.find("the rules have changed since this game was saved "
                      "(rulesets/standard/tables.pol was edited)"),
            std::string::npos)
      << said;
}

// `auto` draws from its own generator: a loaded game goes on as the saved one would have.
TEST_F(SaveCheck, AutoAfterALoadGoesOnAsItWouldHave) {
  repl::Repl r(chalons(5));
  played(r);
  std::string file = (dir / "played.json").string();
  std::string goOn = run(r, "auto 20");
  repl::Repl other(chalons(99));  // another seed: the save's own must be used
  std::string out;
  ASSERT_TRUE(other.start(out));
  std::string said = run(other, "load " + file);
  ASSERT_NE(said.find("loaded"), std::string::npos) << said;
  EXPECT_EQ(run(other, "auto 20"), goOn);
  EXPECT_TRUE(other.saveText() == r.saveText()) << "the loaded game's save differs";
}

}  // namespace

// A field's range (`state fatigue: int in 0..70`, warfare §7.2.f1) holds in a save even with
// --trust: a unit at fatigue 71, or -1, is refused as corrupt, naming the unit and the range; the
// game in play is kept. A set-up edit past the range is refused the same way.
TEST_F(SaveCheck, AFieldOutsideItsRangeIsRefusedEvenTrusted) {
  repl::ReplOptions o = polemos::test_helpers::game("warfare", "drill", 5);
  repl::Repl r(o);
  std::string out;
  ASSERT_TRUE(r.start(out)) << out;
  fs::path f = dir / "drill.json";
  run(r, "save " + f.string());
  json save;
  {
    std::ifstream in(f);
    save = json::parse(in);
  }
  const json& unit = save["units"][0];
  const std::string id = unit["id"];
  // The edge is accepted; one past it is refused and changes nothing.
  ASSERT_EQ(run(r, "set " + id + " fatigue=70").find("error"), std::string::npos);
  std::string before = r.saveText();
  std::string said = run(r, "set " + id + " fatigue=71");
  EXPECT_NE(said.find("error"), std::string::npos) << said;
  EXPECT_NE(said.find("0..70"), std::string::npos) << said;
  EXPECT_TRUE(r.saveText() == before) << said;
  // In the file: find the field that holds 0 and becomes 70 with the edit above.
  repl::Repl probe(o);
  ASSERT_TRUE(probe.start(out)) << out;
  run(probe, "set " + id + " fatigue=70");
  fs::path g = dir / "seventy.json";
  run(probe, "save " + g.string());
  json seventy;
  {
    std::ifstream in(g);
    seventy = json::parse(in);
  }
  const json& a = save["units"][0]["fields"];
  const json& b = seventy["units"][0]["fields"];
  ASSERT_EQ(a.size(), b.size());
  size_t k = 0;
  while (k < a.size() && a[k] == b[k]) ++k;
  ASSERT_LT(k, a.size()) << "no field holds the fatigue";
  for (int bad : {71, -1}) {
    json edited = save;
    edited["units"][0]["fields"][k][2] = bad;
    std::string file = write(edited, "fatigue" + std::to_string(bad) + ".json");
    said = run(r, "load --trust " + file);
    EXPECT_NE(said.find("unit " + id + "'s fatigue is " + std::to_string(bad) +
                        ", outside its range 0..70"),
              std::string::npos)
        << said;
    EXPECT_TRUE(r.saveText() == before) << "the game in play changed";
  }
}
