// Fuzz target `serve`: requests to the board's server, answered by serve/api (handleRequest) over
// a GameHost, in process, without sockets. The first byte picks the game; the rest is up to 8
// requests, each written as
//   METHOD TARGET            (TARGET: the path, then ?KEY=VALUE&... percent-decoded)
//   Name: value              (headers, up to a blank line)
//   body                     (up to a line `%%` or the end)
// A request that would run a REPL line the fuzz targets skip (fuzz_common.h: files, long work) is
// left out. Invariants: every answer is a status from 200 to 599 with a content type, and a JSON
// answer is JSON. Refusals are answers; only crashes, sanitizer reports, aborts and timeouts are
// findings.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "fuzz_common.h"
#include "serve/api.h"

namespace {

int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string decode(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%' && i + 2 < s.size() && hexDigit(s[i + 1]) >= 0 &&
               hexDigit(s[i + 2]) >= 0) {
      out += static_cast<char>(hexDigit(s[i + 1]) * 16 + hexDigit(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

polemos::serve::Request parse(const std::vector<std::string>& lines, size_t& at) {
  polemos::serve::Request r;
  const std::string& first = lines[at++];
  size_t space = first.find(' ');
  r.method = first.substr(0, space);
  std::string target = space == std::string::npos ? "/" : first.substr(space + 1);
  size_t q = target.find('?');
  r.path = decode(target.substr(0, q));
  if (q != std::string::npos) {
    std::string query = target.substr(q + 1);
    size_t from = 0;
    while (from <= query.size()) {
      size_t amp = query.find('&', from);
      if (amp == std::string::npos) amp = query.size();
      std::string pair = query.substr(from, amp - from);
      size_t eq = pair.find('=');
      r.params.emplace(decode(pair.substr(0, eq)),
                       eq == std::string::npos ? "" : decode(pair.substr(eq + 1)));
      from = amp + 1;
    }
  }
  while (at < lines.size() && !lines[at].empty() && lines[at] != "%%") {
    const std::string& h = lines[at++];
    size_t colon = h.find(':');
    std::string value = colon == std::string::npos ? "" : h.substr(colon + 1);
    value.erase(0, value.find_first_not_of(' '));
    r.headers.emplace(h.substr(0, colon), value);
  }
  if (at < lines.size() && lines[at].empty()) {
    ++at;
    std::string body;
    for (bool firstLine = true; at < lines.size() && lines[at] != "%%"; ++at, firstLine = false)
      body += (firstLine ? "" : "\n") + lines[at];
    r.body = body;
  }
  if (at < lines.size() && lines[at] == "%%") ++at;
  return r;
}

// Whether the REPL line a request would run is one the fuzz targets run.
bool allowed(const polemos::serve::Request& r, polemos::fuzz::LineFilter& filter) {
  if (r.path == "/api/command") {
    auto j = nlohmann::json::parse(r.body, nullptr, false);
    if (j.is_object() && j.contains("line") && j["line"].is_string())
      return filter.allows(j["line"].get<std::string>());
  }
  if (r.path == "/api/ask")
    for (auto [it, end] = r.params.equal_range("line"); it != end; ++it)
      if (!filter.allows(it->second)) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace polemos;
  if (size == 0) return 0;
  const size_t game = data[0] % fuzz::games().size();
  const fuzz::Started& s = fuzz::started(game);
  serve::GameHost host(*s.repl, s.output);
  const serve::Endpoint at{"127.0.0.1", 8080};
  fuzz::LineFilter filter;
  std::vector<std::string> lines = fuzz::lines(data + 1, size - 1, 400, 1 << 16);
  size_t i = 0;
  for (int n = 0; n < 8 && i < lines.size(); ++n) {
    serve::Request r = parse(lines, i);
    if (!allowed(r, filter)) continue;
    serve::Response res = serve::handleRequest(host, at, r);
    if (res.status < 200 || res.status > 599 || res.contentType.empty())
      fuzz::fail("a bad answer: status " + std::to_string(res.status));
    if (res.contentType == "application/json" &&
        nlohmann::json::parse(res.body, nullptr, false).is_discarded())
      fuzz::fail("an answer that is not JSON: " + res.body);
  }
  return 0;
}
