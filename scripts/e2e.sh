#!/usr/bin/env bash
# Browser end-to-end tests of `inarow serve`: builds inarow, serves on a
# free loopback port with a temporary state file, drives Debian's chromium
# with playwright-core (scripts/install-browser.sh installs both), and
# always stops the server. Prints `N passed, N failed`; non-zero on failure.
# INAROW_E2E_ONLY=REGEX runs only the tests whose names match;
# INAROW_E2E_PATIENCE=N lets every wait take N times its written limit
# (default 4: the limits only guard against a hang); INAROW_E2E_STACK=1
# prints where in its test a failure happened.
set -euo pipefail
cd "$(dirname "$0")/.."

[ -n "${INAROW_BIN:-}" ] || cargo build -q -p inarow
# INAROW_BIN runs another build of inarow (e.g. a copy, when the target
# folder is shared with other checkouts).
bin=${INAROW_BIN:-${CARGO_TARGET_DIR:-target}/debug/inarow}
work=$(mktemp -d)
server=""
cleanup() {
    if [ -n "$server" ]; then
        kill "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

state="$work/menace.json"
# Two copies of the random Python example bot for the tournament test. The
# judge contains each bot in a view of its own holding its folder, so the
# program lives there; each runs as a uid of its own with its folder mapped
# to it, so the folders stay as they are made.
for name in alice bob; do
    mkdir -p "$work/bots/$name"
    cp bots/random-python/bot.py "$work/bots/$name/bot.py"
    printf '%s\npython3\nbot.py\n0\n' "$name" >"$work/bots/$name/meta"
done
# Port 0: the server picks a free port and prints it.
"$bin" serve --port 0 --preset michie --seed 3 --state "$state" \
    --bots "$work/bots" --results "$work/results.json" --sgf "$work/sgf" \
    >"$work/server.log" 2>&1 &
server=$!
url=""
for _ in $(seq 1 100); do
    url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$work/server.log" || true)
    [ -n "$url" ] && break
    kill -0 "$server" 2>/dev/null || { cat "$work/server.log"; echo "0 passed, 1 failed"; exit 1; }
    sleep 0.1
done
[ -n "$url" ] || { cat "$work/server.log"; echo "0 passed, 1 failed"; exit 1; }

status=0
INAROW_URL="$url" INAROW_STATE="$state" INAROW_RESULTS="$work/results.json" \
    node e2e/test.mjs || status=$?
# A failure may come from the server's side (a panic is written there).
if [ "$status" -ne 0 ]; then
    echo "--- the server's output, last 40 lines:"
    tail -n 40 "$work/server.log"
fi
# The screenshots of every look (1400 and 400 px, light and dark): CI keeps
# this folder as an artifact.
shots=${INAROW_SHOTS:-target/e2e-screenshots}
echo "screenshots: $(find "$shots" -name '*.png' 2>/dev/null | wc -l) in $shots/"

# A clean stop saves the state file: check it survived as valid JSON.
kill -INT "$server"
wait "$server" || { echo "server exited with status $?"; status=1; }
server=""
if ! grep -q '"format": *"inarow-menace"' "$state"; then
    echo "state file not saved on shutdown"
    status=1
fi
exit $status
