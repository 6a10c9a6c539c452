#!/usr/bin/env bash
# Plays inarow's Gomocup brain against another Gomocup brain with
# c-gomoku-cli (a tournament manager built outside this repository), from
# inarow's balanced three-stone openings, each played twice with colours
# swapped, on 15x15, one game at a time. Prints c-gomoku-cli's last score
# line, then inarow's score counted from the SGF without the void games;
# its log, SGF and PGN stay in OUT.
#
# Void games (see scripts/sgf-score.sh): a brain that drops a START makes
# c-gomoku-cli end the game before any move as a time forfeit and count it
# for one side or the other; no move was played, so they are left out.
#
#   scripts/match-cli.sh CLI OURS THEIRS OUT [GAMES] [SECONDS_A_MOVE] [RULE] [SEED]
#
# CLI: the c-gomoku-cli binary; OURS: pbrain-inarow; THEIRS: the opponent;
# RULE: 0 freestyle, 1 exact five; SEED: the openings' seed (default 2026).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 4 ] || { sed -n '2,16p' "$0" >&2; exit 2; }
cli=$(realpath "$1") ours=$(realpath "$2") theirs=$(realpath "$3") out=$4
games=${5:-80} turn=${6:-0.2} rule=${7:-0} seed=${8:-2026}
for f in "$cli" "$ours" "$theirs"; do
    [ -x "$f" ] || { echo "match-cli: $f is not an executable" >&2; exit 2; }
done
mkdir -p "$out"
out=$(realpath "$out")
# The openings: inarow's balanced generator (the games are one node a move,
# only their openings are kept), rewritten as offsets from the centre.
inarow=$(dirname "$ours")/inarow
[ -x "$inarow" ] || { echo "match-cli: no inarow beside $ours (needed for the openings)" >&2; exit 2; }
pairs=$(((games + 1) / 2))
"$inarow" selfplay --nodes 1 --pairs "$pairs" --seed "$seed" --stones 3 \
    --elo0 0 --elo1 0.1 --games "$out/openings-games.txt" >/dev/null
awk -F'|' 'NR % 2 == 1 {
    n = split($1, a, " "); s = ""
    for (i = 4; i <= n; i++) { split(a[i], p, ","); s = s (s == "" ? "" : ", ") (p[1] - 7) "," (p[2] - 7) }
    print s
}' "$out/openings-games.txt" >"$out/openings.txt"
cd "$out"
"$cli" -each tc=0/"$turn" maxmemory=350000000 tolerance=3 \
    -engine name=inarow cmd="$ours" \
    -engine name="$(basename "$theirs")" cmd="$theirs" \
    -rule "$rule" -boardsize 15 -games "$games" -repeat -concurrency 1 -drawafter 225 \
    -openings file="$out/openings.txt" type=offset order=sequential \
    -sgf games.sgf -pgn games.pgn >match.log 2>&1
grep '^Score' match.log | tail -n 1
"$here/sgf-score.sh" games.sgf inarow
