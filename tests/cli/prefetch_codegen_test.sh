#!/usr/bin/env bash
# sim/core/prefetch_lines.h survives optimisation: GCC 12 at -O3 deleted a loop of bare
# __builtin_prefetch calls, which made `e2e/1M-jobs-10k-gpus` 25 to 35% slower without any test
# noticing (docs/ci.md). Compiles a use of each function the way the release build does and
# checks that prefetch instructions are left. Usage: prefetch_codegen_test.sh CXX SOURCE_DIR
# Exit 77 (skipped) on an architecture whose prefetch instruction it does not know.
set -euo pipefail
cxx=$1
source_dir=$2
source "$(dirname "$0")/prefetch_mnemonic.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/use.cpp" <<'CPP'
#include "sim/core/prefetch_lines.h"
struct Record { char bytes[128]; };               // a job record's size, any alignment
struct alignas(64) Block { char bytes[1024]; };   // an event-queue block
void read_record(const Record* records, unsigned i) { sharesim::prefetch_lines(&records[i], sizeof(Record)); }
void write_record(const Record* records, unsigned i) {
  sharesim::prefetch_lines_for_write(&records[i], sizeof(Record));
}
void read_block(const Block* block) { sharesim::prefetch_lines(block, sizeof(Block)); }
CPP
checks=0
for level in -O2 -O3; do
  "$cxx" -std=c++20 "$level" -DNDEBUG -I"$source_dir" -S -o "$work/use.s" "$work/use.cpp"
  for function in read_record write_record read_block; do
    # The function's body: from its label to the end of its directives block.
    body=$(awk -v f="$function" '$0 ~ "^_Z[0-9]+" f "[^:]*:" {on=1; next} on && /\.cfi_endproc/ {exit} on' "$work/use.s")
    if ! grep -q "$prefetch" <<<"$body"; then
      echo "FAIL: $function compiled with $level has no $prefetch instruction:"
      echo "$body"
      exit 1
    fi
    checks=$((checks + 1))
  done
done
echo "prefetch_codegen: $checks checks passed ($("$cxx" --version | head -1))"
