#!/usr/bin/env bash
# make bench's verdict (scripts/bench.sh): Google Benchmark's compare.py on two synthetic
# result files, then tests/bench/slowdown_check.py. The same results pass; 50% more CPU time in
# every repetition fails (U test p < 0.05 with 5 repetitions); 5% more passes (below 15%).
set -u
src=$(cd "$1" && pwd)
compare=/usr/share/benchmark/compare.py
if [[ ! -f $compare ]] || ! /usr/bin/python3 -c 'import scipy' 2>/dev/null; then
  echo "bench_compare: skipped: $compare or python3-scipy absent (scripts/install-deps.sh installs them)"
  exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sharesim-bench-check.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 - "$tmp" <<'PY'
import json, sys
def results(factor):
    rows = [{"name": "e2e/x", "run_name": "e2e/x", "run_type": "iteration", "repetitions": 5,
             "repetition_index": i, "iterations": 1, "real_time": (100 + i) * factor,
             "cpu_time": (100 + i) * factor, "time_unit": "ms"} for i in range(5)]
    return {"context": {"date": "", "host_name": "", "executable": "", "num_cpus": 2, "mhz_per_cpu": 2000,
                        "caches": [], "library_build_type": "release"}, "benchmarks": rows}
for name, factor in (("base", 1.0), ("same", 1.0), ("slower", 1.5), ("noise", 1.05)):
    json.dump(results(factor), open(f"{sys.argv[1]}/{name}.json", "w"))
PY
failed=0
verdict() {  # NAME EXPECTED_EXIT
  /usr/bin/python3 "$compare" -d "$tmp/$1-cmp.json" benchmarks "$tmp/base.json" "$tmp/$1.json" >/dev/null 2>&1
  python3 "$src/tests/bench/slowdown_check.py" "$tmp/$1-cmp.json" 0.15 0.05 >"$tmp/out" 2>&1
  local rc=$?
  if [[ $rc -eq $2 ]]; then echo "ok - $1: exit $rc"; else echo "FAIL - $1: exit $rc, expected $2: $(cat "$tmp/out")"; failed=1; fi
}
verdict same 0
verdict slower 1
verdict noise 0
exit $failed
