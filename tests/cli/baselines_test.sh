#!/usr/bin/env bash
# Results regression: runs every shipped scenario that has a baseline in results/baselines/
# (results/baselines/NAME/summary.json for scenarios/NAME.json) and checks the run against it
# with `sharesim check` (docs/ci.md). With --update, rewrites every baseline instead.
#
#   bash tests/cli/baselines_test.sh PATH/TO/sharesim SOURCE_DIR [--update] [--junit-dir DIR]
#
# Exit 0 when every run matches its baseline, 1 when one moved beyond tolerance, 2 on a
# usage error. A scenario that replays the real traces beside the repository is skipped,
# saying so, when they are absent.
set -u

if [[ $# -lt 2 ]]; then
  echo "usage: $0 SHARESIM_BINARY SOURCE_DIR [--update] [--junit-dir DIR]" >&2
  exit 2
fi
bin=$1
src=$(cd "$2" && pwd)
shift 2
update=""
junit_dir=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --update) update="--update" ;;
    --junit-dir)
      # Without its argument "$2" is unset, which set -u made exit 1 (a usage error is 2).
      if [[ $# -lt 2 || -z $2 ]]; then
        echo "--junit-dir: expected a directory, found none" >&2
        exit 2
      fi
      junit_dir=$2
      shift
      ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
  shift
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sharesim-baselines.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

checked=0
failed=0
for baseline in "$src"/results/baselines/*/; do
  name=$(basename "$baseline")
  scenario=$src/scenarios/$name.json
  if [[ ! -f $scenario ]]; then
    echo "FAIL - $name: results/baselines/$name has no scenarios/$name.json"
    failed=$((failed + 1))
    continue
  fi
  if grep -q '"\.\./\.\./shared/data/' "$scenario" && [[ ! -d $src/../shared/data ]]; then
    echo "skip - $name: $src/../shared/data absent"
    continue
  fi
  if ! (cd "$src" && "$bin" run -q -o "$tmp/$name" "$scenario"); then
    echo "FAIL - $name: the run failed"
    failed=$((failed + 1))
    continue
  fi
  junit=()
  [[ -n $junit_dir ]] && junit=(--junit "$junit_dir/$name.xml")
  if "$bin" check "$tmp/$name" --baseline "$baseline" ${update:+"$update"} "${junit[@]}" >"$tmp/$name.out" 2>&1; then
    echo "ok - $name: $(tail -n 1 "$tmp/$name.out")"
  else
    echo "FAIL - $name"
    cat "$tmp/$name.out"
    failed=$((failed + 1))
  fi
  checked=$((checked + 1))
done
echo "$checked baselines checked, $failed failed"
[[ $checked -gt 0 && $failed -eq 0 ]]
