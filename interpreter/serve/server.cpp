// The HTTP server of `polemos serve` (server.h): cpp-httplib's handlers hand every request to
// serve/api and stream the events; no check or route of its own besides that stream.
#include "serve/server.h"

#include <fmt/format.h>
#include <httplib.h>

#include <nlohmann/json.hpp>

#include "serve/api.h"

namespace polemos::serve {

namespace {

// httplib's request as serve/api takes it.
Request fromHttp(const httplib::Request& req) {
  Request r;
  r.method = req.method;
  r.path = req.path;
  r.params.insert(req.params.begin(), req.params.end());
  r.headers.insert(req.headers.begin(), req.headers.end());
  r.body = req.body;
  return r;
}

void toHttp(const Response& r, httplib::Response& res) {
  res.status = r.status;
  for (const auto& [name, value] : r.headers) res.set_header(name, value);
  res.set_content(r.body, r.contentType);
}

}  // namespace

struct Server::Impl {
  Impl(GameHost& g, ServerOptions o) : game(g), options(std::move(o)) {}
  GameHost& game;
  ServerOptions options;
  httplib::Server http;
  std::atomic<bool> stopping{false};
  int port = 0;
};

Server::Server(GameHost& game, ServerOptions options) : impl_(new Impl(game, std::move(options))) {
  auto& http = impl_->http;
  Impl* I = impl_;
  // Enough workers for a few tabs each holding an event stream open.
  http.new_task_queue = [] { return new httplib::ThreadPool(24); };
  http.set_payload_max_length(kMaxBody);
  // Every request is checked by serve/api before its body is read (a page of another site
  // pointing a name of its own at 127.0.0.1 is refused, a change needs the page's header), then
  // answered by serve/api, but for the event stream, which is this file's.
  http.set_pre_routing_handler([I](const httplib::Request& req, httplib::Response& res) {
    auto refused = checkRequest(Endpoint{I->options.host, I->port}, fromHttp(req));
    if (!refused) return httplib::Server::HandlerResponse::Unhandled;
    toHttp(*refused, res);
    return httplib::Server::HandlerResponse::Handled;
  });
  http.Get("/api/events", [I](const httplib::Request&, httplib::Response& res) {
    res.set_header("Cache-Control", "no-cache");
    auto seen = std::make_shared<uint64_t>(0);
    res.set_chunked_content_provider(
        "text/event-stream", [I, seen](size_t, httplib::DataSink& sink) {
          if (I->stopping) return false;
          uint64_t v = I->game.waitForChange(*seen, 1000);
          if (I->stopping || !sink.is_writable()) return false;
          std::string event = v != *seen ? fmt::format("data: {}\n\n", v) : ": still here\n\n";
          *seen = v;
          return sink.write(event.data(), event.size());
        });
  });
  // Everything else (the page, the API, unknown paths), routed by serve/api; registered after the
  // event stream, which httplib matches first.
  auto answer = [I](const httplib::Request& req, httplib::Response& res) {
    toHttp(handleRequest(I->game, Endpoint{I->options.host, I->port}, fromHttp(req)), res);
  };
  http.Get(".*", answer);
  http.Post(".*", answer);
  http.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (res.body.empty()) {
      nlohmann::ordered_json j = {
          {"ok", false},
          {"output", fmt::format("error: HTTP {} (no such page or request)\n", res.status)}};
      res.set_content(j.dump(), "application/json");
    }
  });
}

Server::~Server() {
  delete impl_;
}

bool Server::run(const std::function<void(int)>& ready, std::string& error) {
  auto& http = impl_->http;
  if (impl_->options.port == 0) {
    impl_->port = http.bind_to_any_port(impl_->options.host);
  } else {
    impl_->port =
        http.bind_to_port(impl_->options.host, impl_->options.port) ? impl_->options.port : -1;
  }
  if (impl_->port <= 0) {
    error = fmt::format("cannot listen on {}:{}", impl_->options.host, impl_->options.port);
    return false;
  }
  if (ready) ready(impl_->port);
  if (impl_->stopping) return true;
  return http.listen_after_bind();
}

void Server::stop() {
  impl_->stopping = true;
  impl_->http.stop();
}

}  // namespace polemos::serve
