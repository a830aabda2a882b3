#!/usr/bin/env bash
# scripts/check_byte_identity.sh (the before/after check of a refactoring, issue 13) must pass a
# binary compared with itself, catch a binary whose results differ (here the same binary behind a
# wrapper that changes the seed of every `run`) and fail a run cut short by its time limit.
#
#   bash tests/cli/byte_identity_test.sh PATH/TO/sharesim SOURCE_DIR
set -u
bin=$(realpath "$1")
src=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# Two small scenarios and compare's every-policy case keep this short.
export BYTE_IDENTITY_FILTER='two-nodes-exclusive|notebooks-timeslice|compare_all_policies'

if "$src/scripts/check_byte_identity.sh" "$bin" "$bin" "$work/same" >"$work/same.log" 2>&1; then
  if ! grep -q '^3 cases, 0 different' "$work/same.log"; then
    echo "FAIL: expected 3 identical cases:"; cat "$work/same.log"; failures=$((failures + 1))
  fi
else
  echo "FAIL: a binary compared with itself was reported different:"; cat "$work/same.log"; failures=$((failures + 1))
fi

cat >"$work/other_seed.sh" <<WRAPPER
#!/usr/bin/env bash
if [[ \$1 == run ]]; then exec "$bin" "\$@" --seed 99; fi
exec "$bin" "\$@"
WRAPPER
chmod +x "$work/other_seed.sh"
"$src/scripts/check_byte_identity.sh" "$bin" "$work/other_seed.sh" "$work/differ" >"$work/differ.log" 2>&1
status=$?
if [[ $status -ne 1 ]] || ! grep -q '^3 cases, 2 different' "$work/differ.log" ||
   ! grep -q '^same      compare_all_policies' "$work/differ.log"; then
  echo "FAIL: expected exit 1 with the two runs different and compare the same, got exit $status:"
  cat "$work/differ.log"; failures=$((failures + 1))
fi

# A run cut short by the time limit is not a pass: nothing was compared.
BYTE_IDENTITY_FILTER='two-nodes-exclusive' BYTE_IDENTITY_TIMEOUT=0.001 \
  "$src/scripts/check_byte_identity.sh" "$bin" "$bin" "$work/timeout" >"$work/timeout.log" 2>&1
status=$?
if [[ $status -ne 1 ]] || ! grep -q '^TIMED OUT' "$work/timeout.log"; then
  echo "FAIL: expected exit 1 and TIMED OUT for runs cut short, got exit $status:"
  cat "$work/timeout.log"; failures=$((failures + 1))
fi

if [[ $("$src/scripts/check_byte_identity.sh" "$bin" 2>&1; echo "exit $?") != *"exit 2" ]]; then
  echo "FAIL: a missing argument must exit 2"; failures=$((failures + 1))
fi

[[ $failures -eq 0 ]] && echo "byte identity script: 4 checks passed"
[[ $failures -eq 0 ]]
