#!/usr/bin/env bash
# `polemos check --threads T`: what it prints and its exit status are the same whatever T, for a
# clean tree and for a tree with errors in several files (a `part of` file used by several loads,
# a house file, a scenario); bad values of --threads are refused with status 2.
set -u
polemos="$1"
root="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cd "$root" || fail "no source root"
for t in 1 2 3 8; do
  out=$("$polemos" check --threads "$t" rulesets stdlib); rc=$?
  [ "$rc" = 0 ] || fail "clean tree, --threads $t: exit $rc"
  [ -z "$out" ] || fail "clean tree, --threads $t printed: $out"
done

cp -r "$root/rulesets" "$root/stdlib" "$work/"
cd "$work" || fail "no work dir"
export POLEMOS_PATH="$work"  # the copy is found before the source tree
# A syntax error in a part of Standard (read by Standard, Chalons, Four Battles, Deluxe and the
# house files over them, which then fail without a word of their own), a type error and an
# unknown name in two house files over Warfare.
sed -i '0,/^function/s/^function/functio/' rulesets/standard/movement.pol
printf 'house zz for warfare {\n  function zz_f(x: int): bool = x + 1\n}\n' > rulesets/house/zz.pol
printf 'house zy for warfare {\n  function zy_f(x: int): int = nowhere(x)\n}\n' > rulesets/house/zy.pol
"$polemos" check --threads 1 rulesets stdlib > one.txt; rc1=$?
[ "$rc1" = 1 ] || fail "tree with errors, --threads 1: exit $rc1"
[ "$(grep -c ': error: ' one.txt)" -ge 3 ] || fail "expected at least three errors: $(cat one.txt)"
for t in 2 3 8; do
  "$polemos" check --threads "$t" rulesets stdlib > many.txt; rc=$?
  [ "$rc" = "$rc1" ] || fail "--threads $t: exit $rc, one thread $rc1"
  cmp -s one.txt many.txt || fail "--threads $t printed otherwise: $(diff one.txt many.txt)"
done
"$polemos" check rulesets stdlib > default.txt
cmp -s one.txt default.txt || fail "the default printed otherwise: $(diff one.txt default.txt)"

for bad in 0 257 -1 x 1.5 ""; do
  err=$("$polemos" check --threads "$bad" rulesets 2>&1 >/dev/null); rc=$?
  [ "$rc" = 2 ] || fail "--threads '$bad': exit $rc"
  [ "$err" = "polemos check: --threads needs 1 to 256" ] || fail "--threads '$bad': $err"
done
err=$("$polemos" check rulesets --threads 2>&1 >/dev/null); rc=$?
[ "$rc" = 2 ] && [ "$err" = "polemos check: --threads needs 1 to 256" ] || fail "--threads without a value: $rc $err"
echo "ok"
