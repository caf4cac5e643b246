#include "serve/host.h"

#include <fmt/format.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace polemos::serve {

namespace {

// Whether the REPL said an error or a refusal.
bool refused(const std::string& output) {
  std::istringstream in(output);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("error:", 0) == 0 || line.rfind("illegal:", 0) == 0) return true;
  return false;
}

std::string firstWord(const std::string& line) {
  size_t a = line.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  size_t b = line.find_first_of(" \t", a);
  return line.substr(a, b == std::string::npos ? std::string::npos : b - a);
}

}  // namespace

bool validLine(const std::string& line, std::string& why) {
  if (line.size() > GameHost::kMaxLine) {
    why = fmt::format("a command is at most {} bytes", GameHost::kMaxLine);
    return false;
  }
  for (unsigned char c : line)
    if ((c < 0x20 && c != '\t') || c == 0x7f) {
      why = "a command is one line without control characters";
      return false;
    }
  // UTF-8: a lead byte, then as many continuation bytes as it says.
  for (size_t i = 0; i < line.size();) {
    auto c = static_cast<unsigned char>(line[i]);
    size_t n = c < 0x80                          ? 0
               : (c & 0xe0) == 0xc0 && c >= 0xc2 ? 1
               : (c & 0xf0) == 0xe0              ? 2
               : (c & 0xf8) == 0xf0 && c <= 0xf4 ? 3
                                                 : 4;
    bool ok = n < 4;
    for (size_t k = 1; ok && k <= n; ++k)
      ok = i + k < line.size() && (static_cast<unsigned char>(line[i + k]) & 0xc0) == 0x80;
    if (!ok) {
      why = "a command is UTF-8 text";
      return false;
    }
    i += n + 1;
  }
  return true;
}

bool oneWord(const std::string& word) {
  std::string why;
  return !word.empty() && validLine(word, why) && word.find_first_of(" \t") == std::string::npos;
}

GameHost::GameHost(repl::ReplOptions options) : repl_(std::move(options)) {}

GameHost::GameHost(const repl::Repl& started, const std::string& out) : repl_(started) {
  banner_ = out.substr(0, out.find('\n'));
  log_.push_back(Entry{nextSeq_++, "", out, true});
}

bool GameHost::start(std::string& out) {
  std::lock_guard lock(mutex_);
  bool ok = repl_.start(out);
  banner_ = out.substr(0, out.find('\n'));
  if (ok) log_.push_back(Entry{nextSeq_++, "", out, true});
  return ok;
}

bool GameHost::readOnly(const std::string& line) const {
  static const std::set<std::string> kReadOnly = {"status", "units",  "show",  "legal", "help",
                                                  "reach",  "tables", "table", "odds",  "why",
                                                  "rule",   "log",    "diff"};
  return kReadOnly.count(firstWord(line)) > 0;
}

Reply GameHost::execute(const std::string& line) {
  Reply r;
  int errors = repl_.errors();
  repl_.executeText(line, r.output);
  r.ok = repl_.errors() == errors && !refused(r.output);
  r.version = version_;
  return r;
}

void GameHost::changed() {
  ++version_;
  changed_.notify_all();
}

Reply GameHost::run(const std::string& line, bool logged) {
  Reply r;
  std::string why;
  if (!validLine(line, why)) {
    r.ok = false;
    r.output = "error: " + why + "\n";
  } else if (firstWord(line) == "quit" || firstWord(line) == "exit") {
    r.ok = false;
    r.output = "error: the board does not quit; stop `polemos serve` with Ctrl-C\n";
  } else {
    r = execute(line);
  }
  if (logged) {
    log_.push_back(Entry{nextSeq_++, line, r.output, r.ok});
    while (log_.size() > kMaxLog) log_.pop_front();
  }
  // A page redraws when the game may have changed, or the log (part of what it shows) grew.
  if (logged || (!readOnly(line) && !firstWord(line).empty())) changed();
  r.version = version_;
  return r;
}

Reply GameHost::command(const std::string& line) {
  std::lock_guard lock(mutex_);
  return run(line, true);
}

Reply GameHost::ask(const std::string& line) {
  std::lock_guard lock(mutex_);
  if (!readOnly(line))
    return Reply{false,
                 "error: ask takes a command that only reads the game (show, reach, status, "
                 "legal, help, why, ...)\n",
                 version_};
  return run(line, false);
}

Reply GameHost::click(const std::string& unit, const std::string& hex) {
  std::lock_guard lock(mutex_);
  if (!oneWord(unit) || !oneWord(hex))
    return Reply{false, "error: a click names one unit and one hex\n", version_};
  std::string why;
  auto line = repl_.clickCommand(unit, hex, why);
  if (!line) return Reply{false, "error: " + why + "\n", version_};
  return run(*line, true);
}

Reply GameHost::load(const std::string& text) {
  std::lock_guard lock(mutex_);
  Reply r;
  r.ok = repl_.loadText(text, "the uploaded game", r.output);
  log_.push_back(Entry{nextSeq_++, "load (upload)", r.output, r.ok});
  changed();
  r.version = version_;
  return r;
}

std::string GameHost::save() {
  std::lock_guard lock(mutex_);
  return repl_.saveText();
}

std::string GameHost::stateJson(uint64_t since) {
  std::lock_guard lock(mutex_);
  nlohmann::ordered_json j;
  j["version"] = version_;
  if (const engine::Session* game = repl_.session()) {
    const ir::Program& P = game->program();
    std::string scenario = P.scenarioTitle.empty() ? P.scenarioName : P.scenarioTitle;
    j["title"] = fmt::format("{}{}{} (seed {})", P.title.empty() ? P.rulesetName : P.title,
                             scenario.empty() ? "" : ": ", scenario, game->config().seed);
  } else {
    j["title"] = banner_;
  }
  std::string status;
  repl_.executeText("status", status);
  j["status"] = status;
  const engine::Session* s = repl_.session();
  j["over"] = s && s->state().result.over;
  nlohmann::ordered_json options = nlohmann::ordered_json::array();
  std::vector<std::string> actionNames;
  size_t index = 0;
  for (const auto& o : repl_.legalOptions()) {
    ++index;
    static const char* kKinds[] = {"action", "end", "pass", "pick", "next"};
    std::string action = o.kind == engine::Option::Action && s && o.action >= 0
                             ? s->program().actions[static_cast<size_t>(o.action)].name
                             : "";
    std::string unit;
    for (const auto& v : o.args)
      if (v.tag == ir::Tag::Unit && s && v.i >= 0 &&
          static_cast<size_t>(v.i) < s->state().units.size()) {
        unit = s->state().units[static_cast<size_t>(v.i)].id;
        break;
      }
    // What playing it takes at the prompt: a choice's option is picked by its number.
    std::string command = o.kind == engine::Option::Pick ? fmt::format("pick {}", index) : o.text;
    options.push_back({{"text", o.text},
                       {"command", command},
                       {"kind", kKinds[static_cast<int>(o.kind)]},
                       {"action", action},
                       {"unit", unit}});
  }
  j["options"] = options;
  nlohmann::ordered_json log = nlohmann::ordered_json::array();
  for (const auto& e : log_)
    if (e.seq > since)
      log.push_back({{"seq", e.seq}, {"command", e.command}, {"output", e.output}, {"ok", e.ok}});
  j["log"] = log;
  return j.dump();
}

Reply GameHost::svg(const std::string& reachUnit, const std::string& zocUnit) {
  std::lock_guard lock(mutex_);
  for (const std::string* unit : {&reachUnit, &zocUnit})
    if (!unit->empty() && !oneWord(*unit))
      return Reply{false, "error: a unit is one id\n", version_};
  std::string line = "map --svg -";
  if (!reachUnit.empty()) line += " --reach " + reachUnit;
  if (!zocUnit.empty()) line += " --zoc " + zocUnit;
  Reply r = execute(line);
  r.ok = r.ok && r.output.rfind("<svg", 0) == 0;
  return r;
}

Reply GameHost::odds(const std::string& option) {
  std::lock_guard lock(mutex_);
  std::string why;
  if (!validLine(option, why)) return Reply{false, "error: " + why + "\n", version_};
  return execute("odds --json " + option);
}

uint64_t GameHost::waitForChange(uint64_t seen, int ms) {
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, std::chrono::milliseconds(ms), [&] { return version_ > seen; });
  return version_;
}

uint64_t GameHost::version() {
  std::lock_guard lock(mutex_);
  return version_;
}

}  // namespace polemos::serve
