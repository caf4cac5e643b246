#!/usr/bin/env bash
# `polemos sim`: the results do not depend on the number of threads, and shards merged with
# --merge give the same aggregate as one run. Usage: sim_shards.sh POLEMOS
set -euo pipefail
polemos=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
args=(deluxe phalanx --games 6 --seed 3)
"$polemos" sim "${args[@]}" --threads 1 --json > "$work/one.json"
"$polemos" sim "${args[@]}" --threads 3 --json > "$work/three.json"
cmp "$work/one.json" "$work/three.json" || { echo "sim: 1 and 3 threads differ"; exit 1; }
"$polemos" sim "${args[@]}" --shard 1/2 --json > "$work/s1.json"
"$polemos" sim "${args[@]}" --shard 2/2 --json > "$work/s2.json"
"$polemos" sim --merge "$work/s2.json" "$work/s1.json" --json > "$work/merged.json"
cmp "$work/one.json" "$work/merged.json" || { echo "sim: merged shards differ from one run"; diff "$work/one.json" "$work/merged.json" | head; exit 1; }
"$polemos" sim "${args[@]}" > "$work/one.txt"
"$polemos" sim --merge "$work/s1.json" "$work/s2.json" > "$work/merged.txt"
cmp "$work/one.txt" "$work/merged.txt" || { echo "sim: merged summary differs"; exit 1; }
grep -q "^6 games of deluxe phalanx (seeds 3 to 8), players random: 6 finished, 0 failed" "$work/one.txt" || { cat "$work/one.txt"; exit 1; }
# A shard of another run is refused.
"$polemos" sim deluxe phalanx --games 6 --seed 4 --shard 2/2 --json > "$work/other.json"
if "$polemos" sim --merge "$work/s1.json" "$work/other.json" > /dev/null 2>&1; then echo "sim: merged shards of two runs"; exit 1; fi
# A shard whose seed is a number with an exponent (9.2e19: converting it would be undefined
# behaviour) is refused with the reason.
sed 's/"seed": 3,/"seed": 9.2233720368547758e19,/' "$work/s1.json" > "$work/float.json"
grep -q '9.2233720368547758e19' "$work/float.json" || { echo "sim: the shard has no seed to change"; head "$work/s1.json"; exit 1; }
if out=$("$polemos" sim --merge "$work/float.json" "$work/s2.json" 2>&1); then echo "sim: merged a shard whose seed is not whole"; exit 1; fi
grep -q "not a whole number" <<<"$out" || { echo "sim: a shard with a seed not whole: $out"; exit 1; }
# The same game as the REPL's `auto` with that seed.
printf '# ruleset: deluxe\n# scenario: phalanx\n# seed: 3\ntrace off\nauto\neval turn()\n' > "$work/game.script"
turn=$("$polemos" run "$work/game.script" | tail -1)
simturn=$(grep -m1 '"turns"' "$work/one.json" | sed 's/[^0-9]//g')
[ "$turn" = "$simturn" ] || { echo "sim: game 0 ended on turn $simturn, the REPL's auto on $turn"; exit 1; }
echo "sim shards: ok"
