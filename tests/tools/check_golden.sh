#!/usr/bin/env bash
# Golden test for `polemos check`: runs it on one .pol file from that file's directory (so messages
# name the file relatively) and compares what it prints and its exit status with NAME.expected.
#
#   check_golden.sh POLEMOS_BINARY path/to/NAME.pol
#
# NAME.expected holds the exact standard output, then a last line `exit: N` (standard error is
# not compared; it shows in the test log). With
# POLEMOS_UPDATE_GOLDEN=1 the file is rewritten from the current output instead (review the diff
# before committing it).
set -uo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 POLEMOS_BINARY FILE.pol" >&2
  exit 2
fi
polemos=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
pol=$2
dir=$(cd "$(dirname "$pol")" && pwd)
name=$(basename "$pol")
expected="$dir/${name%.pol}.expected"

if [ ! -x "$polemos" ]; then
  echo "check_golden: no executable at $polemos" >&2
  exit 2
fi

actual=$(cd "$dir" && "$polemos" check "$name"; echo "exit: $?")

if [ "${POLEMOS_UPDATE_GOLDEN:-0}" = "1" ]; then
  printf '%s\n' "$actual" > "$expected"
  echo "check_golden: wrote $expected"
  exit 0
fi

if [ ! -f "$expected" ]; then
  echo "check_golden: missing $expected (run with POLEMOS_UPDATE_GOLDEN=1 to create it)" >&2
  printf '%s\n' "$actual"
  exit 1
fi

if ! diff -u --label "$name.expected" --label "$name (actual)" "$expected" <(printf '%s\n' "$actual"); then
  echo "check_golden: output of 'polemos check $name' differs from ${name%.pol}.expected" >&2
  echo "(if the new output is right, rerun with POLEMOS_UPDATE_GOLDEN=1 and review the diff)" >&2
  exit 1
fi
exit 0
