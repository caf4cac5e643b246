// The requests of `polemos serve`, answered without HTTP: a Request (method, path, query
// parameters, headers, body) in, a Response (status, content type, headers, body) out. It does
// every check a request passes before it reaches the game (the Host header, the page's header on
// changes, the method, the body's size and JSON) and routes it to the GameHost or to the page's
// files (serve/assets). serve/server calls it from its HTTP handlers; the fuzz target calls it
// directly. It does no networking and holds no state; the event stream (/api/events) is
// server.cpp's own, after the same checks (checkRequest).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "serve/host.h"

namespace polemos::serve {

struct Request {
  std::string method;                               // "GET", "POST", ...
  std::string path;                                 // without the query
  std::multimap<std::string, std::string> params;   // the query's parameters, decoded, in order
  std::multimap<std::string, std::string> headers;  // names as sent (looked up ignoring case)
  std::string body;

  // The first value of a parameter or header; empty if there is none.
  bool hasParam(const std::string& name) const { return params.count(name) > 0; }
  std::string param(const std::string& name) const;
  std::string header(const std::string& name) const;
};

struct Response {
  int status = 200;
  std::string contentType;
  std::vector<std::pair<std::string, std::string>> headers;  // besides the content type
  std::string body;
};

// Where the server listens: a request must name it in its Host header when it is a loopback
// address (a page of another site pointing a name of its own at 127.0.0.1 is refused).
struct Endpoint {
  std::string host = "127.0.0.1";
  int port = 0;
};

constexpr size_t kMaxBody = 8u << 20;  // a save of the largest battle is well under this

// The checks every request passes first (Host, X-Polemos on POST, GET or POST only, the body's
// size): the refusal, or nothing if the request may go on.
std::optional<Response> checkRequest(const Endpoint& at, const Request& req);

// A whole request (checked, then routed); an unknown path or method gets 404 with a JSON error.
// /api/events is not answered here (server.cpp streams it): it gets 404 too.
Response handleRequest(GameHost& game, const Endpoint& at, const Request& req);

// The JSON body of an error answer: {"ok": false, "output": "error: WHY\n"}.
Response refusal(int status, const std::string& why);

}  // namespace polemos::serve
