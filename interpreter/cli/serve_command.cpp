// `polemos serve`: the battle on a web page, played through the same REPL as `polemos play`
// (serve/host, serve/server). It parses the options, starts the game and the server, and stops
// both on Ctrl-C or SIGTERM; it has no logic of its own.
#include <fmt/format.h>
#include <pthread.h>

#include <csignal>
#include <cstdio>
#include <thread>

#include "cli/commands.h"
#include "serve/server.h"

namespace polemos::cli {
namespace {

const char* kServeUsage =
    "usage: polemos serve [RULESET [SCENARIO]] [--port N] [--host H] [--seed N] [--house FILE]...\n"
    "                     [--level L] [--option K=V]... [--fair] [--sandbox]\n"
    "\n"
    "Serves the battle on a board in the browser, at http://127.0.0.1:8080/ (--port another port,\n"
    "0 any free one). The page plays through the same commands as `polemos play` and has a\n"
    "console for any of them; several tabs share the game. It listens on loopback only unless\n"
    "--host names another address. Ctrl-C stops it.\n";

}  // namespace

int serveCommand(const std::vector<std::string>& args) {
  repl::ReplOptions o;
  std::vector<std::string> valued = kGameOptions;
  valued.push_back("--port");
  valued.push_back("--host");
  CommandLine cl = readCommandLine(args, valued, {"--fair", "--sandbox"});
  if (auto rc = helpOrUnknown(cl, "polemos serve", kServeUsage)) return *rc;
  if (applyGameArgs(cl, GameArgs{&o.session.seed, &o.houses, &o.session.level, &o.session.options},
                    "polemos serve") == 2)
    return 2;
  if (cl.positionals.size() > 2) {
    std::fputs(kServeUsage, stderr);
    return 2;
  }
  serve::ServerOptions so;
  if (cl.has("--port")) {
    uint64_t port = 0;
    if (!parseWholeNumber(cl.last("--port"), port) || port > 65535) {
      fmt::print(stderr, "polemos serve: --port takes a port number (0 to 65535)\n");
      return 2;
    }
    so.port = static_cast<int>(port);
  }
  if (cl.has("--host")) so.host = cl.last("--host");
  if (!cl.has("--seed")) o.session.seed = freshSeed();
  o.fair = cl.flag("--fair");
  o.traceResults = true;  // as `polemos play`: the results of the rules
  chooseGame(o, cl.positionals, cl.flag("--sandbox"), "serve");

  // Ctrl-C and SIGTERM are taken by a thread of their own, which stops the server.
  sigset_t stopSignals;
  sigemptyset(&stopSignals);
  sigaddset(&stopSignals, SIGINT);
  sigaddset(&stopSignals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);

  serve::GameHost game(o);
  std::string out;
  bool ok = game.start(out);
  std::fputs(out.c_str(), stdout);
  if (!ok) return 1;
  serve::Server server(game, so);
  std::thread waiter([&] {
    int sig = 0;
    sigwait(&stopSignals, &sig);
    server.stop();
  });
  std::string error;
  bool served = server.run(
      [&](int port) {
        fmt::print("serving the battle at http://{}:{}/ (Ctrl-C stops)\n",
                   so.host.find(':') != std::string::npos ? "[" + so.host + "]" : so.host, port);
        std::fflush(stdout);
      },
      error);
  // The server stopped by itself (it could not listen): wake the waiter.
  pthread_kill(waiter.native_handle(), SIGTERM);
  waiter.join();
  if (!served && !error.empty()) {
    fmt::print(stderr, "polemos serve: {}\n", error);
    return 1;
  }
  return 0;
}

}  // namespace polemos::cli
