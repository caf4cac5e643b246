#!/usr/bin/env bash
# The committed .clang-format holds everywhere: every C++ source of the interpreter, the unit
# tests, the fuzz targets and the benchmarks is already formatted (clang-format --dry-run reports
# nothing).
#   format_check.sh SOURCE_DIR
set -uo pipefail
cd "$1" || exit 2
command -v clang-format >/dev/null || { echo "format_check: clang-format is not installed (scripts/setup installs it)" >&2; exit 1; }
files=$(git ls-files 'interpreter/*.h' 'interpreter/*.cpp' 'tests/unit/*.cpp' 'tests/unit/*.h' 'tests/fuzz/*.cpp' 'tests/fuzz/*.h' 'bench/*.cpp' 'bench/*.h' 2>/dev/null)
[ -n "$files" ] || files=$(find interpreter tests/unit tests/fuzz bench -name '*.h' -o -name '*.cpp')
out=$(clang-format --dry-run $files 2>&1)
if [ -n "$out" ]; then
  echo "format_check: these sources differ from .clang-format (clang-format -i FILE fixes them):" >&2
  echo "$out" | grep "warning:" | cut -d: -f1 | sort -u >&2
  exit 1
fi
