#!/usr/bin/env bash
# Renju's forbidden points, inarow against another engine (issue: renju
# everywhere, "an agreement check"): seeded random positions with black to
# move (`cargo run --release -p inarow-core --example renju_positions --
# SEED COUNT`) are given to the brain one by one, each a fresh process, as
# `INFO rule 4`, `YXBOARD ... DONE` and `YXSHOWFORBID`; its `FORBID` line
# (points as xxyy) is compared with inarow's. Prints every position where
# they differ and a count; exits 1 if any differ.
#
#   scripts/renju-rapfi.sh BRAIN [SEED] [COUNT]
#
# BRAIN: pbrain-rapfi (built outside the repository).
set -euo pipefail
[ $# -ge 1 ] && [ $# -le 3 ] || { sed -n '2,11p' "$0" >&2; exit 2; }
brain=$(realpath "$1") seed=${2:-1} count=${3:-200}
[ -x "$brain" ] || { echo "renju-rapfi: $brain is not an executable" >&2; exit 2; }
cd "$(dirname "$0")/.."
positions=$(mktemp)
trap 'rm -f "$positions"' EXIT
cargo run -q --release -p inarow-core --example renju_positions -- "$seed" "$count" >"$positions"
same=0 differ=0
while IFS='|' read -r stones ours; do
    theirs=$( { printf 'START 15\nINFO rule 4\nYXBOARD\n'; tr ' ' '\n' <<<"$stones"; printf 'DONE\nYXSHOWFORBID\nEND\n'; } \
        | (cd "$(dirname "$brain")" && timeout 30 "$brain") | grep '^FORBID' | head -1)
    # FORBID xxyyxxyy.  ->  x,y x,y (row order, as inarow prints them)
    theirs=$(sed -e 's/^FORBID //' -e 's/\.$//' <<<"$theirs" | fold -w4 \
        | awk 'NF { printf "%d,%d\n", substr($0,1,2), substr($0,3,2) }' \
        | sort -t, -k2,2n -k1,1n | tr '\n' ' ' | sed 's/ $//')
    if [ "$ours" = "$theirs" ]; then
        same=$((same + 1))
    else
        differ=$((differ + 1))
        echo "differ: $stones | inarow: $ours | brain: $theirs"
    fi
done <"$positions"
echo "renju forbidden points, seed $seed: $same positions agree, $differ differ"
[ "$differ" -eq 0 ]
