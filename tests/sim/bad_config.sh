#!/usr/bin/env bash
# polemos sim: a level, an option or a flag the command gets wrong is refused once, with exit
# status 2 and a clear message, before any game is played (not 2 lost games).
set -u
polemos=$1
fail=0
check() {  # check WANT_STATUS WANT_TEXT ARGS...
  local want=$1 text=$2
  shift 2
  local out status
  out=$("$polemos" sim "$@" 2>&1)
  status=$?
  if [ "$status" != "$want" ] || ! grep -qF -- "$text" <<<"$out"; then
    echo "FAIL: polemos sim $*: exit $status (wanted $want), output:"
    echo "$out"
    fail=1
  fi
}
check 2 "polemos sim: unknown level 'x' (this ruleset has: standard)" deluxe phalanx --games 2 --level x
check 2 "polemos sim: option 'rerolls' is on or off, not 'maybe'" deluxe phalanx --games 2 --option rerolls=maybe
check 2 "polemos sim: unknown option 'nosuch'" deluxe phalanx --games 2 --option nosuch=1
check 2 "polemos sim: --seed needs a whole number, not '-3'" deluxe phalanx --games 2 --seed -3
check 2 "polemos sim: --option needs NAME=VALUE, not 'rerolls'" deluxe phalanx --games 2 --option rerolls
check 2 "polemos sim: --house needs a file" deluxe phalanx --games 2 --house
exit $fail
