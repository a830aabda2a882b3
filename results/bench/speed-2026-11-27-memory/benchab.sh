#!/bin/bash
# benchab.sh FILTER SESSIONS BENCH_A BENCH_B: alternating sessions of --benchmark_repetitions=3;
# prints each session's median real time (ms) of A and B
f=$1; n=$2; a=$3; b=$4
for ((i=0;i<n;i++)); do
  line=""
  for x in $a $b; do
    $x --benchmark_filter="$f" --benchmark_repetitions=3 --benchmark_format=json 2>/dev/null > /tmp/sp/benchab.json
    line="$line $(python3 -c "
import json; d=json.load(open('/tmp/sp/benchab.json'))
print([b['real_time'] for b in d['benchmarks'] if b['name'].endswith('_median')][0])")"
  done
  echo $line
done | awk '{printf "%.0f / %.0f\n", $1, $2; if ($2<$1) fb++} END {printf "B faster in %d of %d sessions\n", fb, NR}'
