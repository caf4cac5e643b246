#!/usr/bin/env bash
# Plays N seeded random-versus-random games of a ruleset's scenario with `polemos run --strict` and
# prints the distribution of results. Fails if any game errs or does not reach its end (a stuck
# decision). Usage: random_games.sh POLEMOS RULESET SCENARIO N [FIRST_SEED] [--option K=V]...
set -u
polemos=$1 ruleset=$2 scenario=$3 games=$4 first=${5:-1}
shift 4; [ $# -gt 0 ] && shift
options=()
while [ $# -gt 0 ]; do
  case $1 in --option) options+=("# option: $2"); shift 2 ;; *) echo "unknown argument $1" >&2; exit 2 ;; esac
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failed=0
for ((i = 0; i < games; i++)); do
  seed=$((first + i))
  script=$dir/game_$seed.script
  {
    echo "# ruleset: $ruleset"
    echo "# scenario: $scenario"
    echo "# seed: $seed"
    for o in "${options[@]+"${options[@]}"}"; do echo "$o"; done
    echo "trace off"
    echo "auto"
    echo "expect game_over()"
    echo "eval [turn(), sides()[0].losses, sides()[1].losses, sides()[0].vp, sides()[1].vp]"
  } > "$script"
  if ! out=$("$polemos" run --strict "$script" 2>&1); then
    echo "seed $seed: FAILED"
    echo "$out" | tail -5
    failed=$((failed + 1))
    continue
  fi
  result=$(echo "$out" | grep -m1 "the game is over" | sed 's/.*the game is over: //')
  numbers=$(echo "$out" | tail -1)
  echo "seed $seed: $result | turn, losses, vp: $numbers"
done > "$dir/results.txt"
cat "$dir/results.txt"
echo
echo "== $games games of $ruleset/$scenario from seed $first =="
echo "-- winner (level) --"
grep -v FAILED "$dir/results.txt" | sed -E 's/^seed [0-9]+: //; s/\),.*/)/; s/ \|.*//; s/, .*//' | sort | uniq -c | sort -rn
echo "-- game ended on turn --"
grep -v FAILED "$dir/results.txt" | sed -E 's/.*turn, losses, vp: \[([0-9]+),.*/\1/' | sort -n | uniq -c
echo "failed: $failed"
[ "$failed" -eq 0 ]
