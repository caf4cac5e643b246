// Reading a file the user names, bounded before it is read: a source, a save, a script. It reads
// at most the limit plus one byte, so that /dev/zero or a 3 GB log is refused at once instead of
// filling memory, and says why a file cannot be read. It reads nothing else and writes nothing.
#pragma once

#include <cstddef>
#include <string>

namespace polemos::diag {

// The whole of the file at `path` into `out` if it holds at most `maxBytes`; false, with `why`
// ("cannot read 'x'", "'x' is larger than N bytes", "'x' is a folder"), if not.
bool readFileBounded(const std::string& path, size_t maxBytes, std::string& out, std::string& why);

}  // namespace polemos::diag
