#!/usr/bin/env bash
# Installs what the tests need beyond the Rust toolchain: Python 3 and Node.js
# run the example bots of the judge; uidmap (newuidmap, newgidmap) gives each
# bot of an ordinary user's judge a subordinate uid of its own. Does nothing
# when they are already there.
set -euo pipefail
missing=()
command -v python3 >/dev/null 2>&1 || missing+=(python3)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v newuidmap >/dev/null 2>&1 || missing+=(uidmap)
if [ ${#missing[@]} -gt 0 ]; then
    echo "install-deps: installing ${missing[*]}"
    sudo_cmd=""
    [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}"
fi
