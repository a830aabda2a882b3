#!/usr/bin/env bash
# docs/validation.md "Framework jobs: PyTorch" against a recomputation: the PyTorch co-runs measured
# on an H100 (results/calibration/raw/*-torch-coruns-*.json), predicted by `sharesim corun` from the
# jobs' nvidia-smi readings alone (kernels/frameworks/torch_corun_check.py). Every line it prints must
# be in the doc; a bad raw file is one line and exit 2.
#
#   bash tests/cli/torch_corun_check_test.sh PATH/TO/sharesim SOURCE_DIR
set -u
bin=$1
src=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sharesim-torch-check.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
pass() { echo "ok - $1"; passed=$((passed + 1)); }
fail() { echo "FAIL - $1: $2"; failed=$((failed + 1)); }

raw=$src/results/calibration/raw/H100-80GB-torch-coruns-20261125.json
if python3 "$src/kernels/frameworks/torch_corun_check.py" "$raw" "$bin" >"$tmp/report.md" 2>"$tmp/err.txt"; then
  pass "the check runs"
else
  fail "the check runs" "$(cat "$tmp/err.txt")"
fi
lines=0
missing=0
while IFS= read -r line; do
  [[ -z $line ]] && continue
  lines=$((lines + 1))
  if ! grep -qF -- "$line" "$src/docs/validation.md"; then
    missing=$((missing + 1))
    echo "docs/validation.md lacks: $line"
  fi
done <"$tmp/report.md"
# summary: header, rule, 2 rows; cases: header, rule, 11 groups
if [[ $lines -eq 17 && $missing -eq 0 ]]; then pass "every line is in docs/validation.md"; else
  fail "every line is in docs/validation.md" "$lines lines, $missing missing"
fi

echo '{"format": "other"}' >"$tmp/bad.json"
python3 "$src/kernels/frameworks/torch_corun_check.py" "$tmp/bad.json" "$bin" >/dev/null 2>"$tmp/err.txt"
code=$?
if [[ $code -eq 2 && $(wc -l <"$tmp/err.txt") -eq 1 ]] && grep -q '/format: expected "sharesim-torch-coruns/1"' "$tmp/err.txt"; then
  pass "a bad raw file: exit 2, one line naming the pointer"
else
  fail "a bad raw file: exit 2, one line naming the pointer" "exit $code: $(cat "$tmp/err.txt")"
fi

echo "torch_corun_check: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
