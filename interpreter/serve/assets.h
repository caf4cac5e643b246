// The page of `polemos serve` (web/index.html, app.js, style.css), built into the program from
// web/ (cmake/embed.cmake), so that the server reads no file to serve it.
#pragma once

#include <string>
#include <vector>

namespace polemos::serve {

struct Asset {
  const char* path;  // "/index.html"
  const char* type;  // its Content-Type
  std::string body;
};

const std::vector<Asset>& assets();

}  // namespace polemos::serve
