#!/usr/bin/env bash
# Runs every libFuzzer harness of a `fuzz` preset build for SECONDS each, JOBS at a time
# (docs/reliability.md "Fuzzing"). Each grows its own corpus under BUILD/corpus/NAME from the
# seeds listed in BUILD/fuzzers.txt; a crash, timeout or out-of-memory input is left in
# BUILD/findings/NAME and makes this script exit 1. Prints one line per harness (executions,
# corpus size, findings) and writes the same table to BUILD/fuzz-summary.txt.
#   scripts/fuzz.sh BUILD_DIR SECONDS [JOBS]
set -u
build=$1
seconds=$2
jobs=${3:-1}
build=$(cd "$build" && pwd)

fuzz_one() {  # PROGRAM SEEDS...: one harness; its log in BUILD/findings/NAME/fuzz.log
  local program=$1
  shift
  local name corpus findings
  name=$(basename "$program")
  corpus=$build/corpus/$name
  findings=$build/findings/$name
  mkdir -p "$corpus" "$findings"
  # libFuzzer takes corpus folders only: seed files are copied into one of the harness's own.
  local seeds=$build/seeds/$name
  local folders=()
  rm -rf "$seeds" && mkdir -p "$seeds"
  for seed in "$@"; do
    if [[ -d $seed ]]; then folders+=("$seed"); else cp "$seed" "$seeds/"; fi
  done
  # -print_final_stats gives stat::number_of_executed_units; each finding is written as
  # crash-*/timeout-*/oom-* into the findings folder (-artifact_prefix).
  (cd "$findings" && "$program" -max_total_time="$seconds" -rss_limit_mb=4096 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$findings/" "$corpus" "$seeds" "${folders[@]}" >fuzz.log 2>&1)
  local executions units found
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$findings/fuzz.log" | tail -n 1)
  units=$(find "$corpus" -type f | wc -l)
  found=$(find "$findings" -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' | wc -l)
  printf '%-22s %8ss %12s executions %6s corpus files %3s findings\n' "$name" "$seconds" "${executions:-?}" "$units" "$found"
}
export -f fuzz_one
export build seconds

echo "== ${seconds}s per harness, $jobs at a time"
# shellcheck disable=SC2016  # expanded by the inner shell
xargs -P "$jobs" -L 1 bash -c 'fuzz_one "$@"' _ <"${FUZZERS_LIST:-$build/fuzzers.txt}" | tee "$build/fuzz-summary.txt"
if grep -qv ' 0 findings$' "$build/fuzz-summary.txt"; then
  echo "findings: see $build/findings/*/ (crash-*, timeout-*, oom-*)"
  exit 1
fi
