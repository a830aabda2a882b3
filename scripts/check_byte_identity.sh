#!/usr/bin/env bash
# Checks that two sharesim builds write byte-identical outputs for every scenario the project
# ships (scenarios/, tests/data, results/baselines): the acceptance check of a refactoring that
# must not change results (issue 13). timing.json holds host-dependent figures and is left out.
#
# Usage: scripts/check_byte_identity.sh BEFORE_BINARY AFTER_BINARY [WORK_DIR]
#   Each scenario is run by both binaries with `run`, and compare-sharing.json also with
#   `compare` over every built-in policy and with slice-level fidelity. A case is the same when
#   both exit with the same code, print the same stdout and stderr and write the same files.
#   Files that are not scenarios (no top-level "cluster" object) are skipped.
#   BYTE_IDENTITY_FILTER=REGEX keeps only the cases whose name matches (extended regex).
# Exit: 0 when every case is the same, 1 when one differs or times out, 2 on bad usage.
set -euo pipefail

if [[ $# -lt 2 || $# -gt 3 ]]; then
  echo "usage: $0 BEFORE_BINARY AFTER_BINARY [WORK_DIR]" >&2
  exit 2
fi
before=$(realpath "$1")
after=$(realpath "$2")
for binary in "$before" "$after"; do
  if [[ ! -x $binary ]]; then
    echo "$0: $binary: expected an executable sharesim binary" >&2
    exit 2
  fi
done
root=$(cd "$(dirname "$0")/.." && pwd)
work=${3:-$(mktemp -d)}
mkdir -p "$work"
per_case_timeout=${BYTE_IDENTITY_TIMEOUT:-300}

# Scenario files: JSON with a top-level "cluster" object.
mapfile -t scenarios < <(cd "$root" && find scenarios tests/data results/baselines -name '*.json' -size -20M 2>/dev/null |
  sort | python3 -c '
import json, sys
for path in sys.stdin.read().split():
    try:
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
    except (ValueError, UnicodeDecodeError):
        continue
    if isinstance(document, dict) and isinstance(document.get("cluster"), dict):
        print(path)
')

cases=0
differing=0
# run_case NAME ARGS...: runs both binaries in their own directory under $work/NAME and compares.
run_case() {
  local name=$1
  shift
  if [[ -n ${BYTE_IDENTITY_FILTER:-} && ! $name =~ $BYTE_IDENTITY_FILTER ]]; then
    return
  fi
  local side binary
  for side in before after; do
    binary=$before
    [[ $side == after ]] && binary=$after
    rm -rf "$work/$name/$side"
    mkdir -p "$work/$name/$side"
    # The same relative output path on both sides, so messages that name it are comparable.
    (cd "$work/$name/$side" && set +e
      timeout "$per_case_timeout" "$binary" "$@" >stdout.txt 2>stderr.txt
      echo $? >exit_code.txt
      # compare's closing line reports the host's wall time ("0.443 s wall"): not a result.
      sed -i -E 's/[0-9.]+ s wall/(wall time) s wall/' stdout.txt)
  done
  cases=$((cases + 1))
  if [[ $(cat "$work/$name/before/exit_code.txt") == 124 || $(cat "$work/$name/after/exit_code.txt") == 124 ]]; then
    differing=$((differing + 1))  # nothing to compare: not a pass
    echo "TIMED OUT $name (after ${per_case_timeout} s; BYTE_IDENTITY_TIMEOUT sets the limit)"
  elif diff -r --exclude=timing.json "$work/$name/before" "$work/$name/after" >"$work/$name/diff.txt" 2>&1; then
    echo "same      $name"
  else
    differing=$((differing + 1))
    echo "DIFFERENT $name (see $work/$name/diff.txt)"
    head -n 20 "$work/$name/diff.txt" | sed 's/^/    /'
  fi
}

for scenario in "${scenarios[@]}"; do
  name=$(echo "$scenario" | tr '/' '_')
  run_case "run_$name" run "$root/$scenario" -o out -q
done
run_case compare_all_policies compare "$root/scenarios/compare-sharing.json" \
  --policies exclusive,timeslice,mps,mig,vgpu,fractional -o out
run_case run_slice_level run "$root/scenarios/compare-sharing.json" -o out -q \
  --set 'cluster.node_pools.0.sharing={"policy":"timeslice","replicas":4,"fidelity":"slice"}' \
  --set until=1h

echo "$cases cases, $differing different (work directory: $work)"
[[ $differing -eq 0 ]]
