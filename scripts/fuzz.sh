#!/usr/bin/env bash
# Runs every libFuzzer harness of a `fuzz` preset build for SECONDS each (docs/reliability.md
# "Fuzzing"). Each grows its own corpus under BUILD/corpus/NAME from the seeds listed in
# BUILD/fuzzers.txt; a crash leaves crash-* beside it and makes this script exit 1.
#   scripts/fuzz.sh BUILD_DIR SECONDS
set -u
build=$1
seconds=$2
status=0
while read -r program seeds; do
  name=$(basename "$program")
  corpus=$build/corpus/$name
  mkdir -p "$corpus" "$build/findings/$name"
  echo "== $name: ${seconds}s"
  # shellcheck disable=SC2086  # the seeds are separate paths
  if ! (cd "$build/findings/$name" && "$program" -max_total_time="$seconds" -rss_limit_mb=4096 -timeout=10 \
    "$corpus" $seeds 2>&1 | grep -E '^(#[0-9]+ *DONE|Done|==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)'); then
    :
  fi
  if ls "$build/findings/$name"/crash-* "$build/findings/$name"/timeout-* "$build/findings/$name"/oom-* >/dev/null 2>&1; then
    echo "$name: findings in $build/findings/$name"
    status=1
  fi
done <"$build/fuzzers.txt"
exit $status
