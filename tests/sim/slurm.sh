#!/usr/bin/env bash
# A sharded `polemos sim` on a real Slurm cluster: starts a one-node cluster on this machine (munge
# and Slurm from Debian's slurm-wlm and munge packages, every file and port of its own under a
# temporary folder), submits scripts/slurm-sim's array job and its dependent merge job, and checks
# that the merged result equals one `polemos sim` in one process, byte for byte (the tables and
# the JSON). A long test (-DPOLEMOS_LONG_TESTS=ON; `scripts/test --long` installs the packages).
# Usage: slurm.sh POLEMOS ROOT
set -euo pipefail
polemos=$1
root=$2
for tool in munged slurmctld slurmd sbatch squeue sinfo; do
  command -v "$tool" > /dev/null || [ -x "/usr/sbin/$tool" ] || {
    echo "slurm: $tool is missing (scripts/test --long installs slurm-wlm and munge)"
    exit 1
  }
done
export PATH="$PATH:/usr/sbin"
work=$(mktemp -d /tmp/polemos-slurm.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2> /dev/null || true; done
  wait 2> /dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "slurm: $*"
  for f in "$work"/*.log; do [ -f "$f" ] && { echo "--- $f"; tail -20 "$f"; }; done
  exit 1
}

# munge: a key of our own and a socket in the work folder.
dd if=/dev/urandom of="$work/munge.key" bs=1024 count=1 status=none
chmod 0600 "$work/munge.key"
mkdir -p "$work/munge" && chmod 0700 "$work/munge"
munged --force --foreground --key-file="$work/munge.key" --socket="$work/munge/socket" \
  --pid-file="$work/munge/pid" --log-file="$work/munged.log" --seed-file="$work/munge/seed" \
  > "$work/munged.log" 2>&1 &
pids+=($!)

# Slurm: one node, this machine, on ports of its own.
host=$(hostname -s)
port=$((20000 + RANDOM % 20000))
mkdir -p "$work/state" "$work/spool"
cat > "$work/slurm.conf" << CONF
ClusterName=polemos
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$work/munge/socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"
for i in $(seq 1 50); do [ -S "$work/munge/socket" ] && break; sleep 0.1; done
[ -S "$work/munge/socket" ] || fail "munged did not start"
slurmctld -D -f "$SLURM_CONF" > "$work/slurmctld.log" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" > "$work/slurmd.log" 2>&1 &
pids+=($!)
for i in $(seq 1 120); do
  state=$(sinfo -h -o %t 2> /dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.5
done
[ "$state" = idle ] || fail "the node is not idle after 60 s (sinfo: '$state')"

# The run: 3 shards of 6 phalanx games, and the same in one process.
args=(deluxe phalanx --games 6 --seed 3)
POLEMOS="$polemos" "$root/scripts/slurm-sim" "$work/out" 3 "${args[@]}" > "$work/submit.log" ||
  fail "submission refused: $(cat "$work/submit.log")"
for i in $(seq 1 600); do
  [ -z "$(squeue -h 2> /dev/null)" ] && [ -f "$work/out/merged.txt" ] && break
  sleep 0.5
done
[ -f "$work/out/merged.txt" ] || fail "no merged result after 300 s"
"$polemos" sim "${args[@]}" > "$work/one.txt"
"$polemos" sim "${args[@]}" --json > "$work/one.json"
cmp "$work/one.txt" "$work/out/merged.txt" || fail "the merged tables differ from one process's"
cmp "$work/one.json" "$work/out/merged.json" || fail "the merged JSON differs from one process's"
ls "$work/out"/shard-{1,2,3}.json > /dev/null || fail "a shard is missing"
echo "slurm: 3 array tasks and a dependent merge job give the one-process result byte for byte"
