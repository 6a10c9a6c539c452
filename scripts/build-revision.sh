#!/usr/bin/env bash
# Builds revision REV of inarow outside this tree and prints the path of its
# Gomocup brain, for side-by-side matches against today's engine, as chess
# engines test against their master binary:
#
#   b=$(scripts/build-revision.sh classic-search search=classic)
#   cargo run --release -p inarow -- selfplay --b-brain "$b" --nodes 20000 --pairs 100
#
# REV: any revision git names (a tag such as classic-search, the last
# revision with the classic search, commit 7061b3b; a commit; a branch). SETTINGS: the
# brain's --settings (as `inarow selfplay --a` takes them); with them the
# printed path is a small launcher beside the brain that passes them, since
# a brain is started without arguments. The build is kept in
# INAROW_REVISIONS (default ~/.cache/inarow-revisions), one folder a commit,
# so a second call is instant. Progress goes to stderr, the path to stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: scripts/build-revision.sh REV [SETTINGS]" >&2
    exit 2
fi
commit=$(git rev-parse --verify --quiet "$1^{commit}") || {
    echo "build-revision: no revision named $1 in this repository (a clone may lack a tag: name its commit, classic-search is 7061b3b)" >&2
    exit 1
}
settings=${2:-}
case $settings in
*\'*)
    echo "build-revision: SETTINGS may not hold a quote: $settings" >&2
    exit 1
    ;;
esac
root=${INAROW_REVISIONS:-$HOME/.cache/inarow-revisions}
dir=$root/$commit
brain=$dir/brain/pbrain-inarow
if [ ! -x "$brain" ]; then
    mkdir -p "$root"
    if [ ! -d "$dir/src" ]; then
        git worktree add -q --detach "$dir/src" "$commit"
    fi
    echo "building $1 ($commit) in $dir" >&2
    (cd "$dir/src" && CARGO_TARGET_DIR="$dir/target" cargo build -q --release -p inarow >&2)
    mkdir -p "$dir/brain"
    # Only the brain in its installation folder: a contained brain sees
    # that folder, not the build.
    cp "$dir/target/release/pbrain-inarow" "$brain.tmp"
    mv "$brain.tmp" "$brain"
fi
if [ -z "$settings" ]; then
    echo "$brain"
    exit 0
fi
# One launcher per settings text, named by its hash.
name=$(printf '%s' "$settings" | sha256sum | cut -c1-12)
launcher=$dir/brain/pbrain-inarow-$name
if [ ! -x "$launcher" ]; then
    printf '#!/bin/sh\n# pbrain-inarow of %s with --settings %s\nexec "$(dirname "$0")/pbrain-inarow" --settings '"'"'%s'"'"' "$@"\n' \
        "$commit" "$settings" "$settings" >"$launcher.tmp"
    chmod 755 "$launcher.tmp"
    mv "$launcher.tmp" "$launcher"
fi
echo "$launcher"
