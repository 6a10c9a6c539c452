#!/usr/bin/env bash
# Counts one engine's score in a c-gomoku-cli SGF file, leaving out the
# void games: games that ended as a "time forfeit" or "crash" before any
# move after the opening. Rapfi makes such games when it is still finishing
# its search as a game ends (it drops the next START and answers the size
# with ERROR); c-gomoku-cli records them as lost on time by the side to
# move, whoever failed, and counts them for one side or the other.
#
#   scripts/sgf-score.sh GAMES.sgf [NAME]
#
# NAME: the engine whose score is counted (default inarow). Prints one line:
#   NAME: W won, D drawn, L lost over N games (P%); V void
set -euo pipefail
[ $# -ge 1 ] && [ $# -le 2 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
[ -r "$1" ] || { echo "sgf-score: cannot read $1" >&2; exit 2; }
awk -v ours="${2:-inarow}" '
    /^\(;/ { pb = pw = re = te = ""; moves = 0; opening = 0; open_game = 1 }
    match($0, /PB\[[^]]*\]/) { pb = substr($0, RSTART + 3, RLENGTH - 4) }
    match($0, /PW\[[^]]*\]/) { pw = substr($0, RSTART + 3, RLENGTH - 4) }
    match($0, /RE\[[^]]*\]/) { re = substr($0, RSTART + 3, RLENGTH - 4) }
    match($0, /TE\[[^]]*\]/) { te = substr($0, RSTART + 3, RLENGTH - 4) }
    { moves += gsub(/;[BW]\[/, "&"); opening += gsub(/opening move/, "&") }
    /\)$/ && open_game {
        open_game = 0
        if (te ~ /forfeit|crash/ && moves == opening) { void++; next }
        winner = re ~ /^B/ ? pb : re ~ /^W/ ? pw : ""
        if (winner == "") d++; else if (winner == ours) w++; else l++
    }
    END {
        n = w + d + l
        printf "%s: %d won, %d drawn, %d lost over %d games (%.1f%%); %d void\n", ours, w, d, l, n, n ? 100 * (w + d / 2) / n : 0, void
    }' "$1"
