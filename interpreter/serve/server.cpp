#include "serve/server.h"

#include <fmt/format.h>
#include <httplib.h>

#include <nlohmann/json.hpp>

#include "serve/assets.h"

namespace polemos::serve {

namespace {

constexpr size_t kMaxBody = 8u << 20;  // a save of the largest battle is well under this

void reply(httplib::Response& res, const Reply& r) {
  nlohmann::ordered_json j = {{"ok", r.ok}, {"output", r.output}, {"version", r.version}};
  res.set_content(j.dump(), "application/json");
}

void refuse(httplib::Response& res, int status, const std::string& why) {
  res.status = status;
  nlohmann::ordered_json j = {{"ok", false}, {"output", "error: " + why + "\n"}};
  res.set_content(j.dump(), "application/json");
}

// The fields of a JSON object body, each a string; nothing (with `why`) if it is not one.
std::optional<nlohmann::json> objectBody(const httplib::Request& req,
                                         std::initializer_list<const char*> fields,
                                         std::string& why) {
  auto j = nlohmann::json::parse(req.body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    why = "the body is not a JSON object";
    return std::nullopt;
  }
  for (const char* f : fields)
    if (!j.contains(f) || !j[f].is_string()) {
      why = fmt::format("the body needs \"{}\" as a string", f);
      return std::nullopt;
    }
  return j;
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
  // Only requests addressed to this server by its own name: a page of another site that points a
  // name of its own at 127.0.0.1 (DNS rebinding) is refused. Changes need the page's header.
  http.set_pre_routing_handler([I](const httplib::Request& req, httplib::Response& res) {
    std::string host = req.get_header_value("Host");
    std::string port = fmt::format(":{}", I->port);
    // Served on another address (--host), it is reached by whatever name the network gives it.
    const std::string& own = I->options.host;
    bool loopback = own == "127.0.0.1" || own == "localhost" || own == "::1";
    bool named = !loopback || host == "localhost" + port || host == "127.0.0.1" + port ||
                 host == "[::1]" + port;
    if (!named) {
      refuse(res, 403,
             "this server answers only to its own address (" + I->options.host + port + ")");
      return httplib::Server::HandlerResponse::Handled;
    }
    if (req.method == "POST" && req.get_header_value("X-Polemos") != "1") {
      refuse(res, 403, "a change needs the header X-Polemos: 1 (the page sends it)");
      return httplib::Server::HandlerResponse::Handled;
    }
    if (req.method != "GET" && req.method != "POST") {
      refuse(res, 405, "only GET and POST");
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  for (const auto& a : assets()) {
    const Asset* asset = &a;
    auto serveAsset = [asset](const httplib::Request&, httplib::Response& res) {
      res.set_header("Cache-Control", "no-cache");
      res.set_content(asset->body, asset->type);
    };
    http.Get(a.path, serveAsset);
    if (std::string(a.path) == "/index.html") http.Get("/", serveAsset);
  }
  http.Get("/api/state", [I](const httplib::Request& req, httplib::Response& res) {
    uint64_t since = 0;
    if (req.has_param("since")) {
      const std::string s = req.get_param_value("since");
      if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos)
        return refuse(res, 400, "since takes a log number");
      since = std::stoull(s);
    }
    res.set_content(I->game.stateJson(since), "application/json");
  });
  http.Get("/api/map.svg", [I](const httplib::Request& req, httplib::Response& res) {
    Reply r = I->game.svg(req.has_param("reach") ? req.get_param_value("reach") : "",
                          req.has_param("zoc") ? req.get_param_value("zoc") : "");
    if (!r.ok) return refuse(res, 400, r.output.substr(r.output.rfind("error: ", 0) == 0 ? 7 : 0));
    res.set_header("Cache-Control", "no-cache");
    res.set_content(r.output, "image/svg+xml");
  });
  http.Get("/api/odds", [I](const httplib::Request& req, httplib::Response& res) {
    if (!req.has_param("option")) return refuse(res, 400, "odds takes ?option=TEXT");
    Reply r = I->game.odds(req.get_param_value("option"));
    if (!r.ok) res.status = 400;
    reply(res, r);
  });
  http.Get("/api/ask", [I](const httplib::Request& req, httplib::Response& res) {
    if (!req.has_param("line")) return refuse(res, 400, "ask takes ?line=COMMAND");
    Reply r = I->game.ask(req.get_param_value("line"));
    if (!r.ok) res.status = 400;
    reply(res, r);
  });
  http.Get("/api/save", [I](const httplib::Request&, httplib::Response& res) {
    res.set_header("Content-Disposition", "attachment; filename=\"polemos-game.json\"");
    res.set_content(I->game.save(), "application/json");
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
  http.Post("/api/command", [I](const httplib::Request& req, httplib::Response& res) {
    std::string why;
    auto j = objectBody(req, {"line"}, why);
    if (!j) return refuse(res, 400, why);
    Reply r = I->game.command((*j)["line"].get<std::string>());
    reply(res, r);
  });
  http.Post("/api/click", [I](const httplib::Request& req, httplib::Response& res) {
    std::string why;
    auto j = objectBody(req, {"unit", "hex"}, why);
    if (!j) return refuse(res, 400, why);
    reply(res, I->game.click((*j)["unit"].get<std::string>(), (*j)["hex"].get<std::string>()));
  });
  http.Post("/api/load", [I](const httplib::Request& req, httplib::Response& res) {
    Reply r = I->game.load(req.body);
    if (!r.ok) res.status = 400;
    reply(res, r);
  });
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
