#!/usr/bin/env bash
# Compares inarow's reading of a published classical model with Rapfi's
# own, on seeded random positions: black's point sum (Rapfi's TRACEBOARD
# `Eval[Black]`) and the static evaluation from black (TRACESEARCH
# `Static Eval[Black]`) must agree exactly. Rapfi is built outside this
# repository; its folder holds a config.toml whose [model] binary_file is
# MODEL (Gomocalc's classical config, say).
#
#   scripts/rapfi-eval-check.sh RAPFI MODEL [RULE] [POSITIONS] [SEED]
#
# RULE: freestyle (default), exact or renju. Prints the count of
# positions that agree and the first that do not.
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
rapfi=$(realpath "$1") model=$(realpath "$2") rule=${3:-freestyle} n=${4:-500} seed=${5:-1}
case $rule in freestyle) code=0 ;; exact) code=1 ;; renju) code=4 ;;
    *) echo "rapfi-eval-check: the rule $rule is not freestyle, exact or renju" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$here" && cargo run -q --release -p inarow-engine --example fine_eval -- \
    "$model" "$rule" random "$n" "$seed") >"$work/ours.txt"
# One Rapfi session: each position set with YXBOARD (the side to move's
# stones 1, the other's 2, in the order played), then traced.
awk -F'\t' -v code="$code" 'BEGIN { print "INFO rule " code; print "START 15" }
{
    n = split($1, mv, " ")
    print "YXBOARD"
    for (k = 1; k <= n; k++) print mv[k] "," ((k % 2) == (n % 2) ? 1 : 2)
    print "DONE"; print "TRACESEARCH"; print "TRACEBOARD"
}
END { print "END" }' "$work/ours.txt" >"$work/commands.txt"
(cd "$(dirname "$rapfi")" && "$rapfi" <"$work/commands.txt") >"$work/rapfi.txt" 2>&1
awk '/Static Eval\[Black\]:/ { s = $4 } /^MESSAGE Eval\[Black\]:/ { print $3, s }' \
    "$work/rapfi.txt" >"$work/theirs.txt"
cut -f2 "$work/ours.txt" >"$work/ours-figures.txt"
if [ "$(wc -l <"$work/theirs.txt")" -ne "$n" ]; then
    echo "rapfi-eval-check: Rapfi traced $(wc -l <"$work/theirs.txt") of $n positions" >&2
    tail -n 5 "$work/rapfi.txt" >&2
    exit 1
fi
paste -d' ' "$work/ours-figures.txt" "$work/theirs.txt" | awk -v rule="$rule" '
    { if ($1 == $3 && $2 == $4) same++; else if (!bad) bad = NR ": ours " $1 " " $2 ", Rapfi " $3 " " $4 }
    END { printf "%s: %d of %d positions agree\n", rule, same, NR; if (bad) { print "first difference, position " bad; exit 1 } }'
