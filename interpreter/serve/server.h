// The HTTP side of `polemos serve`: the page (serve/assets) and a small JSON API over a GameHost,
// on loopback unless told otherwise. Every request is checked before it reaches the game (its
// Host header, a header only the page sends on changes, its size, its JSON); a malformed one gets
// an error and changes nothing. It reads and writes no file itself: a console command that names
// a file (save, load) is the user's, as at the prompt. The checks and the routes are serve/api's
// (a request answered without HTTP); this adds the network and the event stream.
//
//   GET  /                       the page (also /app.js, /style.css)
//   GET  /api/state?since=N      version, title, status text, the decision's options, log after N
//   GET  /api/map.svg[?reach=U]  the map as SVG (U's reachable hexes with their cost)
//   GET  /api/odds?option=TEXT   exact odds of an option (as `odds --json`)
//   GET  /api/save               the game as a save file (a download)
//   GET  /api/events             server-sent events: the version, each time it changes
//   POST /api/command {"line"}   one REPL command line
//   POST /api/click {"unit","hex"}  what a click on the board means, played
//   POST /api/load  (a save)     a saved game's text, loaded as `load` does
// POSTs carry `X-Polemos: 1` (a page of another site cannot send it without asking first).
#pragma once

#include <atomic>
#include <functional>
#include <string>

#include "serve/host.h"

namespace polemos::serve {

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 8080;  // 0: any free port (tests)
};

// Serves until stop() is called (from another thread: a signal's waiter, a test). `ready` is told
// the port once it listens. Returns false, with `error` said, if it cannot listen.
class Server {
 public:
  Server(GameHost& game, ServerOptions options);
  ~Server();
  bool run(const std::function<void(int port)>& ready, std::string& error);
  void stop();

 private:
  struct Impl;
  Impl* impl_;
};

}  // namespace polemos::serve
