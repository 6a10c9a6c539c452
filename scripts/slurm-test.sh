#!/usr/bin/env bash
# A real Slurm cluster of one node on this machine runs deploy/slurm/: a
# tournament of four instant bots (this build's house bot) cut into 4
# shares as a job array, and the merge job after it. The merged results and
# SGF records must be byte for byte those of a one-machine run with the
# same seed. Installs Slurm and MUNGE (Debian's slurm-wlm and munge) when
# missing, keeps everything in a scratch folder, bounds every wait, and
# stops the daemons it started even when a step fails.
#
#   scripts/slurm-test.sh            (builds inarow in release mode)
#   INAROW=/path/to/inarow scripts/slurm-test.sh
#
# Needs root (the daemons run as root here, as in a container without
# systemd); slurmd tracks jobs by process (proctrack/linuxproc) and needs no
# cgroup plugin, so the judge's own cgroups are the only ones in play.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

say() { printf 'slurm-test: %s\n' "$*"; }
fail() { say "FAILED: $*"; exit 1; }

[ "$(id -u)" -eq 0 ] || fail "run as root: the test starts slurmctld, slurmd and munged"

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
    say "installing slurm-wlm and munge"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi

if [ -z "${INAROW:-}" ]; then
    say "building inarow (release)"
    cargo build --release -q -p inarow
    INAROW="${CARGO_TARGET_DIR:-$repo/target}/release/inarow"
fi
INAROW=$(realpath "$INAROW")
[ -x "$INAROW" ] || fail "no inarow program at $INAROW"

work=$(mktemp -d /tmp/inarow-slurm.XXXXXX)
# The bots run as nobody, who must reach their folders.
chmod 755 "$work"
pids=()
cleanup() {
    status=$?
    # Only the daemons this script started, by their process ids.
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        for _ in $(seq 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -9 "$pid" 2>/dev/null || true
    done
    if [ "$status" -ne 0 ]; then
        for log in "$work"/log/*.log "$work"/out/*.log; do
            [ -f "$log" ] || continue
            say "---- $log (last lines)"
            tail -n 20 "$log" >&2
        done
    fi
    [ -n "${KEEP:-}" ] || rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

host=$(hostname -s)
mkdir -p "$work"/{munge,etc,state,spool,log,out}
chmod 711 "$work/munge"

say "starting munged"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
socket="$work/munge/munge.socket"
munged --foreground --force --key-file="$work/munge/munge.key" --socket="$socket" \
    --pid-file="$work/munge/munged.pid" --seed-file="$work/munge/munged.seed" \
    --log-file="$work/log/munged.log" 2>>"$work/log/munged.log" &
pids+=($!)

# Ports of their own, away from a cluster this machine may already have.
export SLURM_CONF="$work/etc/slurm.conf"
cat >"$SLURM_CONF" <<CONF
ClusterName=inarow-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=30 State=UP
CONF

say "starting slurmctld and slurmd"
slurmctld -D -i -f "$SLURM_CONF" 2>>"$work/log/slurmctld.log" &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$host" 2>>"$work/log/slurmd.log" &
pids+=($!)

# Waits up to $1 seconds for the command after it to succeed.
wait_for() {
    local seconds=$1
    shift
    local deadline=$((SECONDS + seconds))
    until "$@" >/dev/null 2>&1; do
        [ "$SECONDS" -lt "$deadline" ] || return 1
        sleep 1
    done
}
node_idle() { sinfo -h -n "$host" -o '%t' | grep -qx idle; }
wait_for 60 node_idle || fail "the node did not come up within 60 s: $(sinfo -h -N 2>&1)"
say "node $host is idle"

bots="$work/bots"
for name in amy bob cal dan; do
    mkdir -p "$bots/$name"
    # `inarow` by name: the judge's own program (its folder is searched first).
    printf '%s\ninarow\nbot --house\n0\n' "$name" >"$bots/$name/meta"
done
seed=20261123
out="$work/out"

say "submitting 4 shares and the merge (seed $seed)"
submitted=$(INAROW="$INAROW" INAROW_JUDGE_ARGS="--timeout 30" SBATCH_ARGS="--cpus-per-task=1 --time=10" \
    deploy/slurm/submit.sh "$bots" "$out" 4 "$seed")
say "$submitted"
merge_job=${submitted##* in job }
merge_job=${merge_job%%;*}
array_job=${submitted##*job array }
array_job=${array_job%%,*}

job_gone() { [ -z "$(squeue -h -j "$1" 2>/dev/null)" ]; }
wait_for "${WAIT:-180}" job_gone "$merge_job" || fail "the merge job $merge_job did not end within 180 s: $(squeue 2>&1)"
job_state() { scontrol show job "$1" | grep -o 'JobState=[A-Z_]*' | sort | uniq -c | tr -s ' '; }
say "array job: $(job_state "$array_job"); merge job: $(job_state "$merge_job")"
for task in 0 1 2 3; do
    scontrol show job "${array_job}_$task" | grep -q 'JobState=COMPLETED' ||
        fail "share $task did not complete: $(job_state "${array_job}_$task")"
done
scontrol show job "$merge_job" | grep -q 'JobState=COMPLETED' || fail "the merge job did not complete"
grep -q "playing shard" "$out/shard-0.log" || fail "share 0 did not take its share from the job array"

say "the same tournament on one machine"
"$INAROW" judge --seed "$seed" --bots "$bots" --timeout 30 \
    --results "$work/local.json" --sgf "$work/local-sgf" >"$work/local.txt"
cmp "$work/local.json" "$out/results.json" || fail "the merged results differ from the one-machine run's"
diff -r "$work/local-sgf" "$out/sgf" >/dev/null || fail "the merged SGF records differ from the one-machine run's"
games=$(grep -c '"index"' "$out/results.json")
say "OK: 4 shares on Slurm, merged: results and $games SGF records byte for byte the one-machine run's"
