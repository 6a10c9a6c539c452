#!/usr/bin/env bash
# Shows that a change kept inarow's behaviour: builds REV (default: main)
# and the working tree, plays the same fixed-seed judge tournaments (the
# engine on a node budget, the house bot, a seeded Python bot; freestyle and
# exact five), engine self-play on node budgets and Gomocup brain sessions
# with both builds, and diffs every results file, SGF record, games file and
# transcript. Prints SAME BEHAVIOUR or the differences (exit 1).
#
#   scripts/same-behaviour.sh [REV]
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:-main}
work=$(mktemp -d)
chmod 755 "$work"
trap 'git worktree remove --force "$work/base" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

git worktree add -q --detach "$work/base" "$rev"
echo "building $rev"
(cd "$work/base" && CARGO_TARGET_DIR="$work/base-target" cargo build -q --release -p inarow)
echo "building the working tree"
cargo build -q --release -p inarow

# play BINARY OUTDIR: every fixed-seed run into OUTDIR.
play() {
    local bin out
    bin=$(realpath "$1")
    out=$2
    mkdir -p "$out/bots/engine" "$out/bots/house"
    cp -r bots/random-python "$out/bots/"
    # `inarow` by name (a meta's command is never absolute): each build
    # finds itself first in PATH.
    printf 'engine\ninarow\nbot --move-nodes 3000\n0\n' >"$out/bots/engine/meta"
    printf 'house\ninarow\nbot --house\n0\n' >"$out/bots/house/meta"
    chmod -R a+rX "$out"
    (
        cd "$out"
        PATH="$(dirname "$bin"):$PATH"
        for seed in 42 7; do
            "$bin" judge --bots bots --seed "$seed" --results "judge$seed.json" --sgf "sgf$seed" -j2 >"judge$seed.out" 2>&1
        done
        "$bin" judge --bots bots --seed 9 --exact --results exact.json --sgf sgf-exact -j2 >exact.out 2>&1
        "$bin" selfplay --nodes 2000 --pairs 6 --seed 3 --games self.txt >self.out 2>&1
        "$bin" selfplay --nodes 1500 --pairs 4 --seed 5 --a width=12 --games self2.txt >self2.out 2>&1
        # Brain sessions think on the clock: only the shape of a timed answer is compared.
        printf 'START 15\nINFO rule 0\nBOARD\n7,7,1\n8,8,2\n7,8,1\nDONE\nEND\n' |
            timeout 60 "$bin" pbrain 2>&1 | grep -v '^MESSAGE' >pbrain-win.out || true
        printf 'START 15\nSWAP2BOARD\nDONE\nEND\n' | timeout 60 "$bin" pbrain >pbrain-open.out 2>&1 || true
        printf 'START 15\nSWAP2BOARD\n7,7\n8,8\n6,7\nDONE\nEND\n' | timeout 60 "$bin" pbrain >pbrain-swap.out 2>&1 || true
        sed -i 's/longest think: .*//' self.out self2.out
        sed -i -E 's/[0-9]+/N/g' pbrain-open.out pbrain-swap.out
        rm -rf bots
    )
}

play "$work/base-target/release/inarow" "$work/before"
play target/release/inarow "$work/after"
if diff -r "$work/before" "$work/after"; then
    echo "SAME BEHAVIOUR as $rev"
else
    echo "BEHAVIOUR CHANGED since $rev"
    exit 1
fi
