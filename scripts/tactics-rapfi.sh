#!/usr/bin/env bash
# Builds the tactical suite judged by Rapfi (issue 26, "How it is verified",
# item 2): positions where Rapfi announces a forced win for the side to move
# in every one of RUNS runs (default 3; one run is not enough, a single run
# can announce a win that other runs deny), with Rapfi's winning first move
# and the nodes it needed before it first announced the win.
#
# Candidates come from the engine (`cargo run --release -p inarow-engine
# --example tactics -- --candidates SEED PER_SIZE`: seeded middlegames of 15
# to 30 stones played by node-limited searches, reproducible from the seed;
# positions with a five or an open four on the spot for the side to move, or
# a five point for the other side, are left out as trivial). Each is given
# to the brain RUNS times, each time a fresh process (an empty table), one
# thread, TIME_MS per move (default 400), with `INFO show_detail 2`, so that
# Rapfi prints, at each completed depth, its total nodes and its eval (a
# forced win reads `+M<plies>`). A position is kept when every run's last
# eval is a win for the side to move; its nodes are the median over the
# runs of the total nodes at the first depth whose eval was a win, and its
# move is the move the first run played. Runs in parallel on JOBS processes
# (default 1; `nice` it on a shared machine). TACTICS: a `tactics` example
# binary already built (default: build it here). CANDIDATES: a file of
# BOARD lines to judge instead (e.g. `cut -d'|' -f1` of a data file, to
# judge the same positions again). The candidates follow the engine's
# search and move generator: another build gives other positions (the
# data files of tests/data were made by the classic search, tag
# classic-search).
#
#   [RUNS=3] [TIME_MS=400] [JOBS=1] [TACTICS=BIN | CANDIDATES=FILE] scripts/tactics-rapfi.sh BRAIN OUT [RULE] [SEED] [PER_SIZE]
#
# BRAIN: pbrain-rapfi (built outside the repository); OUT: the data file to
# write (e.g. crates/engine/tests/data/tactics.txt); RULE: 0 freestyle
# (default), 1 exact five; SEED: the candidates' seed (default 26);
# PER_SIZE: candidates for each stone count from 15 to 30 (default 24).
set -euo pipefail
[ $# -ge 2 ] && [ $# -le 5 ] || { sed -n '2,31p' "$0" >&2; exit 2; }
brain=$(realpath "$1") out=$2 rule=${3:-0} seed=${4:-26} per=${5:-24}
runs=${RUNS:-3} time_ms=${TIME_MS:-400} jobs=${JOBS:-1}
[ -x "$brain" ] || { echo "tactics-rapfi: $brain is not an executable" >&2; exit 2; }
case $rule in 0) rule_name=freestyle ;; 1) rule_name=exact ;; *) echo "tactics-rapfi: RULE is 0 or 1" >&2; exit 2 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
started=$(date +%s)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tactics=${TACTICS:-}
if [ -n "${CANDIDATES:-}" ]; then
    cp "$CANDIDATES" "$work/candidates.txt"
    source_note="the positions of $CANDIDATES"
else
    if [ -z "$tactics" ]; then
        (cd "$here/.." && cargo build --release -q -p inarow-engine --example tactics)
        tactics=$here/../target/release/examples/tactics
        commit=$(git -C "$here/.." rev-parse --short HEAD)
        git -C "$here/.." diff --quiet HEAD -- crates/engine crates/core || commit="$commit with changes"
        source_note="\`tactics -- --candidates $seed $per\` built at $commit"
    else
        source_note="\`tactics -- --candidates $seed $per\` ($tactics)"
    fi
    "$tactics" --candidates "$seed" "$per" >"$work/candidates.txt"
fi
total=$(wc -l <"$work/candidates.txt")
echo "tactics-rapfi: $total candidates (seed $seed, $per per stone count), $runs runs of $time_ms ms each, rule $rule" >&2

# One run on one position (a BOARD line): prints "WIN NODES MOVE MATE" when
# the last eval is a win for the side to move, else "NO LAST_EVAL".
ask() {
    local line=$1 reply lines="" wait_s=$(((time_ms + 2999) / 1000 + 5))
    coproc BRAIN { exec "$brain" 2>/dev/null; }
    local pid=$BRAIN_PID out_fd=${BRAIN[0]} in_fd=${BRAIN[1]}
    printf 'START 15\nINFO thread_num 1\nINFO rule %s\nINFO timeout_match 0\nINFO time_left 2147483647\nINFO timeout_turn %s\nINFO max_memory 350000000\nINFO show_detail 2\nBOARD\n%s\nDONE\n' \
        "$rule" "$time_ms" "$(tr ' ' '\n' <<<"$line")" >&"$in_fd"
    while IFS= read -r -t "$wait_s" reply <&"$out_fd"; do
        reply=${reply%$'\r'}
        lines+=$reply$'\n'
        [[ $reply =~ ^[0-9]+,[0-9]+$ ]] && break
    done
    { echo END >&"$in_fd"; } 2>/dev/null || true
    exec {in_fd}>&-
    # A brain that did not answer in time is ended here (it is ours).
    sleep 0.05
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    printf '%s' "$lines" | awk '
        /^INFO TOTALNODES / { n = $3 }
        /^INFO EVAL / { last = $3; if (last ~ /^\+M/ && first == "") { first = n; mate = substr(last, 2) } }
        /^[0-9]+,[0-9]+$/ { move = $0 }
        END {
            if (last ~ /^\+M/ && move != "") print "WIN", first, move, mate
            else print "NO", (last == "" ? "-" : last)
        }'
}

# One candidate: all runs, stopping at the first that does not announce a
# win; prints the data line when every run did.
judge() {
    local line=$1 k r answer nodes=() move="" mate=""
    for ((r = 0; r < runs; r++)); do
        answer=$(ask "$line")
        read -r k n m mt <<<"$answer"
        [ "$k" = WIN ] || return 0
        nodes+=("$n")
        [ -n "$move" ] || { move=$m; mate=$mt; }
    done
    local median
    median=$(printf '%s\n' "${nodes[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
    printf '%s | %s | %s | %s | %s\n' "$line" "$move" "$median" "${nodes[*]}" "$mate"
}
export -f ask judge
export brain rule time_ms runs

# shellcheck disable=SC2016 # $1 is the inner shell's
xargs -d '\n' -P "$jobs" -I{} bash -c 'judge "$1"' _ {} <"$work/candidates.txt" >"$work/kept.txt"

mkdir -p "$(dirname "$out")"
{
    cat <<EOF
# The tactical suite judged by Rapfi (issue 26, "How it is verified", item 2).
# rule: $rule_name
# Written by scripts/tactics-rapfi.sh; candidates: $source_note
# (seeded middlegames of 15 to 30 stones played by the engine's search,
# so another build of the engine gives other positions); Rapfi's classical configuration,
# one thread, $time_ms ms a run, a fresh process for each of $runs runs; kept when
# every run announced a forced win for the side to move ($(wc -l <"$work/kept.txt") of $total candidates).
# One position a line, fields separated by " | ":
#   board: the stones as Gomocup BOARD fields, x,y,1 the side to move's, x,y,2 the other's
#   move: the move Rapfi played (first run), x,y
#   nodes: the median over the runs of Rapfi's total nodes at the first depth whose eval was a win
#   runs: those nodes for each run
#   mate: the first run's first announced win, as Rapfi prints it (M<plies>)
EOF
    # In the candidates' order, so the file is the same for the same answers.
    awk -F' [|] ' 'NR == FNR { kept[$1] = $0; next } ($0 in kept) { print kept[$0] }' "$work/kept.txt" "$work/candidates.txt"
} >"$out"
echo "tactics-rapfi: kept $(wc -l <"$work/kept.txt") of $total in $(($(date +%s) - started)) s; wrote $out" >&2
