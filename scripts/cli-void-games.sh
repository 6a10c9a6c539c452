#!/usr/bin/env bash
# Why every "time loss" of inarow in c-gomoku-cli matches against Rapfi came
# on the first move after the opening (issue 26): they are not inarow's.
# Three measurements:
#
# 1. inarow's answers, timed as c-gomoku-cli sees them: one brain process,
#    GAMES games, each START 15, INFO rule 0, INFO timeout_turn MS, INFO
#    timeout_match 0, INFO max_memory 350000000 (what c-gomoku-cli sends
#    with `tc=0/0.2 maxmemory=350000000`), then INFO time_left 2147483647
#    and BOARD with a three-stone opening, then six TURNs; the time from the
#    BOARD (or TURN) to the move, for the first move after the opening and
#    for the later ones. c-gomoku-cli forfeits a move only past MS plus its
#    tolerance (3 s in scripts/match-cli.sh; 1 s when a MESSAGE line comes
#    late).
# 2. Rapfi given START 15 the moment its move is read (as when inarow's
#    answer ends the game at once): it answers "ERROR Unknown command: 15"
#    on many positions, as it is still finishing its search.
# 3. c-gomoku-cli with inarow and a Rapfi that drops every START after the
#    first (a proxy that answers ERROR, as Rapfi does above): each game
#    after the first ends before any move, and the SGF records it as a time
#    forfeit of the side to move (white after a three-stone opening),
#    whoever failed: inarow when it has white. Its score line counts the
#    same games by another wrong rule (for or against inarow by colour).
#
#   scripts/cli-void-games.sh CLI PBRAIN-INAROW RAPFI [GAMES] [MS]
set -euo pipefail
[ $# -ge 3 ] && [ $# -le 5 ] || { sed -n '2,25p' "$0" >&2; exit 2; }
cli=$(realpath "$1") ours=$(realpath "$2") rapfi=$(realpath "$3") games=${4:-10} ms=${5:-200}
for f in "$cli" "$ours" "$rapfi"; do
    [ -x "$f" ] || { echo "cli-void-games: $f is not an executable" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
now() { local t=${EPOCHREALTIME/./}; echo "${t#0}"; }
info="INFO rule 0
INFO timeout_turn $ms
INFO timeout_match 0
INFO max_memory 350000000"

# Reads the brain's lines until a move or an ERROR; sets $answer.
answer=""
read_move() {
    local fd=$1 line
    answer=""
    while IFS= read -r -t 10 line <&"$fd"; do
        line=${line%$'\r'}
        if [[ $line =~ ^[0-9]+,[0-9]+$ || $line == ERROR* ]]; then
            answer=$line
            return 0
        fi
    done
    return 0
}

echo "== 1. inarow's answers, timed as c-gomoku-cli sees them ($games games, INFO timeout_turn $ms)"
coproc INAROW { exec "$ours" 2>/dev/null; }
in_fd=${INAROW[1]} out_fd=${INAROW[0]}
RANDOM=26
first=() later=() starts=()
for ((g = 0; g < games; g++)); do
    t0=$(now)
    echo "START 15" >&"$in_fd"
    IFS= read -r -t 10 line <&"$out_fd"
    starts+=($((($(now) - t0) / 1000)))
    echo "$info" >&"$in_fd"
    taken=" 7,7 "
    stones="7,7,2"
    for colour in 1 2; do
        while :; do
            p="$((7 + RANDOM % 7 - 3)),$((7 + RANDOM % 7 - 3))"
            [[ $taken == *" $p "* ]] || break
        done
        taken+="$p "
        stones+=$'\n'"$p,$colour"
    done
    t0=$(now)
    printf 'INFO time_left 2147483647\nBOARD\n%s\nDONE\n' "$stones" >&"$in_fd"
    read_move "$out_fd"
    first+=($((($(now) - t0) / 1000)))
    taken+="$answer "
    for ((k = 0; k < 6; k++)); do
        while :; do
            p="$((7 + RANDOM % 11 - 5)),$((7 + RANDOM % 11 - 5))"
            [[ $taken == *" $p "* ]] || break
        done
        taken+="$p "
        t0=$(now)
        printf 'INFO time_left 2147483647\nTURN %s\n' "$p" >&"$in_fd"
        read_move "$out_fd"
        [[ $answer == ERROR* ]] && break # a random move made a five
        later+=($((($(now) - t0) / 1000)))
        taken+="$answer "
    done
done
echo END >&"$in_fd"
wait "$INAROW_PID" 2>/dev/null || true
summary() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { printf "median %d ms, max %d ms over %d\n", a[int((NR + 1) / 2)], a[NR], NR }'; }
echo "START answered OK in: $(summary "${starts[@]}")"
echo "first move after the opening: $(summary "${first[@]}")"
echo "later moves: $(summary "${later[@]}")"

echo "== 2. Rapfi given START the moment its move is read"
positions=(
    "5,4,1 6,5,1 5,6,1 4,7,1 7,7,1 5,8,1 6,8,1 7,4,2 5,5,2 6,6,2 7,6,2 6,7,2 4,8,2 5,9,2"
    "6,4,1 5,5,1 7,5,1 3,6,1 4,7,1 7,7,1 7,9,1 5,4,2 4,5,2 4,6,2 6,6,2 5,7,2 5,8,2 6,8,2"
    "7,7,1 8,6,1 7,8,1 9,7,1 8,8,2 6,8,2 7,9,2 6,6,2"
    "7,7,1 8,8,2 6,9,1"
)
coproc RAPFI { exec "$rapfi" 2>/dev/null; }
in_fd=${RAPFI[1]} out_fd=${RAPFI[0]}
dropped=0 asked=0
for _ in 1 2 3; do
    for pos in "${positions[@]}"; do
        echo "START 15" >&"$in_fd"
        IFS= read -r -t 10 line <&"$out_fd"
        echo "$info" >&"$in_fd"
        printf 'INFO time_left 2147483647\nBOARD\n%s\nDONE\n' "$(tr ' ' '\n' <<<"$pos")" >&"$in_fd"
        read_move "$out_fd"
        echo "START 15" >&"$in_fd"
        IFS= read -r -t 10 line <&"$out_fd"
        line=${line%$'\r'}
        asked=$((asked + 1))
        if [ "$line" != OK ]; then
            dropped=$((dropped + 1))
            echo "after its move $answer, START 15 -> $line"
        fi
        # Let it finish before the next position (its START answered or not).
        sleep 0.3
    done
done
echo END >&"$in_fd"
wait "$RAPFI_PID" 2>/dev/null || true
echo "Rapfi dropped $dropped of $asked STARTs sent right after its move"

echo "== 3. c-gomoku-cli with a Rapfi that drops every START after the first"
mkfifo "$work/to-rapfi"
cat >"$work/rapfi-drops-start" <<EOF
#!/usr/bin/env bash
# Rapfi, except that every START after the first is answered as Rapfi
# answers a START that comes while it is busy.
"$rapfi" <"$work/to-rapfi" 2>/dev/null &
exec 3>"$work/to-rapfi"
starts=0
while IFS= read -r line; do
    case \${line^^} in
        START*) starts=\$((starts + 1))
            if [ \$starts -gt 1 ]; then echo "ERROR Unknown command: 15"; continue; fi ;;
    esac
    printf '%s\n' "\$line" >&3
    [ "\${line^^}" = END ] && break
done
exec 3>&-
wait
EOF
chmod +x "$work/rapfi-drops-start"
printf '0,0, 1,1, -1,2\n0,0, 2,-1, 1,1\n' >"$work/openings.txt"
(
    cd "$work"
    "$cli" -each tc=0/"$(awk -v ms="$ms" 'BEGIN { print ms / 1000 }')" maxmemory=350000000 tolerance=3 \
        -engine name=inarow cmd="$ours" -engine name=rapfi cmd="$work/rapfi-drops-start" \
        -rule 0 -boardsize 15 -games 6 -repeat -concurrency 1 -drawafter 225 \
        -openings file="$work/openings.txt" type=offset order=sequential -sgf games.sgf >match.log 2>&1 || true
)
grep -E 'output error|Finished game|^Score' "$work/match.log" || true
echo "the SGF's games (PB black, PW white, RE, TE):"
grep -o 'PB\[[^]]*\]PW\[[^]]*\]RE\[[^]]*\]TE\[[^]]*\]' "$work/games.sgf" || true
