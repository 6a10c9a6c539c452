#!/usr/bin/env bash
# Submits a king-of-the-hill tournament to Slurm cut into SHARDS shares: a
# job array (one task per share, deploy/slurm/tournament.sbatch) and a merge
# job that waits for all of them (deploy/slurm/merge.sbatch).
#
#   deploy/slurm/submit.sh BOTS OUT SHARDS [SEED]
#
# BOTS and OUT must be the same paths on every node (a shared file system).
# Without SEED, one is drawn here, once, for every share. Set INAROW to the
# inarow program on the nodes (default: inarow in PATH), INAROW_JUDGE_ARGS
# for more judge options, and SBATCH_ARGS for more sbatch options (such as
# `--partition=long` or `--cpus-per-task=8`). Prints the seed and both job
# ids, the merge's last.
set -euo pipefail
if [ $# -lt 3 ] || [ $# -gt 4 ]; then
    echo "usage: $0 BOTS OUT SHARDS [SEED]" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
bots=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
shards=$3
case "$shards" in
    '' | *[!0-9]* | 0) echo "$0: SHARDS must be a number of shares, 1 or more, not '$shards'" >&2; exit 2 ;;
esac
# Seeds stay below 2^53, like the judge's own.
seed=${4:-$(( $(od -An -N6 -tu8 /dev/urandom | tr -d ' ') % (1 << 53) ))}
export INAROW_SEED=$seed INAROW_BOTS=$bots INAROW_OUT=$out
# shellcheck disable=SC2086 # SBATCH_ARGS is a list of options
array=$(sbatch --parsable ${SBATCH_ARGS:-} --array="0-$((shards - 1))" \
    --output="$out/shard-%a.log" --export=ALL "$here/tournament.sbatch")
array=${array%%;*}
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_ARGS:-} --dependency="afterok:$array" --kill-on-invalid-dep=yes \
    --output="$out/merge.log" --export=ALL "$here/merge.sbatch")
merge=${merge%%;*}
echo "tournament seed $seed: $shards shares in job array $array, merge in job $merge; results in $out/results.json"
