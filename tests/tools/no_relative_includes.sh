#!/usr/bin/env bash
# The build gives each module an include directory holding only itself and the modules below it
# (interpreter/CMakeLists.txt), so `#include "eval/state.h"` from check/ fails to compile. A path
# relative to the including file (`#include "../eval/state.h"`) would slip past that: none may be
# written.
#
#   no_relative_includes.sh SOURCE_DIR
set -uo pipefail
found=$(grep -rn '#include "\.\./' "$1/interpreter" --include='*.h' --include='*.cpp' || true)
if [ -n "$found" ]; then
  echo "relative includes bypass the module layering:" >&2
  echo "$found" >&2
  exit 1
fi
