#!/usr/bin/env bash
# Golden test for `polemos diff`: runs `polemos diff ARGS` (ARGS from NAME.args, one line) in
# tests/diff with POLEMOS_PATH=tests/diff, so that the rulesets under tests/diff/rulesets/ are
# found by name, and compares what it prints (standard output and error) and its exit status
# with NAME.expected.
#
#   diff_golden.sh POLEMOS_BINARY path/to/NAME.args
#
# With POLEMOS_UPDATE_GOLDEN=1 the expected file is rewritten instead (review the diff before
# committing it).
set -uo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 POLEMOS_BINARY NAME.args" >&2
  exit 2
fi
polemos=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
dir=$(cd "$(dirname "$2")" && pwd)
name=$(basename "$2")
expected="$dir/${name%.args}.expected"
read -r -a args < "$dir/$name"
actual=$(cd "$dir" && POLEMOS_PATH="$dir" "$polemos" diff "${args[@]}" 2>&1; echo "exit: $?")
if [ "${POLEMOS_UPDATE_GOLDEN:-0}" = "1" ]; then
  printf '%s\n' "$actual" > "$expected"
  echo "diff_golden: wrote $expected"
  exit 0
fi
if [ ! -f "$expected" ]; then
  echo "diff_golden: missing $expected (run with POLEMOS_UPDATE_GOLDEN=1 to create it)" >&2
  printf '%s\n' "$actual"
  exit 1
fi
if ! diff -u --label "${name%.args}.expected" --label "polemos diff ${args[*]} (actual)" "$expected" <(printf '%s\n' "$actual"); then
  echo "diff_golden: the output of 'polemos diff ${args[*]}' differs from ${name%.args}.expected" >&2
  exit 1
fi
