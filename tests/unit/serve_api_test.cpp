// serve/api without a network: the checks every request passes (its Host, the page's header on a
// change, the method, the body's size) and the routes, as the HTTP tests (serve_http_test.cpp)
// see them through a socket; and a REPL copied (as the fuzz targets copy one) plays on apart
// from the one it was copied from.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "serve/api.h"

using namespace polemos;

namespace {

repl::ReplOptions chalons() {
  repl::ReplOptions o;
  o.ruleset = "standard";
  o.scenario = "chalons";
  o.session.seed = 1;
  return o;
}

serve::Request get(const std::string& path) {
  serve::Request r;
  r.method = "GET";
  r.path = path;
  r.headers.emplace("host", "127.0.0.1:8080");
  return r;
}

serve::Request post(const std::string& path, const std::string& body) {
  serve::Request r = get(path);
  r.method = "POST";
  r.headers.emplace("X-POLEMOS", "1");
  r.body = body;
  return r;
}

}  // namespace

TEST(ServeApi, ChecksThenRoutes) {
  serve::GameHost game(chalons());
  std::string out;
  ASSERT_TRUE(game.start(out)) << out;
  const serve::Endpoint at{"127.0.0.1", 8080};
  std::string before = game.save();

  serve::Response page = serve::handleRequest(game, at, get("/"));
  EXPECT_EQ(page.status, 200);
  EXPECT_EQ(page.contentType, "text/html; charset=utf-8");
  serve::Response state = serve::handleRequest(game, at, get("/api/state"));
  EXPECT_EQ(state.status, 200);
  EXPECT_NE(nlohmann::json::parse(state.body)["title"].get<std::string>().find("Chalons"),
            std::string::npos);

  serve::Request evil = get("/api/state");
  evil.headers = {{"Host", "evil.example:80"}};
  EXPECT_EQ(serve::handleRequest(game, at, evil).status, 403);
  serve::Request noHeader = post("/api/command", R"({"line":"end"})");
  noHeader.headers.erase("X-POLEMOS");
  EXPECT_EQ(serve::handleRequest(game, at, noHeader).status, 403);
  serve::Request del = get("/api/state");
  del.method = "DELETE";
  EXPECT_EQ(serve::handleRequest(game, at, del).status, 405);
  EXPECT_EQ(serve::handleRequest(game, at, post("/api/load", std::string(serve::kMaxBody + 1, ' ')))
                .status,
            413);
  serve::Response none = serve::handleRequest(game, at, get("/api/nothing"));
  EXPECT_EQ(none.status, 404);
  EXPECT_NE(none.body.find("error: HTTP 404"), std::string::npos);
  EXPECT_EQ(serve::handleRequest(game, at, get("/api/events")).status, 404);
  serve::Request since = get("/api/state");
  since.params.emplace("since", "x");
  EXPECT_EQ(serve::handleRequest(game, at, since).status, 400);
  EXPECT_EQ(serve::handleRequest(game, at, post("/api/command", "[]")).status, 400);
  EXPECT_EQ(game.save(), before);

  serve::Response moved =
      serve::handleRequest(game, at, post("/api/click", R"({"unit":"r43","hex":"2621"})"));
  EXPECT_EQ(moved.status, 200);
  EXPECT_TRUE(nlohmann::json::parse(moved.body)["ok"].get<bool>()) << moved.body;
  EXPECT_NE(game.save(), before);
}

TEST(ServeApi, ACopiedReplPlaysApart) {
  repl::Repl first(chalons());
  std::string out;
  ASSERT_TRUE(first.start(out)) << out;
  repl::Repl copy(first);
  EXPECT_EQ(copy.saveText(), first.saveText());
  std::string a, b;
  copy.execute("move r43 2621", a);
  EXPECT_NE(copy.saveText(), first.saveText());
  first.execute("move r43 2621", b);
  EXPECT_EQ(a, b);
  EXPECT_EQ(copy.saveText(), first.saveText());
  // Its undo history is its own.
  repl::Repl second(copy);
  second.execute("undo", a);
  EXPECT_NE(second.saveText(), copy.saveText());
  serve::GameHost host(copy, out);
  EXPECT_EQ(host.save(), copy.saveText());
}
