// Drives the real `polemos play` binary through a pseudo-terminal: tab completion of a command,
// line editing, the history file (written as it grows), Ctrl-C clearing the line without ending
// the program, and Ctrl-D leaving on a line of its own.
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

// Reads from the terminal until `want` appears or the time is up; returns everything read.
std::string readUntil(int fd, const std::string& want, int timeoutMs, std::string& all) {
  auto start = std::chrono::steady_clock::now();
  char buf[4096];
  while (all.find(want) == std::string::npos) {
    int left = timeoutMs - static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                std::chrono::steady_clock::now() - start)
                                                .count());
    if (left <= 0) break;
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, left) <= 0) break;
    ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) break;
    all.append(buf, static_cast<size_t>(n));
  }
  return all;
}

void type(int fd, const std::string& s) {
  for (char c : s) {
    ASSERT_EQ(write(fd, &c, 1), 1);
    usleep(2000);  // a person types one key at a time; readline reacts per key
  }
}

// Starts `polemos play duel.pol duel.pol` on a pseudo-terminal; returns the child's pid.
pid_t startDuel(int& fd, const fs::path& home) {
  std::string duel = std::string(POLEMOS_TEST_DIR) + "/golden/duel.pol";
  std::string binary = std::string(POLEMOS_BINARY);
  pid_t pid = forkpty(&fd, nullptr, nullptr, nullptr);
  if (pid == 0) {
    setenv("HOME", home.c_str(), 1);
    setenv("TERM", "dumb", 1);
    execl(binary.c_str(), binary.c_str(), "play", duel.c_str(), duel.c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}

// Waits up to 5 s for the child to end; true if it did (its status in `status`).
bool ended(pid_t pid, int& status) {
  for (int i = 0; i < 100; ++i) {
    if (waitpid(pid, &status, WNOHANG) == pid) return true;
    usleep(50000);
  }
  return false;
}

// A fresh home for the history file, the game started, and its first prompt read into `all`.
pid_t openPrompt(const std::string& tag, fs::path& home, int& fd, std::string& all) {
  home = fs::temp_directory_path() / ("polemos_pty_" + tag + std::to_string(getpid()));
  fs::create_directories(home);
  pid_t pid = startDuel(fd, home);
  if (pid > 0) readUntil(fd, "> ", 10000, all);
  return pid;
}

TEST(ReplPty, CompletesCommandsAndKeepsHistory) {
  fs::path home;
  int fd = -1;
  std::string all;
  pid_t pid = openPrompt("h", home, fd, all);
  ASSERT_GE(pid, 0);
  ASSERT_NE(all.find("red to act"), std::string::npos) << all;
  // "stri" + Tab completes to "strike " (with its space); then the argument.
  type(fd, "stri\t");
  type(fd, "r1\r");
  readUntil(fd, "to choose: target", 10000, all);
  // `polemos play` traces the results: the roll, not the action's echo.
  EXPECT_NE(all.find("§7.6 roll d6"), std::string::npos) << all;
  EXPECT_EQ(all.find("§7.0 strike r1"), std::string::npos) << all;
  type(fd, "pick 1\r");
  readUntil(fd, "red.score", 10000, all);
  type(fd, "quit\r");
  int status = 0;
  if (!ended(pid, status)) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  close(fd);
  std::ifstream hist(home / ".polemos_history");
  std::stringstream raw;
  raw << hist.rdbuf();
  // libedit writes spaces in its history file as \040.
  std::string text = raw.str();
  for (size_t p; (p = text.find("\\040")) != std::string::npos;) text.replace(p, 4, " ");
  std::stringstream h(text);
  EXPECT_NE(h.str().find("strike r1"), std::string::npos) << "history: " << h.str();
  EXPECT_NE(h.str().find("pick 1"), std::string::npos) << "history: " << h.str();
  fs::remove_all(home);
}

TEST(ReplPty, CtrlCClearsTheLineAndCtrlDLeaves) {
  fs::path home;
  int fd = -1;
  std::string all;
  pid_t pid = openPrompt("c", home, fd, all);
  ASSERT_GE(pid, 0);
  ASSERT_NE(all.find("red to act"), std::string::npos) << all;
  // Half a command, then Ctrl-C: the line is gone, the program still there.
  all.clear();
  type(fd, "bogu");
  type(fd, "\x03");
  usleep(200000);
  type(fd, "status\r");
  readUntil(fd, "red to act: ", 10000, all);
  size_t at = all.rfind("status");
  ASSERT_NE(at, std::string::npos) << all;
  EXPECT_EQ(all.find("bogustatus"), std::string::npos) << all;
  EXPECT_EQ(all.find("unknown command"), std::string::npos) << all;
  int status = 0;
  EXPECT_EQ(waitpid(pid, &status, WNOHANG), 0) << "Ctrl-C ended the program";
  // `exit` does not leave either.
  all.clear();
  type(fd, "exit\r");
  readUntil(fd, "type quit", 10000, all);
  EXPECT_NE(all.find("to leave, type quit"), std::string::npos) << all;
  EXPECT_EQ(waitpid(pid, &status, WNOHANG), 0) << "exit ended the program";
  // The history file already holds what was typed, before the session ends.
  std::ifstream hist(home / ".polemos_history");
  std::stringstream raw;
  raw << hist.rdbuf();
  EXPECT_NE(raw.str().find("status"), std::string::npos) << raw.str();
  // Ctrl-D on an empty line leaves, with a newline after the prompt.
  all.clear();
  type(fd, "\x04");
  readUntil(fd, "\n", 5000, all);
  bool done = ended(pid, status);
  if (!done) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  EXPECT_TRUE(done) << "Ctrl-D did not end the program";
  EXPECT_NE(all.find('\n'), std::string::npos) << all;
  close(fd);
  fs::remove_all(home);
}

}  // namespace
