#!/usr/bin/env bash
# The prefetch hints of sim/core/prefetch_lines.h are still in the sharesim binary that was
# built, whatever its flags: prefetch_codegen_test.sh compiles a small use at -O2 and -O3, but
# the release build may add link-time optimisation, which sees and may delete more. A loop of
# bare prefetches deleted by GCC 12 made `e2e/1M-jobs-10k-gpus` 25 to 35% slower without any
# test noticing (docs/ci.md). Disassembles the functions that issue the hints and checks that
# prefetch instructions are left in each.
#
# Usage: prefetch_in_binary_test.sh SHARESIM_BINARY
# Exit 77 (skipped) without objdump and nm, on a stripped binary, or on an architecture whose
# prefetch instruction it does not know.
set -euo pipefail
bin=$1
source "$(dirname "$0")/prefetch_mnemonic.sh"
for tool in objdump nm; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool missing (Debian binutils)"; exit 77; }
done
symbols=$(nm "$bin" 2>/dev/null || true)
if [[ -z $symbols ]]; then
  echo "SKIP: $bin has no symbol table (stripped)"
  exit 77
fi

disassemble() { objdump -d --no-show-raw-insn --disassemble="$1" "$bin"; }
# Prefetch instructions in a function and in the functions of namespace sharesim that it calls
# or jumps to directly, down to three calls deep, each function counted once: without link-time
# optimisation CompletionHandler::prefetch jumps to ClusterRuntime::prefetch_job, and in the
# unoptimised dev build prefetch_lines is a call of its own.
prefetches() {
  local -A seen=()
  local frontier=("$1") next name code callee depth total=0
  seen[$1]=1
  for depth in 0 1 2 3; do
    next=()
    for name in "${frontier[@]}"; do
      code=$(disassemble "$name")
      total=$((total + $(grep -c "[[:space:]]$prefetch" <<<"$code" || true)))
      ((depth == 3)) && continue
      for callee in $(grep -oE '(call|jmp) +[0-9a-f]+ <_Z(Z?NK?)8sharesim[^+>]*>' <<<"$code" | sed -E 's/.*<(.*)>/\1/' | sort -u); do
        [[ -n ${seen[$callee]:-} ]] && continue
        seen[$callee]=1
        next+=("$callee")
      done
    done
    ((${#next[@]} == 0)) && break
    frontier=("${next[@]}")
  done
  echo "$total"
}

# FUNCTION (mangled) MINIMUM WHAT: the function must hold at least MINIMUM prefetch instructions.
# A function named here that is no longer in the binary fails the test: its hints moved, and this
# list must follow them.
checks=0
expect() {
  local mangled=$1 minimum=$2 what=$3 count
  if ! grep -q " $mangled\$" <<<"$symbols"; then
    echo "FAIL: $mangled ($what) is not in $bin; update tests/cli/prefetch_in_binary_test.sh"
    exit 1
  fi
  count=$(prefetches "$mangled")
  if ((count < minimum)); then
    echo "FAIL: $mangled ($what) has $count $prefetch instruction(s), expected at least $minimum"
    disassemble "$mangled" | head -80
    exit 1
  fi
  echo "  $what: $count $prefetch instruction(s)"
  checks=$((checks + 1))
}
# ClusterRuntime::CompletionHandler::prefetch: the next job's record (prefetch_lines).
expect _ZNK8sharesim14ClusterRuntime17CompletionHandler8prefetchEj 1 "a job's record before its completion"
# GpuUsageMeter::prefetch: a GPU's usage record (prefetch_lines).
expect _ZNK8sharesim13GpuUsageMeter8prefetchEj 1 "a GPU's usage record"
# RadixHeapQueue::refill_bucket_zero: the next block of a bucket's chain (drain, prefetch_lines)
# and the slot of a key that reaches level 0 (place, __builtin_prefetch).
expect _ZN8sharesim14RadixHeapQueue18refill_bucket_zeroEv 2 "the event queue's next block and a near key's slot"
echo "prefetch_in_binary: $checks functions checked in $bin"
