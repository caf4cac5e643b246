#!/usr/bin/env bash
# Golden transcript test for `polemos run`: runs NAME.script (REPL commands; its `# ruleset:` and
# `# scenario:` lines name the game, relative to the script's folder) in a scratch copy of that
# folder, and compares the transcript and the exit status with NAME.expected exactly.
#
#   run_golden.sh POLEMOS_BINARY path/to/NAME.script
#
# With POLEMOS_UPDATE_GOLDEN=1 the expected file is rewritten instead: review the diff before
# committing it. Runs twice and fails if the two transcripts differ (determinism).
set -uo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 POLEMOS_BINARY FILE.script" >&2
  exit 2
fi
polemos=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
dir=$(cd "$(dirname "$2")" && pwd)
name=$(basename "$2")
expected="$dir/${name%.script}.expected"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$dir"/. "$work"/
# A `# flags: ...` line in the script adds command-line flags (e.g. --coverage).
flags=$(grep -m1 '^# flags:' "$2" | sed 's/^# flags://')
run() { (cd "$work" && "$polemos" run $flags "$name" 2>&1; echo "exit: $?"); }
first=$(run)
second=$(run)
if [ "$first" != "$second" ]; then
  echo "run_golden: two runs of $name gave different transcripts (not deterministic)" >&2
  diff <(printf '%s\n' "$first") <(printf '%s\n' "$second") >&2
  exit 1
fi
if [ "${POLEMOS_UPDATE_GOLDEN:-0}" = "1" ]; then
  printf '%s\n' "$first" > "$expected"
  echo "run_golden: wrote $expected"
  exit 0
fi
if [ ! -f "$expected" ]; then
  echo "run_golden: missing $expected (run with POLEMOS_UPDATE_GOLDEN=1 to create it)" >&2
  printf '%s\n' "$first"
  exit 1
fi
if ! diff -u --label "${name%.script}.expected" --label "$name (actual)" "$expected" <(printf '%s\n' "$first"); then
  echo "run_golden: the transcript of $name differs from ${name%.script}.expected" >&2
  exit 1
fi
