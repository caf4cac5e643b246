// The hex state and the map changed during play (eval, engine/save): a rule that lowers a fort,
// breaches it and builds a palisade changes the game it runs in and no copy of it (undo and
// what-if keep the game before), and a save written after it loads into a fresh game that saves
// the same text back and reads the same values; a save whose hex state is malformed is refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "check/loader.h"
#include "diag/diagnostics.h"
#include "engine/save.h"

namespace polemos {
namespace {

constexpr const char* kSource = R"(ruleset t {
  terrain clear { }
  terrain breach { }
  hexside palisade { }
  hex state { fort: int = 0 }
  unit class C { }
  unit type inf: C { }
  action assault(h: hex in [hex("0202")]) {
    h.fort -= 30
    if h.fort <= 150 { set_terrain(h, breach) }
    add_hexside(h, hex("0201"), palisade)
  }
  sequence {
    for t in 1..3 { phase play for sides()[0] { allow assault } }
  }
}
scenario s for t {
  map columns 1..3 rows 1..3 {
    default clear
    hex fort = 200: 0202
  }
  side a { } side b { }
  force a { x inf at 0101 }
}
)";

std::shared_ptr<const ir::Program> load() {
  auto path = std::filesystem::temp_directory_path() / "polemos_hex_state_test.pol";
  std::ofstream(path) << kSource;
  diag::SourceManager sources;
  diag::Diagnostics diags(sources);
  return check::Loader(diags).load(check::LoadRequest{path.string(), path.string(), {}}).program;
}

struct Seen {
  int64_t fort;
  std::string terrain;
  size_t sides;
};
Seen seen(const engine::Session& s) {
  const auto& m = s.state().map;
  int32_t h = m.parse("0202");
  int32_t slot = s.program().hexState.find(s.program().nameIds.at("fort"));
  return Seen{m.hexField(h, slot).i, s.program().terrains[m.terrain[h]].name, m.hexsides.size()};
}

TEST(HexState, RulesChangeTheGameNotItsCopies) {
  auto p = load();
  ASSERT_TRUE(p);
  engine::Session s(p, engine::SessionConfig{});
  ASSERT_EQ(s.start().kind, engine::Outcome::Ok);
  engine::Session before = s;
  auto options = s.legal();
  ASSERT_FALSE(options.empty());
  ASSERT_EQ(s.apply(options[0]).kind, engine::Outcome::Ok);
  EXPECT_EQ(seen(s).fort, 170);
  EXPECT_EQ(seen(s).terrain, "clear");
  EXPECT_EQ(seen(s).sides, 1u);
  ASSERT_EQ(s.apply(s.legal()[0]).kind, engine::Outcome::Ok);
  EXPECT_EQ(seen(s).fort, 140);
  EXPECT_EQ(seen(s).terrain, "breach");
  // The copy made before is the game as it was.
  EXPECT_EQ(seen(before).fort, 200);
  EXPECT_EQ(seen(before).terrain, "clear");
  EXPECT_EQ(seen(before).sides, 0u);
}

TEST(HexState, ASaveKeepsIt) {
  auto p = load();
  ASSERT_TRUE(p);
  engine::Session s(p, engine::SessionConfig{});
  ASSERT_EQ(s.start().kind, engine::Outcome::Ok);
  ASSERT_EQ(s.apply(s.legal()[0]).kind, engine::Outcome::Ok);
  ASSERT_EQ(s.apply(s.legal()[0]).kind, engine::Outcome::Ok);
  std::string text = engine::saveSession(s);
  engine::Session fresh(p, engine::SessionConfig{});
  ASSERT_EQ(fresh.start().kind, engine::Outcome::Ok);
  ASSERT_EQ(engine::loadSession(text, fresh, nullptr), std::nullopt);
  EXPECT_EQ(seen(fresh).fort, 140);
  EXPECT_EQ(seen(fresh).terrain, "breach");
  EXPECT_EQ(seen(fresh).sides, 1u);
  EXPECT_EQ(engine::saveSession(fresh), text);
  // A hex state of the wrong size is refused, and the game is left as it was.
  std::string bad = text;
  auto at = bad.find("\"hex_state\"");
  ASSERT_NE(at, std::string::npos);
  at = bad.find('[', at);
  ASSERT_NE(at, std::string::npos);
  bad.insert(at + 1, "1,");
  engine::Session other(p, engine::SessionConfig{});
  ASSERT_EQ(other.start().kind, engine::Outcome::Ok);
  auto why = engine::loadSession(bad, other, nullptr);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("hex state"), std::string::npos) << *why;
  EXPECT_EQ(seen(other).fort, 200);
}

}  // namespace
}  // namespace polemos
