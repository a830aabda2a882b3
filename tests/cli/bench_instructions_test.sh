#!/usr/bin/env bash
# scripts/bench_instructions.sh: a binary against itself counts the same instructions (ratio
# 1.000), and bad usage exits 2. Usage: bench_instructions_test.sh SHARESIM_BENCH
set -euo pipefail
bench=$1
script=$(cd "$(dirname "$0")/../.." && pwd)/scripts/bench_instructions.sh
out=$("$script" "$bench" "$bench" '^hold/radix-heap/1000$')
echo "$out"
line=$(printf '%s\n' "$out" | grep '^hold/radix-heap/1000 ')
read -r _ before after ratio <<<"$line"
[[ $before -gt 1000000 ]] || { echo "FAIL: expected over a million instructions, got $before"; exit 1; }
[[ $ratio == 1.000 ]] || { echo "FAIL: the same binary gave ratio $ratio"; exit 1; }
set +e
"$script" "$bench" 2>/dev/null
[[ $? -eq 2 ]] || { echo "FAIL: one argument should exit 2"; exit 1; }
"$script" "$bench" /nonexistent/bench 2>/dev/null
[[ $? -eq 2 ]] || { echo "FAIL: a missing binary should exit 2"; exit 1; }
"$script" "$bench" "$bench" '^no-such-benchmark$' 2>/dev/null
[[ $? -eq 2 ]] || { echo "FAIL: a filter matching nothing should exit 2"; exit 1; }
echo "bench_instructions: 4 checks passed"
