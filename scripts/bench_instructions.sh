#!/usr/bin/env bash
# Instructions executed by each benchmark, for two builds of sharesim_bench side by side: the
# count valgrind's cachegrind takes of the benchmark process (user space). Unlike times, it does
# not move with the machine's load, so it shows a change of a few percent that the timings of a
# shared or virtual machine (which swing by 1.5x run to run) cannot (docs/ci.md "Speed").
#
#   scripts/bench_instructions.sh BEFORE_BENCH AFTER_BENCH [REGEX]
#
# Each benchmark matching REGEX (default: every one) runs once per binary under cachegrind with
# --benchmark_min_time=0 (one iteration, or the benchmark's fixed count), one after the other
# (the +outputs benchmarks write to one shared directory). Prints a table of the two counts
# and after/before. Exit: 0, or 2 on bad usage or when valgrind or a benchmark fails.
set -euo pipefail
if [[ $# -lt 2 || $# -gt 3 ]]; then
  echo "usage: $0 BEFORE_BENCH AFTER_BENCH [REGEX]" >&2
  exit 2
fi
before=$1
after=$2
filter=${3:-.}
for binary in "$before" "$after"; do
  if [[ ! -x $binary ]]; then
    echo "$0: $binary: expected an executable sharesim_bench binary" >&2
    exit 2
  fi
done
if ! command -v valgrind >/dev/null; then
  echo "$0: valgrind not found (Debian package valgrind; scripts/install-deps.sh installs it)" >&2
  exit 2
fi

count() {  # BINARY NAME: the instructions one run of benchmark NAME executes
  local name_regex out
  name_regex="^$(printf '%s' "$2" | sed 's/[][\.*^$+?(){}|]/\\&/g')\$"
  if ! out=$(valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$1" \
    --benchmark_filter="$name_regex" --benchmark_min_time=0 2>&1); then
    echo "$0: $1 failed on $2:" >&2
    printf '%s\n' "$out" | tail -5 >&2
    exit 2
  fi
  printf '%s\n' "$out" | awk '/I +refs:/ { gsub(",", "", $NF); print $NF }'
}

mapfile -t names < <("$after" --benchmark_list_tests --benchmark_filter="$filter")
if [[ ${#names[@]} -eq 0 ]]; then
  echo "$0: no benchmark matches $filter" >&2
  exit 2
fi
printf '%-44s %16s %16s %8s\n' benchmark "before (instr.)" "after (instr.)" after/before
for name in "${names[@]}"; do
  b=$(count "$before" "$name")
  a=$(count "$after" "$name")
  awk -v n="$name" -v b="$b" -v a="$a" 'BEGIN { printf "%-44s %16.0f %16.0f %8.3f\n", n, b, a, a / b }'
done
