#include "diag/read_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace polemos::diag {

bool readFileBounded(const std::string& path, size_t maxBytes, std::string& out, std::string& why) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    why = fmt::format("'{}' is a folder", path);
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    why = fmt::format("cannot read '{}'", path);
    return false;
  }
  out.clear();
  char buffer[1 << 16];
  while (in) {
    in.read(buffer, sizeof buffer);
    size_t n = static_cast<size_t>(in.gcount());
    if (out.size() + n > maxBytes) {
      out.clear();
      why = fmt::format("'{}' is larger than {} bytes", path, maxBytes);
      return false;
    }
    out.append(buffer, n);
  }
  if (in.bad()) {
    why = fmt::format("cannot read '{}'", path);
    return false;
  }
  return true;
}

bool writeFileWhole(const std::string& path, const std::string& text, std::string& why) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode)) {
      why = fmt::format(
          "'{}' is a symbolic link: Polemos does not write through links (name the file it points "
          "to)",
          path);
      return false;
    }
    if (S_ISDIR(st.st_mode)) {
      why = fmt::format("'{}' is a folder", path);
      return false;
    }
    if (!S_ISREG(st.st_mode)) {
      why = fmt::format("'{}' is not a regular file", path);
      return false;
    }
  }
  // Written beside it under a fresh name, then renamed over it: the file is replaced whole.
  std::string tmp = fmt::format("{}.{}.tmp", path, ::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) {
    why = fmt::format("cannot write '{}' ({})", path, std::strerror(errno));
    return false;
  }
  size_t done = 0;
  bool ok = true;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ok = false;
      break;
    }
    done += static_cast<size_t>(n);
  }
  int err = errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (ok && ::rename(tmp.c_str(), path.c_str()) != 0) {
    ok = false;
    err = errno;
  }
  if (!ok) {
    ::unlink(tmp.c_str());
    why = fmt::format("cannot write '{}' ({})", path, std::strerror(err));
    return false;
  }
  return true;
}

}  // namespace polemos::diag
