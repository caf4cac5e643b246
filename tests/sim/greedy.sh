#!/usr/bin/env bash
# The greedy player against the random player on Chalons, a few seeded games with each side (the
# measured figures over 100 games each are in docs/analysis.md). Usage: greedy.sh POLEMOS
set -euo pipefail
polemos=$1
hun=$("$polemos" sim standard chalons --games 4 --seed 1 --players greedy,random --threads 2)
rom=$("$polemos" sim standard chalons --games 4 --seed 1 --players random,greedy --threads 2)
echo "$hun" | grep -q "^| hunnic wins | 4 |" || { echo "greedy Huns did not win all 4:"; echo "$hun"; exit 1; }
echo "$rom" | grep -q "^| roman wins | 4 |" || { echo "greedy Romans did not win all 4:"; echo "$rom"; exit 1; }
echo "greedy: ok"
