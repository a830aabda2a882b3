#!/usr/bin/env bash
# The architect's question (docs/architect.md) end to end, on a short horizon: `compare` with
# per-pool sharing variants of scenarios/architect-h100.json prints a verdict and each
# service's own rows, and `size` answers "GPUs needed" per variant in size.json, including a
# variant no size satisfies. Checks the shape of the answer, not its numbers.
#
#   bash tests/cli/architect_test.sh PATH/TO/sharesim SOURCE_DIR
set -u
cli_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
scenario=$src/scenarios/architect-h100.json
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sharesim-architect.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2

# shellcheck source=command_checks.sh
source "$cli_dir/command_checks.sh"
json_check() {  # FILE PYTHON_EXPRESSION over `d` (the parsed file)
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' "$1" "$2"
}

variants=inf-exclusive,inf-mps2,inf-mig-1g10
check "architect-h100 validates" "$bin" validate "$scenario"
check "compare, per-pool variants, 2 minutes" \
  "$bin" compare "$scenario" --policies "$variants" --set until=2m -o compare
cp "$tmp/out" compare.out
check "the table has each service's own p99 and SLO rows" \
  grep -q "^  llama2-7b p99 (s) .*$" compare.out
check "the table has the SD service's SLO attainment row" grep -q "^  sd15 SLO attainment " compare.out
check "a verdict follows the table" grep -q "^verdict$" compare.out
check "the verdict has one line per service" \
  bash -c "grep -c '^  service \"' compare.out | grep -qx 4"
check "the verdict ends with every objective together" grep -q "^  every objective above: " compare.out
check "the MIG 1g.10gb variant kills Llama-2 pods (12.6 GiB) and misses the placement line" \
  bash -c "grep '^  every job started by the end, none killed by its placement' compare.out | grep -qv 'inf-mig-1g10[;,]'"
check "compare.json: verdict, a row per variant, failed jobs counted" json_check compare/compare.json \
  'len(d["verdict"]) == 6 and [p["variant"] for p in d["policies"]] == ["inf-exclusive", "inf-mps2", "inf-mig-1g10"] and d["policies"][2]["jobs_failed"] > 0'
check "each variant's services.csv has the four services" \
  bash -c "for v in inf-exclusive inf-mps2 inf-mig-1g10; do [[ \$(grep -c inference compare/\$v/services.csv) -eq 4 ]] || exit 1; done"

if command -v gnuplot >/dev/null; then
  check "compare --report: one latency plot per service when several variants serve several services" \
    bash -c "'$bin' report compare >/dev/null && [[ \$(grep -c '<div class=\"plot\" id=\"latency-cdf-' compare/report.html) -eq 4 ]] && test -f compare/report/latency-cdf-llama2-7b.gp && grep -q 'SLO 0.769 s' compare/report.html"
else
  echo "skip - compare --report: gnuplot absent"
fi

check "size the inference pool per variant, 2 minutes, 1 seed" \
  "$bin" size "$scenario" --pool inference --seeds 1 --max-nodes 8 --set until=2m -j 2 \
  --variants "$variants" \
  --target 'metrics.jobs.never_started<=0' --target 'metrics.jobs.failed<=0' \
  --target 'metrics.services.0.slo_attainment>=0.99' --target 'metrics.services.1.slo_attainment>=0.99' \
  --target 'metrics.services.2.slo_attainment>=0.99' --target 'metrics.services.3.slo_attainment>=0.99' \
  -o size
cp "$tmp/out" size.out
check "size prints the GPUs-needed line, a number or none per variant" \
  grep -qE "^GPUs needed: inf-exclusive [0-9]+, inf-mps2 [0-9]+, inf-mig-1g10 none up to 64$" size.out
check "size says which variant no size satisfies" \
  grep -q "^pool inference under inf-mig-1g10: no size up to 8 nodes meets every target" size.out
check "size.json: nodes and GPUs per variant, met or not" json_check size/size.json \
  'd["pool"] == "inference" and [v["variant"] for v in d["variants"]] == ["inf-exclusive", "inf-mps2", "inf-mig-1g10"] and all(v["met"] == (v["nodes"] is not None) for v in d["variants"]) and d["variants"][0]["gpus"] == 8 * d["variants"][0]["nodes"] and not d["variants"][2]["met"] and d["variants"][2]["at_size"]["nodes"] == 8'
check "size reuses its runs when started again" \
  bash -c "before=\$(ls size/runs | wc -l); '$bin' size '$scenario' --pool inference --seeds 1 --max-nodes 8 --set until=2m --variants inf-exclusive --target 'metrics.jobs.never_started<=0' -o size -q && [[ \$(ls size/runs | wc -l) -eq \$before ]]"

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
