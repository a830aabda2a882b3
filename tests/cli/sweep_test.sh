#!/usr/bin/env bash
# Command-line tests of `sharesim sweep`, `sweep merge` and `size` (docs/sweeps.md): the
# outputs, resuming after SIGKILL, shards (from --shard and from the Slurm and Kubernetes
# variables) merged to the same bytes, and one-line errors with exit code 2.
#
#   bash tests/cli/sweep_test.sh PATH/TO/sharesim
set -u
cli_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sharesim-sweep-cli.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2

# shellcheck source=command_checks.sh
source "$cli_dir/command_checks.sh"
same_results() {  # DIR1 DIR2: runs.csv and the aggregate byte for byte
  local f
  for f in runs.csv aggregate.csv aggregate.json; do
    cmp "$1/$f" "$2/$f" >&2 || return 1
  done
}
bad_input() {  # EXPECTED_TEXT ARGS...: exit 2, one line on stderr holding the text, no stdout
  local text=$1 rc
  shift
  "$bin" "$@" >"$tmp/bad.out" 2>"$tmp/bad.err"
  rc=$?
  [[ $rc -eq 2 ]] || { echo "exit code $rc" >&2; return 1; }
  [[ $(wc -l <"$tmp/bad.err") -eq 1 ]] || { cat "$tmp/bad.err" >&2; return 1; }
  grep -qF -- "$text" "$tmp/bad.err" || { cat "$tmp/bad.err" >&2; return 1; }
  [[ ! -s $tmp/bad.out ]]
}

cat >s.json <<'JSON'
{"name": "s", "seed": 1,
 "cluster": {"node_pools": [{"name": "p", "nodes": 1, "gpu": "A100-80GB", "gpus_per_node": 2,
   "cpu_milli": 64000, "memory_mib": 262144}]},
 "workload": {"generators": [{"kind": "training", "count": 300,
   "arrival": {"process": "poisson", "rate_per_s": 0.01},
   "duration": {"dist": "exponential", "mean_s": 150}, "request": {"gpus": 1}}]}}
JSON
cat >spec.json <<'JSON'
{"scenario": "s.json", "seeds": "1-4",
 "grid": {"workload.generators.0.arrival.rate_per_s": [0.006, 0.012]},
 "variants": ["exclusive", "timeslice"],
 "metrics": ["metrics.jobs.wait_s.mean", "metrics.jobs.jct_s.p95", "metrics.gpus.utilization_mean"]}
JSON

check "sweep -j 2" "$bin" sweep spec.json -j 2 -o whole
check "sweep writes runs.csv, aggregate.csv, aggregate.json, sweep-plan.json" \
  test -s whole/runs.csv -a -s whole/aggregate.csv -a -s whole/aggregate.json -a -s whole/sweep-plan.json
check "runs.csv: a header and 16 runs" test "$(wc -l <whole/runs.csv)" -eq 17
check "aggregate.csv: a header and 4 groups" test "$(wc -l <whole/aggregate.csv)" -eq 5
check "each run has its own output folder" test "$(ls whole/runs | wc -l)" -eq 16
check "sweep again: nothing runs again" "$bin" sweep spec.json -o whole
check "sweep again says 0 run now, 16 already done" grep -q "0 run now, 16 already done" "$tmp/out"
check "sweep -j 1 in another folder" "$bin" sweep spec.json -j 1 -q -o serial
check "-j 1 and -j 2 give the same bytes" same_results whole serial

# sharesim check on real sweep output (docs/ci.md "Replicated runs"): runs.csv's run_id names a
# replicate, so each configuration's 4 seeds pool into one sample: 3 metrics x 4 configurations.
check "check: a sweep against itself" "$bin" check serial --baseline whole
check "check pools the seeds per configuration: 12 metrics, none moved" \
  grep -q "^check: 12 metrics, 0 moved, 0 beyond tolerance: PASS$" "$tmp/out"
sed 's/"1-4"/"5-8"/' spec.json >other-seeds.json
"$bin" sweep other-seeds.json -j 2 -q -o other-seeds >/dev/null 2>&1
"$bin" check other-seeds --baseline whole >"$tmp/other.out" 2>&1
check "check: other seeds of the same configurations are compared with Welch's test, none missing" \
  bash -c "grep -q '^check: 12 metrics, 12 moved' '$tmp/other.out' && ! grep -q 'MISSING\|added' '$tmp/other.out' &&
    grep -q 'jobs.wait_s.mean \[workload.generators.0.arrival.rate_per_s=0.006, variant=exclusive\]' '$tmp/other.out'"

# SIGKILL part-way, then resume.
"$bin" sweep spec.json -j 1 -q -o killed >/dev/null 2>&1 &
pid=$!
# Kill it once a few runs have started (their folders exist), so that some runs are finished
# and one is most likely half-written.
for _ in $(seq 300); do
  [[ $(ls killed/runs 2>/dev/null | wc -l) -ge 4 ]] && break
  sleep 0.1
done
kill -KILL "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
echo "# killed with $(ls killed/runs 2>/dev/null | wc -l) run folders, $(ls killed/runs/*/summary.json 2>/dev/null | wc -l) finished"
check "resume after SIGKILL" "$bin" sweep spec.json -j 2 -q -o killed
check "resumed sweep: same bytes as the uninterrupted one" same_results whole killed
check "resumed sweep: 16 run folders, none duplicated" test "$(ls killed/runs | wc -l)" -eq 16

# Shards: --shard, Slurm's and Kubernetes' variables; merged.
check "--shard 0/3" "$bin" sweep spec.json -q --shard 0/3 -o shard0
check "a shard writes no aggregate" test ! -e shard0/aggregate.csv
check "shard 1 of 3 from SLURM_ARRAY_TASK_ID" env SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=3 \
  "$bin" sweep spec.json -q -o shard1
check "shard 2 of 3 from JOB_COMPLETION_INDEX" env JOB_COMPLETION_INDEX=2 JOB_COMPLETIONS=3 \
  "$bin" sweep spec.json -q -o shard2
check "shards hold 6, 5 and 5 runs" test "$(ls shard0/runs | wc -l) $(ls shard1/runs | wc -l) $(ls shard2/runs | wc -l)" = "6 5 5"
check "sweep merge" "$bin" sweep merge shard0 shard1 shard2 -o merged
check "merged shards: same bytes as the whole sweep" same_results whole merged

# Errors.
check "merge of two shards of three: exit 2 naming the missing runs" \
  bad_input "5 of 16 runs have no finished output in any of the folders given" sweep merge shard0 shard1 -o m2
check "no aggregate written by a failed merge" test ! -e m2/aggregate.csv
check "--shard 3/3 is refused" bad_input "--shard: expected I/N with 0 <= I < N (e.g. 0/4), found \"3/3\"" \
  sweep spec.json --shard 3/3 -o x
export JOB_COMPLETION_INDEX=1
check "JOB_COMPLETION_INDEX without JOB_COMPLETIONS is refused" \
  bad_input "JOB_COMPLETIONS: is not set although JOB_COMPLETION_INDEX is" sweep spec.json -o x
unset JOB_COMPLETION_INDEX
sed 's/"1-4"/"4-1"/' spec.json >bad-seeds.json
check "bad seeds: located" bad_input 'bad-seeds.json: /seeds: expected a range FIRST-LAST' sweep bad-seeds.json -o x
sed 's/metrics.jobs.jct_s.p95/metrics.jobs.jct.p95/' spec.json >bad-metric.json
check "a metric summary.json lacks: located" bad_input 'bad-metric.json: /metrics/1: no such field' sweep bad-metric.json -o x
check "merge of a folder without a plan" bad_input "no sweep-plan.json here" sweep merge s.json
python3 - <<'PY'
import json
spec = json.load(open("spec.json"))
json.dump(dict(spec, grid={"until": ["1d"]}, zip={"until": ["2d"]}), open("grid-and-zip.json", "w"))
json.dump(dict(spec, grid={"seed": [3]}), open("grid-seed.json", "w"))
json.dump(dict(spec, scenario=""), open("no-scenario.json", "w"))
json.dump(dict(spec, scenario="nope.json"), open("missing-scenario.json", "w"))
json.dump(dict(spec, metrics=spec["metrics"] + ["/metrics/jobs/wait_s/mean"]), open("metric-twice.json", "w"))
PY
check "a path in both grid and zip is refused" \
  bad_input 'grid-and-zip.json: /zip/until: the scenario path "until" also varies at /grid/until' sweep grid-and-zip.json -o refused
check "a grid over the seed is refused" bad_input 'grid-seed.json: /grid/seed: the seeds are set by /seeds' \
  sweep grid-seed.json -o refused
check "an empty scenario path is located in the spec" \
  bad_input 'no-scenario.json: /scenario: expected a scenario file' sweep no-scenario.json -o refused
check "a missing scenario file is located in the spec" \
  bad_input 'missing-scenario.json: /scenario: expected a scenario file (relative to the spec'"'"'s folder), found "nope.json"' \
  sweep missing-scenario.json -o refused
check "one metric in two spellings is refused" \
  bad_input 'metric-twice.json: /metrics/3: "/metrics/jobs/wait_s/mean" is listed twice (as "metrics.jobs.wait_s.mean")' \
  sweep metric-twice.json -o refused
check "nothing written by the refused specs" test ! -e refused

# size: the smallest pool meeting a wait target.
check "size" "$bin" size s.json --pool p --target 'metrics.jobs.wait_s.mean<=30' --seeds 1-3 -j 2 -o size
check "size prints a one-line answer" grep -q "^pool p: [0-9]* nodes* ([0-9]* GPUs*) meet metrics.jobs.wait_s.mean<=30" "$tmp/out"
check "size.json names pool, nodes, at_size and one_fewer" \
  python3 -c "import json,sys; d=json.load(open('size/size.json')); sys.exit(not (d['pool']=='p' and d['nodes']>=1 and 'at_size' in d and 'one_fewer' in d))"
check "size --policies prints the GPUs-needed line" \
  "$bin" size s.json --pool p --target 'metrics.jobs.wait_s.mean<=30' --seeds 1-3 --policies exclusive,timeslice -o size2
check "GPUs needed: exclusive N, timeslice M" grep -q "^GPUs needed: exclusive [0-9]*, timeslice [0-9]*$" "$tmp/out"
check "size: unknown pool" bad_input '--pool: no node pool "q" in s.json' size s.json --pool q --target 'metrics.jobs.wait_s.mean<=30' --seeds 1 -o x
check "size: bad target" bad_input '--target: expected PATH<=NUMBER' size s.json --pool p --target 'wait<30' --seeds 1 -o x
check "size: a seed listed twice is refused" bad_input '--seeds: seed 1 is listed twice' \
  size s.json --pool p --target 'metrics.jobs.wait_s.mean<=30' --seeds 1,1 -o x
check "size: a target naming no metric is said after the first run, naming --target" \
  bad_input '--target: metrics.jobs.nope<=3: no such field in a run'"'"'s summary.json' \
  size s.json --pool p --target 'metrics.jobs.nope<=3' --seeds 1-2 -o size-bad-target
check "size: only the first run ran" test "$(ls size-bad-target/runs | wc -l)" -eq 1
check "size: --policies '' is refused" bad_input "--policies: expected a comma-separated list of policy names" \
  size s.json --pool p --target 'metrics.jobs.wait_s.mean<=30' --seeds 1 --policies '' -o x

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
