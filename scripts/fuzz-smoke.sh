#!/usr/bin/env bash
# Fuzzes the judge's answer parser (inarow_protocol::koth) for a short while (default 60 s).
#
# cargo-fuzz needs nightly compiler flags (-Zsanitizer); on a stable toolchain
# RUSTC_BOOTSTRAP=1 unlocks them. Installs cargo-fuzz when it is missing.
# Usage: scripts/fuzz-smoke.sh [SECONDS]
set -euo pipefail
seconds="${1:-60}"
cd "$(dirname "$0")/.."
export RUSTC_BOOTSTRAP=1
if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi
mkdir -p fuzz/corpus/answer_parser
# A few real answers to start from.
printf '(7,7) (8,8) (7,8)' > fuzz/corpus/answer_parser/opening
printf 'W (3, 4)' > fuzz/corpus/answer_parser/white
printf '(0,0)(0,12)' > fuzz/corpus/answer_parser/choose
printf '[((0,0),"B"),((14,14),"W")]' > fuzz/corpus/answer_parser/board
cargo fuzz run answer_parser fuzz/corpus/answer_parser -- \
    -max_total_time="$seconds" -max_len=256
echo "fuzz-smoke: answer_parser ran ${seconds}s without a crash"
