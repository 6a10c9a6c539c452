#!/usr/bin/env bash
# Times Gomocup brains on the same positions: for each position (one a
# line, as `measure --boards` prints them: x,y,1 for the side to move,
# x,y,2 for the other) each brain thinks MS milliseconds on a 15x15 board,
# and its last MESSAGE line (depth, nodes, speed as the brain reports them)
# is printed.
#
#   scripts/brain-speed.sh POSITIONS MS BRAIN...
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 POSITIONS MS BRAIN..." >&2; exit 2; }
positions=$1 ms=$2
shift 2
[ -r "$positions" ] || { echo "brain-speed: cannot read $positions" >&2; exit 2; }
n=0
while read -r line; do
    n=$((n + 1))
    for brain in "$@"; do
        # END only after the think: some brains stop searching when it comes.
        last=$( { printf 'START 15\nINFO timeout_turn %s\nINFO timeout_match 0\nINFO time_left 2147483647\nINFO rule 0\nBOARD\n%s\nDONE\n' \
            "$ms" "$(tr ' ' '\n' <<<"$line")"; sleep "$(awk "BEGIN { print $ms / 1000 + 1 }")"; echo END; } |
            timeout $((ms / 1000 + 10)) "$brain" 2>/dev/null | grep -i '^MESSAGE.*depth' | tail -n 1 || true)
        printf '%s\t%s\t%s\n' "$n" "$(basename "$brain")" "${last:-no message}"
    done
done <"$positions"
