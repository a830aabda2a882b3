#!/usr/bin/env bash
# Command-line tests of sharesim-calibrate: the no-GPU exit path (code 3, one line, nothing
# written), bad input (code 2, one line naming file and JSON pointer), the fit on synthetic
# measurements (known slice and switch gap, byte-identical output), and profile checks.
#
#   bash tests/cli/calibrate_test.sh PATH/TO/sharesim-calibrate SOURCE_DIR
#
# GPUs are hidden with CUDA_VISIBLE_DEVICES="" so the no-GPU path is tested on any machine.
# Prints one line per check and last "N passed, M failed"; exits 1 when any check failed.
set -u

if [[ $# -ne 2 ]]; then
  echo "usage: $0 SHARESIM_CALIBRATE SOURCE_DIR" >&2
  exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sharesim-calibrate-cli.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2

passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok - $1"; }
bad() { failed=$((failed + 1)); echo "FAIL - $1: $2"; }

# run EXPECTED_CODE DESCRIPTION ARGS...: runs the program, checks the exit code; leaves
# stdout in out.txt and stderr in err.txt.
run() {
  local expected=$1 what=$2
  shift 2
  timeout 60 "$bin" "$@" >out.txt 2>err.txt
  local code=$?
  if [[ $code -ne $expected ]]; then
    bad "$what" "exit code $code, expected $expected; stderr: $(head -c 400 err.txt)"
    return 1
  fi
  return 0
}
one_line() {  # one_line DESCRIPTION PREFIX: stderr is exactly one line starting with PREFIX
  local lines
  lines=$(wc -l <err.txt)
  if [[ $lines -ne 1 ]]; then bad "$1" "stderr has $lines lines: $(cat err.txt)"; return; fi
  if [[ $(head -c ${#2} err.txt) != "$2" ]]; then bad "$1" "stderr: $(cat err.txt)"; return; fi
  ok "$1"
}

# --- No GPU: every measuring mode exits 3 with one line and writes nothing.
for mode in probe corun scaling basics duty all; do
  if CUDA_VISIBLE_DEVICES="" run 3 "$mode without a GPU exits 3" "$mode" -o raw-$mode.json; then
    one_line "$mode without a GPU: one line" "sharesim-calibrate: no CUDA device visible: "
    if [[ -e raw-$mode.json || -s out.txt ]]; then bad "$mode without a GPU writes nothing" "output found"; fi
  fi
done

# --- Bad options of a measuring mode are refused before the device query (exit 2, not 3), so
# that no GPU time is spent on a run that cannot write its file or names no catalog GPU.
mkdir -p outdir && : >afile
for case in "outdir|outdir: cannot write the file: it is a directory" \
            "/proc/z.json|/proc/z.json: cannot write the file: cannot create a file in /proc" \
            "afile/x.json|afile/x.json: cannot write the file: afile is not a directory" \
            "nodir/x.json|nodir/x.json: cannot write the file: directory nodir does not exist"; do
  out=${case%%|*}
  if CUDA_VISIBLE_DEVICES="" run 2 "basics -o $out is refused up front" basics -o "$out"; then
    one_line "basics -o $out: one line" "sharesim-calibrate: error: ${case#*|}"
  fi
done
if CUDA_VISIBLE_DEVICES="" run 2 "basics --gpu Z100 is refused up front" basics --gpu Z100 -o z.json; then
  one_line "basics --gpu Z100: one line" 'sharesim-calibrate: error: --gpu: unknown GPU model "Z100"'
  [[ -e z.json ]] && bad "basics --gpu Z100 writes nothing" "z.json exists"
fi
CUDA_VISIBLE_DEVICES="" run 3 "basics --gpu H200-141GB with a writable -o still exits 3 without a GPU" \
  basics --gpu H200-141GB -o ok.json && ok "a catalog --gpu and a writable -o reach the device query"
# A GPU of the user's own catalog (--catalog, as sharesim run takes it) can be calibrated.
python3 - "$src/scenarios/hardware/gpus.json" <<'PY'
import json, sys
catalog = json.load(open(sys.argv[1]))
z100 = dict(catalog["gpus"][0], id="Z100", product="NVIDIA-Z100")
catalog["gpus"].append(z100)
json.dump(catalog, open("z-catalog.json", "w"))
PY
CUDA_VISIBLE_DEVICES="" run 3 "basics --gpu Z100 --catalog with Z100 reaches the device query" \
  basics --gpu Z100 --catalog z-catalog.json -o z.json && ok "a --gpu of the user's catalog is accepted"
ls -a | grep -q probe && bad "the output probe leaves nothing behind" "$(ls -a | grep probe)"

# --- --version: the program, the version and the commit it was built from (apps/build_info.h).
if run 0 "--version exits 0" --version; then
  if grep -Eq '^sharesim-calibrate [0-9]+\.[0-9]+\.[0-9]+ \(commit [^ )]+\)$' out.txt; then
    ok "--version names the version and the commit"
  else
    bad "--version names the version and the commit" "stdout: $(cat out.txt)"
  fi
fi

# --- Bad command lines and inputs: exit 2, one line.
run 2 "unknown option" probe -o x.json --bogus && one_line "unknown option: one line" "sharesim-calibrate: error: "
run 2 "duty phase out of range" duty -o x.json --busy-ms 0.1 && one_line "duty phase out of range: one line" "sharesim-calibrate: error: "
run 2 "fit needs --base" fit missing.json -o p.json && one_line "fit needs --base: one line" "sharesim-calibrate: error: "
run 2 "fit of a missing raw file" fit missing.json -o p.json --base "$src/results/calibration/H100-80GB.json" &&
  one_line "missing raw file names it" "sharesim-calibrate: error: missing.json: cannot open"
echo '{"format": "sharesim-calibration-raw/1", "gpu": "H100-80GB"' >broken.json
run 2 "fit of invalid JSON" fit broken.json -o p.json --base "$src/results/calibration/H100-80GB.json" &&
  one_line "invalid JSON: one line with the file" "sharesim-calibrate: error: broken.json: invalid JSON"

# Synthetic raw measurements: 2..4 processes round robin, slice 1024 us, switch gap 30 us, with
# jitter, hiccups and a foreign tenant now and then.
python3 - <<'PY' || { bad "synthetic raw file" "python3 failed"; }
import json, random
random.seed(11)
runs = []
for n in (2, 3, 4):
    runs_of = [[] for _ in range(n)]
    t = 5e9; c = 0
    while t < 5e9 + 200e6:
        s = max(1000.0, random.gauss(1024000, 5000))
        runs_of[c].append((t, t + s))
        t += s + max(0.0, random.gauss(30000, 2000))
        if random.random() < 0.02:
            t += 3e6
        c = (c + 1) % n
    contexts = []
    for r in runs_of:
        first, last = 1, len(r) - 2
        gaps = []
        for i in range(first, last):
            if random.random() < 0.05:
                at = r[i][0] + 20000
                gaps.append([int(at), int(at + 3000)])
            gaps.append([int(r[i][1]), int(r[i + 1][0])])
        gaps.sort()
        contexts.append({"window_ns": [int(r[first][0] + 100), int(r[last][0] + 100)], "gaps_ns": gaps})
    runs.append({"processes": n, "contexts": contexts})
raw = {"format": "sharesim-calibration-raw/1", "gpu": "H100-80GB", "date": "2026-11-22T00:00:00Z",
       "device": {"name": "synthetic H100", "driver": "0.0", "runtime": "13.0", "compute_capability": "9.0",
                  "sm_count": 132},
       "timeslice": {"threshold_ns": 4000, "runs": runs},
       "basics": {"launch_latency_ns": [4000, 4100, 3900], "dram_bandwidth_gbps": [2950, 3000, 2900],
                  "fma_tflops": [50, 51, 49]}}
json.dump(raw, open("raw.json", "w"))
bad_raw = json.loads(json.dumps(raw))
bad_raw["timeslice"]["runs"][1]["contexts"][2]["gaps_ns"][3] = [10, 5]
json.dump(bad_raw, open("bad-raw.json", "w"))
PY

run 2 "fit of a raw file with a reversed gap" fit bad-raw.json -o p.json --base "$src/results/calibration/H100-80GB.json" &&
  one_line "reversed gap: file and JSON pointer" \
    "sharesim-calibrate: error: bad-raw.json: /timeslice/runs/1/contexts/2/gaps_ns/3: expected 0 <= begin_ns <= end_ns"
[[ -e p.json ]] && bad "a failed fit writes nothing" "p.json exists"

sed 's/"gpu": "H100-80GB"/"gpu": "Z100"/' raw.json >raw-z.json
for base in H100-80GB default; do
  run 2 "fit of a raw file whose /gpu is no catalog id (base $base)" fit raw-z.json -o zf.json \
    --base "$src/results/calibration/$base.json" &&
    one_line "raw /gpu Z100 is blamed on the raw file (base $base)" \
      'sharesim-calibrate: error: raw-z.json: /gpu: unknown GPU model "Z100"'
done
[[ -e zf.json ]] && bad "a fit of a raw file for no catalog GPU writes nothing" "zf.json exists"
run 0 "fit of a raw file for a GPU of the user's catalog (--catalog)" fit raw-z.json -o zf.json --catalog z-catalog.json \
  --base "$src/results/calibration/default.json" -q && ok "fit --catalog takes the catalog's GPUs"
# check looks the profile's GPU up as fit does: a profile for no catalog GPU would never be used.
run 2 "check of a profile whose /gpu is no catalog id" check zf.json &&
  one_line "check: profile /gpu Z100 is refused" 'sharesim-calibrate: error: zf.json: /gpu: unknown GPU model "Z100"'
run 0 "check --catalog of a profile for a GPU of the user's catalog" check zf.json --catalog z-catalog.json &&
  ok "check --catalog takes the catalog's GPUs"
run 0 "check of the default profile" check "$src/results/calibration/default.json" && ok "check passes the default profile"

if run 0 "fit of synthetic measurements" fit raw.json -o fitted.json --base "$src/results/calibration/H100-80GB.json"; then
  ok "fit of synthetic measurements"
  slice=$(python3 -c 'import json; print(json.load(open("fitted.json"))["timeslice"]["default_slice_ns"]["value"])')
  switch=$(python3 -c 'import json; print(json.load(open("fitted.json"))["timeslice"]["switch_cost_ns"]["value"])')
  prov=$(python3 -c 'import json; print(json.load(open("fitted.json"))["timeslice"]["default_slice_ns"]["provenance"])')
  if (( slice > 1004000 && slice < 1044000 )); then ok "fitted slice $slice ns (1024000 known)"; else bad "fitted slice" "$slice"; fi
  if (( switch > 27000 && switch < 33000 )); then ok "fitted switch gap $switch ns (30000 known)"; else bad "fitted switch gap" "$switch"; fi
  [[ $prov == measured ]] && ok "fitted slice is measured" || bad "fitted slice provenance" "$prov"
  grep -q "round robin predicts" out.txt && ok "fit prints the per-case check" || bad "fit report" "$(cat out.txt)"
  run 0 "fitted profile passes check" check fitted.json && ok "fitted profile passes check"
  run 0 "second fit" fit raw.json -o fitted2.json --base "$src/results/calibration/H100-80GB.json" -q
  cmp -s fitted.json fitted2.json && ok "fit is byte-identical on the same data" || bad "fit determinism" "outputs differ"
fi
run 2 "fit into a missing directory" fit raw.json -o no/such/dir/p.json --base "$src/results/calibration/H100-80GB.json" &&
  one_line "missing directory: one line" "sharesim-calibrate: error: no/such/dir/p.json: cannot write"

# --- Profiles: the shipped ones pass; a field without provenance is refused.
run 0 "shipped profiles pass check" check "$src"/results/calibration/{A100-40GB,A100-80GB,H100-80GB,H200-141GB}.json &&
  ok "shipped profiles pass check"
grep -q 'not found' out.txt && bad "shipped profiles' raw data are found" "$(cat out.txt)" ||
  ok "shipped profiles' raw data are found"
# A measured field whose raw file is gone: check and compare say so, naming the field, even
# when another field's raw file (the one compare takes the spread from) is found.
python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
p["timeslice"]["switch_cost_ns"]["measured"]["raw_data"] = "results/calibration/raw/gone.json"
json.dump(p, open(sys.argv[2], "w"), indent=2)' "$src/results/calibration/H100-80GB.json" gone-repo.json
# Laid out as in the repository, so that the other fields' raw file is found from ../../.
mkdir -p repo/results/calibration && ln -sfn "$src/results/calibration/raw" repo/results/calibration/raw &&
  mv gone-repo.json repo/results/calibration/raw-gone.json
run 0 "check of a profile with a missing raw file" check repo/results/calibration/raw-gone.json &&
  grep -q 'ok; raw data not found: results/calibration/raw/gone.json (named by timeslice.switch_cost_ns)' out.txt &&
  ok "check names a missing raw file and its field" || bad "check: missing raw file" "$(cat out.txt)"
run 0 "compare with a missing raw file" compare repo/results/calibration/raw-gone.json \
  "$src/results/calibration/H100-80GB.json" &&
  grep -q 'raw data results/calibration/raw/gone.json (named by timeslice.switch_cost_ns) not found' out.txt &&
  ok "compare notes a missing raw file that is not the first" || bad "compare: missing raw file" "$(cat out.txt)"
python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
del p["timeslice"]["switch_cost_ns"]["provenance"]
json.dump(p, open("no-provenance.json", "w"))' "$src/results/calibration/A100-40GB.json"
run 2 "profile without provenance is refused" check no-provenance.json &&
  one_line "no provenance: file and JSON pointer" \
    "sharesim-calibrate: error: no-provenance.json: /timeslice/switch_cost_ns/provenance: expected"

run 2 "fit with a base profile lacking provenance" fit raw.json -o p2.json --base no-provenance.json &&
  one_line "bad base profile: file and JSON pointer" \
    "sharesim-calibrate: error: no-provenance.json: /timeslice/switch_cost_ns/provenance"
run 2 "fit with another GPU's base profile" fit raw.json -o p2.json --base "$src/results/calibration/A100-40GB.json" &&
  one_line "base of another GPU: one line" "sharesim-calibrate: error: $src/results/calibration/A100-40GB.json: /gpu: expected"
[[ -e p2.json ]] && bad "a refused fit writes nothing" "p2.json exists"

# --- compare: a profile against itself passes; a 50% longer switch gap fails (exit 1) with a
# JUnit failure; profiles of two GPUs are bad input.
h100=$src/results/calibration/H100-80GB.json
run 0 "compare the H100 profile with itself" compare "$h100" "$h100" --junit same.xml &&
  grep -q 'PASS' out.txt && grep -q 'failures="0"' same.xml && ok "compare with itself: PASS, JUnit without failures"
python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
p["timeslice"]["switch_cost_ns"]["value"] = round(p["timeslice"]["switch_cost_ns"]["value"] * 1.5)
json.dump(p, open("slower-switch.json", "w"), indent=2)' "$h100"
(cd "$src" && timeout 60 "$bin" compare "$tmp/slower-switch.json" "$h100" --junit "$tmp/slower.xml" >"$tmp/out.txt" 2>"$tmp/err.txt")
code=$?
[[ $code -eq 1 ]] && ok "compare: a 50% longer switch gap exits 1" || bad "compare regression exit" "code $code: $(cat err.txt)"
grep -q 'timeslice.switch_cost_ns .*REGRESSED' out.txt && ok "compare names the moved field" || bad "compare table" "$(cat out.txt)"
grep -q '<failure message="timeslice.switch_cost_ns moved' slower.xml && ok "compare: JUnit failure for the field" ||
  bad "compare JUnit" "$(cat slower.xml)"
run 2 "compare profiles of two GPUs" compare "$src/results/calibration/H200-141GB.json" "$h100" &&
  one_line "two GPUs: one line naming /gpu" "sharesim-calibrate: error: $src/results/calibration/H200-141GB.json: /gpu: expected"
run 2 "compare with a bad --tol" compare "$h100" "$h100" --tol timeslice.switch_cost_ns=lots &&
  one_line "bad --tol: one line" "sharesim-calibrate: error: --tol: timeslice.switch_cost_ns=lots: expected"
run 2 "compare with a --tol matching no field" compare "$h100" "$h100" --tol timeslice.swtch_cost_ns=5% &&
  one_line "unmatched --tol: one line with the closest field" \
  "sharesim-calibrate: error: --tol: timeslice.swtch_cost_ns: expected a path or pattern matching a field, found one that matches none (did you mean timeslice.switch_cost_ns?)"
(cd "$tmp" && timeout 60 "$bin" compare "$h100" "$h100" --junit "reports/new/compare.xml" >out.txt 2>err.txt)
[[ $? -eq 0 && -s $tmp/reports/new/compare.xml ]] && ok "compare --junit into a new directory makes it, as check does" ||
  bad "compare --junit into a new directory" "$(cat "$tmp/err.txt")"

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
