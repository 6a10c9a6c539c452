#!/usr/bin/env bash
# Installs what the browser end-to-end tests need: Debian's chromium (the
# machine cannot download Playwright's own browser builds) and the pinned
# playwright-core in e2e/.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1; then
    echo "installing chromium with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi
chromium --version

cd e2e
if [ -f package-lock.json ]; then
    npm ci --no-audit --no-fund --loglevel=error
else
    npm install --no-audit --no-fund --loglevel=error
fi
