#!/usr/bin/env bash
# Command-line tests of the sharesim executable: what a user sees (exit codes, the one-line
# error, the output files) rather than what the libraries return.
#
#   bash tests/cli/cli_test.sh PATH/TO/sharesim SOURCE_DIR
#
# Works from any directory; everything it writes goes to a temporary directory that is
# removed on exit. Prints one line per check and last "N passed, M failed"; exits 1 when
# any check failed.
set -u

if [[ $# -ne 2 ]]; then
  echo "usage: $0 SHARESIM_BINARY SOURCE_DIR" >&2
  exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
if [[ ! -x $bin ]]; then
  echo "not an executable: $1" >&2
  exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sharesim-cli.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
# Relative paths below are inside $tmp, and so is anything a run writes by default.
cd "$tmp" || exit 2

passed=0
failed=0
why=""  # set by a failing predicate: what went wrong

pass() {
  passed=$((passed + 1))
  echo "ok - $1"
}
fail() {
  failed=$((failed + 1))
  echo "FAIL - $1${2:+: $2}"
}
# check DESCRIPTION PREDICATE [ARGS...]
check() {
  local what=$1
  shift
  why=""
  if "$@"; then pass "$what"; else fail "$what" "$why"; fi
}

# ---- predicates -----------------------------------------------------------------------

# sharesim ARGS... succeeds (exit 0); its output is kept in $tmp/stdout and $tmp/stderr.
succeeds() {
  "$bin" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
  local rc=$?
  [[ $rc -eq 0 ]] && return 0
  why="exit code $rc: $(head -c 400 "$tmp/stderr" | tr '\n' ' ')"
  return 1
}
files_exist() {
  local dir=$1 missing="" name
  shift
  for name in "$@"; do [[ -s $dir/$name ]] || missing+=" $name"; done
  [[ -z $missing ]] && return 0
  why="missing or empty in $dir:$missing"
  return 1
}
same_file() {
  cmp -s "$1" "$2" && return 0
  why="$1 and $2 differ"
  return 1
}
different_files() {
  [[ -s $1 && -s $2 ]] || { why="$1 or $2 is missing"; return 1; }
  cmp -s "$1" "$2" || return 0
  why="$1 and $2 are identical"
  return 1
}
# Two runs' directories are identical but for timing.json (wall time, peak memory, commit),
# which each must have.
same_directory_but_timing() {
  local dir
  for dir in "$1" "$2"; do
    if ! python3 -c 'import json,sys; json.load(open(sys.argv[1]))["wall_s"]' "$dir/timing.json" 2>/dev/null; then
      why="$dir/timing.json has no wall_s"
      return 1
    fi
  done
  local differences
  differences=$(diff -r -x timing.json "$1" "$2" 2>&1) && return 0
  why="$1 and $2 differ beyond timing.json: $(head -c 200 <<<"$differences" | tr '\n' ' ')"
  return 1
}
stdout_empty() {
  [[ ! -s $tmp/stdout ]] && return 0
  why="printed: $(head -c 200 "$tmp/stdout" | tr '\n' ' ')"
  return 1
}
# The last error names no library's exception ("[json.exception.parse_error.101] ...").
no_library_text() {
  ! grep -q 'json\.exception\|internal error' "$tmp/stderr" && return 0
  why="stderr: $(head -c 300 "$tmp/stderr" | tr '\n' ' ')"
  return 1
}
# refused_at_once NEEDLE ARGS...: sharesim ARGS... exits 2 within 20 s (a FIFO read would block
# forever; the bound makes a regression fail instead of hanging) with NEEDLE on stderr.
refused_at_once() {
  local needle=$1
  shift
  timeout 20 "$bin" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
  local rc=$?
  [[ $rc -eq 2 ]] && grep -qF -- "$needle" "$tmp/stderr" && return 0
  why="exit code $rc (124: it hung): $(head -c 300 "$tmp/stderr" | tr '\n' ' ')"
  return 1
}
# fails_without_gnuplot NEEDLE ARGS...: sharesim ARGS..., with nothing on PATH (so no gnuplot),
# exits 2 with one line on stderr that contains NEEDLE.
fails_without_gnuplot() {
  local needle=$1
  shift
  env PATH=/nonexistent "$bin" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
  local rc=$?
  [[ $rc -eq 2 && $(grep -c '' "$tmp/stderr") -eq 1 ]] && grep -qF -- "$needle" "$tmp/stderr" && return 0
  why="exit code $rc: $(head -c 400 "$tmp/stderr" | tr '\n' ' ')"
  return 1
}

# expect_bad_input DESCRIPTION OUTDIR NEEDLE ARGS...: sharesim ARGS... exits with 2, prints
# nothing on stdout and exactly one line on stderr that starts with "sharesim: error: " and
# contains NEEDLE, and OUTDIR (when not empty) does not exist afterwards.
expect_bad_input() {
  local what=$1 outdir=$2 needle=$3
  shift 3
  "$bin" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
  local rc=$?
  local lines first
  lines=$(grep -c '' "$tmp/stderr")
  first=$(head -n 1 "$tmp/stderr")
  if [[ $rc -ne 2 ]]; then
    fail "$what" "exit code $rc, expected 2 ($(head -c 300 "$tmp/stderr" | tr '\n' '|'))"
  elif [[ $lines -ne 1 ]]; then
    fail "$what" "$lines lines on stderr, expected 1: $(head -c 300 "$tmp/stderr" | tr '\n' '|')"
  elif [[ $first != "sharesim: error: "* ]]; then
    fail "$what" "stderr does not start with 'sharesim: error: ': $first"
  elif [[ $first != *"$needle"* ]]; then
    fail "$what" "message lacks '$needle': $first"
  elif [[ -s $tmp/stdout ]]; then
    fail "$what" "printed on stdout: $(head -c 200 "$tmp/stdout" | tr '\n' ' ')"
  elif [[ -n $outdir && -e $outdir ]]; then
    fail "$what" "output directory $outdir was created"
  else
    pass "$what"
  fi
}

# ---- fixtures -------------------------------------------------------------------------

# Two generators (50 jobs, 1- and 2-GPU pods) on 3 nodes of 2 GPUs: small, but with queueing.
cat >small.json <<'EOF'
{
  "name": "cli-small",
  "seed": 7,
  "cluster": { "node_pools": [
    { "name": "a100", "nodes": 3, "gpu": "A100-80GB", "gpus_per_node": 2,
      "cpu_milli": 64000, "memory_mib": 262144,
      "sharing": { "policy": "exclusive" } } ] },
  "scheduler": { "queue": "fifo", "placement": "first-fit" },
  "workload": { "generators": [
    { "kind": "training", "count": 30,
      "arrival": { "process": "poisson", "rate_per_s": 0.01 },
      "duration": { "dist": "exponential", "mean_s": 600 },
      "request": { "gpus": 1 } },
    { "kind": "batch", "count": 20,
      "arrival": { "process": "poisson", "rate_per_s": 0.005 },
      "duration": { "dist": "lognormal", "mean_s": 300, "cv": 1.5 },
      "request": { "gpus": 2 } } ] }
}
EOF
small_jobs=50

# small.json with its workload replaced by a native trace, named relative to the scenario.
write_replay_scenario() {  # FILE TRACE
  python3 - "$1" "$2" <<'EOF'
import json, sys
scenario = json.load(open("small.json"))
scenario["name"] = "cli-replay"
scenario["workload"] = {"trace": {"format": "native", "path": sys.argv[2]}}
json.dump(scenario, open(sys.argv[1], "w"), indent=2)
EOF
}

# The second comma of line 3 is at column 13.
cat >malformed.json <<'EOF'
{
  "name": "malformed",
  "seed": 1,,
  "cluster": {}
}
EOF

sed 's/"scheduler":/"schedular":/' small.json >unknown-key.json

# ---- every example scenario -----------------------------------------------------------

outputs=(summary.json timing.json jobs.csv gpus.csv timeseries.csv)
shopt -s nullglob
scenario_files=("$src"/scenarios/*.json)
shopt -u nullglob
check "scenarios/*.json: at least one example scenario" test ${#scenario_files[@]} -gt 0
for scenario in "${scenario_files[@]}"; do
  name=$(basename "$scenario" .json)
  # Scenarios replaying the real traces beside the repository skip, saying so, without them.
  if grep -q '"\.\./\.\./shared/data/' "$scenario" && [[ ! -d $src/../shared/data ]]; then
    echo "skip - $name: $src/../shared/data absent"
    continue
  fi
  check "$name: validate" succeeds validate "$scenario"
  check "$name: run -q" succeeds run -q -o "$tmp/$name-1" "$scenario"
  check "$name: run -q prints nothing on stdout" stdout_empty
  check "$name: run writes ${outputs[*]}" files_exist "$tmp/$name-1" "${outputs[@]}"
  check "$name: second run with the same seed" succeeds run -q -o "$tmp/$name-2" "$scenario"
  for csv in jobs.csv gpus.csv timeseries.csv services.csv; do
    [[ $csv == services.csv && ! -e $tmp/$name-1/$csv ]] && continue  # only with services or notebooks
    check "$name: same seed, identical $csv" same_file "$tmp/$name-1/$csv" "$tmp/$name-2/$csv"
  done
  check "$name: same seed, diff -r finds only timing.json" \
    same_directory_but_timing "$tmp/$name-1" "$tmp/$name-2"
done

# ---- run, determinism and --seed on the small fixture ------------------------------------

check "run small.json" succeeds run -q -o "$tmp/small-1" small.json
check "run writes ${outputs[*]}" files_exist "$tmp/small-1" "${outputs[@]}"
check "jobs.csv has a header and one row per job" \
  test "$(grep -c '' "$tmp/small-1/jobs.csv" 2>/dev/null)" = $((small_jobs + 1))
check "run small.json again" succeeds run -q -o "$tmp/small-2" small.json
check "--set before the scenario path takes one value" succeeds validate --set seed=5 --set seed=6 small.json
for csv in jobs.csv gpus.csv timeseries.csv; do
  check "same seed, identical $csv" same_file "$tmp/small-1/$csv" "$tmp/small-2/$csv"
done
check "same seed, diff -r finds only timing.json" same_directory_but_timing "$tmp/small-1" "$tmp/small-2"
check "run --seed 8" succeeds run -q --seed 8 -o "$tmp/small-seed8" small.json
check "--seed 8 changes jobs.csv" different_files "$tmp/small-1/jobs.csv" "$tmp/small-seed8/jobs.csv"
check "--seed 8 is echoed in summary.json" \
  python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["seed"] == 8' "$tmp/small-seed8/summary.json"

# ---- bad input: exit code 2, one line, nothing written -----------------------------------

expect_bad_input "missing scenario file" "$tmp/out-missing" "nosuch.json" \
  run -q -o "$tmp/out-missing" nosuch.json
expect_bad_input "malformed JSON names file and line:column" "$tmp/out-malformed" "malformed.json: 3:13: " \
  run -q -o "$tmp/out-malformed" malformed.json
expect_bad_input "unknown key suggests the right one" "$tmp/out-unknown-key" 'did you mean "scheduler"' \
  run -q -o "$tmp/out-unknown-key" unknown-key.json
expect_bad_input "--set without '='" "$tmp/out-set-no-equals" "--set: seed: " \
  run -q -o "$tmp/out-set-no-equals" small.json --set seed
expect_bad_input "--set into a bad path" "$tmp/out-set-bad-path" "--set: cluster.node_pools.5.nodes: " \
  run -q -o "$tmp/out-set-bad-path" small.json --set cluster.node_pools.5.nodes=3
expect_bad_input "unknown GPU model" "$tmp/out-gpu" 'unknown GPU model "A100-80G"; did you mean "A100-80GB"?' \
  run -q -o "$tmp/out-gpu" small.json --set cluster.node_pools.0.gpu=A100-80G
expect_bad_input "negative arrival rate" "$tmp/out-rate" "/workload/generators/0/arrival/rate_per_s: " \
  run -q -o "$tmp/out-rate" small.json --set workload.generators.0.arrival.rate_per_s=-1
expect_bad_input "unknown sharing policy" "$tmp/out-policy" 'unknown sharing policy "exclusiv"; did you mean "exclusive"?' \
  run -q -o "$tmp/out-policy" small.json --set cluster.node_pools.0.sharing.policy=exclusiv
# Checked after the loader (calibration overrides, a policy's settings), still said to come from --set.
expect_bad_input "a bad calibration override from --set says so" "$tmp/out-calib-set" \
  '/calibration/overrides/timeslic: unknown calibration section "timeslic"; did you mean "timeslice"? (value from --set calibration.overrides={"timeslic": {}})' \
  run -q -o "$tmp/out-calib-set" small.json --set 'calibration.overrides={"timeslic": {}}'
expect_bad_input "validate: a bad calibration override from --set says so" "" \
  '(value from --set calibration.overrides={"timeslic": {}})' \
  validate small.json --set 'calibration.overrides={"timeslic": {}}'
# A key --set creates is the --set's, not the file's; an empty output.dir and an index with a
# leading zero (RFC 6901) are refused, not read as the default directory or as index 0.
expect_bad_input "an unknown key from --set says so" "$tmp/out-set-key" \
  '/nosuch: unknown key "nosuch"' run -q -o "$tmp/out-set-key" small.json --set nosuch.key=3
expect_bad_input "an unknown key from --set names the --set" "$tmp/out-set-key" \
  '(value from --set nosuch.key=3)' run -q -o "$tmp/out-set-key" small.json --set nosuch.key=3
expect_bad_input "an empty output.dir is refused" "" '/output/dir: expected a directory path' \
  validate small.json --set output.dir=
expect_bad_input "an index with a leading zero is refused" "$tmp/out-set-00" \
  'expected an array index (0 or digits without a leading zero), found "00"' \
  run -q -o "$tmp/out-set-00" small.json --set workload.generators.00.count=3
expect_bad_input "unknown command-line option" "$tmp/out-option" "--bogus" \
  run -q -o "$tmp/out-option" small.json --bogus
expect_bad_input "negative --seed" "$tmp/out-seed" "--seed: " \
  run -q -o "$tmp/out-seed" small.json --seed -1
expect_bad_input "no subcommand" "" "subcommand"
expect_bad_input "validate: unknown key" "" 'did you mean "scheduler"' validate unknown-key.json
# small.json's generator has no name, so its jobs are g0-0, g0-1, ...: a job list entry "g0"
# would number its jobs the same (run merged them into one origin with repeated job names).
expect_bad_input "validate: a job named as a generator is refused" "" \
  '/workload/jobs/0/name: duplicate name "g0" (also /workload/generators/0; generators and jobs name their jobs' \
  validate small.json --set 'workload.jobs=[{"name": "g0", "duration": "1h"}]'

# A trace whose third job has a duration that is not a number: found only while the run
# reads it, and still nothing is written.
check "generate a trace to break" succeeds generate -o "$tmp/good-trace.csv" small.json
{
  head -n 3 "$tmp/good-trace.csv"
  head -n 4 "$tmp/good-trace.csv" | tail -n 1 | awk -F, 'BEGIN { OFS = "," } { $5 = "abc"; print }'
  tail -n +5 "$tmp/good-trace.csv"
} >bad-trace.csv
write_replay_scenario bad-trace.json bad-trace.csv
expect_bad_input "bad trace row names file and line" "$tmp/out-bad-trace" "bad-trace.csv: line 4, column duration_s: " \
  run -q -o "$tmp/out-bad-trace" bad-trace.json
expect_bad_input "generate: bad trace row" "" "bad-trace.csv: line 4" generate -o "$tmp/regenerated.csv" bad-trace.json
expect_bad_input "validate reads the whole trace" "" "bad-trace.csv: line 4, column duration_s: " validate bad-trace.json
check "generate: no partial trace file on error" \
  bash -c '! compgen -G "$1/regenerated.csv*" >/dev/null && ! compgen -G "$1/.regenerated.csv*" >/dev/null' _ "$tmp"

# ---- describe-nodes and gpus ----------------------------------------------------------

check "describe-nodes" succeeds describe-nodes small.json
# 3 nodes, each with "nvidia.com/gpu:  2" under Capacity and under Allocatable.
check "describe-nodes shows nvidia.com/gpu: 2 for each node's capacity and allocatable" \
  test "$(grep -cE '^ +nvidia\.com/gpu: +2$' "$tmp/stdout")" = 6 -a \
  "$(grep -c 'nvidia\.com/gpu:' "$tmp/stdout")" = 6
check "describe-nodes --json" succeeds describe-nodes --json small.json
check "describe-nodes --json parses" python3 -c 'import json,sys; json.load(sys.stdin)' <"$tmp/stdout"
check "describe-nodes --json: 3 nodes with nvidia.com/gpu 2" python3 -c '
import json, sys
nodes = json.load(sys.stdin)["nodes"]
assert len(nodes) == 3, nodes
for node in nodes:
    assert node["capacity"]["nvidia.com/gpu"] == "2", node
    assert node["allocatable"]["nvidia.com/gpu"] == "2", node
' <"$tmp/stdout"
# Fractional sharing, cGPU flavour: 4 V100-16GB (16160 MiB each as nvidia-smi reports it, so
# 15 whole GiB) advertise 60 GiB and 400 percent of computing power.
cat >cgpu.json <<'EOF'
{
  "name": "cli-cgpu",
  "cluster": { "node_pools": [
    { "name": "v100", "nodes": 1, "gpu": "V100-16GB", "gpus_per_node": 4,
      "cpu_milli": 64000, "memory_mib": 262144,
      "sharing": { "policy": "fractional", "flavour": "cgpu" } } ] },
  "workload": { "jobs": [
    { "name": "infer", "duration": "60s",
      "request": { "limits": { "aliyun.com/gpu-mem": 4, "aliyun.com/gpu-core.percentage": 30 } } } ] }
}
EOF
check "describe-nodes of a cGPU pool" succeeds describe-nodes cgpu.json
check "describe-nodes: aliyun.com/gpu-mem 60 and aliyun.com/gpu-core.percentage 400, capacity and allocatable" \
  test "$(grep -cE '^ +aliyun\.com/gpu-mem: +60$' "$tmp/stdout")" = 2 -a \
  "$(grep -cE '^ +aliyun\.com/gpu-core\.percentage: +400$' "$tmp/stdout")" = 2
sed 's/"aliyun.com\/gpu-core.percentage": 30/"aliyun.com\/gpu-core.percentage": 33/' cgpu.json >cgpu-33.json
expect_bad_input "cGPU core percentage 33: validate exits 2 naming the multiple-of-5 rule" "" \
  '/workload/jobs/0/request/limits/aliyun.com~1gpu-core.percentage: expected a multiple of 5 from 5 to 100, found 33; ACK cGPU' \
  validate cgpu-33.json
expect_bad_input "cGPU core percentage 33: run exits 2 and writes nothing" "$tmp/out-cgpu-33" 'expected a multiple of 5' \
  run -o "$tmp/out-cgpu-33" cgpu-33.json
# MIG: H100 all-1g.10gb under the single strategy offers 7 nvidia.com/gpu per GPU; 2 x 3g.40gb
# with 48 time-slicing replicas under the mixed strategy offers 96 nvidia.com/mig-3g.40gb.
cat >mig.json <<'EOF'
{
  "name": "cli-mig",
  "cluster": { "node_pools": [
    { "name": "single", "nodes": 1, "gpu": "H100-80GB", "gpus_per_node": 2,
      "cpu_milli": 64000, "memory_mib": 262144,
      "sharing": { "policy": "mig", "strategy": "single", "layout": "all-1g.10gb" } },
    { "name": "mixed", "nodes": 1, "gpu": "H100-80GB", "gpus_per_node": 1,
      "cpu_milli": 64000, "memory_mib": 262144,
      "sharing": { "policy": "mig", "strategy": "mixed", "layout": ["3g.40gb", "3g.40gb"],
                   "timeslice": { "replicas": 48 } } } ] },
  "workload": { "jobs": [ { "name": "train", "duration": "60s", "request": { "gpus": 1 } } ] }
}
EOF
check "describe-nodes of MIG pools" succeeds describe-nodes mig.json
check "describe-nodes: nvidia.com/gpu 14 (2 x all-1g.10gb) and nvidia.com/mig-3g.40gb 96" \
  test "$(grep -cE '^ +nvidia\.com/gpu: +14$' "$tmp/stdout")" = 2 -a \
  "$(grep -cE '^ +nvidia\.com/mig-3g\.40gb: +96$' "$tmp/stdout")" = 2
sed 's/\["3g.40gb", "3g.40gb"\]/["3g.40gb@0", "4g.40gb@0"]/' mig.json >mig-overlap.json
expect_bad_input "MIG overlapping layout: validate exits 2 with the reason" "" \
  '/cluster/node_pools/1/sharing/layout: 4g.40gb@0 (memory slices 0-3) overlaps 3g.40gb@0' \
  validate mig-overlap.json
# A pod that no GPU's sharing policy could ever admit, even on an empty GPU, is an input error
# at validate and run, not a job that waits forever while the run warns "placed no job":
# 81 GiB of cGPU memory where an A100-80GB offers 80, a HAMi vGPU above the GPU's memory, a
# device resource that no pool advertises.
cat >unplaceable.json <<'EOF'
{
  "name": "cli-unplaceable",
  "cluster": { "node_pools": [
    { "name": "a100", "nodes": 1, "gpu": "A100-80GB", "gpus_per_node": 2,
      "cpu_milli": 64000, "memory_mib": 262144,
      "sharing": { "policy": "fractional", "flavour": "cgpu" } } ] },
  "workload": { "jobs": [
    { "name": "big", "duration": "60s", "request": { "limits": { "aliyun.com/gpu-mem": 81 } } } ] }
}
EOF
expect_bad_input "validate: 81 GiB of cGPU memory where a GPU has 80 is refused at the job's request" "" \
  "unplaceable.json: /workload/jobs/0/request: no node could ever hold a pod asking for 81 aliyun.com/gpu-mem, 0 cpu_milli and 0 memory_mib: expected at most 80 aliyun.com/gpu-mem, what one A100-80GB of node pool \"a100\" has (a pod's units all come from one GPU), found 81" \
  validate unplaceable.json
expect_bad_input "run: the same pod is refused and nothing is written" "$tmp/out-unplaceable" \
  'unplaceable.json: /workload/jobs/0/request: no node could ever hold a pod asking for 81 aliyun.com/gpu-mem' \
  run -o "$tmp/out-unplaceable" unplaceable.json
check "validate: 80 GiB of cGPU memory fit an empty A100-80GB" \
  succeeds validate unplaceable.json --set 'workload.jobs.0.request.limits={"aliyun.com/gpu-mem": 80}'
expect_bad_input "validate: a HAMi vGPU with more memory than the GPU is refused with HAMi's reason" "" \
  "unplaceable.json: /workload/jobs/0/request: no node could ever hold a pod asking for 1 nvidia.com/gpu, 0 cpu_milli and 0 memory_mib: on an empty A100-80GB of node pool \"a100\", the fractional policy refuses it: HAMi CardInsufficientMemory: the pod's vGPU needs 90000 MiB" \
  validate unplaceable.json --set cluster.node_pools.0.sharing.flavour=hami \
  --set 'workload.jobs.0.request.limits={"nvidia.com/gpu": 1, "nvidia.com/gpumem": 90000}'
expect_bad_input "validate: a gpu_resource no pool advertises is refused, naming what the nodes advertise" "" \
  'unplaceable.json: /workload/jobs/0/request: no node could ever hold a pod asking for 1 nvidia.com/gpu.shared, 0 cpu_milli and 0 memory_mib: expected a GPU resource that the nodes it may go on advertise ("nvidia.com/gpu"), found "nvidia.com/gpu.shared"' \
  validate unplaceable.json --set 'cluster.node_pools.0.sharing={"policy": "exclusive"}' \
  --set 'workload.jobs.0.request={"gpus": 1, "gpu_resource": "nvidia.com/gpu.shared"}'
expect_bad_input "validate: a generator's request is checked as a job's" "" \
  'small.json: /workload/generators/1/request: no node could ever hold a pod asking for 2 nvidia.com/gpu.shared' \
  validate small.json --set workload.generators.1.request.gpu_resource=nvidia.com/gpu.shared
check "gpus" succeeds gpus
check "gpus lists A100-80GB" grep -q '^A100-80GB ' "$tmp/stdout"
check "gpus lists H100-80GB" grep -q '^H100-80GB ' "$tmp/stdout"

# ---- generate and replay ----------------------------------------------------------------

trace_header="origin,sequence,kind,submit_s,duration_s,pods,gpus_per_pod,cpu_milli,memory_mib,gpu_product,priority"
check "generate -o trace.csv" succeeds generate -o "$tmp/trace.csv" small.json
check "generate prints nothing on stdout" stdout_empty
check "generate -o into a missing directory makes it, as run -o does" \
  succeeds generate -o "$tmp/new-dir/deeper/trace.csv" small.json
check "generate -o into a missing directory: the same trace" same_file "$tmp/trace.csv" "$tmp/new-dir/deeper/trace.csv"
expect_bad_input "generate -o with an empty path is refused" "" "-o: expected a file path, found an empty one" \
  generate -o "" small.json
expect_bad_input "generate -o naming a directory is refused" "" "cannot write: it is a directory, not a file" \
  generate -o "$tmp/new-dir" small.json
check "trace has the native header and the measured columns" \
  test "$(head -n 1 "$tmp/trace.csv" 2>/dev/null)" = "$trace_header,sm,bw,duty,gpu_mem_mib"
check "trace has one row per generated job ($small_jobs)" \
  test "$(grep -c '' "$tmp/trace.csv" 2>/dev/null)" = $((small_jobs + 1))
# A gpu_milli column (trace convert writes one) is read back: two half-GPU pods share one GPU
# under fractional sharing, as the imported trace's pods would, instead of taking turns.
printf '%s,gpu_milli\nhalf,0,training,0,100,1,1,0,0,,0,500\nhalf,1,training,0,100,1,1,0,0,,0,500\n' "$trace_header" \
  >halves.csv
write_replay_scenario halves.json halves.csv
check "a native trace with gpu_milli on a fractional pool" succeeds run -q halves.json -o "$tmp/halves" \
  --set cluster.node_pools.0.nodes=1 --set cluster.node_pools.0.gpus_per_node=1 \
  --set cluster.node_pools.0.sharing.policy=fractional
check "both half-GPU pods start at once" \
  awk -F, 'NR > 1 && $8 == "0" {n++} END {exit !(n == 2)}' "$tmp/halves/jobs.csv"
printf '%s,gpu_mem_mb\nx,0,training,0,100,1,1,0,0,,0,500\n' "$trace_header" >misspelt-column.csv
write_replay_scenario misspelt.json misspelt-column.csv
expect_bad_input "a near miss of an optional native column is refused" "" \
  'misspelt-column.csv: line 1: expected a column "gpu_mem_mib" (or none), found "gpu_mem_mb"' validate misspelt.json
# A trace origin named as a generator would number its jobs as the generator does (g0-0, ...).
printf '%s\ng0,0,training,0,100,1,1,0,0,,0\n' "$trace_header" >g0-trace.csv
python3 - <<'PY'
import json
scenario = json.load(open("small.json"))
scenario["workload"]["trace"] = {"path": "g0-trace.csv"}
json.dump(scenario, open("g0-clash.json", "w"), indent=2)
PY
expect_bad_input "a trace origin named as a generator is refused" "" \
  'g0-trace.csv: line 2, column origin: expected an origin other than the scenario'"'"'s generators and jobs' validate g0-clash.json
# What a native row cannot hold is refused, not dropped: the replay would run another workload.
expect_bad_input "generate refuses a job with per-GPU quantities" "" \
  "/workload/generators/0: expected jobs a native trace row can describe, found \"g0\" with per-GPU quantities (limits or a trace's GPU fraction)" \
  generate -o "$tmp/never-trace.csv" small.json --set cluster.node_pools.0.sharing.policy=fractional \
  --set 'workload.generators.0.request={"limits": {"nvidia.com/gpu": 1, "nvidia.com/gpumem": 4096}}'
check "generate wrote no trace" test ! -e "$tmp/never-trace.csv"
expect_bad_input "generate refuses a job with a workload profile" "" 'found "g0" with a workload profile' \
  generate -o "$tmp/never-trace.csv" small.json --set 'workload.generators.0.request.profile=bert-train-b4'
# A demand goes into its columns (sm, bw, duty, gpu_mem_mib), read back bit for bit: under
# time-slicing, where the demand sets every rate, the replay runs the generator run's jobs and
# GPUs exactly.
demand_sets=(--set cluster.node_pools.0.sharing='{"policy": "timeslice", "replicas": 4}'
  --set 'workload.generators.0.request.demand={"sm": 0.4, "bw": 0.3, "duty": 0.3, "mem_mib": 8192}'
  --set 'workload.generators.1.request.demand={"sm": 0.7, "bw": 0.1, "mem_mib": 30000}')
check "generate a job with a demand" succeeds generate -o "$tmp/demand-trace.csv" small.json "${demand_sets[@]}"
check "generate: the demand's columns" grep -q ',0\.4,0\.3,0\.3,8192$' "$tmp/demand-trace.csv"
check "generate: a default field's column is empty" grep -q ',0\.7,0\.1,,30000$' "$tmp/demand-trace.csv"
check "run the demand scenario" succeeds run -q -o "$tmp/demand-run" small.json "${demand_sets[@]}"
write_replay_scenario demand-replay.json demand-trace.csv
check "replay the demand trace" succeeds run -q -o "$tmp/demand-replay" demand-replay.json \
  --set cluster.node_pools.0.sharing='{"policy": "timeslice", "replicas": 4}'
check "demand replay: the generator run's jobs.csv" same_file "$tmp/demand-run/jobs.csv" "$tmp/demand-replay/jobs.csv"
check "demand replay: the generator run's gpus.csv" same_file "$tmp/demand-run/gpus.csv" "$tmp/demand-replay/gpus.csv"
printf '%s,sm,sm_active\nx,0,training,0,100,1,1,0,0,,0,0.5,0.5\n' "$trace_header" >sm-twice.csv
write_replay_scenario sm-twice.json sm-twice.csv
expect_bad_input "a native row giving sm and sm_active is refused" "" \
  'sm-twice.csv: line 2, column sm_active: expected either sm or sm_active (which sets it), found both' validate sm-twice.json
# A pod on GPUs measured with no SM and no DRAM activity would never finish (rate 0 everywhere).
printf '%s,sm_active,dram_active\nx,0,training,0,100,1,1,0,0,,0,0,0\n' "$trace_header" >idle-measured.csv
write_replay_scenario idle-measured.json idle-measured.csv
expect_bad_input "a native row measured with sm_active 0 and dram_active 0 is refused" "" \
  'idle-measured.csv: line 2, column sm_active: a training pod on GPUs does its work only at the rate its demand gets: expected sm_active > 0 or dram_active > 0, found both 0 (it would never finish)' \
  validate idle-measured.json
printf '%s,sm,bw\nx,0,batch,0,100,1,1,0,0,,0,0,0\nx,1,batch,0,100,1,0,0,0,,0,0,0\n' "$trace_header" >idle-fields.csv
write_replay_scenario idle-fields.json idle-fields.csv
expect_bad_input "a native row with sm 0 and bw 0 is refused" "" \
  'idle-fields.csv: line 2, column sm: a batch pod on GPUs does its work only at the rate its demand gets: expected sm > 0 or bw > 0, found both 0' \
  validate idle-fields.json
printf '%s,sm,bw\nx,1,batch,0,100,1,0,0,0,,0,0,0\n' "$trace_header" >cpu-only-idle.csv
write_replay_scenario cpu-only-idle.json cpu-only-idle.csv
check "a CPU-only native row with sm 0 and bw 0 runs at standalone speed" succeeds run -q -o "$tmp/cpu-only-idle" cpu-only-idle.json
write_replay_scenario replay.json trace.csv
# From another directory: the trace path is relative to the scenario file, not the cwd.
succeeds_from_root() {
  cd / || return 1
  succeeds "$@"
  local rc=$?
  cd "$tmp" || return 1
  return $rc
}
check "run the trace replay from another directory" succeeds_from_root run -q -o "$tmp/replay" "$tmp/replay.json"
check "replay gives the generator run's jobs.csv" same_file "$tmp/small-1/jobs.csv" "$tmp/replay/jobs.csv"

# ---- place, place-sweep (the fragmentation experiment, docs/placement.md) ---------------

pod_header="name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time"
{
  echo "sn,cpu_milli,memory_mib,gpu,model"
  for i in 0 1 2 3 4 5; do echo "node-$i,64000,262144,$((2 + i % 3 * 2)),$([[ $((i % 2)) -eq 0 ]] && echo T4 || echo P100)"; done
} >nodes.csv
mkdir -p openb
{
  echo "$pod_header"
  for i in $(seq 10 49); do
    case $((i % 5)) in
      0) echo "pod-$i,4000,1024,0,0,,BE,Running,0,1,0" ;;
      1) echo "pod-$i,8000,1024,2,1000,,LS,Running,0,1,0" ;;
      *) echo "pod-$i,2000,1024,1,$((100 + i * 17 % 800)),,LS,Running,0,1,0" ;;
    esac
  done
} >openb/openb_pod_list_tiny.csv
cp openb/openb_pod_list_tiny.csv pods.csv
check "place --policy fgd" succeeds place --nodes nodes.csv --pods pods.csv --policy fgd --seed 42 -o "$tmp/place-1" -q
check "place writes curve.csv and summary.json" files_exist "$tmp/place-1" curve.csv summary.json
check "curve.csv has the documented header" \
  test "$(head -n 1 "$tmp/place-1/curve.csv" 2>/dev/null)" = "arrival_pct,allocation_pct,frag_ratio_pct,frag_amount_pct,failed_pods"
check "place again, same seed" succeeds place --nodes nodes.csv --pods pods.csv --policy fgd --seed 42 -o "$tmp/place-2" -q
check "same seed, identical curve.csv" same_file "$tmp/place-1/curve.csv" "$tmp/place-2/curve.csv"
check "same seed, identical summary.json" same_file "$tmp/place-1/summary.json" "$tmp/place-2/summary.json"
check "place --bench prints figures" succeeds place --nodes nodes.csv --pods pods.csv --policy bestfit -o "$tmp/place-3" --bench
check "place --bench output names the placement time" grep -q 'placement [0-9.]* s' "$tmp/stdout"
sed 's/^pod-12,2000,/pod-12,2k,/' pods.csv >bad-pods.csv
expect_bad_input "place: bad pod row names file, line and column" "$tmp/out-bad-pods" \
  "bad-pods.csv: line 4, column cpu_milli: expected an integer" \
  place --nodes nodes.csv --pods bad-pods.csv --policy fgd -o "$tmp/out-bad-pods"
sed 's/^node-1,64000,262144,4,P100/node-1,64000,262144,4,/' nodes.csv >bad-nodes.csv
expect_bad_input "place: GPU node without a model" "$tmp/out-bad-nodes" "bad-nodes.csv: line 3, column model: expected" \
  place --nodes bad-nodes.csv --pods pods.csv --policy fgd -o "$tmp/out-bad-nodes"
expect_bad_input "place: unknown policy lists the policies" "$tmp/out-bad-policy" \
  '--policy: expected one of "random", "dotprod", "gpuclustering", "gpupacking", "bestfit", "fgd", "gpuclustering-milli", found "best-fits"' \
  place --nodes nodes.csv --pods pods.csv --policy best-fits -o "$tmp/out-bad-policy"
sed 's/^node-1,64000,262144,4,P100/node-1,64000,262144,4,P1000/' nodes.csv >typo-nodes.csv
expect_bad_input "place: unknown GPU model in the node list" "$tmp/out-typo-nodes" \
  'typo-nodes.csv: line 3, column model: unknown GPU model "P1000"; did you mean "P100"?' \
  place --nodes typo-nodes.csv --pods pods.csv --policy fgd -o "$tmp/out-typo-nodes"
# One spelling for placement names (docs/placement.md): the scenarios' hyphenated one works too.
check "place accepts the scenario spelling best-fit" \
  succeeds place --nodes nodes.csv --pods pods.csv --policy best-fit -o "$tmp/out-best-fit"
expect_bad_input "place: negative inflation" "$tmp/out-bad-inflation" "--inflation: expected a number" \
  place --nodes nodes.csv --pods pods.csv --policy fgd --inflation -1 -o "$tmp/out-bad-inflation"
expect_bad_input "place: missing --policy" "" "--policy is required" \
  place --nodes nodes.csv --pods pods.csv -o "$tmp/out-no-policy"
check "place-sweep on 1 thread" succeeds place-sweep --nodes nodes.csv --pods-dir openb --traces tiny --seeds 1-3 \
  -j 1 --no-plot -q -o "$tmp/sweep-1"
check "place-sweep writes sweep.csv, runs.csv, summary.json" files_exist "$tmp/sweep-1" sweep.csv runs.csv summary.json
check "runs.csv has 6 policies x 3 seeds" test "$(grep -c '^tiny,' "$tmp/sweep-1/runs.csv" 2>/dev/null)" = 18
check "place-sweep on 2 threads" succeeds place-sweep --nodes nodes.csv --pods-dir openb --traces tiny --seeds 1-3 \
  -j 2 --no-plot -q -o "$tmp/sweep-2"
check "sweep.csv is the same for any thread count" same_file "$tmp/sweep-1/sweep.csv" "$tmp/sweep-2/sweep.csv"
if command -v gnuplot >/dev/null; then
  check "place-sweep draws the plot with gnuplot" succeeds place-sweep --nodes nodes.csv --pods-dir openb \
    --traces tiny --seeds 1-2 -q -o "$tmp/sweep-plot"
  check "the plot is an SVG" grep -q '<svg' "$tmp/sweep-plot/plots/tiny.svg"
fi
# Each command's "no gnuplot" error offers what that command has: place-sweep --no-plot.
check "place-sweep without gnuplot: the error offers --no-plot" fails_without_gnuplot "or pass --no-plot" \
  place-sweep --nodes nodes.csv --pods-dir openb --traces tiny --seeds 1 -q -o "$tmp/sweep-no-gnuplot"
check "place-sweep without gnuplot writes nothing" test ! -e "$tmp/sweep-no-gnuplot"
expect_bad_input "place-sweep: missing trace file" "$tmp/out-no-trace" "openb_pod_list_nosuch.csv: cannot read file" \
  place-sweep --nodes nodes.csv --pods-dir openb --traces nosuch --no-plot -o "$tmp/out-no-trace"
expect_bad_input "place-sweep: bad seed range" "$tmp/out-bad-seeds" '--seeds: expected a range FIRST-LAST' \
  place-sweep --nodes nodes.csv --pods-dir openb --traces tiny --seeds 5-2 -o "$tmp/out-bad-seeds"
expect_bad_input "place-sweep: a trace listed twice is refused" "$tmp/out-twice" '--traces: trace "tiny" is listed twice' \
  place-sweep --nodes nodes.csv --pods-dir openb --traces tiny,tiny --seeds 1 --no-plot -o "$tmp/out-twice"
expect_bad_input "place-sweep: a policy spelt two ways is listed twice" "$tmp/out-twice-policy" \
  '--policies: policy "bestfit" is listed twice (as "best-fit")' \
  place-sweep --nodes nodes.csv --pods-dir openb --traces tiny --policies bestfit,best-fit --seeds 1 --no-plot \
  -o "$tmp/out-twice-policy"
expect_bad_input "place-sweep: an empty --traces is refused" "$tmp/out-empty-traces" \
  '--traces: expected trace names, found an empty list' \
  place-sweep --nodes nodes.csv --pods-dir openb --traces '' --seeds 1 --no-plot -o "$tmp/out-empty-traces"
expect_bad_input "place-sweep: an empty --policies is refused" "$tmp/out-empty-policies" \
  '--policies: expected policy names, found an empty list' \
  place-sweep --nodes nodes.csv --pods-dir openb --traces tiny --policies '' --seeds 1 --no-plot \
  -o "$tmp/out-empty-policies"
expect_bad_input "place-sweep: a seed range too long says so" "$tmp/out-long-seeds" \
  '--seeds: expected a range of at most 100000 seeds, found "0-100000000" (100000001 seeds)' \
  place-sweep --nodes nodes.csv --pods-dir openb --traces tiny --seeds 0-100000000 --no-plot -o "$tmp/out-long-seeds"
{ echo "$pod_header"; echo "pod-x,1000,1024,1,1000,H100X|T4,LS,Running,0,1,0"; } >misspelt-spec.csv
expect_bad_input "place: a misspelt model in gpu_spec is located" "$tmp/out-misspelt" \
  'misspelt-spec.csv: line 2, column gpu_spec: unknown GPU model "H100X"' \
  place --nodes nodes.csv --pods misspelt-spec.csv --policy fgd -o "$tmp/out-misspelt"

# ---- compare (the same workload and seed under each sharing policy) ----------------------

flagship=$src/scenarios/compare-sharing.json
six=exclusive,timeslice,mps,mig,vgpu,fractional
check "compare the flagship under six policies" succeeds compare "$flagship" --policies $six -o "$tmp/compare-1"
check "compare prints the side-by-side table" grep -q '^JCT p50 (s) ' "$tmp/stdout"
check "compare writes compare.csv and compare.json" files_exist "$tmp/compare-1" compare.csv compare.json
check "compare.csv has a header and 6 rows" test "$(grep -c '' "$tmp/compare-1/compare.csv" 2>/dev/null)" = 7
check "compare.csv header: variant, policy, sharing, then the figures" \
  test "$(head -n 1 "$tmp/compare-1/compare.csv" | cut -d, -f1-4)" = variant,policy,sharing,jobs_submitted
check "compare.csv header has no status or note column" \
  test "$(head -n 1 "$tmp/compare-1/compare.csv" | tr , '\n' | grep -cxE 'status|note')" = 0
check "compare.csv: all six policies ran, in order, each completing jobs" python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [(r["variant"], r["policy"]) for r in rows] == [(p, p) for p in sys.argv[2].split(",")], rows
assert all(int(r["jobs_completed"]) > 0 for r in rows), rows' "$tmp/compare-1/compare.csv" "$six"
check "compare writes each run's outputs" files_exist "$tmp/compare-1/timeslice" "${outputs[@]}"
check "compare writes the mig and fractional runs' outputs too" \
  files_exist "$tmp/compare-1" mig/summary.json mig/jobs.csv fractional/summary.json fractional/jobs.csv
check "compare --help" succeeds compare --help
check "compare --help: every built-in policy is the default" grep -q "default: $six)" "$tmp/stdout"
check "compare -q again, same seed" succeeds compare -q "$flagship" --policies $six -o "$tmp/compare-2"
check "compare -q prints nothing on stdout" stdout_empty
check "same seed, identical compare.csv" same_file "$tmp/compare-1/compare.csv" "$tmp/compare-2/compare.csv"
check "same seed, identical compare.json" same_file "$tmp/compare-1/compare.json" "$tmp/compare-2/compare.json"
check "compare a scenario variant with --seed" succeeds compare -q "$flagship" --policies ts8 --seed 8 -o "$tmp/compare-3"
check "compare --seed reaches the run" \
  python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["seed"] == 8' "$tmp/compare-3/ts8/summary.json"
expect_bad_input "compare: unknown policy suggests one" "$tmp/out-compare" 'did you mean "timeslice"?' \
  compare "$flagship" --policies exclusive,timeslise -o "$tmp/out-compare"
expect_bad_input "compare: empty name in --policies" "$tmp/out-compare-2" "--policies: expected a comma-separated list" \
  compare "$flagship" --policies exclusive,,mps -o "$tmp/out-compare-2"
expect_bad_input "compare: bad variant config points into compare.variants" "$tmp/out-compare-3" \
  "/compare/variants/ts8/replicas: " \
  compare "$flagship" --policies ts8 --set compare.variants.ts8.replicas=0 -o "$tmp/out-compare-3"

# ---- trace importers and tools ------------------------------------------------------------

traces="$src/tests/data/traces"
check "trace stats on a Helios log" succeeds trace stats "$traces/helios_small.csv" --format helios
check "trace stats counts jobs, pods and GPUs" grep -q '^jobs        3   pods 4   GPUs 24 ' "$tmp/stdout"
check "trace stats prints duration percentiles" grep -q '^duration    mean ' "$tmp/stdout"
expect_bad_input "trace stats: a bad --gpu-models value is reported against --gpu-models" "" \
  '--gpu-models: /G2: unknown GPU model "NOPE"' \
  trace stats "$traces/openb_small.csv" --format openb --gpu-models '{"G2":"NOPE"}'
printf '%s\na,0,training,0,10,1,1,0,0,,0\n' "$trace_header" >one-instant.csv
check "trace stats of arrivals at one instant" succeeds trace stats one-instant.csv --bins 3
check "trace stats says there is no rate, rather than 0 jobs/s in bins of 0 s" \
  grep -qx 'arrivals    all at 0 s (no span, so no rate)' "$tmp/stdout"
printf '%s\n"a,0,training,0,10,1,1,0,0,,0\n' "$trace_header" >open-quote.csv
expect_bad_input "trace stats: a quote left open names the quote, not a field count" "" \
  'open-quote.csv: line 2: expected a closing quote (") before the end of the line, found none' \
  trace stats open-quote.csv
# A pod list without times is the placement experiment's (sharesim place), not a trace in time.
printf 'name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,deletion_time,scheduled_time\np0,1000,1024,1,500,,LS,Running,10,10\n' \
  >openb-no-creation.csv
expect_bad_input "trace convert: an openb list without creation_time is refused at its header" "$tmp/never-openb.csv" \
  'openb-no-creation.csv: line 1: expected a column "creation_time" in the header, found none' \
  trace convert --from openb openb-no-creation.csv -o "$tmp/never-openb.csv"
expect_bad_input "trace stats: a directory given as a Gavel trace is refused, not read as empty" "" \
  "$tmp: cannot read file: is a directory, not a file" \
  trace stats --format gavel "$tmp" --throughputs "$traces/gavel_throughputs.json"
expect_bad_input "trace convert: a bad row names file, line and column" "$tmp/helios.csv" \
  "helios_bad.csv: line 3, column gpu_num: expected a multiple of node_num (2) to spread evenly, found 3" \
  trace convert --from helios --to native "$traces/helios_bad.csv" -o "$tmp/helios.csv"
check "trace convert --skip-bad-rows" succeeds trace convert --from helios --to native --skip-bad-rows \
  "$traces/helios_bad.csv" -o "$tmp/helios.csv"
check "--skip-bad-rows reports how many and why" \
  grep -q 'sharesim: warning: .*helios_bad.csv: skipped 5 bad rows of 7 (skip_bad_rows): 1 x column duration, first line 6' \
  "$tmp/stderr"
check "trace convert writes a header and the 2 good jobs" test "$(grep -c '' "$tmp/helios.csv" 2>/dev/null)" = 3
check "trace convert --from openb keeps gpu_milli" succeeds trace convert --from openb \
  "$traces/openb_small.csv" -o "$tmp/openb.csv"
check "converted openb: a 460-milli pod is one whole GPU with gpu_milli 460" \
  grep -q '^openb,1,training,10,190,1,1,6000,12288,T4,0,460$' "$tmp/openb.csv"
cat >helios-replay.json <<EOF
{ "name": "helios-replay", "seed": 1,
  "cluster": { "node_pools": [ { "name": "v100", "nodes": 2, "gpu": "V100-32GB", "gpus_per_node": 8,
    "cpu_milli": 64000, "memory_mib": 262144 } ] },
  "workload": { "trace": { "format": "helios", "path": "$traces/helios_bad.csv" } } }
EOF
expect_bad_input "run: a bad trace row stops the run, nothing written" "$tmp/out-helios" \
  "helios_bad.csv: line 3, column gpu_num: " run -q -o "$tmp/out-helios" helios-replay.json
check "run with skip_bad_rows runs the good rows" succeeds run -q -o "$tmp/out-helios" helios-replay.json \
  --set workload.trace.skip_bad_rows=true
check "run with skip_bad_rows warns with the count" grep -q 'skipped 5 bad rows of 7' "$tmp/stderr"
check "the skipped run ran 2 jobs" test "$(grep -c '' "$tmp/out-helios/jobs.csv" 2>/dev/null)" = 3
expect_bad_input "trace keys of another format are refused" "" \
  '/workload/trace/end: "end" applies to the trace formats "openb", not to "helios"' \
  validate helios-replay.json --set workload.trace.end=1h
check "trace node-pools from an openb node list" succeeds trace node-pools --from openb "$traces/openb_nodes_small.csv"
check "node-pools groups identical nodes (3 GPU pools)" \
  python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["node_pools"]; assert [x["nodes"] for x in p]==[2,2,1], p' \
  "$tmp/stdout"
# Nodes whose cores differ by less than the name's rounding make two pools, named apart (both
# were "p100-2g-64c-256gi", which the scenario then refused as a duplicate pool name).
printf 'sn,cpu_milli,memory_mib,gpu,model\nn0,64000,262144,2,P100\nn1,64500,262144,2,P100\n' >close-nodes.csv
check "node-pools: two pools whose names would collide" succeeds trace node-pools close-nodes.csv -o close-pools.json
check "node-pools: the second is named apart" \
  python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["node_pools"]; assert [x["name"] for x in p]==["p100-2g-64c-256gi","p100-2g-64c-256gi-2"], p' \
  close-pools.json
printf 'sn,cpu_milli,memory_mib,gpu,model\nn0,64000,262144,2,P100\nn0,64000,262144,2,P100\n' >twice-node.csv
expect_bad_input "node-pools: a node listed twice is refused" "" 'twice-node.csv: line 3, column sn: expected each node once, found "n0" again (also line 2)' \
  trace node-pools twice-node.csv
printf 'sn,cpu_milli,memory_mib,gpu,model\nn0,64000,262144,0,\n' >cpu-nodes.csv
expect_bad_input "node-pools: a list of CPU-only nodes without --with-cpu-nodes is refused" "" \
  'expected at least one node with GPUs, found 1 CPU-only nodes' trace node-pools cpu-nodes.csv

# ---- behaviour classes: services and notebooks -----------------------------------------

check "notebooks-timeslice runs" succeeds run -q -o "$tmp/out-notebooks" "$src/scenarios/notebooks-timeslice.json" \
  --set until=30m
check "it writes services.csv with one row per service or notebook origin" \
  test "$(grep -c '' "$tmp/out-notebooks/services.csv" 2>/dev/null)" = 3
check "jobs.csv has the restarts column" grep -q ',killed_by_other,restarts,reason,' "$tmp/out-notebooks/jobs.csv"
expect_bad_input "generate refuses services and notebooks" "" 'which a native trace cannot hold' \
  generate "$src/scenarios/notebooks-timeslice.json" -o "$tmp/notebooks-trace.csv"
expect_bad_input "a notebook refuses a training key" "$tmp/out-nb-key" '/workload/jobs/1/duration: ' \
  run -q -o "$tmp/out-nb-key" "$src/scenarios/notebooks-timeslice.json" --set workload.jobs.1.duration=1h
expect_bad_input "batch jobs keep no checkpoints" "" '/workload/generators/0/checkpoint_interval: ' \
  validate small.json --set workload.generators.0.kind=batch --set workload.generators.0.checkpoint_interval=10m
expect_bad_input "a restart policy is Never or OnFailure" "" '/workload/generators/0/restart/policy: ' \
  validate small.json --set 'workload.generators.0.restart={"policy": "Always"}'

# ---- profiles mig-check (MIG slice speeds against MISO's measurements, docs/models.md) ------

miso=$src/../shared/data/miso
mig_table_header='| MIG profile | n | bias (mean rel. error) | RMS rel. error | worst abs. rel. error | worst for |'
if [[ -f $miso/mig_mean_iter_latency_s.csv ]]; then
  check "profiles mig-check on MISO's data" succeeds profiles mig-check --miso "$miso"
  cp "$tmp/stdout" "$tmp/mig-check-1.md"
  check "mig-check prints the error tables' header line" grep -qxF "$mig_table_header" "$tmp/mig-check-1.md"
  check "mig-check prints two tables, each with an 'all' row" test "$(grep -c '^| all | ' "$tmp/mig-check-1.md")" = 2
  check "profiles mig-check again" succeeds profiles mig-check --miso "$miso"
  check "mig-check prints the same tables again" same_file "$tmp/mig-check-1.md" "$tmp/stdout"
else
  echo "skip - profiles mig-check: $miso absent"
fi
expect_bad_input "profiles mig-check: a missing data folder is named" "" "/nonexistent/mig_mean_iter_latency_s.csv" \
  profiles mig-check --miso /nonexistent
expect_bad_input "profiles validate without data options is a usage error" "" \
  "profiles validate: expected at least one of --gavel DIR, --miso DIR, --calibration FILE..., --duty FILE..., found none" \
  profiles validate

# ---- profiles fit: bad data is one located error, nothing written (docs/profiles.md) ----------

gavel=$src/../shared/data/gavel
if [[ -f $miso/mig_mean_iter_latency_s.csv && -f $gavel/simulation_throughputs.json ]]; then
  # A pair whose partner has no entry of its own: located at the pair, not an internal error.
  mkdir -p "$tmp/gavel-no-partner"
  echo '{"k80":{},"p100":{},"v100":{"('"'"'A3C'"'"', 1)": {"null": 5, "('"'"'LM (batch size 5)'"'"', 1)": [2,2]}}}' \
    >"$tmp/gavel-no-partner/simulation_throughputs.json"
  expect_bad_input "profiles fit: a Gavel pair's partner without an entry of its own is located" "$tmp/fit-no-partner" \
    "simulation_throughputs.json: /v100/('A3C', 1)/('LM (batch size 5)', 1): expected a partner with an entry of its own under /v100" \
    profiles fit --miso "$miso" --gavel "$tmp/gavel-no-partner" -o "$tmp/fit-no-partner"
  expect_bad_input "profiles validate: the same bad Gavel data, and no section header printed before it" "" \
    "simulation_throughputs.json: /v100/('A3C', 1)/('LM (batch size 5)', 1): expected a partner" \
    profiles validate --gavel "$tmp/gavel-no-partner" --quick
  # A MISO row with one field more than the header would be read shifted.
  mkdir -p "$tmp/miso-extra-field"
  sed '2s/^\([^,]*\),\([^,]*\),/\1,\2,0.5,/' "$miso/mig_mean_iter_latency_s.csv" \
    >"$tmp/miso-extra-field/mig_mean_iter_latency_s.csv"
  expect_bad_input "profiles fit: a MISO row with more fields than the header is refused" "$tmp/fit-extra-field" \
    "mig_mean_iter_latency_s.csv: line 2: expected 7 fields as in the header, found 8" \
    profiles fit --miso "$tmp/miso-extra-field" --gavel "$gavel" -o "$tmp/fit-extra-field"
  mkdir -p "$tmp/miso-fifo" "$tmp/gavel-fifo"
  mkfifo "$tmp/miso-fifo/mig_mean_iter_latency_s.csv" "$tmp/gavel-fifo/simulation_throughputs.json"
  check "profiles fit: a FIFO as MISO's table is refused at once" refused_at_once \
    "miso-fifo/mig_mean_iter_latency_s.csv: cannot read file: is a FIFO" \
    profiles fit --miso "$tmp/miso-fifo" --gavel "$gavel" -o "$tmp/fit-fifo"
  check "profiles fit: a FIFO as Gavel's table is refused at once" refused_at_once \
    "gavel-fifo/simulation_throughputs.json: cannot read file: is a FIFO" \
    profiles fit --miso "$miso" --gavel "$tmp/gavel-fifo" -o "$tmp/fit-fifo"
  # One target is a directory: refused before any file is written.
  mkdir -p "$tmp/fit-blocked/lm-train-b5.json"
  expect_bad_input "profiles fit: a target that is a directory is refused" "" \
    "fit-blocked/lm-train-b5.json: cannot write: it is a directory, not a file" \
    profiles fit --miso "$miso" --gavel "$gavel" -o "$tmp/fit-blocked"
  check "profiles fit: ... before any file is written" test "$(ls "$tmp/fit-blocked")" = lm-train-b5.json
  rmdir "$tmp/fit-blocked/lm-train-b5.json"
  check "profiles fit writes the profiles" succeeds profiles fit --miso "$miso" --gavel "$gavel" -o "$tmp/fit-blocked"
  check "profiles fit: one file per profile" test "$(ls "$tmp/fit-blocked" | grep -c '\.json$')" -gt 50
  check "profiles fit again over its own files" succeeds profiles fit --miso "$miso" --gavel "$gavel" -o "$tmp/fit-blocked"
else
  echo "skip - profiles fit: $miso or $gavel absent"
fi

# ---- corun (co-run predictions from solo measurements, docs/models.md) --------------------

cat >pairs.csv <<'CSV'
group,job,gpu_util_pct,mem_util_pct,mem_mib
light,a,30,10,2000
light,b,30,10,2000
busy,c,100,40,2000
busy,d,100,40,2000
CSV
check "corun of two pairs" succeeds corun --policy timeslice --gpu RTX3090 pairs.csv -o pairs-out.csv
check "corun writes the input columns plus the predictions" \
  grep -qx 'group,job,gpu_util_pct,mem_util_pct,mem_mib,duty,sm,bw,speed,slowdown,status' pairs-out.csv
light_speed=$(awk -F, '$2 == "a" {print $9}' pairs-out.csv)
busy_speed=$(awk -F, '$2 == "c" {print $9}' pairs-out.csv)
check "a light pair barely slows, a busy pair takes turns" \
  awk -v l="$light_speed" -v b="$busy_speed" 'BEGIN {exit !(l > 0.85 && b < 0.5)}'
check "corun says what it did" grep -q '4 jobs in 2 groups' "$tmp/stdout"
printf 'group,job,gpu_util_pct,mem_util_pct,mem_mib\nx,a,120,10,10\n' >bad-util.csv
expect_bad_input "corun: a utilization above 100% is located" "" "bad-util.csv: line 2, column gpu_util_pct" \
  corun --policy timeslice --gpu RTX3090 bad-util.csv -o never.csv
check "corun wrote nothing on bad input" test ! -e never.csv
expect_bad_input "corun: an unknown GPU model is named" "" "--gpu" corun --policy mps --gpu RTX9999 pairs.csv -o never.csv
# MIG: three jobs for two instances (all-3g.40gb); the third gets none, so it is not admitted
# (it was "ok" at speed 0 when corun did not check that the policy found it an instance).
printf 'group,job,gpu_util_pct,mem_util_pct,mem_mib\ng,j1,100,40,2000\ng,j2,100,40,2000\ng,j3,100,40,2000\n' >three.csv
check "corun: MIG with more jobs than instances" succeeds corun --policy mig --set layout=all-3g.40gb --gpu A100-80GB \
  three.csv -o three-out.csv
check "corun: the job without an instance is not admitted, the others run" \
  awk -F, '$2 == "j3" {j3 = ($9 == "" && $11 ~ /^not admitted: every part of the GPU/)}
           $2 == "j1" {j1 = ($9 > 0 && $11 == "ok")} END {exit !(j1 && j3)}' three-out.csv
expect_bad_input "corun: --set policy= is refused (the policy is --policy's)" "" "--set: expected a setting of the policy" \
  corun --policy timeslice --set policy=mps --gpu A100-80GB three.csv -o never.csv
expect_bad_input "corun: a setting the policy needs is asked for as --set" "" \
  'sharesim corun: --set profile: expected a non-empty string, found nothing (give it as --set profile=VALUE)' \
  corun --policy vgpu --gpu A100-80GB three.csv -o never.csv
# bw given for one job (mem_util_pct empty), measured for the other: the output's bw column is
# the input's, filled with the value used; no column twice.
printf 'group,job,gpu_util_pct,mem_util_pct,mem_mib,bw\ng,a,50,,100,0.3\ng,b,50,20,100,\n' >bw.csv
check "corun: a bw column is read" succeeds corun --policy timeslice --gpu A100-80GB bw.csv -o bw-out.csv
check "corun: bw given and bw derived, in the input's bw column" \
  awk -F, 'NR == 1 {ok = ($0 == "group,job,gpu_util_pct,mem_util_pct,mem_mib,bw,duty,sm,speed,slowdown,status")}
           $2 == "a" {a = ($6 == "0.3000")} $2 == "b" {b = ($6 == "0.4000")} END {exit !(ok && a && b)}' bw-out.csv
# Fractional sharing: each job's HAMi vGPU asked in a limits column. Two of 30000 MiB fit on an
# 80 GB A100, the third does not; without limits a HAMi pod asks the whole GPU's memory.
limits='nvidia.com/gpu=1 nvidia.com/gpumem=30000 nvidia.com/gpucores=50'
printf 'group,job,gpu_util_pct,mem_util_pct,mem_mib,limits\ng,a,100,40,20000,%s\ng,b,100,40,20000,%s\ng,c,100,40,20000,%s\n' \
  "$limits" "$limits" "$limits" >hami.csv
check "corun: fractional with a limits column" succeeds corun --policy fractional --gpu A100-80GB hami.csv -o hami-out.csv
check "corun: two vGPUs of 30000 MiB share the GPU, the third is not admitted" \
  awk -F, '$2 == "a" {a = ($10 > 0 && $12 == "ok")} $2 == "c" {c = ($12 ~ /CardInsufficientMemory/)} END {exit !(a && c)}' \
  hami-out.csv
printf 'group,job,gpu_util_pct,mem_util_pct,mem_mib,limits\ng,a,100,40,20000,aliyun.com/gpu-mem=30 aliyun.com/gpu-core.percentage=33\n' \
  >cgpu-33.csv
expect_bad_input "corun: a limits entry breaking its rule is located" "" \
  'cgpu-33.csv: line 2, column limits: aliyun.com/gpu-core.percentage: expected a multiple of 5 from 5 to 100, found 33' \
  corun --policy fractional --set flavour=cgpu --gpu A100-80GB cgpu-33.csv -o never.csv
printf 'group,job,gpu_util_pct,mem_util_pct,mem_mib,bw\ng,a,50,10,100,0.3\n' >bw-both.csv
expect_bad_input "corun: bw and mem_util_pct both given" "" "bw-both.csv: line 2, column bw: expected either bw or" \
  corun --policy timeslice --gpu A100-80GB bw-both.csv -o never.csv
printf 'group,job,gpu_util_pct,mem_util_pct,mem_mib,group\ng,a,50,10,100,h\n' >dup-column.csv
expect_bad_input "corun: a column named twice is refused" "" 'dup-column.csv: line 1: expected each column once in the header, found "group" as columns 1 and 6' \
  corun --policy timeslice --gpu A100-80GB dup-column.csv -o never.csv
printf 'group,job,gpu_util_pct,mem_util_pct,mem_mib,sm_activ\ng,a,50,10,100,0.3\n' >misspelt.csv
expect_bad_input "corun: a misspelt optional column is refused" "" 'expected a column "sm_active" (or none), found "sm_activ"' \
  corun --policy timeslice --gpu A100-80GB misspelt.csv -o never.csv
printf 'group,job,gpu_util_pct,mem_util_pct,mem_mib,speed\ng,a,50,10,100,0.3\n' >output-column.csv
expect_bad_input "corun: an input column that corun writes is refused" "" 'expected no column "speed" in the input' \
  corun --policy timeslice --gpu A100-80GB output-column.csv -o never.csv
expect_bad_input "compare: a bad sharing policy in --set is refused, as validate refuses it" "$tmp/compare-bogus" \
  "/cluster/node_pools/0/sharing/policy: unknown sharing policy \"bogus\"" \
  compare small.json --set cluster.node_pools.0.sharing.policy=bogus -o "$tmp/compare-bogus"
# A run whose horizon ends before the first arrival has only empty figures: it says why.
check "run: a horizon before the first arrival" succeeds run -q small.json --set until=1ms -o "$tmp/no-jobs"
check "run: it warns that no job was submitted" \
  grep -qx "sharesim: warning: the run submitted no job: the workload made none before the run's end" "$tmp/stderr"
# "-o ." from inside an empty directory: its lock and staging siblings go beside it, not in it
# (they were "./..lock", which made the directory look taken).
mkdir -p "$tmp/dot-out"
run_into_dot() { (cd "$tmp/dot-out" && "$bin" run -q "$tmp/small.json" -o .) >"$tmp/stdout" 2>"$tmp/stderr"; }
check "run -o . in an empty directory" run_into_dot
check "run -o . wrote the outputs and nothing else there" \
  test "$(cd "$tmp/dot-out" && ls -A | LC_ALL=C sort | tr '\n' ' ')" = ".sharesim-output gpus.csv jobs.csv summary.json timeseries.csv timing.json "
expect_bad_input "run: a fault mean of 0 is refused, not read as no faults" "$tmp/zero-mtbf" \
  '/faults/mtbf: expected a duration > 0, found "0s"' run -q small.json --set 'faults={"mtbf":"0s"}' -o "$tmp/zero-mtbf"
# ---- check: a run against a baseline -----------------------------------------------------

check "check: a run against itself passes" succeeds check "$tmp/small-1" --baseline "$tmp/small-2" --junit "$tmp/same.xml"
check "check: PASS line" grep -q '0 beyond tolerance: PASS' "$tmp/stdout"
check "check: JUnit without failures" grep -q 'failures="0"' "$tmp/same.xml"
check "check: run with one node (2 GPUs) fewer" succeeds run -q -o "$tmp/small-4gpu" small.json --set cluster.node_pools.0.nodes=2
"$bin" check "$tmp/small-4gpu" --baseline "$tmp/small-1" --junit "$tmp/fewer.xml" --markdown "$tmp/fewer.md" >"$tmp/stdout" 2>"$tmp/stderr"
check "check: one node fewer exits 1" test $? -eq 1
check "check: the GPU count is a regression" grep -Eq '^gpus.count +6 +4 .* exact +REGRESSED' "$tmp/stdout"
check "check: the scenario change is a note" grep -q '^note: the run.s scenario differs' "$tmp/stdout"
check "check: JUnit has a failure for gpus.count" grep -q '<failure message="gpus.count moved from 6 to 4' "$tmp/fewer.xml"
check "check: Markdown verdict" grep -q '^## sharesim check: FAIL' "$tmp/fewer.md"
check "check: --tol can allow it" succeeds check "$tmp/small-4gpu" --baseline "$tmp/small-1" --tol '*=1e12'
check "check --update rewrites the baseline" succeeds check "$tmp/small-4gpu" --baseline "$tmp/base-copy" --update
check "check: against the updated baseline passes" succeeds check "$tmp/small-4gpu" --baseline "$tmp/base-copy"
expect_bad_input "check: a missing baseline is named" "" "$tmp/nowhere: no such directory" \
  check "$tmp/small-1" --baseline "$tmp/nowhere"
expect_bad_input "check: a bad --tol" "" "--tol: jobs.completed=many: expected PATH=PCT%" \
  check "$tmp/small-1" --baseline "$tmp/small-2" --tol jobs.completed=many
expect_bad_input "check: a --tol that matches no metric is refused, with the closest" "" \
  "--tol: jobs.complted: expected a path or pattern matching a metric, found one that matches none (did you mean jobs.completed?)" \
  check "$tmp/small-1" --baseline "$tmp/small-2" --tol jobs.complted=2
expect_bad_input "check: --alpha nan is refused" "" "--alpha: expected a number from 0 to 1, found nan" \
  check "$tmp/small-1" --baseline "$tmp/small-2" --alpha nan
expect_bad_input "check: an empty --junit is refused" "" "--junit: expected a file path, found an empty one" \
  check "$tmp/small-1" --baseline "$tmp/small-2" --junit ''
expect_bad_input "check: a --junit that is a directory is refused" "" "$tmp: cannot write: it is a directory" \
  check "$tmp/small-1" --baseline "$tmp/small-2" --junit "$tmp"
check "check: --markdown into a new directory makes it" \
  succeeds check "$tmp/small-1" --baseline "$tmp/small-2" --markdown "$tmp/reports/new/check.md"
check "check: the Markdown report is there" grep -q '^## sharesim check: PASS' "$tmp/reports/new/check.md"
mkdir -p "$tmp/corrupt-base"
sed 's/"count": \([0-9]*\)/"count": true/' "$tmp/small-2/summary.json" >"$tmp/corrupt-base/summary.json"
expect_bad_input "check: a boolean where a metric is is located" "" "$tmp/corrupt-base/summary.json: /metrics/" \
  check "$tmp/small-1" --baseline "$tmp/corrupt-base"
mkdir -p "$tmp/huge-run"
sed '0,/"completed": [0-9]*/s//"completed": 1e400/' "$tmp/small-1/summary.json" >"$tmp/huge-run/summary.json"
expect_bad_input "check: a number beyond a double is located, not an internal error" "" \
  "$tmp/huge-run/summary.json: /metrics/" check "$tmp/huge-run" --baseline "$tmp/small-2"
check "check --help names --baseline" succeeds check --help
check "check --help: output" grep -q -- '--baseline' "$tmp/stdout"
# ---- reliability (issue 18: reproducers, kill-safe output sets) --------------------------

source "$src/tests/cli/reliability_checks.sh"
# ---- warnings, --strict and report (issue 15) --------------------------------------------

# Three jobs ask for a MIG 3g.40gb instance. The variant mig-dynamic must first drain its GPU
# and lay it out anew, which takes 5 s on an A100-80GB, and the run ends at 4 s: it places
# nothing. (A variant whose GPUs could never hold the pods is an input error instead, below.)
cat >"$tmp/strict.json" <<'JSON'
{ "name": "strict", "seed": 1, "until": "4s",
  "cluster": { "node_pools": [ { "name": "p", "nodes": 1, "gpu": "A100-80GB", "gpus_per_node": 1,
    "cpu_milli": 64000, "memory_mib": 262144,
    "sharing": { "policy": "mig", "strategy": "mixed", "layout": ["3g.40gb", "3g.40gb"] } } ] },
  "workload": { "jobs": [ { "name": "j", "replicas": 3, "duration": "1s",
                            "request": { "gpu_resource": "nvidia.com/mig-3g.40gb" } } ] },
  "compare": { "variants": {
    "mig-3g": { "policy": "mig", "strategy": "mixed", "layout": ["3g.40gb", "3g.40gb"] },
    "mig-dynamic": { "policy": "mig", "strategy": "mixed", "layout": "all-1g.10gb", "repartitioning": "dynamic" } } } }
JSON
check "compare: a variant that places nothing succeeds without --strict" \
  succeeds compare -q "$tmp/strict.json" --policies mig-3g,mig-dynamic -o "$tmp/strict-1"
check "compare: the warning names the variant and the scheduler's reason" \
  grep -q "^sharesim: warning: policy mig-dynamic placed no job: 3 jobs never started, e.g. 0/1 nodes are available" "$tmp/stderr"
expect_bad_input "compare: a variant whose GPUs could never hold the pods is an input error naming it" "$tmp/strict-never" \
  '/workload/jobs/0/request: no node could ever hold a pod asking for 1 nvidia.com/mig-3g.40gb, 0 cpu_milli and 0 memory_mib: expected a GPU resource that the nodes it may go on advertise ("nvidia.com/gpu"), found "nvidia.com/mig-3g.40gb" (sharing variant "exclusive")' \
  compare -q "$tmp/strict.json" --policies mig-3g,exclusive -o "$tmp/strict-never"
"$bin" compare -q "$tmp/strict.json" --policies mig-3g,mig-dynamic --strict -o "$tmp/strict-2" >/dev/null 2>&1
check "compare --strict exits 3 on the warning" test $? -eq 3
check "compare --strict still writes the outputs" files_exist "$tmp/strict-2" compare.csv compare.json
check "compare.csv has no JSON in its cells" test "$(grep -c '[{}]' "$tmp/strict-1/compare.csv")" = 0
check "compare.json keeps the warning" python3 -c '
import json, sys; assert len(json.load(open(sys.argv[1]))["warnings"]) == 1' "$tmp/strict-1/compare.json"
"$bin" run -q "$tmp/strict.json" --strict -o "$tmp/strict-3" >/dev/null 2>&1
check "run --strict exits 0 when every job ran" test $? -eq 0
# The warnings count the whole run's jobs: a metrics window that opens after the arrivals holds
# none, and the run still submitted and placed them (it warned "submitted no job", exit 3).
"$bin" run -q "$tmp/strict.json" --strict --set 'metrics_window={"start":"3s"}' -o "$tmp/strict-4" >/dev/null 2>"$tmp/stderr"
check "run --strict: a window after the arrivals is no warning" test $? -eq 0
check "run --strict: a window after the arrivals: nothing on stderr" test ! -s "$tmp/stderr"
# The run table's per-origin percentiles of an empty sample are "-", not 0.0: b never starts
# (wait), and neither a nor b completes (JCT).
cat >"$tmp/origins.json" <<'JSON'
{ "name": "origins", "seed": 1, "until": "10s",
  "cluster": { "node_pools": [ { "name": "p", "nodes": 1, "gpu": "A100-80GB", "gpus_per_node": 1,
    "cpu_milli": 64000, "memory_mib": 262144 } ] },
  "workload": { "jobs": [ { "name": "a", "duration": "100s" }, { "name": "b", "arrival": "1s", "duration": "1s" } ] } }
JSON
check "run table: two origins" succeeds run "$tmp/origins.json" -o "$tmp/origins"
check "run table: an origin that never started shows - for its percentiles" \
  grep -Eq '^  b +training +1 +0 +1 +- +- +- +-$' "$tmp/stdout"
check "run table: an origin that started shows its wait and - for its JCT" \
  grep -Eq '^  a +training +1 +0 +0 +0\.0 +0\.0 +- +-$' "$tmp/stdout"
expect_bad_input "report: a directory without outputs is named" "" "$tmp/nothing-here/summary.json" \
  report "$tmp/nothing-here"
# report on a malformed output file (hand-edited or truncated): one located error, exit 2, no
# library text, nothing written. The outputs to spoil: a run and a compare of small.json.
"$bin" run -q small.json -o "$tmp/report-run" >/dev/null 2>&1
"$bin" compare -q small.json --policies exclusive,timeslice -o "$tmp/report-compare" >/dev/null 2>&1
check "report: the outputs to spoil are there" files_exist "$tmp/report-compare" compare.json exclusive/summary.json
# malformed_report NAME SOURCE_DIR FILE NEEDLE PYTHON: FILE of a copy of SOURCE_DIR is loaded as
# d, PYTHON changes d, d is written back.
malformed_report() {
  local name=$1 copy=$tmp/bad-report-$1 file=$3 needle=$4 edit=$5
  rm -rf "$copy" && cp -r "$2" "$copy"
  python3 -c "import json, sys
p = sys.argv[1]
d = json.load(open(p))
$edit
json.dump(d, open(p, 'w'))" "$copy/$file"
  expect_bad_input "report, malformed: $name" "" "$needle" report "$copy"
  check "report, malformed: $name: no library text" no_library_text
  check "report, malformed: $name: nothing written" test ! -e "$copy/report" -a ! -e "$copy/report.html"
}
malformed_report compare-empty-object "$tmp/report-compare" compare.json \
  "compare.json: /policies: expected a non-empty array of the policies compared, found none" 'd = {}'
malformed_report compare-array "$tmp/report-compare" compare.json \
  "compare.json: (top level): expected a JSON object (as sharesim writes compare.json), found an empty array" 'd = []'
malformed_report verdict-number "$tmp/report-compare" compare.json \
  "compare.json: /verdict/0: expected a string, found 1" 'd["verdict"] = [1]'
malformed_report variant-number "$tmp/report-compare" compare.json \
  "compare.json: /policies/0/variant: expected a variant name" 'd["policies"][0]["variant"] = 3'
malformed_report variant-summary "$tmp/report-compare" exclusive/summary.json \
  "exclusive/summary.json: /metrics/jobs/killed: expected an object of kill counts by cause, found none" \
  'del d["metrics"]["jobs"]["killed"]'
malformed_report scenario-string "$tmp/report-run" summary.json \
  'summary.json: /scenario: expected the scenario as run (an object), found "x"' 'd["scenario"] = "x"'
malformed_report services-number "$tmp/report-run" summary.json \
  "summary.json: /metrics/services: expected an array of services, found 5" 'd["metrics"]["services"] = 5'
malformed_report service-without-origin "$tmp/report-run" summary.json \
  "summary.json: /metrics/services/0/origin: expected a service's origin (a string), found none" \
  'd["metrics"]["services"] = [{"requests": 1}]'
malformed_report completed-text "$tmp/report-run" summary.json \
  'summary.json: /metrics/jobs/completed: expected a number or null, found "x"' 'd["metrics"]["jobs"]["completed"] = "x"'
malformed_report summary-array "$tmp/report-run" summary.json \
  "summary.json: (top level): expected a JSON object (as sharesim writes summary.json), found an empty array" 'd = []'
rm -rf "$tmp/bad-report-truncated" && cp -r "$tmp/report-run" "$tmp/bad-report-truncated"
head -c 100 "$tmp/report-run/summary.json" >"$tmp/bad-report-truncated/summary.json"
expect_bad_input "report, malformed: a truncated summary.json is located by line and column" "" \
  "bad-report-truncated/summary.json: " report "$tmp/bad-report-truncated"
check "report, malformed: truncated: no library text" no_library_text
rm -rf "$tmp/bad-report-fifo" && cp -r "$tmp/report-run" "$tmp/bad-report-fifo"
rm "$tmp/bad-report-fifo/summary.json" && mkfifo "$tmp/bad-report-fifo/summary.json"
check "report: a FIFO as summary.json is refused at once" refused_at_once \
  "bad-report-fifo/summary.json: cannot read file: is a FIFO" report "$tmp/bad-report-fifo"
# Without gnuplot, or with report.html a directory: refused before anything is written, and the
# message does not offer a --no-plot that report, run --report and compare --report do not have.
rm -rf "$tmp/report-no-gnuplot" && cp -r "$tmp/report-run" "$tmp/report-no-gnuplot"
check "report without gnuplot: exit 2, the outputs are said to be complete" fails_without_gnuplot \
  "; the report was not written, the outputs in $tmp/report-no-gnuplot are complete" report "$tmp/report-no-gnuplot"
check "report without gnuplot: no --no-plot offered" test -z "$(grep -e --no-plot "$tmp/stderr")"
check "report without gnuplot: nothing written" \
  test ! -e "$tmp/report-no-gnuplot/report" -a ! -e "$tmp/report-no-gnuplot/report.html"
# A run in which no job completed: its JCT statistics are null in summary.json and "-" in the
# report's table (they read 0 and 0.000).
if command -v gnuplot >/dev/null; then
  check "report of a run without a completed job" succeeds run -q small.json --set until=1s -o "$tmp/report-none" --report
  check "summary.json: no JCT mean without a completed job" python3 -c '
import json, sys
jct = json.load(open(sys.argv[1]))["metrics"]["jobs"]["jct_s"]
sys.exit(0 if jct["count"] == 0 and jct["mean"] is None and jct["p95"] is None else 1)' "$tmp/report-none/summary.json"
  check "report.html: no JCT percentile without a completed job" grep -q 'jct_s p50</th><td>-</td>' \
    "$tmp/report-none/report.html"
fi
rm -rf "$tmp/report-html-dir" && cp -r "$tmp/report-run" "$tmp/report-html-dir" && mkdir "$tmp/report-html-dir/report.html"
expect_bad_input "report: report.html a directory is refused" "$tmp/report-html-dir/report" \
  "report-html-dir/report.html: cannot write: it is a directory, not a file" report "$tmp/report-html-dir"
check "run --report without gnuplot: exit 2, the run's outputs are said to be complete" fails_without_gnuplot \
  "the outputs in $tmp/run-report-no-gnuplot are complete" run -q small.json --report -o "$tmp/run-report-no-gnuplot"
check "run --report without gnuplot: the run's outputs are written" \
  files_exist "$tmp/run-report-no-gnuplot" summary.json jobs.csv timeseries.csv
check "run --report without gnuplot: no half-written report" test ! -e "$tmp/run-report-no-gnuplot/report"
check "compare --report without gnuplot: exit 2, the outputs are said to be complete" fails_without_gnuplot \
  "the outputs in $tmp/compare-report-no-gnuplot are complete" \
  compare -q small.json --policies exclusive --report -o "$tmp/compare-report-no-gnuplot"
check "compare --report without gnuplot: no half-written report" test ! -e "$tmp/compare-report-no-gnuplot/report"
# ---- import k8s -------------------------------------------------------------------------

k8s=$src/tests/data/k8s
check "import k8s: two nodes and a Deployment" \
  succeeds import k8s --nodes "$k8s/two-nodes.json" --workload "$k8s/deployment-five-2gpu.yaml" -o imported.json
check "import k8s: the written scenario runs: four replicas run, one pends" \
  succeeds run imported.json --set until=10m -o imported-run -q
check "import k8s: the pending replica's reason is kube-scheduler's" \
  grep -q '0/2 nodes are available: 2 Insufficient nvidia.com/gpu.' imported-run/jobs.csv
check "import k8s: --set overrides the written scenario" \
  succeeds import k8s --nodes "$k8s/two-nodes.json" --set scheduler.placement=binpack -o cluster-only.json
check "import k8s: --set took" grep -q '"placement": "binpack"' cluster-only.json
check "describe-nodes on a cluster-only scenario" succeeds describe-nodes cluster-only.json
check "describe-nodes shows GFD's replicas and strategy labels" \
  test "$(grep -cE 'nvidia\.com/gpu\.(replicas=1|sharing-strategy=none)$' "$tmp/stdout")" = 4
expect_bad_input "run refuses a cluster-only scenario, located at the top level" "" \
  'cluster-only.json: (top level): missing key "workload"' run cluster-only.json -o nothing
check "import k8s: time-slicing ConfigMap" \
  succeeds import k8s --nodes "$k8s/timeslice-node.yaml" --device-plugin-config "$k8s/timeslice-configmap.yaml" \
  -o ts.json
check "describe-nodes: 16 nvidia.com/gpu.shared and the replicas label" \
  succeeds describe-nodes ts.json
check "describe-nodes: nvidia.com/gpu.shared 16, nvidia.com/gpu.replicas=4" \
  test "$(grep -cE '^ +nvidia\.com/gpu\.shared: +16$' "$tmp/stdout")" = 2 -a \
  "$(grep -c 'nvidia.com/gpu.replicas=4' "$tmp/stdout")" = 1
expect_bad_input "import k8s: bad YAML is located" "" "bad-yaml.yaml: line 6, column 1: YAML syntax error" \
  import k8s --nodes "$k8s/two-nodes.json" --workload "$k8s/bad-yaml.yaml" -o bad.json
check "import k8s: nothing written on error" test ! -e bad.json
expect_bad_input "import k8s: an unknown kind is located" "" 'unknown-kind.yaml: document 2, /kind: expected one of' \
  import k8s --nodes "$k8s/two-nodes.json" --workload "$k8s/unknown-kind.yaml" -o bad.json
# Priority preemption (docs/kubernetes.md "Priority preemption"): a high-priority pod evicts a
# low-priority replica; a pod without lower-priority victims, and one whose class never
# preempts, pend with kube-scheduler's PostFilter message.
check "import k8s: PriorityClasses and preemption" \
  succeeds import k8s --nodes "$k8s/two-nodes.json" --workload "$k8s/preemption-pods.yaml" -o preempt.json
check "import k8s: the classes are kept by name, preemption is on" \
  grep -q '"preemption_policy": "Never"' preempt.json
check "preemption: the run succeeds" succeeds run preempt.json --set until=10m -o preempt-run -q
check "preemption: the low-priority replica is evicted by the urgent pod" \
  grep -q '^low-trainer-0,.*,failed,.*,preempted,0,0,preempted by pod urgent-0 on node a100-80gb-0,' preempt-run/jobs.csv
check "preemption: the urgent pod runs" grep -q '^urgent-0,urgent,training,running,' preempt-run/jobs.csv
check "preemption: summary.json counts the eviction" \
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["metrics"]["jobs"]; sys.exit(not (j["killed"]["preempted"] == 1 and j["preemptions"] == 1))' \
  preempt-run/summary.json
check "preemption: no victim of lower priority: kube-scheduler's suffix" \
  grep -q '^low-latecomer-0,.*,0/2 nodes are available: 2 Insufficient nvidia.com/gpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.,' \
  preempt-run/jobs.csv
check "preemption: preemptionPolicy Never pends without evicting" \
  grep -q '^polite-0,.*,pending,.* preemption: not eligible due to preemptionPolicy=Never\.,$' preempt-run/jobs.csv
check "preemption: same scenario, same outputs" succeeds run preempt.json --set until=10m -o preempt-run2 -q
check "preemption: byte-identical jobs.csv and summary.json" \
  same_file preempt-run/jobs.csv preempt-run2/jobs.csv
check "preemption: byte-identical summary.json" same_file preempt-run/summary.json preempt-run2/summary.json
# Weighted score plugins from a KubeSchedulerConfiguration.
check "import k8s: --scheduler-config with two weighted score plugins" \
  succeeds import k8s --nodes "$k8s/two-nodes.json" --workload "$k8s/spread-pods.yaml" \
  --scheduler-config "$k8s/scheduler-config-weighted.yaml" -o weighted.json
check "import k8s: the plugins and weights are in score_plugins" \
  python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["scheduler"]["score_plugins"]; sys.exit(not ([(e["name"], e["weight"]) for e in p] == [("NodeResourcesFit", 5), ("NodeResourcesBalancedAllocation", 1)] and p[0]["strategy"] == "MostAllocated"))' \
  weighted.json
check "weighted scores: the run succeeds" succeeds run weighted.json --set until=10m -o weighted-run -q
check "weighted scores: GPU bin packing puts both pods on one node" \
  test "$(grep -c ',a100-80gb-0,' weighted-run/jobs.csv)" = 2
expect_bad_input "import k8s: an unknown scheduler plugin is located" "" \
  'bad-scheduler-config.yaml: document 1, /profiles/0/plugins/score/enabled/1/name: unknown plugin "NodeResourcesMostAllocated"' \
  import k8s --nodes "$k8s/two-nodes.json" --scheduler-config "$k8s/bad-scheduler-config.yaml" -o bad.json
check "import k8s: nothing written on a bad scheduler config" test ! -e bad.json
# What a pod asks for that changes its scheduling is modelled or refused, never dropped.
pod_yaml() {  # NAME SPEC_LINES...: a Pod manifest whose spec holds the lines given
  local name=$1
  shift
  printf 'apiVersion: v1\nkind: Pod\nmetadata: { name: %s }\nspec:\n' "$name"
  printf '  %s\n' "$@"
}
pod_yaml frac 'containers: [ { name: m, resources: { limits: { nvidia.com/gpu: "500m" } } } ]' >frac.yaml
expect_bad_input "import k8s: a fractional GPU count is refused, as Kubernetes refuses it" "" \
  'frac.yaml: document 1, /spec/containers/0/resources/limits/nvidia.com~1gpu: expected a whole number, found "500m"' \
  import k8s --nodes "$k8s/two-nodes.json" --workload frac.yaml -o bad.json
pod_yaml bound 'nodeName: node-1' 'containers: [ { name: m, resources: { limits: { nvidia.com/gpu: 1 } } } ]' >bound.yaml
expect_bad_input "import k8s: nodeName is refused" "" 'bound.yaml: document 1, /spec/nodeName: ' \
  import k8s --nodes "$k8s/two-nodes.json" --workload bound.yaml -o bad.json
pod_yaml spread 'topologySpreadConstraints: [ { maxSkew: 1 } ]' \
  'containers: [ { name: m, resources: { limits: { nvidia.com/gpu: 1 } } } ]' >spread.yaml
expect_bad_input "import k8s: topologySpreadConstraints are refused" "" \
  'spread.yaml: document 1, /spec/topologySpreadConstraints: topology spread constraints are not modelled' \
  import k8s --nodes "$k8s/two-nodes.json" --workload spread.yaml -o bad.json
pod_yaml volcano 'schedulerName: volcano' 'containers: [ { name: m, resources: { limits: { nvidia.com/gpu: 1 } } } ]' \
  >volcano.yaml
expect_bad_input "import k8s: another scheduler is refused" "" \
  'volcano.yaml: document 1, /spec/schedulerName: expected the default scheduler' \
  import k8s --nodes "$k8s/two-nodes.json" --workload volcano.yaml -o bad.json
printf 'apiVersion: batch/v1\nkind: Job\nmetadata: { name: j }\nspec:\n  suspend: true\n  template:\n    spec:\n      containers: [ { name: m } ]\n' >suspended.yaml
expect_bad_input "import k8s: a suspended Job is refused" "" 'suspended.yaml: document 1, /spec/suspend: ' \
  import k8s --nodes "$k8s/two-nodes.json" --workload suspended.yaml -o bad.json
printf -- '---\n---\n# nothing\n' >no-jobs.yaml
expect_bad_input "import k8s: workload files without a pod are refused" "" 'no-jobs.yaml: expected at least one Pod' \
  import k8s --nodes "$k8s/two-nodes.json" --workload no-jobs.yaml -o bad.json
pod_yaml hami 'containers: [ { name: m, resources: { limits: { nvidia.com/gpumem: 4000 } } } ]' >hami.yaml
expect_bad_input "import k8s: a request that cannot run is refused before writing, as validate refuses it" "" \
  'hami.yaml: document 1 (Pod hami), imported as /workload/jobs/0/request/limits: expected one device resource' \
  import k8s --nodes "$k8s/two-nodes.json" --workload hami.yaml -o bad.json
pod_yaml huge 'containers: [ { name: m, resources: { limits: { cpu: "100000000000000000000" } } } ]' >huge.yaml
expect_bad_input "import k8s: a quantity past any count is refused, not overflowed" "" \
  'huge.yaml: document 1, /spec/containers/0/resources/limits/cpu: expected at most 9007199254740992 millicores (2^53), found "100000000000000000000", too large' \
  import k8s --nodes "$k8s/two-nodes.json" --workload huge.yaml -o bad.json
check "import k8s: nothing written for the refused manifests" test ! -e bad.json
pod_yaml init 'initContainers:' \
  '  - { name: log, restartPolicy: Always, resources: { limits: { nvidia.com/gpu: 1, cpu: "1" } } }' \
  '  - { name: setup, resources: { limits: { cpu: "8" } } }' \
  'containers: [ { name: m, resources: { limits: { nvidia.com/gpu: 1, cpu: "2" } } } ]' >init.yaml
check "import k8s: init containers and a sidecar" \
  succeeds import k8s --nodes "$k8s/two-nodes.json" --workload init.yaml -o init.json
check "import k8s: the effective request: containers and sidecar 2 GPUs, the setup step with the sidecar 9 CPUs" \
  python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["workload"]["jobs"][0]["request"]
sys.exit(not (r["limits"] == {"nvidia.com/gpu": 2} and r["cpu_milli"] == 9000))' init.json
# 1Ei (2^60 bytes) is a quantity: read, then refused as no node could hold it, at the Pod.
pod_yaml ei 'containers: [ { name: m, resources: { requests: { memory: 1Ei } } } ]' >ei.yaml
expect_bad_input "import k8s: memory 1Ei is read, and a pod no node holds is refused at its manifest" "" \
  'ei.yaml: document 1 (Pod ei), imported as /workload/jobs/0/request/memory_mib: a pod asks for 1099511627776 memory_mib but the largest node has 503698' \
  import k8s --nodes "$k8s/two-nodes.json" --workload ei.yaml -o bad.json
expect_bad_input "import k8s: an empty -o is refused" "" '-o: expected the scenario file to write, found an empty path' \
  import k8s --nodes "$k8s/two-nodes.json" -o ''
python3 - "$k8s/two-nodes.json" >cordoned.json <<'PY'
import json, sys
nodes = json.load(open(sys.argv[1]))
nodes["items"][1]["spec"] = {"unschedulable": True}
json.dump(nodes, sys.stdout)
PY
check "import k8s: a cordoned node is left out" succeeds import k8s --nodes cordoned.json -o cordoned-cluster.json
check "import k8s: ... with a note naming it" \
  grep -q '^note: cordoned.json: document 1, /items/1/spec/unschedulable: Node "gpu-node-2" is cordoned' "$tmp/stderr"
check "import k8s: ... and one node in the pool" grep -q '"nodes": 1,' cordoned-cluster.json

# ---- measurement window, load scaling, service generators --------------------------------

check "summary.json names the active span it covers" python3 -c '
import json, sys
w = json.load(open(sys.argv[1]))["metrics_window"]
assert w["basis"] == "active span" and 0 < w["start_s"] < w["end_s"], w' "$tmp/small-1/summary.json"
check "run with a configured metrics_window" \
  succeeds run -q -o "$tmp/small-window" small.json --set 'metrics_window={"warmup_jobs": 10, "end": "2h"}'
check "summary.json names the configured window" python3 -c '
import json, sys
w = json.load(open(sys.argv[1]))["metrics_window"]
assert w["basis"] == "configured" and w["end_s"] == 7200 and w["warmup_jobs"] == 10, w' "$tmp/small-window/summary.json"
check "the window leaves jobs.csv as it was" same_file "$tmp/small-1/jobs.csv" "$tmp/small-window/jobs.csv"
check "run with workload.time_scale=2" succeeds run -q -o "$tmp/small-slow" small.json --set workload.time_scale=2
check "time_scale 2 doubles every arrival time exactly" python3 -c '
import csv, sys
from decimal import Decimal
base = [Decimal(r["submit_s"]) for r in csv.DictReader(open(sys.argv[1]))]
slow = [Decimal(r["submit_s"]) for r in csv.DictReader(open(sys.argv[2]))]
assert sorted(2 * b for b in base) == sorted(slow), (base[:3], slow[:3])' \
  "$tmp/small-1/jobs.csv" "$tmp/small-slow/jobs.csv"
expect_bad_input "load_factor 0" "$tmp/out-load0" "/workload/load_factor: expected a number > 0, found 0" \
  run -q -o "$tmp/out-load0" small.json --set workload.load_factor=0
expect_bad_input "time_scale not a number" "$tmp/out-ts" '/workload/generators/1/time_scale: expected a number > 0, found "fast"' \
  run -q -o "$tmp/out-ts" small.json --set workload.generators.1.time_scale=fast
expect_bad_input "load factors whose product overflows" "$tmp/out-lf" \
  "/workload/generators/0/load_factor: expected a number that, times the workload's load_factor, stays a finite number > 0" \
  run -q -o "$tmp/out-lf" small.json --set workload.load_factor=1e300 --set workload.generators.0.load_factor=1e300
expect_bad_input "metrics_window end before start" "$tmp/out-window" \
  "/metrics_window/end: expected an end later than the window's start (2h)" \
  run -q -o "$tmp/out-window" small.json --set 'metrics_window={"start": "2h", "end": "1h"}'
expect_bad_input "metrics_window start and warmup_jobs" "$tmp/out-window2" "/metrics_window/warmup_jobs: give the window's start" \
  run -q -o "$tmp/out-window2" small.json --set 'metrics_window={"start": "1h", "warmup_jobs": 3}'
expect_bad_input "metrics_window end after until" "" '/metrics_window/end: expected an end no later than "until" (1d' \
  validate small.json --set until=1d --set metrics_window.end=2d
expect_bad_input "metrics_window warmup_jobs negative" "" "/metrics_window/warmup_jobs: expected an integer >= 0, found -2" \
  validate small.json --set metrics_window.warmup_jobs=-2

cat >services.json <<'JSON'
{
  "name": "cli-services", "seed": 4, "until": "3h",
  "cluster": { "node_pools": [
    { "name": "a100", "nodes": 1, "gpu": "A100-80GB", "gpus_per_node": 4,
      "cpu_milli": 64000, "memory_mib": 262144, "sharing": { "policy": "timeslice", "replicas": 4 } } ] },
  "workload": { "generators": [
    { "name": "svc", "kind": "inference", "count": 3,
      "arrival": { "process": "poisson", "rate_per_s": 0.01 },
      "request": { "gpus": 1, "demand": { "sm": 0.5, "bw": 0.3 } },
      "mem_mib": { "dist": "uniform", "min": 4096, "max": 16384 },
      "requests": { "rate_per_s": { "dist": "lognormal", "mean": 1, "cv": 0.5 },
                    "work": { "dist": "exponential", "mean_s": 0.05 },
                    "slo_s": { "dist": "choice", "values": [0.2, 0.5] } },
      "lifetime": "2h" },
    { "name": "nb", "kind": "notebook", "count": 2, "replicas": 2,
      "arrival": { "process": "poisson", "rate_per_s": 0.005 },
      "request": { "gpus": 1, "demand": { "sm": 0.6, "bw": 0.3, "mem_mib": 8192 } },
      "active": { "dist": "exponential", "mean_s": 20 }, "idle": { "dist": "exponential", "mean_s": 120 },
      "session": "1h" } ] }
}
JSON
check "run a scenario with inference and notebook generators" succeeds run -q -o "$tmp/services-1" services.json
check "one services.csv row per generated service and notebook" \
  test "$(cut -d, -f1 "$tmp/services-1/services.csv" | grep -cE '^(svc-[0-2]|nb-[01])$')" = 5
check "generated services: same seed, same outputs" succeeds run -q -o "$tmp/services-2" services.json
check "generated services: diff -r finds only timing.json" \
  same_directory_but_timing "$tmp/services-1" "$tmp/services-2"
expect_bad_input "inference generator without a request stream" "$tmp/out-svc" \
  '/workload/generators/0/requests: missing required key "arrival" (or "rate_per_s", drawn per service)' \
  run -q -o "$tmp/out-svc" services.json --set 'workload.generators.0.requests={"work": {"dist": "constant", "mean_s": 1}}'
expect_bad_input "inference generator with slo and slo_s" "" \
  '/workload/generators/0/requests/slo_s: give "slo" (the same for every service) or "slo_s" (drawn per service), not both' \
  validate services.json --set workload.generators.0.requests.slo=1s
expect_bad_input "notebook generator with a training key" "" '/workload/generators/1/duration: unknown key "duration"' \
  validate services.json --set 'workload.generators.1.duration={"dist": "constant", "mean_s": 1}'
expect_bad_input "parameter law with a bad bound" "" "/workload/generators/0/mem_mib/min: expected a number > 0 and <= 1000000000000, found 0" \
  validate services.json --set workload.generators.0.mem_mib.min=0
expect_bad_input "generate refuses service generators" "" '/workload/generators/0/kind: a generator of kind "inference" makes services' \
  generate -o "$tmp/services.csv" services.json

# ---- help -------------------------------------------------------------------------------

check "--help exits 0" succeeds --help
check "--version exits 0" succeeds --version
check "--version names the version and the commit" grep -Eq '^sharesim [0-9]+\.[0-9]+\.[0-9]+ \(commit [^ )]+\)$' "$tmp/stdout"
# The commit is read on every build (cmake/BuildCommitScript.cmake), not when CMake configured:
# a build of this checkout names its current state.
if head_commit=$(git -C "$src" describe --always --dirty --abbrev=12 2>/dev/null); then
  check "--version names the checkout's current commit" grep -Fq "(commit $head_commit)" "$tmp/stdout"
fi

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
