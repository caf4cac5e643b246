// The requests of `polemos serve` as a pure function over a GameHost (see api.h).
#include "serve/api.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "serve/assets.h"

namespace polemos::serve {

namespace {

bool sameName(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

Response json(int status, const std::string& body) {
  Response r;
  r.status = status;
  r.contentType = "application/json";
  r.body = body;
  return r;
}

Response reply(const Reply& r, int status = 200) {
  nlohmann::ordered_json j = {{"ok", r.ok}, {"output", r.output}, {"version", r.version}};
  return json(status, j.dump());
}

// The fields of a JSON object body, each a string; nothing (with `why`) if it is not one.
std::optional<nlohmann::json> objectBody(const Request& req,
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

Response notFound() {
  nlohmann::ordered_json j = {{"ok", false},
                              {"output", "error: HTTP 404 (no such page or request)\n"}};
  return json(404, j.dump());
}

Response get(GameHost& game, const Request& req) {
  for (const auto& a : assets())
    if (req.path == a.path || (req.path == "/" && std::string(a.path) == "/index.html")) {
      Response r;
      r.contentType = a.type;
      r.headers.emplace_back("Cache-Control", "no-cache");
      r.body = a.body;
      return r;
    }
  if (req.path == "/api/state") {
    uint64_t since = 0;
    if (req.hasParam("since")) {
      const std::string s = req.param("since");
      if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos)
        return refusal(400, "since takes a log number");
      since = std::stoull(s);
    }
    return json(200, game.stateJson(since));
  }
  if (req.path == "/api/map.svg") {
    Reply r = game.svg(req.hasParam("reach") ? req.param("reach") : "",
                       req.hasParam("zoc") ? req.param("zoc") : "");
    if (!r.ok) return refusal(400, r.output.substr(r.output.rfind("error: ", 0) == 0 ? 7 : 0));
    Response res;
    res.contentType = "image/svg+xml";
    res.headers.emplace_back("Cache-Control", "no-cache");
    res.body = r.output;
    return res;
  }
  if (req.path == "/api/odds") {
    if (!req.hasParam("option")) return refusal(400, "odds takes ?option=TEXT");
    Reply r = game.odds(req.param("option"));
    return reply(r, r.ok ? 200 : 400);
  }
  if (req.path == "/api/ask") {
    if (!req.hasParam("line")) return refusal(400, "ask takes ?line=COMMAND");
    Reply r = game.ask(req.param("line"));
    return reply(r, r.ok ? 200 : 400);
  }
  if (req.path == "/api/save") {
    Response res = json(200, game.save());
    res.headers.emplace_back("Content-Disposition", "attachment; filename=\"polemos-game.json\"");
    return res;
  }
  return notFound();
}

Response post(GameHost& game, const Request& req) {
  std::string why;
  if (req.path == "/api/command") {
    auto j = objectBody(req, {"line"}, why);
    if (!j) return refusal(400, why);
    return reply(game.command((*j)["line"].get<std::string>()));
  }
  if (req.path == "/api/click") {
    auto j = objectBody(req, {"unit", "hex"}, why);
    if (!j) return refusal(400, why);
    return reply(game.click((*j)["unit"].get<std::string>(), (*j)["hex"].get<std::string>()));
  }
  if (req.path == "/api/load") {
    Reply r = game.load(req.body);
    return reply(r, r.ok ? 200 : 400);
  }
  return notFound();
}

}  // namespace

std::string Request::param(const std::string& name) const {
  auto it = params.find(name);
  return it == params.end() ? "" : it->second;
}

std::string Request::header(const std::string& name) const {
  for (const auto& [k, v] : headers)
    if (sameName(k, name)) return v;
  return "";
}

Response refusal(int status, const std::string& why) {
  nlohmann::ordered_json j = {{"ok", false}, {"output", "error: " + why + "\n"}};
  return json(status, j.dump());
}

std::optional<Response> checkRequest(const Endpoint& at, const Request& req) {
  std::string host = req.header("Host");
  std::string port = fmt::format(":{}", at.port);
  // Served on another address (--host), it is reached by whatever name the network gives it.
  const std::string& own = at.host;
  bool loopback = own == "127.0.0.1" || own == "localhost" || own == "::1";
  bool named = !loopback || host == "localhost" + port || host == "127.0.0.1" + port ||
               host == "[::1]" + port;
  if (!named)
    return refusal(403, "this server answers only to its own address (" + at.host + port + ")");
  if (req.method == "POST" && req.header("X-Polemos") != "1")
    return refusal(403, "a change needs the header X-Polemos: 1 (the page sends it)");
  if (req.method != "GET" && req.method != "POST") return refusal(405, "only GET and POST");
  if (req.body.size() > kMaxBody)
    return refusal(413, fmt::format("the body is larger than {} bytes", kMaxBody));
  return std::nullopt;
}

Response handleRequest(GameHost& game, const Endpoint& at, const Request& req) {
  if (auto refused = checkRequest(at, req)) return *refused;
  return req.method == "GET" ? get(game, req) : post(game, req);
}

}  // namespace polemos::serve
