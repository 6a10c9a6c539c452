#!/usr/bin/env bash
# Builds the repository's set of openings whose outcome is open,
# openings/open-4-6.txt: four to six stones near the centre, kept when the
# engine, playing itself from the opening once at each of four node budgets,
# gives black half the points give or take one draw (two wins each, or one
# and a draw either way). Matches from these openings split fewer pairs
# than from random ones, so they say more per game; `inarow selfplay
# --openings openings/open-4-6.txt` plays them, and the pair statistics it
# prints show how many pairs were split.
#
#   scripts/open-openings.sh [OUT] [COUNT] [SEED]
#
# OUT: default openings/open-4-6.txt; COUNT: default 100; SEED: default 2026.
# Runs a game per core; deterministic (every game on nodes), so the same
# seed and build give the same file. A later engine may judge other
# openings open: rebuild the set when the engine's play changes much.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-openings/open-4-6.txt}
count=${2:-100}
seed=${3:-2026}
cargo build -q --release -p inarow
target/release/inarow selfplay openings --out "$out" --count "$count" \
    --tries $((count * 40)) --stones 4-6 --nodes 2000,3000,4500,7000 --seed "$seed"
