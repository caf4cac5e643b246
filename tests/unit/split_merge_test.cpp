// Units made and joined during play (eval's split() and merge(), engine/save): a split makes a
// unit in the game it runs in and in no copy of it (undo keeps the game before); a save written
// after a split and a merge loads into a fresh game that saves the same text back, with the new
// unit and the merged one as they were; a save with an unknown unit status is refused; the same
// commands make the same ids.
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
  unit class C { state men: int = 10 }
  unit type inf: C { }
  action detach(u: unit in filter(units(), x -> x.men >= 4)) {
    let d = split(u)
    d.men = 2
    u.men -= 2
  }
  action join(u: unit in filter(units(), x -> x.id == "x"), b: unit in filter(units(), y -> y.id != "x")) {
    u.men += b.men
    merge(b, u)
  }
  sequence {
    for t in 1..5 { phase play for sides()[0] { allow detach, join } }
  }
}
scenario s for t {
  map columns 1..3 rows 1..3 { default clear }
  side a { } side b { }
  force a { x inf at 0202 }
}
)";

std::shared_ptr<const ir::Program> load() {
  auto path = std::filesystem::temp_directory_path() / "polemos_split_merge_test.pol";
  std::ofstream(path) << kSource;
  diag::SourceManager sources;
  diag::Diagnostics diags(sources);
  return check::Loader(diags).load(check::LoadRequest{path.string(), path.string(), {}}).program;
}

// Applies the first legal option whose text starts with `prefix`.
void play(engine::Session& s, const std::string& prefix) {
  for (const auto& o : s.legal())
    if (o.text.rfind(prefix, 0) == 0) {
      ASSERT_EQ(s.apply(o).kind, engine::Outcome::Ok) << o.text;
      return;
    }
  FAIL() << "no option " << prefix;
}

std::string ids(const engine::Session& s) {
  std::string out;
  for (const auto& u : s.state().units)
    out += u.id + (u.status == eval::UnitStatus::Merged ? "(merged) " : " ");
  return out;
}

TEST(SplitMerge, AUnitIsMadeInTheGameNotItsCopies) {
  auto p = load();
  ASSERT_TRUE(p);
  engine::Session s(p, engine::SessionConfig{});
  ASSERT_EQ(s.start().kind, engine::Outcome::Ok);
  engine::Session before = s;
  play(s, "detach x");
  EXPECT_EQ(ids(s), "x x_2 ");
  EXPECT_EQ(ids(before), "x ");
  play(s, "join x x_2");
  EXPECT_EQ(ids(s), "x x_2(merged) ");
  play(s, "detach x");
  EXPECT_EQ(ids(s), "x x_2(merged) x_3 ");
}

TEST(SplitMerge, ASaveKeepsThem) {
  auto p = load();
  ASSERT_TRUE(p);
  engine::Session s(p, engine::SessionConfig{});
  ASSERT_EQ(s.start().kind, engine::Outcome::Ok);
  play(s, "detach x");
  play(s, "join x x_2");
  play(s, "detach x");
  std::string text = engine::saveSession(s);
  engine::Session fresh(p, engine::SessionConfig{});
  ASSERT_EQ(fresh.start().kind, engine::Outcome::Ok);
  ASSERT_EQ(engine::loadSession(text, fresh, nullptr), std::nullopt);
  EXPECT_EQ(ids(fresh), "x x_2(merged) x_3 ");
  EXPECT_EQ(engine::saveSession(fresh), text);
  // The same commands again make the same ids.
  engine::Session again(p, engine::SessionConfig{});
  ASSERT_EQ(again.start().kind, engine::Outcome::Ok);
  play(again, "detach x");
  play(again, "join x x_2");
  play(again, "detach x");
  EXPECT_EQ(ids(again), ids(s));
  // A unit status past the known ones is refused, and the game is left as it was.
  std::string bad = text;
  auto at = bad.find("\"status\": 4");
  ASSERT_NE(at, std::string::npos) << text;
  bad.replace(at, 11, "\"status\": 5");
  engine::Session other(p, engine::SessionConfig{});
  ASSERT_EQ(other.start().kind, engine::Outcome::Ok);
  auto why = engine::loadSession(bad, other, nullptr);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("malformed"), std::string::npos) << *why;
  EXPECT_EQ(ids(other), "x ");
}

}  // namespace
}  // namespace polemos
