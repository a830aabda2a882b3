#!/usr/bin/env bash
# The speed targets of issue 16, measured side by side in one session (docs/ci.md, README
# "Performance"): whole `sharesim run` processes, output files included, timed with
# /usr/bin/time, and the same M/M/8 model in SimPy 3 (Debian python3-simpy3,
# tests/bench/simpy_mm8.py). Each is run SPEED_REPEAT times (default 5; the 10M-job run 1 time
# unless SPEED_REPEAT_BIG says more), alternating sharesim and SimPy, and the medians are
# printed with every sample, since the development machine is shared and noisy.
#
#   tests/bench/speed_targets.sh [SHARESIM_BINARY] [--big]     (also: make speed-targets)
#
# --big adds 10,000,000 jobs on 100,000 GPUs (about a minute and a few GiB here). The
# event-queue hold figure and inference events/s come from `make bench`
# (results/bench/latest.json), printed at the end when that file exists.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-$src/build/release/apps/sharesim}
big=${2:-}
repeat=${SPEED_REPEAT:-5}
repeat_big=${SPEED_REPEAT_BIG:-1}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sharesim-speed.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

scenario() {  # NAME NODES RATE MEAN_S JOBS
  cat >"$tmp/$1.json" <<JSON
{"name": "$1", "seed": 1,
 "cluster": {"node_pools": [{"name": "n", "nodes": $2, "gpu": "A100-80GB", "gpus_per_node": 8,
   "cpu_milli": 128000, "memory_mib": 1048576, "sharing": {"policy": "exclusive"}}]},
 "workload": {"generators": [{"name": "jobs", "kind": "training", "count": $5,
   "arrival": {"process": "poisson", "rate_per_s": $3},
   "duration": {"dist": "exponential", "mean_s": $4}, "request": {"gpus": 1}}]}}
JSON
}

once() {  # KEY COMMAND...: one timed run; appends "wall kib" to $tmp/KEY.samples
  local key=$1
  shift
  rm -rf "$tmp/out-$key"
  /usr/bin/time -f "%e %M %U %S" -o "$tmp/time" "$@" >"$tmp/$key.stdout" 2>&1 || { cat "$tmp/$key.stdout"; exit 1; }
  cat "$tmp/time" >>"$tmp/$key.samples"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

report() {  # KEY LABEL TARGET: median wall, CPU (user + system) and peak RSS of the samples
  local samples wall cpu kib n
  samples=$(cut -d' ' -f1 "$tmp/$1.samples" | paste -sd' ')
  n=$(wc -l <"$tmp/$1.samples")
  wall=$(cut -d' ' -f1 "$tmp/$1.samples" | median)
  cpu=$(awk '{ print $3 + $4 }' "$tmp/$1.samples" | median)
  kib=$(cut -d' ' -f2 "$tmp/$1.samples" | median)
  printf '%-44s %8.2f s wall %8.2f s CPU %7.0f MiB  (median of %d; wall: %s)  %s\n' "$2" "$wall" "$cpu" \
    "$(awk -v k="$kib" 'BEGIN { print k / 1024 }')" "$n" "$samples" "$3"
  echo "$wall" >"$tmp/$1.median"
  echo "$cpu" >"$tmp/$1.cpu"
}

echo "speed targets: $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  sharesim: $("$bin" --version)"
scenario mm8 1 0.064 100 1000000
scenario 1m-10k 1250 2.5 3600 1000000
for ((i = 0; i < repeat; ++i)); do
  once mm8 "$bin" run -q -o "$tmp/out-mm8" "$tmp/mm8.json"
  once simpy /usr/bin/python3 "$src/tests/bench/simpy_mm8.py" 1000000
  once 1m "$bin" run -q -o "$tmp/out-1m" "$tmp/1m-10k.json"
done
report mm8 "sharesim run: M/M/8, 1M jobs, all outputs" ">= 30x SimPy 3"
report simpy "SimPy 3: the same M/M/8 model" ""
sed -n 's/^/  /p' "$tmp/simpy.stdout"
awk -v a="$(cat "$tmp/simpy.median")" -v b="$(cat "$tmp/mm8.median")" -v c="$(cat "$tmp/simpy.cpu")" -v d="$(cat "$tmp/mm8.cpu")" \
  'BEGIN { printf "  SimPy 3 / sharesim (medians, whole processes): %.1fx wall, %.1fx CPU   target >= 30x\n", a / b, c / d }'
report 1m "sharesim run: 1M jobs on 10,000 GPUs" "target <= 1 s"
if [[ $big == --big ]]; then
  scenario 10m-100k 12500 25 3600 10000000
  for ((i = 0; i < repeat_big; ++i)); do
    once 10m "$bin" run -q -o "$tmp/out-10m" "$tmp/10m-100k.json"
  done
  report 10m "sharesim run: 10M jobs on 100,000 GPUs" "target <= 15 s, <= 4096 MiB"
fi
latest=$src/results/bench/latest.json
if [[ -f $latest ]]; then
  echo "from $latest ($(date -u -r "$latest" +%Y-%m-%dT%H:%M:%SZ)):"
  /usr/bin/python3 - "$latest" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["benchmarks"]
def median(prefix):
    for r in rows:
        if r.get("run_name", "").startswith(prefix) and r.get("aggregate_name") == "median":
            return r
    return next((r for r in rows if r["name"].startswith(prefix)), None)
for r in rows:
    if r.get("aggregate_name") == "median" and r["run_name"].startswith("hold/") and r["run_name"].endswith("1000000"):
        print(f"  {r['run_name']:42s} {r['ns_per_hold'] * 1e9:8.1f} ns per hold (median)   target <= 60 ns")
inf = median("inference/10M-request-events")
if inf:
    print(f"  {'inference: events per second':42s} {inf['events_per_s'] / 1e6:8.2f} M/s ({inf['events'] / 1e6:.1f} M events)   target >= 10 M/s")
PY
fi
