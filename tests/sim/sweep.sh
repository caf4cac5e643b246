#!/usr/bin/env bash
# `polemos sim --sweep FILE`: the same games under each variant, one table with a column per
# variant and the difference from the first. Usage: sweep.sh POLEMOS
set -euo pipefail
polemos=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
args=(standard chalons --games 2 --seed 5)
printf '# two variants\nprinted\nno_displacement --house no_displacement  # 7.81\n' > "$work/sweep.txt"
"$polemos" sim "${args[@]}" --sweep "$work/sweep.txt" > "$work/out.txt"
grep -q '^sweep of 2 variants of standard chalons: 2 games each (seeds 5 to 6), players random$' "$work/out.txt" ||
  { cat "$work/out.txt"; echo "sweep: no heading"; exit 1; }
grep -q '^| measure | printed | no_displacement |$' "$work/out.txt" || { cat "$work/out.txt"; exit 1; }
grep -q '^- no_displacement: standard + house no_displacement$' "$work/out.txt" || { cat "$work/out.txt"; exit 1; }
# The first column is the plain run of the same games: its mean turns and hunnic wins.
"$polemos" sim "${args[@]}" > "$work/plain.txt"
turns=$(grep '^| turns played |' "$work/plain.txt" | cut -d'|' -f3 | tr -d ' ')
grep -q "^| turns played | $turns |" "$work/out.txt" || { echo "sweep: the first column is not the plain run ($turns)"; cat "$work/out.txt"; exit 1; }
share=$(grep '^| hunnic wins |' "$work/plain.txt" | cut -d'|' -f4 | tr -d ' ')
grep -q "^| hunnic wins | $share |" "$work/out.txt" || { echo "sweep: hunnic wins differ from the plain run ($share)"; exit 1; }
# Every later cell has its difference and interval.
grep -q '^| turns played | [0-9.]* | [0-9.]* ([+-][0-9.]*, [+-][0-9.]* to [+-][0-9.]*) |$' "$work/out.txt" ||
  { cat "$work/out.txt"; echo "sweep: no difference column"; exit 1; }
# Bad files and combinations are refused with exit 2 and a clear message.
printf 'a\na --option x=1\n' > "$work/twice.txt"
if "$polemos" sim "${args[@]}" --sweep "$work/twice.txt" 2> "$work/err.txt"; then exit 1; fi
grep -q 'twice.txt:2: two variants are named a' "$work/err.txt" || { cat "$work/err.txt"; exit 1; }
printf 'a --speed 3\n' > "$work/bad.txt"
"$polemos" sim "${args[@]}" --sweep "$work/bad.txt" 2> "$work/err.txt" && exit 1
grep -q 'bad.txt:1: a variant takes --house, --option and --level, not --speed' "$work/err.txt" || { cat "$work/err.txt"; exit 1; }
"$polemos" sim "${args[@]}" --sweep "$work/sweep.txt" --json 2> "$work/err.txt" && exit 1
grep -q 'not with --json' "$work/err.txt" || { cat "$work/err.txt"; exit 1; }
printf 'a --option no_such_option=1\n' > "$work/opt.txt"
set +e
"$polemos" sim "${args[@]}" --sweep "$work/opt.txt" 2> "$work/err.txt"
rc=$?
set -e
[ $rc = 2 ] || { echo "sweep: an unknown option exits $rc"; cat "$work/err.txt"; exit 1; }
grep -q '(in variant a)' "$work/err.txt" || { cat "$work/err.txt"; exit 1; }
echo "sweep: ok"
