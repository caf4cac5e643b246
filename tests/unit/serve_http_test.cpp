// The HTTP side of `polemos serve` (serve/server), against a real server on a free loopback port:
// every endpoint answers, and bad input to each (a wrong Host, a change without the page's
// header, a body that is not JSON or lacks a field, a bad number, an unknown path or method, a
// line with a line break, a corrupt save) gets an error and changes nothing.
#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <future>
#include <nlohmann/json.hpp>
#include <thread>

#include "serve/server.h"

using namespace polemos;

namespace {

class ServeHttp : public ::testing::Test {
 protected:
  void SetUp() override {
    repl::ReplOptions o;
    o.ruleset = "standard";
    o.scenario = "chalons";
    o.session.seed = 1;
    game_ = std::make_unique<serve::GameHost>(o);
    std::string out;
    ASSERT_TRUE(game_->start(out)) << out;
    server_ = std::make_unique<serve::Server>(*game_, serve::ServerOptions{"127.0.0.1", 0});
    std::promise<int> ready;
    auto port = ready.get_future();
    thread_ = std::thread([&] {
      std::string error;
      server_->run([&](int p) { ready.set_value(p); }, error);
    });
    port_ = port.get();
    client_ = std::make_unique<httplib::Client>("127.0.0.1", port_);
  }
  void TearDown() override {
    server_->stop();
    thread_.join();
  }
  httplib::Result post(const std::string& path, const std::string& body, bool header = true) {
    httplib::Headers h;
    if (header) h.emplace("X-Polemos", "1");
    return client_->Post(path.c_str(), h, body, "application/json");
  }
  std::string saved() { return game_->save(); }

  std::unique_ptr<serve::GameHost> game_;
  std::unique_ptr<serve::Server> server_;
  std::unique_ptr<httplib::Client> client_;
  std::thread thread_;
  int port_ = 0;
};

TEST_F(ServeHttp, ThePageAndTheState) {
  auto page = client_->Get("/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_NE(page->body.find("<script src=\"/app.js\">"), std::string::npos);
  for (const char* asset : {"/app.js", "/style.css", "/index.html"}) {
    auto r = client_->Get(asset);
    ASSERT_TRUE(r) << asset;
    EXPECT_EQ(r->status, 200) << asset;
  }
  auto state = client_->Get("/api/state");
  ASSERT_TRUE(state);
  auto j = nlohmann::json::parse(state->body);
  EXPECT_NE(j["title"].get<std::string>().find("Chalons"), std::string::npos);
  EXPECT_FALSE(j["options"].empty());
  auto svg = client_->Get("/api/map.svg?reach=r43");
  ASSERT_TRUE(svg);
  EXPECT_EQ(svg->status, 200);
  EXPECT_EQ(svg->get_header_value("Content-Type"), "image/svg+xml");
  auto save = client_->Get("/api/save");
  ASSERT_TRUE(save);
  EXPECT_EQ(save->body, saved());
}

TEST_F(ServeHttp, PlaysThroughCommandsAndClicks) {
  auto moved = post("/api/click", R"({"unit":"r43","hex":"2621"})");
  ASSERT_TRUE(moved);
  auto j = nlohmann::json::parse(moved->body);
  EXPECT_TRUE(j["ok"].get<bool>()) << moved->body;
  auto undone = post("/api/command", R"({"line":"undo"})");
  ASSERT_TRUE(undone);
  EXPECT_TRUE(nlohmann::json::parse(undone->body)["ok"].get<bool>());
  auto illegal = post("/api/command", R"({"line":"move r43 0101"})");
  ASSERT_TRUE(illegal);
  EXPECT_NE(illegal->body.find("illegal: §5.15"), std::string::npos) << illegal->body;
  auto shown = client_->Get("/api/ask?line=show%20r43");
  ASSERT_TRUE(shown);
  EXPECT_NE(shown->body.find("r43 (roman_legion"), std::string::npos);
}

TEST_F(ServeHttp, BadRequestsChangeNothing) {
  std::string before = saved();
  // A change without the page's header (a form of another site).
  auto noHeader = post("/api/command", R"({"line":"move r43 2621"})", false);
  ASSERT_TRUE(noHeader);
  EXPECT_EQ(noHeader->status, 403);
  // Bodies that are not what the endpoint takes.
  for (const char* body : {"", "move r43 2621", "[]", "{}", R"({"line":5})", R"({"lines":"end"})",
                           R"({"line":"end\nend"})", R"({"line":"quit"})"}) {
    auto r = post("/api/command", body);
    ASSERT_TRUE(r) << body;
    EXPECT_FALSE(nlohmann::json::parse(r->body)["ok"].get<bool>()) << body;
    EXPECT_NE(r->body.find("error:"), std::string::npos) << body;
  }
  for (const char* body : {"{}", R"({"unit":"r43"})", R"({"unit":"r43","hex":7})", "nonsense"}) {
    auto r = post("/api/click", body);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400) << body;
  }
  auto load = post("/api/load", "{\"not\": \"a save\"}");
  ASSERT_TRUE(load);
  EXPECT_EQ(load->status, 400);
  for (const char* path :
       {"/api/state?since=x", "/api/state?since=-1", "/api/state?since=999999999999999999999",
        "/api/map.svg?reach=nobody", "/api/odds", "/api/ask", "/api/ask?line=end", "/api/nothing",
        "/../etc/passwd"}) {
    auto r = client_->Get(path);
    ASSERT_TRUE(r) << path;
    EXPECT_GE(r->status, 400) << path;
    EXPECT_NE(r->body.find("error"), std::string::npos) << path;
  }
  auto del = client_->Delete("/api/state");
  ASSERT_TRUE(del);
  EXPECT_GE(del->status, 400);
  // Another name for this address (DNS rebinding) is refused.
  httplib::Headers evil = {{"Host", "evil.example:80"}};
  auto rebound = client_->Get("/api/state", evil);
  ASSERT_TRUE(rebound);
  EXPECT_EQ(rebound->status, 403);
  EXPECT_EQ(saved(), before);
}

TEST_F(ServeHttp, EventsSayTheVersion) {
  // The event stream sends the version at once, then again after a change.
  // The move is made once the first event has arrived (not after a fixed wait: on a busy machine
  // the stream may connect late, and would then see only the version after the move).
  std::string received;
  std::atomic<bool> first{false};
  std::thread reader([&] {
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(20, 0);
    c.Get("/api/events", [&](const char* data, size_t n) {
      received.append(data, n);
      if (received.find("data: ") != std::string::npos) first = true;
      return received.find("data: ", received.find("data: ") + 1) == std::string::npos;
    });
    first = true;  // the stream ended (a failure the expectations below report)
  });
  for (int i = 0; i < 2000 && !first; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  post("/api/command", R"({"line":"move r43 2621"})");
  reader.join();
  EXPECT_NE(received.find("data: 1"), std::string::npos) << received;
  EXPECT_GE(std::count(received.begin(), received.end(), 'd'), 2) << received;
}

}  // namespace
