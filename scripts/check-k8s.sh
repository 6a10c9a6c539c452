#!/usr/bin/env bash
# Checks the Kubernetes manifests of deploy/k8s/ offline: each object
# against the Kubernetes API schemas (npm's kubernetes-models), then the
# fields inarow reads (scripts/k8s-check/check.js). Installs the two npm
# packages into a scratch folder; needs Node.js (scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
work=$(mktemp -d /tmp/inarow-k8s-check.XXXXXX)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm install --silent --no-audit --no-fund kubernetes-models@5.1.0 js-yaml@4 >/dev/null)
# An ES module finds its packages beside it: run a copy in the scratch folder.
cp "$repo/scripts/k8s-check/check.mjs" "$work/"
node "$work/check.mjs" "$repo/deploy/k8s"
