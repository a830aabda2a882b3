#!/usr/bin/env bash
# The speed targets of issue 16, measured side by side in one session (docs/ci.md, README
# "Performance"): whole `sharesim run` processes, output files included, timed with
# /usr/bin/time, and the same M/M/8 model in SimPy 3 (Debian python3-simpy3).
#
#   tests/bench/speed_targets.sh [SHARESIM_BINARY] [--big]
#
# --big adds 10,000,000 jobs on 100,000 GPUs (about a minute and several GiB here). The
# event-queue hold figure and inference events/s come from `make bench`
# (results/bench/latest.json), printed at the end when that file exists.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-$src/build/release/apps/sharesim}
big=${2:-}
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

timed() {  # LABEL TARGET COMMAND...: prints wall seconds and peak memory of the whole process
  local label=$1 target=$2
  shift 2
  /usr/bin/time -f "%e %M" -o "$tmp/time" "$@" >"$tmp/out" 2>&1 || { cat "$tmp/out"; exit 1; }
  read -r wall kib <"$tmp/time"
  printf '%-44s %8.2f s %8.0f MiB   target %s\n' "$label" "$wall" "$((kib / 1024))" "$target"
  echo "$wall" >"$tmp/last"
}

scenario mm8 1 0.064 100 1000000
scenario 1m-10k 1250 2.5 3600 1000000
timed "sharesim run: M/M/8, 1M jobs, all outputs" ">= 30x SimPy 3" "$bin" run -q -o "$tmp/mm8-out" "$tmp/mm8.json"
sharesim_mm8=$(cat "$tmp/last")
timed "SimPy 3: the same M/M/8 model" "" /usr/bin/python3 "$src/tests/bench/simpy_mm8.py" 1000000
simpy_mm8=$(cat "$tmp/last")
grep -o 'simpy [0-9.]*' "$tmp/out" | sed 's/^/  (/; s/$/)/'
awk -v a="$simpy_mm8" -v b="$sharesim_mm8" 'BEGIN { printf "  SimPy / sharesim: %.1fx\n", a / b }'
timed "sharesim run: 1M jobs on 10,000 GPUs" "<= 1 s" "$bin" run -q -o "$tmp/1m-out" "$tmp/1m-10k.json"
if [[ $big == --big ]]; then
  scenario 10m-100k 12500 25 3600 10000000
  timed "sharesim run: 10M jobs on 100,000 GPUs" "<= 15 s, <= 4 GiB" "$bin" run -q -o "$tmp/10m-out" "$tmp/10m-100k.json"
fi
latest=$src/results/bench/latest.json
if [[ -f $latest ]]; then
  /usr/bin/python3 - "$latest" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["benchmarks"]
def median(name):
    for r in rows:
        if r.get("run_name") == name and r.get("aggregate_name") == "median":
            return r
    return next((r for r in rows if r["name"] == name), None)
for r in rows:
    if r.get("aggregate_name") == "median" and r["run_name"].startswith("hold/") and r["run_name"].endswith("1000000"):
        print(f"{r['run_name']:44s} {r['ns_per_hold']:8.1f} ns per hold (median)   target <= 60 ns (radix)")
inf = median("inference/10M-request-events")
if inf:
    print(f"{'inference: request events per second':44s} {inf['events_per_s'] / 1e6:8.2f} M/s ({inf['events'] / 1e6:.1f} M events)   target >= 10 M/s")
PY
fi
