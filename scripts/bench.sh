#!/usr/bin/env bash
# `make bench`: runs the Google Benchmark suite (release build), writes its JSON to
# results/bench/latest.json and compares it with the committed baseline
# results/bench/baseline.json using Google Benchmark's compare.py (Debian libbenchmark-tools;
# its Mann-Whitney U test needs python3-scipy). Fails (exit 1) when a benchmark's median CPU time
# is more than BENCH_THRESHOLD (default 0.15 = 15%) above the baseline's AND the U test says
# the difference is significant (p < BENCH_ALPHA, default 0.05). See docs/ci.md.
#
#   scripts/bench.sh [BENCH_BINARY]            run, compare
#   BENCH_UPDATE=1 scripts/bench.sh            run, then make the run the new baseline
#   BENCH_FILTER=policy/ scripts/bench.sh      only the benchmarks matching a regex
set -euo pipefail
cd "$(dirname "$0")/.."
bench=${1:-build/release/tests/bench/sharesim_bench}
repetitions=${BENCH_REPETITIONS:-5}
threshold=${BENCH_THRESHOLD:-0.15}
alpha=${BENCH_ALPHA:-0.05}
filter=${BENCH_FILTER:-.}
compare=/usr/share/benchmark/compare.py
python=/usr/bin/python3  # Debian's, which has scipy (a pyenv python on PATH may not)
baseline=results/bench/baseline.json
latest=results/bench/latest.json

mkdir -p results/bench
"$bench" --benchmark_filter="$filter" --benchmark_repetitions="$repetitions" \
  --benchmark_counters_tabular=true --benchmark_out="$latest" --benchmark_out_format=json
echo "bench: wrote $latest"

if [[ -n ${BENCH_UPDATE:-} ]]; then
  cp "$latest" "$baseline"
  echo "bench: $baseline updated; commit it"
  exit 0
fi
if [[ ! -f $baseline ]]; then
  echo "bench: no $baseline to compare with (BENCH_UPDATE=1 makes one)"
  exit 0
fi
if [[ ! -f $compare ]]; then
  echo "bench: $compare missing (Debian package libbenchmark-tools)" >&2
  exit 2
fi
"$python" "$compare" -a --alpha "$alpha" -d results/bench/compare.json benchmarks "$baseline" "$latest"
"$python" tests/bench/slowdown_check.py results/bench/compare.json "$threshold" "$alpha"
