// engine/save: a save is one record, the game and how to make it again, written and read in one
// place. The record survives a round trip; a save without one loads with no commands; a malformed
// record is refused with the reason, and a replay never reads half of it.
#include <gtest/gtest.h>

#include "check/loader.h"
#include "diag/diagnostics.h"
#include "engine/save.h"

namespace polemos {
namespace {

std::unique_ptr<engine::Session> chalons(uint64_t seed) {
  diag::SourceManager sources;
  diag::Diagnostics diags(sources);
  auto p = check::Loader(diags).load(check::LoadRequest{"standard", "chalons", {}}).program;
  if (!p) return nullptr;
  engine::SessionConfig config;
  config.seed = seed;
  auto s = std::make_unique<engine::Session>(p, config);
  if (s->start().kind != engine::Outcome::Ok) return nullptr;
  return s;
}

TEST(SaveRecord, RoundTrips) {
  auto s = chalons(7);
  ASSERT_TRUE(s);
  engine::SaveRecord r;
  r.origin.ruleset = "standard";
  r.origin.scenario = "chalons";
  r.origin.houses = {"house/no_displacement.pol"};
  r.origin.session.seed = 7;
  r.origin.session.level = "";
  r.origin.session.options = {{"optional", "on"}};
  r.commands = {"goto combat hunnic", "undo"};
  std::string text = engine::writeSave(*s, r);
  std::string why;
  auto back = engine::readSaveRecord(text, why);
  ASSERT_TRUE(back) << why;
  EXPECT_EQ(back->origin.ruleset, "standard");
  EXPECT_EQ(back->origin.scenario, "chalons");
  EXPECT_EQ(back->origin.houses, r.origin.houses);
  EXPECT_EQ(back->origin.session.seed, 7u);
  EXPECT_EQ(back->origin.session.options, r.origin.session.options);
  EXPECT_EQ(back->commands, r.commands);
  // The game part is the session's own save, byte for byte, before the record.
  std::string plain = engine::saveSession(*s);
  EXPECT_EQ(text.rfind(plain.substr(0, plain.size() - 3), 0), 0u);
  auto other = chalons(7);
  ASSERT_TRUE(other);
  std::vector<std::string> commands;
  ASSERT_EQ(engine::loadSession(text, *other, &commands), std::nullopt);
  EXPECT_EQ(commands, r.commands);
  EXPECT_EQ(engine::saveSession(*other), plain);
}

TEST(SaveRecord, ASaveWithoutARecordLoadsWithNoCommands) {
  auto s = chalons(3);
  ASSERT_TRUE(s);
  std::vector<std::string> commands = {"left over"};
  ASSERT_EQ(engine::loadSession(engine::saveSession(*s), *s, &commands), std::nullopt);
  EXPECT_TRUE(commands.empty());
  std::string why;
  EXPECT_FALSE(engine::readSaveRecord(engine::saveSession(*s), why));
  EXPECT_NE(why, "");
}

TEST(SaveRecord, AMalformedRecordIsRefused) {
  auto s = chalons(3);
  ASSERT_TRUE(s);
  engine::SaveRecord r;
  r.origin.ruleset = "standard";
  std::string text = engine::writeSave(*s, r);
  // An option that is not NAME=VALUE.
  std::string bad = text;
  ASSERT_NE(bad.rfind("\"options\": []"), std::string::npos);
  bad.replace(bad.rfind("\"options\": []"), 13, "\"options\": [\"x\"]");
  std::string why;
  EXPECT_FALSE(engine::readSaveRecord(bad, why));
  EXPECT_EQ(why, "an option is not NAME=VALUE");
  // A seed that is not a number.
  bad = text;
  ASSERT_NE(bad.rfind("\"seed\": 1,"), std::string::npos);
  bad.replace(bad.rfind("\"seed\": 1,"), 10, "\"seed\": \"a\",");
  EXPECT_FALSE(engine::readSaveRecord(bad, why));
  EXPECT_FALSE(engine::readSaveRecord("{not json", why));
}

}  // namespace
}  // namespace polemos
