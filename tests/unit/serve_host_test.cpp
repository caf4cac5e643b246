// The game behind `polemos serve` (serve/host), without HTTP: a command line plays as at the
// prompt and enters the log; a malformed one (two lines, a control character, too long, bad
// UTF-8, `quit`) is refused and changes nothing; `ask` answers only commands that read; a click
// on the board becomes the move the rules make of it (Standard's `move UNIT HEX`, Deluxe's move
// that keeps the facing), or their refusal; a corrupt upload is refused and the game kept.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "repl_test_helpers.h"
#include "serve/host.h"

using namespace polemos;

namespace {

repl::ReplOptions chalons() {
  repl::ReplOptions o;
  o.ruleset = "standard";
  o.scenario = "chalons";
  o.session.seed = 1;
  return o;
}

TEST(ServeHost, ValidLines) {
  std::string why;
  EXPECT_TRUE(serve::validLine("move r43 2621", why));
  EXPECT_TRUE(serve::validLine("help §7.6", why));
  EXPECT_TRUE(serve::validLine("", why));
  EXPECT_FALSE(serve::validLine("end\nundo", why));
  EXPECT_FALSE(serve::validLine(std::string("end\0x", 5), why));
  EXPECT_FALSE(serve::validLine("\x1b[2J", why));
  EXPECT_FALSE(serve::validLine("\xc3", why));      // a lead byte cut short
  EXPECT_FALSE(serve::validLine("\xc0\xaf", why));  // an overlong slash
  EXPECT_FALSE(serve::validLine("\xff", why));
  EXPECT_FALSE(serve::validLine(std::string(serve::GameHost::kMaxLine + 1, 'a'), why));
  EXPECT_EQ(why, "a command is at most 4096 bytes");
}

TEST(ServeHost, CommandsPlayAsAtThePrompt) {
  serve::GameHost game(chalons());
  std::string out;
  ASSERT_TRUE(game.start(out)) << out;
  uint64_t v0 = game.version();
  std::string before = game.save();
  serve::Reply bad = game.command("end r43");
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.output.find("error:"), std::string::npos) << bad.output;
  EXPECT_EQ(game.save(), before);  // refused: the game is as it was
  for (const char* line : {"end\nend", "quit", "exit", "\x01"}) {
    serve::Reply r = game.command(line);
    EXPECT_FALSE(r.ok) << line;
    EXPECT_EQ(game.save(), before) << line;
  }
  serve::Reply moved = game.command("move r43 2621");
  EXPECT_TRUE(moved.ok) << moved.output;
  EXPECT_GT(moved.version, v0);
  EXPECT_NE(game.save(), before);
  auto state = nlohmann::json::parse(game.stateJson(0));
  EXPECT_NE(state["status"].get<std::string>().find("turn 1 of 15"), std::string::npos);
  // The log: the banner, then each command with its output, refused ones marked.
  const auto& log = state["log"];
  ASSERT_GE(log.size(), 3u);
  EXPECT_EQ(log[1]["command"], "end r43");
  EXPECT_EQ(log[1]["ok"], false);
  EXPECT_EQ(log.back()["command"], "move r43 2621");
  EXPECT_EQ(log.back()["ok"], true);
  // Only the entries after `since`.
  uint64_t last = log.back()["seq"].get<uint64_t>();
  EXPECT_TRUE(nlohmann::json::parse(game.stateJson(last))["log"].empty());
  EXPECT_TRUE(game.command("undo").ok);
  EXPECT_EQ(game.save(), before);
}

TEST(ServeHost, AskReadsOnly) {
  serve::GameHost game(chalons());
  std::string out;
  ASSERT_TRUE(game.start(out));
  uint64_t v = game.version();
  serve::Reply shown = game.ask("show r43");
  EXPECT_TRUE(shown.ok);
  EXPECT_NE(shown.output.find("r43 (roman_legion, roman)"), std::string::npos) << shown.output;
  EXPECT_EQ(game.version(), v);  // not logged, nothing changed
  for (const char* line :
       {"end", "move r43 2621", "save /tmp/x.json", "map --svg /tmp/x.svg", "eval 1"}) {
    serve::Reply r = game.ask(line);
    EXPECT_FALSE(r.ok) << line;
    EXPECT_NE(r.output.find("only reads the game"), std::string::npos) << line;
  }
  EXPECT_EQ(game.version(), v);
}

TEST(ServeHost, OptionsCarryTheirCommand) {
  serve::GameHost game(chalons());
  std::string out;
  ASSERT_TRUE(game.start(out));
  auto options = nlohmann::json::parse(game.stateJson(0))["options"];
  ASSERT_FALSE(options.empty());
  bool move = false, end = false;
  for (const auto& o : options) {
    if (o["text"] == "move r43 2621") {
      move = true;
      EXPECT_EQ(o["unit"], "r43");
      EXPECT_EQ(o["action"], "move");
      EXPECT_EQ(o["command"], "move r43 2621");
    }
    end = end || o["command"] == "end";
  }
  EXPECT_TRUE(move);
  EXPECT_TRUE(end);
  // At a choice, an option is played by its number.
  repl::ReplOptions o = chalons();
  o.scenario = "";
  serve::GameHost sandbox(o);
  ASSERT_TRUE(sandbox.start(out)) << out;
  for (const char* line :
       {"place blue inf 0505 as a strength=5", "place blue inf 0606 as b strength=4",
        "place red inf 0506 as d strength=3", "goto combat blue", "attack 0506"})
    ASSERT_TRUE(sandbox.command(line).ok) << line;
  auto picks = nlohmann::json::parse(sandbox.stateJson(0))["options"];
  ASSERT_GE(picks.size(), 2u);
  EXPECT_EQ(picks[0]["kind"], "pick");
  EXPECT_EQ(picks[0]["command"], "pick 1");
  EXPECT_EQ(picks[1]["command"], "pick 2");
}

TEST(ServeHost, ClicksBecomeMoves) {
  serve::GameHost game(chalons());
  std::string out;
  ASSERT_TRUE(game.start(out));
  serve::Reply far = game.click("r43", "0101");
  EXPECT_FALSE(far.ok);
  EXPECT_NE(far.output.find("illegal: §5.15"), std::string::npos) << far.output;
  EXPECT_NE(far.output.find("costs"), std::string::npos) << far.output;
  EXPECT_FALSE(game.click("nobody", "2621").ok);
  EXPECT_FALSE(game.click("r43", "9999").ok);
  EXPECT_FALSE(game.click("r43 r44", "2621").ok);
  serve::Reply moved = game.click("r43", "2621");
  EXPECT_TRUE(moved.ok) << moved.output;
  EXPECT_NE(moved.output.find("move r43: 2625 → 2621"), std::string::npos) << moved.output;
}

TEST(ServeHost, DeluxeClickKeepsTheFacing) {
  serve::GameHost game(polemos::test_helpers::game("deluxe", "", 1));
  std::string out;
  ASSERT_TRUE(game.start(out)) << out;
  for (const char* line : {"sandbox 6x6 --letters", "place blue HI C3 facing SE as h1",
                           "goto activation blue --first"})
    ASSERT_TRUE(game.command(line).ok) << line;
  serve::Reply moved = game.click("h1", "D3");
  ASSERT_TRUE(moved.ok) << moved.output;
  auto log = nlohmann::json::parse(game.stateJson(0))["log"];
  EXPECT_EQ(log.back()["command"], "move h1 D3 SE");
}

TEST(ServeHost, CorruptUploadIsRefused) {
  serve::GameHost game(chalons());
  std::string out;
  ASSERT_TRUE(game.start(out));
  ASSERT_TRUE(game.command("move r43 2621").ok);
  std::string saved = game.save();
  for (const std::string& bad : {std::string("not json"), std::string("{}"),
                                 saved.substr(0, saved.size() / 2), std::string("[1,2,3]")}) {
    serve::Reply r = game.load(bad);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.output.find("was not loaded"), std::string::npos) << r.output;
    EXPECT_EQ(game.save(), saved);
  }
  ASSERT_TRUE(game.command("undo").ok);
  serve::Reply back = game.load(saved);
  EXPECT_TRUE(back.ok) << back.output;
  EXPECT_EQ(game.save(), saved);
}

TEST(ServeHost, SvgAndOdds) {
  serve::GameHost game(chalons());
  std::string out;
  ASSERT_TRUE(game.start(out));
  serve::Reply svg = game.svg("r43");
  ASSERT_TRUE(svg.ok) << svg.output.substr(0, 200);
  EXPECT_NE(svg.output.find("data-hex=\"2621\""), std::string::npos);
  EXPECT_NE(svg.output.find("class=\"reach\""), std::string::npos);
  EXPECT_FALSE(game.svg("nobody").ok);
  EXPECT_FALSE(game.svg("r43 --los 0101 0202").ok);
  serve::Reply odds = game.odds("move r43 2621");
  EXPECT_TRUE(odds.ok) << odds.output;
  EXPECT_TRUE(nlohmann::json::parse(odds.output).contains("outcomes"));
  EXPECT_FALSE(game.odds("attack nowhere").ok);
}

}  // namespace
