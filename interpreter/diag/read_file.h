// Reading and writing a file the user names. A read is bounded before it is read (a source, a
// save, a script): it reads at most the limit plus one byte, so that /dev/zero or a 3 GB log is
// refused at once instead of filling memory. A write (a save, the autosave) does not follow a
// symbolic link at the path and replaces the file whole or not at all (written beside it, then
// renamed), so a failed save loses nothing. Each says why it could not be done.
#pragma once

#include <cstddef>
#include <string>

namespace polemos::diag {

// The whole of the file at `path` into `out` if it holds at most `maxBytes`; false, with `why`
// ("cannot read 'x'", "'x' is larger than N bytes", "'x' is a folder"), if not.
bool readFileBounded(const std::string& path, size_t maxBytes, std::string& out, std::string& why);

// `text` as the whole of the file at `path`; false, with `why`, if the path is a symbolic link
// ("'x' is a symbolic link: ..."), a folder, or cannot be written. The file is left as it was on
// failure.
bool writeFileWhole(const std::string& path, const std::string& text, std::string& why);

}  // namespace polemos::diag
