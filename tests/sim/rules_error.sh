#!/usr/bin/env bash
# polemos sim: an error of the rules met while a player draws or lists its moves (a requirement
# dividing by zero, a parameter's choices indexing past a list: tests/golden/listing_errors.pol)
# stops the game with that error, said, and the run fails (exit 1): the game would otherwise go
# on without the options the error hid, and count as one the rules made.
set -u
polemos=$1
dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../golden" && pwd)
fail=0
check() {  # check WANT_TEXT ARGS...
  local text=$1
  shift
  local out status
  out=$(cd "$dir" && "$polemos" sim listing_errors.pol listing_errors.pol "$@" 2>&1)
  status=$?
  if [ "$status" != 1 ] || ! grep -qF -- "$text" <<<"$out"; then
    echo "FAIL: polemos sim $*: exit $status (wanted 1), output:"
    echo "$out"
    fail=1
  fi
}
check "game 0 (seed 1) failed: the rules failed while a move was drawn: the choices of n for aim r2: index 2 is outside the list (size 2)" --games 2
check "0 finished, 2 failed" --games 2
check "failed: the rules failed while a move was drawn: strike r1: division by zero" --games 1 --players greedy
exit $fail
