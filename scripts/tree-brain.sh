#!/usr/bin/env bash
# The tree-shape measure of `cargo run --release -p inarow-engine --example
# tree` for another Gomocup brain: on the same positions (one a line, as
# `tree -- --boards` prints them: x,y,1 for the side to move, x,y,2 for the
# other), the nodes the brain's iterative deepening has searched when each
# depth completes (a fresh process, so an empty table, one thread, 15x15,
# freestyle), the growth per ply (the geometric mean of nodes(d)/nodes(d-1)
# over the steps whose previous count is at least 1,000) and the deepest
# depth completed within BUDGET nodes; then the medians over the positions.
#
# The brain is asked for its per-depth figures with the Yixin-board
# extension `INFO show_detail 2` (Rapfi then prints `INFO DEPTH`, `INFO
# TOTALNODES` and `INFO EVAL` at each completed depth, exact counts); a
# brain that does not print those is read from its MESSAGE lines instead,
# `... depth D[-SEL] ... n|nodes N[K|M] ...` (Rapfi's `message_mode =
# "ucilike"`; K and M counts are rounded). It is stopped by `INFO max_node`
# at NODES (default ten times BUDGET, so the first depth past BUDGET is
# seen) or after WAIT_S seconds (default 120) a position. A depth whose eval is a
# mate (`+M..`/`-M..`) ends the list, as a threat win ends the example's; a
# position with fewer than two ordinary depths is counted as decided, and so
# is one where the brain gives its move short of BUDGET nodes with no mate
# (a forced reply: Rapfi stops four depths after it sees a single move that
# does not lose). Rapfi's counts are its total nodes for the search so far
# (cumulative over its iterations, like the example's), and its first
# depth is 2. A last line gives the same medians over the positions whose
# tree grew past BUDGET, as a mate found after a few depths caps the depth.
#
#   [NODES=N] [WAIT_S=S] scripts/tree-brain.sh POSITIONS BUDGET BRAIN
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: [NODES=N] [WAIT_S=S] $0 POSITIONS BUDGET BRAIN" >&2; exit 2; }
positions=$1 budget=$2 brain=$3
[ -r "$positions" ] || { echo "tree-brain: cannot read $positions" >&2; exit 2; }
[ -x "$brain" ] || { echo "tree-brain: $brain is not an executable" >&2; exit 2; }
[[ $budget =~ ^[0-9]+$ ]] || { echo "tree-brain: BUDGET must be a node count" >&2; exit 2; }
nodes=${NODES:-$((budget * 10))} wait_s=${WAIT_S:-120}

# One position: the brain's lines, up to its move.
think() {
    local line=$1 reply
    coproc BRAIN { exec "$brain" 2>/dev/null; }
    local pid=$BRAIN_PID out_fd=${BRAIN[0]} in_fd=${BRAIN[1]}
    printf 'START 15\nINFO thread_num 1\nINFO rule 0\nINFO timeout_match 0\nINFO time_left 2147483647\nINFO timeout_turn %s\nINFO max_node %s\nINFO show_detail 2\nBOARD\n%s\nDONE\n' \
        "$((wait_s * 1000))" "$nodes" "$(tr ' ' '\n' <<<"$line")" >&"$in_fd"
    while IFS= read -r -t "$wait_s" reply <&"$out_fd"; do
        reply=${reply%$'\r'}
        printf '%s\n' "$reply"
        [[ $reply =~ ^[0-9]+,[0-9]+$ ]] && break
    done
    { echo END >&"$in_fd"; } 2>/dev/null || true
    exec {in_fd}>&-
    # A brain that did not answer in time is ended here (it is ours).
    sleep 0.2
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

# The brain's lines -> "depth nodes mate" records, in the order printed.
records() {
    awk '
    function count(s,  m) {
        m = 1
        if (s ~ /[Kk]$/) m = 1e3; else if (s ~ /M$/) m = 1e6; else if (s ~ /G$/) m = 1e9
        sub(/[KkMG]$/, "", s)
        return s * m
    }
    /^INFO DEPTH / { info = 1; d = $3 }
    /^INFO TOTALNODES / { n = $3 }
    /^INFO EVAL / { print d, n, ($3 ~ /M/) ? 1 : 0 }
    /^MESSAGE / && !info {
        line = tolower($0); gsub(/[|,]/, " ", line)
        k = split(line, w, " "); md = ""; mn = ""; mate = 0
        for (i = 2; i < k; i++) {
            if (w[i] == "depth" && w[i + 1] ~ /^[0-9]+/) { md = w[i + 1]; sub(/-.*/, "", md) }
            if ((w[i] == "n" || w[i] == "nodes" || w[i] == "node") && w[i + 1] ~ /^[0-9]+[kmg]?$/)
                mn = count(toupper(w[i + 1]))
            if ((w[i] == "ev" || w[i] == "eval") && w[i + 1] ~ /m/) mate = 1
        }
        if (md != "" && mn != "") msg[++nm] = md " " mn " " mate
    }
    END { if (!info) for (i = 1; i <= nm; i++) print msg[i] }'
}

printf 'position: nodes when each depth completes, depth:nodes (growth per ply; depth within %s nodes)\n' "$budget"
i=0
while read -r line; do
    think "$line" | records | awk -v i="$i" -v budget="$budget" '
    seen[$1]++ { next }
    done_ { next }
    $3 == 1 { done_ = 1; mate = $1; next }
    { c++; dep[c] = $1; nod[c] = $2; if ($2 > budget) done_ = 1 }
    END {
        if (c < 2) { printf "%3d: decided by threats or a forced reply\n", i; print "R decided"; exit }
        # Stopped short of the node limit with no mate: the brain saw one
        # reply only (Rapfi: a "singular root"), a forced reply.
        if (!mate && nod[c] <= budget) {
            printf "%3d: decided: a forced reply (stopped after depth %d, %d nodes, no mate)\n", i, dep[c], nod[c]
            print "R decided"; exit
        }
        within = 0; s = ""; lg = 0; plies = 0
        for (j = 1; j <= c; j++) {
            s = s (j > 1 ? " " : "") dep[j] ":" nod[j]
            if (nod[j] <= budget) within = dep[j]
            if (j > 1 && nod[j - 1] >= 1000) { lg += log(nod[j] / nod[j - 1]); plies += dep[j] - dep[j - 1] }
        }
        g = plies > 0 ? sprintf("%.2fx", exp(lg / plies)) : "-"
        end = mate ? sprintf("; a mate at depth %d", mate) : ""
        printf "%3d: %s (%s; depth %d%s)\n", i, s, g, within, end
        print "R", (plies > 0 ? exp(lg / plies) : "-"), within, (nod[c] > budget)
    }'
    i=$((i + 1))
done <"$positions" | awk -v budget="$budget" '
    function median(a, n,  i, j, t) {
        for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
        if (n == 0) return "nan"
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    $1 != "R" { print; fflush(); next }
    { total++ }
    $2 == "decided" { decided++; next }
    $2 != "-" { gs[++ng] = $2 }
    { ds[++nd] = $3 }
    $4 == 1 && $2 != "-" { pg[++npg] = $2 }
    $4 == 1 { pd[++npd] = $3 }
    END {
        printf "%d positions, %d decided before the tree has a shape\n", total, decided
        printf "median growth per ply: %.2fx; median depth within %s nodes: %s\n", median(gs, ng), budget, median(ds, nd)
        printf "on the %d whose tree grew past %s nodes (no mate before): median growth per ply: %.2fx; median depth within %s nodes: %s\n", npd, budget, median(pg, npg), budget, median(pd, npd)
    }'
