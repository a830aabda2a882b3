#!/bin/bash
# simsamples.sh BIN N: perf-record N runs of 1m.json; print samples in the simulation (ScenarioRun::run without compute_run_metrics) per run
b=$1; n=$2; sc=${3:-../speed-2026-11-27/1m.json}
for ((i=0;i<n;i++)); do
  rm -rf ${TMPDIR:-/tmp}/pout; perf record -q -g -o ${TMPDIR:-/tmp}/ss.perf $b run -q -o ${TMPDIR:-/tmp}/pout $sc >/dev/null 2>&1
  perf script -i ${TMPDIR:-/tmp}/ss.perf -F ip,sym 2>/dev/null | awk 'BEGIN{RS=""} /ScenarioRun::run/ && !/compute_run_metrics/ {n++} /vacate/ {v++} END {printf "%d(vacate %d) ", n, v}'
done; echo " $(basename $b)"
