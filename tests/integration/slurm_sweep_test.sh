#!/usr/bin/env bash
# A sweep as a Slurm array job on a real, one-node Slurm (Debian's slurm-wlm), compared with
# the same sweep run locally, byte for byte (docs/sweeps.md "Slurm").
#
#   bash tests/integration/slurm_sweep_test.sh PATH/TO/sharesim
#
# It starts munged, slurmctld and slurmd in the foreground as the current user (root in CI
# containers), with a munge key and a slurm.conf it writes into a temporary folder: no
# systemd, no cgroups (proctrack/linuxproc, task/none), nothing outside that folder. It stops
# the daemons by their pids on exit. Exit 0: passed; 1: failed; 77 (ctest: skipped): the
# daemons are not installed or cannot start here, with the reason printed.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
skip() {
  echo "SKIP - $*"
  exit 77
}
for tool in munged munge slurmctld slurmd sbatch sinfo python3; do
  command -v "$tool" >/dev/null || skip "$tool is not installed (scripts/install-deps.sh installs slurm-wlm and munge)"
done
[[ $(id -u) -eq 0 ]] || skip "slurmd must run as root to start jobs as their user; run as root (CI containers do)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sharesim-slurm.XXXXXX") || exit 2
chmod 755 "$tmp"
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
  rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp" || exit 2
mkdir -p munge state spool log sweep-out
chmod 700 munge

# ---- munge --------------------------------------------------------------------------------
dd if=/dev/urandom of=munge/munge.key bs=1024 count=1 status=none
chmod 400 munge/munge.key
munged --foreground --force --socket="$tmp/munge/munge.socket" --key-file="$tmp/munge/munge.key" \
  --pid-file="$tmp/munge/munged.pid" --seed-file="$tmp/munge/munged.seed" --log-file="$tmp/log/munged.log" \
  >"$tmp/log/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [[ -S $tmp/munge/munge.socket ]] && break; sleep 0.1; done
munge -S "$tmp/munge/munge.socket" -n | unmunge -S "$tmp/munge/munge.socket" >/dev/null 2>&1 ||
  skip "munged does not start here: $(tail -n 3 "$tmp/log/munged.out" | tr '\n' ' ')"

# ---- slurm --------------------------------------------------------------------------------
read -r ctld_port slurmd_port < <(python3 -c '
import socket
ports = []
sockets = []
for _ in range(2):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); ports.append(s.getsockname()[1]); sockets.append(s)
print(*ports)')
host=$(hostname -s)
cpus=2
cat >slurm.conf <<CONF
ClusterName=sharesimtest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
NodeName=sharesimnode NodeAddr=127.0.0.1 NodeHostname=$host CPUs=$cpus RealMemory=1000 State=UNKNOWN
PartitionName=sweep Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -f "$SLURM_CONF" >"$tmp/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N sharesimnode -f "$SLURM_CONF" >"$tmp/log/slurmd.out" 2>&1 &
pids+=($!)
up=""
for _ in $(seq 100); do
  if [[ $(sinfo -h -N -o %t 2>/dev/null) == idle ]]; then up=yes; break; fi
  sleep 0.2
done
[[ -n $up ]] || skip "slurmctld/slurmd did not come up within 20 s: $(tail -n 2 "$tmp/log/slurmctld.out" "$tmp/log/slurmd.out" | tr '\n' ' ')"
echo "# Slurm $(sinfo -V | cut -d' ' -f2) up: $(sinfo -h -o '%P %a %D %t')"

# ---- the sweep ----------------------------------------------------------------------------
cat >s.json <<'JSON'
{"name": "s", "seed": 1,
 "cluster": {"node_pools": [{"name": "p", "nodes": 1, "gpu": "A100-80GB", "gpus_per_node": 2,
   "cpu_milli": 64000, "memory_mib": 262144}]},
 "workload": {"generators": [{"kind": "training", "count": 200,
   "arrival": {"process": "poisson", "rate_per_s": 0.01},
   "duration": {"dist": "exponential", "mean_s": 150}, "request": {"gpus": 1}}]}}
JSON
cat >spec.json <<'JSON'
{"scenario": "s.json", "seeds": "1-5",
 "grid": {"workload.generators.0.arrival.rate_per_s": [0.006, 0.012]},
 "variants": ["exclusive", "mps"],
 "metrics": ["metrics.jobs.wait_s.mean", "metrics.jobs.jct_s.p95", "metrics.gpus.utilization_mean"]}
JSON
failed=0
"$bin" sweep spec.json -j 2 -q -o local || { echo "FAIL - local sweep"; exit 1; }

# Four array tasks, each its shard from SLURM_ARRAY_TASK_ID/COUNT, all into one folder (a
# shared file system), as docs/sweeps.md's sbatch script does.
if ! timeout 240 sbatch --wait --array=0-3 --cpus-per-task=1 -o "$tmp/log/task-%a.out" -D "$tmp" \
  --wrap "\"$bin\" sweep spec.json -j 1 -o sweep-out" >"$tmp/log/sbatch.out" 2>&1; then
  echo "FAIL - sbatch --wait: $(cat "$tmp/log/sbatch.out") $(cat "$tmp"/log/task-*.out 2>/dev/null | head -c 600)"
  exit 1
fi
echo "# $(cat "$tmp/log/sbatch.out" | head -1); task 2 said: $(head -1 "$tmp/log/task-2.out")"
grep -q "(shard 2/4)" "$tmp/log/task-2.out" || { echo "FAIL - task 2 did not run shard 2/4"; failed=1; }
"$bin" sweep merge sweep-out -q || { echo "FAIL - sweep merge"; exit 1; }
for f in runs.csv aggregate.csv aggregate.json; do
  if cmp -s "local/$f" "sweep-out/$f"; then
    echo "ok - Slurm array sweep, merged: $f equals the local sweep's byte for byte"
  else
    echo "FAIL - Slurm array sweep, merged: $f differs from the local sweep's"
    failed=1
  fi
done
echo "# $(($(wc -l <sweep-out/runs.csv) - 1)) runs in 4 array tasks"
exit $failed
