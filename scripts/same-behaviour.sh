#!/usr/bin/env bash
# Shows that a change kept inarow's behaviour: builds REV (default: main)
# and the working tree, plays the same fixed-seed judge tournaments (the
# engine on a node budget, the house bot, a seeded Python bot; freestyle and
# exact five; one of them in two shares, merged), engine self-play on node
# budgets (whole and in two shares, merged) and Gomocup brain sessions with
# both builds, and diffs every results file, part file, SGF record, games
# file and transcript. Prints SAME BEHAVIOUR or the differences (exit 1).
#
#   scripts/same-behaviour.sh [REV [REV2]]
#
# REV2 (default: the working tree) is built in a worktree of its own.
# SAME_BEHAVIOUR_CACHE=DIR keeps the worktrees and builds of the two sides
# there (DIR/base, DIR/new), so that a second run rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
# Named here, in this checkout: HEAD inside a kept worktree is its own.
rev=$(git rev-parse --verify "${1:-main}^{commit}")
rev2=${2:+$(git rev-parse --verify "$2^{commit}")}
work=$(mktemp -d)
chmod 755 "$work"
keep=${SAME_BEHAVIOUR_CACHE:-}
trap 'if [ -z "$keep" ]; then git worktree remove --force "$work/base-src" >/dev/null 2>&1 || true; git worktree remove --force "$work/new-src" >/dev/null 2>&1 || true; fi; rm -rf "$work"' EXIT
cache=${keep:-$work}
mkdir -p "$cache"

# build SIDE REV: REV built in its worktree DIR/SIDE-src, into DIR/SIDE-target.
build() {
    local src="$cache/$1-src"
    if [ -d "$src" ]; then
        # Checking out in place keeps the times of unchanged files: cargo
        # rebuilds only what changed.
        git -C "$src" checkout -q -f --detach "$2"
    else
        git worktree add -q --detach "$src" "$2"
    fi
    echo "building $2"
    (cd "$src" && CARGO_TARGET_DIR="$cache/$1-target" cargo build -q --release -p inarow)
}

build base "$rev"
if [ -n "$rev2" ]; then
    build new "$rev2"
    new_bin="$cache/new-target/release/inarow"
else
    echo "building the working tree"
    cargo build -q --release -p inarow
    new_bin=${CARGO_TARGET_DIR:-target}/release/inarow
fi

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
        "$bin" selfplay --nodes 2000 --pairs 6 --seed 3 --games-file self.txt >self.out 2>&1
        "$bin" selfplay --nodes 1500 --pairs 4 --seed 5 --a lmr_base=40 --games-file self2.txt >self2.out 2>&1
        # Part files and their merges: a tournament and a match in two shares.
        for i in 0 1; do
            "$bin" judge --bots bots --seed 42 --shard "$i/2" --results "judge-part$i.json" --sgf "sgf-part$i" -j2 >"judge-part$i.out" 2>&1
            "$bin" selfplay --nodes 1500 --pairs 4 --seed 5 --shard "$i/2" --part "self-part$i.json" >"self-part$i.out" 2>&1
        done
        "$bin" judge merge judge-part1.json judge-part0.json --results judge-merged.json --sgf sgf-merged >judge-merge.out 2>&1
        "$bin" selfplay merge self-part0.json self-part1.json --games-file self-merged.txt >self-merge.out 2>&1
        # Brain sessions think on the clock: only the shape of a timed answer is compared.
        printf 'START 15\nINFO rule 0\nBOARD\n7,7,1\n8,8,2\n7,8,1\nDONE\nEND\n' |
            timeout 60 "$bin" pbrain 2>&1 | grep -v '^MESSAGE' >pbrain-win.out || true
        printf 'START 15\nSWAP2BOARD\nDONE\nEND\n' | timeout 60 "$bin" pbrain >pbrain-open.out 2>&1 || true
        printf 'START 15\nSWAP2BOARD\n7,7\n8,8\n6,7\nDONE\nEND\n' | timeout 60 "$bin" pbrain >pbrain-swap.out 2>&1 || true
        sed -i 's/longest think: .*//' self.out self2.out self-part0.out self-part1.out self-merge.out
        # A part file keeps each pair's longest think, a time.
        sed -i -E 's/"longest_ms": [0-9]+/"longest_ms": N/' self-part0.json self-part1.json
        sed -i -E 's/[0-9]+/N/g' pbrain-win.out pbrain-open.out pbrain-swap.out
        rm -rf bots
    )
}

play "$cache/base-target/release/inarow" "$work/before"
play "$new_bin" "$work/after"
if diff -r "$work/before" "$work/after"; then
    echo "SAME BEHAVIOUR as $rev"
else
    echo "BEHAVIOUR CHANGED since $rev"
    exit 1
fi
