#!/usr/bin/env bash
# The gate a change passes before it becomes the engine's default (issue
# 55): a match of pbrain-inarow against Rapfi (or any Gomocup brain)
# through c-gomoku-cli, one game per core, 400 games (200 pairs, each
# opening twice, colours swapped) at 200 ms a move, from two opening sets
# taken in turn: the repository's open-4-6 set and seeded three-stone
# openings the engine was never tuned on. Scored by pairs with the 95%
# interval, in all and by set (`inarow selfplay score`); prints the row
# to add to docs/engine-log.md's "Gate matches", kept or not.
#
#   scripts/gate.sh CLI THEIRS OUT [SETTINGS] [PAIRS] [MS] [RULE] [SEED]
#
# CLI: the c-gomoku-cli binary; THEIRS: the opponent brain (Rapfi's
# pbrain-rapfi with no config.toml beside it plays its built-in classical
# configuration); OUT: a new folder for the openings, SGF, log and score;
# SETTINGS: the candidate's settings as `pbrain-inarow --settings` takes
# them (default: none, today's default); PAIRS: default 200; MS: a move,
# default 200; RULE: freestyle (default) or renju; SEED: the three-stone
# openings' seed (default 55). GATE_JOBS: games at once (default: the
# cores). GATE_NODES: a node budget a move for both sides instead of the
# clock (MS is then ignored): a screen whose games no load on the machine
# can change, for choosing candidates; a default is decided by time.
# The brains are this tree's release build (built first).
set -euo pipefail
[ $# -ge 3 ] && [ $# -le 8 ] || { sed -n '2,23p' "$0" >&2; exit 2; }
cli=$1 theirs=$2 out=$3 settings=${4:-} pairs=${5:-200} ms=${6:-200} rule=${7:-freestyle} seed=${8:-55}
for f in "$cli" "$theirs"; do
    [ -x "$f" ] && [ -f "$f" ] || { echo "gate: $f is not an executable file" >&2; exit 2; }
done
cli=$(realpath "$cli") theirs=$(realpath "$theirs")
case $pairs in '' | *[!0-9]* | 0 | 1) echo "gate: PAIRS must be a whole number of at least 2, not '$pairs'" >&2; exit 2 ;; esac
case $ms in '' | *[!0-9]* | 0) echo "gate: MS must be a whole number of milliseconds, not '$ms'" >&2; exit 2 ;; esac
case $seed in '' | *[!0-9]*) echo "gate: SEED must be a whole number, not '$seed'" >&2; exit 2 ;; esac
case $rule in
    freestyle) code=0 ;;
    renju) code=4 ;;
    *) echo "gate: RULE must be freestyle or renju, not '$rule'" >&2; exit 2 ;;
esac
jobs=${GATE_JOBS:-$(nproc)}
nodes=${GATE_NODES:-}
case $nodes in *[!0-9]* | 0) echo "gate: GATE_NODES must be a whole number of nodes, not '$nodes'" >&2; exit 2 ;; esac
[ -e "$out" ] && { echo "gate: $out already exists (a gate writes a new folder)" >&2; exit 2; }
cd "$(dirname "$0")/.."
repo=$(pwd)
cargo build -q --release -p inarow
inarow=$repo/target/release/inarow ours=$repo/target/release/pbrain-inarow
if [ -n "$settings" ]; then
    "$ours" --settings "$settings" </dev/null >/dev/null \
        || { echo "gate: pbrain-inarow refuses the settings '$settings'" >&2; exit 2; }
fi
mkdir -p "$out"
out=$(realpath "$out")
# The two sets, PAIRS/2 openings each (the odd one from the first), as
# c-gomoku-cli's offsets from the centre, taken in turn.
half=$((pairs - pairs / 2))
grep -v '^#' openings/open-4-6.txt | sed 's/ *#.*//' | head -n "$half" >"$out/set-1-open-4-6.txt"
"$inarow" selfplay --nodes 1 --pairs $((pairs / 2)) --seed "$seed" --stones 3 \
    --elo0 0 --elo1 0.1 --games-file "$out/three-games.txt" >/dev/null
awk -F'|' 'NR % 2 == 1 { n = split($1, a, " "); s = ""; for (i = 4; i <= n; i++) s = s (s == "" ? "" : " ") a[i]; print s }' \
    "$out/three-games.txt" >"$out/set-2-three-stones-seed-$seed.txt"
offsets() { awk '{ s = ""; for (i = 1; i <= NF; i++) { split($i, p, ","); s = s (s == "" ? "" : ", ") (p[1] - 7) "," (p[2] - 7) } print s }' "$1"; }
paste -d '\n' <(offsets "$out/set-1-open-4-6.txt") <(offsets "$out/set-2-three-stones-seed-$seed.txt") \
    | grep -v '^$' >"$out/openings.txt"
[ "$(wc -l <"$out/openings.txt")" -eq "$pairs" ] \
    || { echo "gate: made $(wc -l <"$out/openings.txt") openings, not $pairs (open-4-6 has too few?)" >&2; exit 1; }
brain="$ours${settings:+ --settings $settings}"
commit=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- crates || echo "+changes")
start=$(date +%s)
(
    cd "$out"
    if [ -n "$nodes" ]; then
        budget=(tc=0/60 nodes="$nodes")
    else
        budget=(tc=0/"$(awk -v ms="$ms" 'BEGIN { printf "%g", ms / 1000 }')")
    fi
    "$cli" -each "${budget[@]}" maxmemory=350000000 tolerance=3 \
        -engine name=inarow cmd="$brain" \
        -engine name=opponent cmd="$theirs" \
        -rule "$code" -boardsize 15 -games $((2 * pairs)) -repeat -concurrency "$jobs" -drawafter 225 \
        -openings file="$out/openings.txt" type=offset order=sequential \
        -sgf games.sgf -pgn games.pgn >match.log 2>&1
)
minutes=$((($(date +%s) - start + 30) / 60))
"$inarow" selfplay score "$out/games.sgf" --name inarow --sets 2 | tee "$out/score.txt"
all=$(sed -n 1p "$out/score.txt") pairs_line=$(sed -n 2p "$out/score.txt")
set1=$(sed -n 4p "$out/score.txt") set2=$(sed -n 7p "$out/score.txt")
pct() { sed -E 's/.*score ([0-9.]+%).*/\1/' <<<"$1"; }
elo() { sed -E 's/.*(Elo [^;]*\(95%\)|no Elo yet[^;]*).*/\1/' <<<"$1"; }
games=$(sed -E 's/.* over ([0-9]+) games.*/\1/' <<<"$all")
echo
echo "row for docs/engine-log.md (Gate matches):"
[ -n "$nodes" ] && ms_or_nodes="$nodes nodes" || ms_or_nodes="$ms ms"
echo "| $(date +%F) | $commit | ${settings:-default} | $rule, $ms_or_nodes, $(basename "$theirs"), -j $jobs | $games | $(pct "$all") | $(elo "$pairs_line" | sed 's/ (95%)//') | $(pct "$set1") / $(pct "$set2") | $minutes min |"
