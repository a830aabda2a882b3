# Reliability checks (docs/reliability.md), sourced by cli_test.sh: it defines $bin, $src, $tmp
# and the predicates (check, succeeds, expect_bad_input, same_file).
#
# 1. Every reproducer of issue 18 (tests/data/reliability/, copied from the fuzzing and
#    hand-made inputs) is one located error line, exit 2, nothing written.
# 2. The output set survives SIGKILL at random moments, a concurrent writer and a failing
#    write (the file size limit stands in for a full disk).

rel=$src/tests/data/reliability

# ---- 1. reproducers ---------------------------------------------------------------------

for name in hang-mmpp-allzero:/workload/generators/0/arrival/states \
  hang-mmpp-zero-stay:/workload/generators/0/arrival/states/0/mean_stay \
  internal-error-1e400:/workload/generators/0/arrival/rate_per_s \
  mem-nodes-1e12:"/cluster/node_pools/0/nodes: this scenario needs about" \
  mem-gang-zero-request-pods:"/workload/jobs/0/pods: this scenario needs about 400 GiB" \
  mem-timeseries-1ns:/output/timeseries_interval \
  silent-cost-null:/cost/gpu_hour \
  silent-duration-clamp-unreplayable:/workload/generators/0/duration/mean_s \
  silent-lognormal-cv-zero-durations:/workload/generators/0/duration/cv; do
  file=${name%%:*}
  expect_bad_input "reliability: $file is refused, located" "$tmp/rel-$file" "$file.json: ${name#*:}" \
    run "$rel/$file.json" -o "$tmp/rel-$file"
done
expect_bad_input "reliability: a memory refusal names its override" "$tmp/rel-mem" 'set "memory_limit_gib"' \
  run "$rel/mem-nodes-1e12.json" -o "$tmp/rel-mem"
expect_bad_input "reliability: validate refuses the oversized scenario too" "" "needs about" \
  validate "$rel/mem-nodes-1e12.json"
expect_bad_input "reliability: validate refuses a gang of 4294967295 pods asking for nothing" "" \
  "/workload/jobs/0/pods: this scenario needs about 400 GiB" validate "$rel/mem-gang-zero-request-pods.json"
sed 's/4294967295/4294967296/' "$rel/mem-gang-zero-request-pods.json" >gang-past-uint32.json
expect_bad_input "reliability: a pod count past what a job holds is refused, not wrapped to 0" "" \
  "gang-past-uint32.json: /workload/jobs/0/pods: expected an integer from 1 to 4294967295, found 4294967296" \
  validate gang-past-uint32.json --set memory_limit_gib=1000
expect_bad_input "reliability: a calibration profile with 1e400 is located" "" \
  "internal-error-calib-profile-1e400.json: /timeslice/default_slice_ns/value: expected a number within the range" \
  validate "$rel/internal-error-calib-profile-1e400.json"
for case in "philly internal-error-philly-1e400.json /x: expected a number within the range" \
  "philly philly-unterminated-accepted.json line 2: expected a job object or the end of the array (']'), found the end of the file" \
  "philly philly-trailing-garbage-accepted.json line 17: expected nothing after the array" \
  "philly ub-philly-date-overflow.json line 1, column attempts: expected a date from 1678 to 2261" \
  "helios ub-helios-date-overflow.csv line 2, column submit_time: expected a date" \
  "openb ub-openb-time-overflow.csv line 2, column creation_time: expected an integer from 0 to 9223372036" \
  "pai ub-pai-plan-cpu-overflow.csv line 1, column plan_cpu: expected a number whose millicores fit in 64 bits" \
  "pai ub-pai-plan-mem-overflow.csv line 1, column plan_mem: expected a number whose MiB fit in 64 bits"; do
  read -r format file needle <<<"$case"
  expect_bad_input "reliability: trace stats --format $format $file" "" "$file: $needle" \
    trace stats --format "$format" "$rel/$file"
done
expect_bad_input "reliability: an openb deletion time past 2262 in a run" "$tmp/rel-ob" \
  "column deletion_time: expected an integer from 0 to 9223372036" \
  run "$rel/ub-openb-deletion-overflow-scenario.json" -o "$tmp/rel-ob"
# pandas writes a missing deletion_time as "nan": the error names what was found, not "".
printf 'name,cpu_milli,memory_mib,num_gpu,gpu_milli,creation_time,deletion_time\np0,1000,1024,1,500,10,nan\n' \
  >openb-nan-deletion.csv
expect_bad_input "reliability: an openb deletion_time of nan is named as found" "" \
  'openb-nan-deletion.csv: line 2, column deletion_time: expected a deletion time (or a trace "end" to cut running pods at), found "nan"' \
  trace stats --format openb openb-nan-deletion.csv

# Smaller defects of issue 18.
expect_bad_input "reliability: -o '' is an error, not the default directory" "" "empty name" \
  run "$src/scenarios/demo-exclusive.json" -o ''
mkdir -p "$tmp/a-directory"
expect_bad_input "reliability: a directory as a trace is named as one" "" "is a directory" \
  trace stats --format helios "$tmp/a-directory"
mkfifo "$tmp/a-fifo"
# A FIFO would block open() forever; bounded by timeout so a regression fails instead of hanging.
expect_bad_input "reliability: a FIFO as a trace is refused at once" "" "not a regular file" \
  trace stats --format helios "$tmp/a-fifo"
printf '\xef\xbb\xbf' >"$tmp/bom.csv" && cat "$src/tests/data/traces/helios_small.csv" >>"$tmp/bom.csv"
check "reliability: a UTF-8 byte order mark before a CSV header is ignored" \
  succeeds trace stats --format helios "$tmp/bom.csv"
printf '\xef\xbb\xbf' >"$tmp/bom.trace" && cat "$src/tests/data/traces/gavel_small.trace" >>"$tmp/bom.trace"
check "reliability: a UTF-8 byte order mark before a Gavel trace's first job is ignored" \
  succeeds trace stats --format gavel "$tmp/bom.trace" --throughputs "$src/tests/data/traces/gavel_throughputs.json"
printf '\xef\xbb\xbf' >"$tmp/bom.json" && cat "$src/tests/data/traces/philly_small.json" >>"$tmp/bom.json"
check "reliability: a UTF-8 byte order mark before a Philly trace's array is ignored" \
  succeeds trace stats --format philly "$tmp/bom.json"
check "reliability: ... and its 3 jobs are read" grep -q '^jobs        3 ' "$tmp/stdout"

# ---- 2. the output set ------------------------------------------------------------------

# Big enough that writing takes a noticeable share of the run (about 1 MB of jobs.csv).
cat >kill.json <<'JSON'
{ "name": "kill", "seed": 1,
  "cluster": { "node_pools": [ { "name": "p", "nodes": 50, "gpu": "A100-80GB", "gpus_per_node": 8,
    "cpu_milli": 256000, "memory_mib": 2097152 } ] },
  "workload": { "generators": [ { "kind": "training", "count": 8000,
    "arrival": { "process": "poisson", "rate_per_s": 1 },
    "duration": { "dist": "exponential", "mean_s": 600 },
    "request": { "gpus": 1, "cpu_milli": 1000, "memory_mib": 1024 } } ] },
  "output": { "timeseries_interval": "1m", "event_log": true } }
JSON
check "reliability: reference run, seed 1" succeeds run kill.json -o ref1 -q --seed 1
check "reliability: reference run, seed 2" succeeds run kill.json -o ref2 -q --seed 2
# same_set DIR: DIR holds exactly ref1's or ref2's set (every file byte for byte but
# timing.json, which holds wall-clock figures and must only be there).
same_set() {
  local dir=$1 ref
  for ref in ref1 ref2; do
    if diff -rq -x timing.json "$ref" "$dir" >/dev/null 2>&1 && [[ -s $dir/timing.json ]]; then
      return 0
    fi
  done
  why="$dir is neither complete set: $(diff -rq ref1 "$dir" 2>&1 | head -3 | tr '\n' ' ')"
  return 1
}
check "reliability: a run into a fresh directory" succeeds run kill.json -o killed -q --seed 1
# Time one run to spread the kills over its whole length, writing included.
start_ns=$(date +%s%N)
"$bin" run kill.json -o timing -q --seed 1 >/dev/null 2>&1
run_ms=$((($(date +%s%N) - start_ns) / 1000000 + 1))
kill_failures=0
for trial in $(seq 1 12); do
  seed=$((trial % 2 + 1))
  "$bin" run kill.json -o killed -q --seed "$seed" >/dev/null 2>&1 &
  pid=$!
  sleep "$(awk -v ms="$run_ms" -v r="$RANDOM" 'BEGIN { printf "%.3f", ms * (r / 32767) * 1.1 / 1000 }')"
  kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  same_set killed || kill_failures=$((kill_failures + 1))
done
check "reliability: 12 runs killed (SIGKILL) at random moments each left one complete set" test "$kill_failures" = 0
check "reliability: the run after the kills replaces a staging leftover" succeeds run kill.json -o killed -q --seed 2
check "reliability: ... and leaves the seed-2 set" same_file ref2/jobs.csv killed/jobs.csv
check "reliability: ... and no staging directory" test ! -e .killed.partial

# Two writers of one directory: each either finishes or is refused by the lock; never a mix.
interleaved=0
for trial in 1 2 3; do
  "$bin" run kill.json -o both -q --seed 1 >/dev/null 2>"$tmp/both1.err" &
  a=$!
  "$bin" run kill.json -o both -q --seed 2 >/dev/null 2>"$tmp/both2.err" &
  b=$!
  wait "$a"
  wait "$b"
  same_set both || interleaved=$((interleaved + 1))
  for err in "$tmp/both1.err" "$tmp/both2.err"; do
    if [[ -s $err ]] && ! grep -q "another sharesim process is writing" "$err"; then interleaved=$((interleaved + 1)); fi
  done
done
check "reliability: concurrent runs into one directory never mix their files" test "$interleaved" = 0

# A write that fails half-way (the file size limit stands in for ENOSPC): exit 2, one line, the
# previous set intact, nothing left over.
check "reliability: a good set before the failing write" succeeds run kill.json -o full -q --seed 1
(
  ulimit -f 100
  trap '' XFSZ
  "$bin" run kill.json -o full -q --seed 2 >"$tmp/stdout" 2>"$tmp/stderr"
  echo $? >"$tmp/full.rc"
)
check "reliability: a failed write exits 2" test "$(cat "$tmp/full.rc")" = 2
check "reliability: ... with one error line naming the file" \
  test "$(grep -c '' "$tmp/stderr")" = 1 -a -n "$(grep 'sharesim: error: .*full/.*write failed' "$tmp/stderr")"
check "reliability: ... and leaves the previous set" same_file ref1/jobs.csv full/jobs.csv
check "reliability: ... complete" same_set full
check "reliability: ... without a staging directory" test ! -e .full.partial

mkdir -p foreign && echo mine >foreign/notes.txt
expect_bad_input "reliability: a directory of other files is not replaced" "" "found other files" \
  run kill.json -o foreign -q
check "reliability: ... and keeps its files" test "$(cat foreign/notes.txt)" = mine

# A missing Gavel throughputs table is named with the scenario key that points to it.
cat >gavel-missing.json <<JSON
{ "name": "gavel-missing",
  "cluster": { "node_pools": [ { "name": "p", "nodes": 2, "gpu": "V100-32GB", "gpus_per_node": 8,
    "cpu_milli": 256000, "memory_mib": 2097152 } ] },
  "workload": { "trace": { "format": "gavel", "path": "$src/tests/data/traces/gavel_small.trace",
    "throughputs": "no-such-throughputs.json" } } }
JSON
expect_bad_input "reliability: a missing Gavel throughputs file names its scenario key" "" \
  "gavel-missing.json: /workload/trace/throughputs: cannot read the throughputs file" validate gavel-missing.json

# validate with sort + skip_bad_rows warns about the skipped rows once, not twice.
cat >helios-sorted.json <<JSON
{ "name": "helios-sorted",
  "cluster": { "node_pools": [ { "name": "v100", "nodes": 2, "gpu": "V100-32GB", "gpus_per_node": 8,
    "cpu_milli": 64000, "memory_mib": 262144 } ] },
  "workload": { "trace": { "format": "helios", "path": "$src/tests/data/traces/helios_bad.csv",
    "sort": true, "skip_bad_rows": true } } }
JSON
check "reliability: validate with sort and skip_bad_rows" succeeds validate helios-sorted.json
check "reliability: ... warns about the skipped rows once" test "$(grep -c 'bad rows of 7' "$tmp/stderr")" = 1

# A resampled trace is read when its generator is built, and validate and generate build the
# workload twice (the run's, then their own): its skipped rows are still reported once.
cat >helios-resample.json <<JSON
{ "name": "helios-resample",
  "cluster": { "node_pools": [ { "name": "v100", "nodes": 2, "gpu": "V100-32GB", "gpus_per_node": 8,
    "cpu_milli": 64000, "memory_mib": 262144 } ] },
  "workload": { "generators": [ { "name": "r", "kind": "training", "count": 5,
    "arrival": { "process": "poisson", "rate_per_s": 0.05 },
    "resample": { "format": "helios", "path": "$src/tests/data/traces/helios_bad.csv", "skip_bad_rows": true } } ] } }
JSON
check "reliability: validate with a resampled trace and skip_bad_rows" succeeds validate helios-resample.json
check "reliability: ... warns about the resampled trace's skipped rows once" \
  test "$(grep -c 'bad rows of 7' "$tmp/stderr")" = 1
check "reliability: generate with a resampled trace and skip_bad_rows" \
  succeeds generate helios-resample.json -o "$tmp/helios-resample.csv"
check "reliability: ... warns about the resampled trace's skipped rows once" \
  test "$(grep -c 'bad rows of 7' "$tmp/stderr")" = 1
check "reliability: run with a resampled trace and skip_bad_rows" \
  succeeds run -q -o "$tmp/out-helios-resample" helios-resample.json
check "reliability: ... warns about the resampled trace's skipped rows once" \
  test "$(grep -c 'bad rows of 7' "$tmp/stderr")" = 1

# A misspelt optional openb column is an error, not a silently dropped GPU-model constraint.
sed '1s/gpu_spec/gpu_spc/' "$src/tests/data/traces/openb_small.csv" >openb-misspelt.csv
expect_bad_input "reliability: a misspelt openb gpu_spec column is refused" "" \
  'openb-misspelt.csv: line 1: expected a column "gpu_spec" (or none), found "gpu_spc"' \
  trace stats --format openb openb-misspelt.csv
