#!/usr/bin/env bash
# The cost of cutting a tournament into shares: the same tournament of
# instant bots (this build's house bot, BOTS of them, default 8) played in
# one process and as N = 1, 2, 4 and 16 shares (one process each, one after
# another) plus their merge; prints the CPU time (user + system, children
# included) of each against the one-process run. CPU time, not wall time,
# so other work on the machine moves the figures little.
#
#   scripts/bench-shards.sh [BOTS]     (INAROW=path to use a built inarow)
set -euo pipefail
cd "$(dirname "$0")/.."
bots_n=${1:-8}
if [ -z "${INAROW:-}" ]; then
    cargo build --release -q -p inarow
    INAROW="${CARGO_TARGET_DIR:-$PWD/target}/release/inarow"
fi
work=$(mktemp -d /tmp/inarow-bench-shards.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
for i in $(seq "$bots_n"); do
    mkdir -p "$work/bots/b$i"
    # `inarow` by name: the judge's own program (a meta's command is never absolute).
    printf 'b%s\ninarow\nbot --house\n0\n' "$i" >"$work/bots/b$i/meta"
done
common=(--seed 1 --bots "$work/bots" --timeout 30 -j 1)

# CPU seconds (user + system) of the command, children included.
cpu() {
    local before after me=$BASHPID
    before=$(awk '{print $16 + $17}' "/proc/$me/stat")
    "$@" >/dev/null
    after=$(awk '{print $16 + $17}' "/proc/$me/stat")
    awk -v a="$after" -v b="$before" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", (a - b) / hz }'
}

whole=$(cpu "$INAROW" judge "${common[@]}" --results "$work/whole.json" --sgf "$work/sgf")
games=$(grep -c '"index"' "$work/whole.json")
echo "$bots_n bots, $games games: one process ${whole} s CPU"
for n in 1 2 4 16; do
    total=0
    for i in $(seq 0 $((n - 1))); do
        t=$(cpu "$INAROW" judge "${common[@]}" --shard "$i/$n" --results "$work/part-$n-$i.json" --sgf "$work/sgf-$n")
        total=$(awk -v a="$total" -v b="$t" 'BEGIN { printf "%.2f", a + b }')
    done
    m=$(cpu "$INAROW" judge merge "$work"/part-"$n"-*.json --results "$work/merged-$n.json" --sgf "$work/sgf-merged-$n")
    cmp -s "$work/whole.json" "$work/merged-$n.json" || { echo "N=$n: the merge differs from the one-process run" >&2; exit 1; }
    echo "N=$n: shares ${total} s + merge ${m} s CPU = $(awk -v s="$total" -v m="$m" -v w="$whole" 'BEGIN { printf "%.2f", (s + m) / w }')x the one-process run"
done
