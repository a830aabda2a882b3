#!/usr/bin/env python3
"""Predicts the PyTorch co-runs of torch_coruns.py with `sharesim corun`, from what nvidia-smi read
while each job ran alone, and prints the comparison as Markdown (docs/validation.md, "Framework
jobs: PyTorch"). Nothing is fitted: this is the path an operator takes.

    python3 kernels/frameworks/torch_corun_check.py RAW.json PATH/TO/sharesim [--gpu H100-80GB]

Measured speed of a job in a group = its iterations per second there / alone (same sharing mode).
Exit 2 with one line on a bad raw file.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile

POLICY = {"processes": "timeslice", "mps": "mps"}
SHARING = {"processes": "time-sliced processes", "mps": "MPS"}
SKIP_SAMPLES = 10  # nvidia-smi averages over its past sample period: leave out the first second


def fail(path, pointer, message):
    print(f"torch_corun_check: {path}: {pointer}: {message}", file=sys.stderr)
    sys.exit(2)


def alone_readings(path, raw, mode):
    out = {}
    for i, case in enumerate(raw["cases"]):
        if case["mode"] != mode or len(case["jobs"]) != 1:
            continue
        samples = case["nvidia_smi"][SKIP_SAMPLES:]
        if not samples:
            fail(path, f"/cases/{i}/nvidia_smi", "expected samples of the alone run after its first second, found none")
        out[case["jobs"][0]] = {
            "rate": case["iterations_per_s"][0],
            "gpu_util_pct": statistics.mean(s[0] for s in samples),
            "mem_util_pct": statistics.mean(s[1] for s in samples),
            "mem_mib": int(max(s[2] for s in samples)),
        }
    return out


def corun(sharesim, policy, gpu, groups, alone, always_busy, tmp):
    """Writes IN.csv for the groups, runs sharesim corun, returns the speeds per group."""
    src, dst = os.path.join(tmp, "in.csv"), os.path.join(tmp, "out.csv")
    with open(src, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["group", "job", "gpu_util_pct", "mem_util_pct", "mem_mib"])
        for g, jobs in enumerate(groups):
            for k, job in enumerate(jobs):
                a = alone[job]
                util = 100.0 if always_busy else max(0.1, round(a["gpu_util_pct"], 1))
                w.writerow([f"g{g}", f"{job}#{k}", util, round(min(a["mem_util_pct"], util), 1), a["mem_mib"]])
    subprocess.run([sharesim, "corun", "--policy", policy, "--gpu", gpu, src, "-o", dst], check=True,
                   stdout=subprocess.DEVNULL)
    speeds = [[] for _ in groups]
    with open(dst) as f:
        for row in csv.DictReader(f):
            speeds[int(row["group"][1:])].append(float(row["speed"]))
    return speeds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("raw")
    parser.add_argument("sharesim")
    parser.add_argument("--gpu", default="H100-80GB")
    args = parser.parse_args()
    try:
        with open(args.raw) as f:
            raw = json.load(f)
    except (OSError, ValueError) as e:
        fail(args.raw, "", f"expected a JSON file of torch_coruns.py, found: {e}")
    if raw.get("format") != "sharesim-torch-coruns/1":
        fail(args.raw, "/format", f"expected \"sharesim-torch-coruns/1\", found {json.dumps(raw.get('format'))}")
    summary, detail = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for mode in ("processes", "mps"):
            alone = alone_readings(args.raw, raw, mode)
            groups, measured = [], []
            for i, case in enumerate(raw["cases"]):
                if case["mode"] != mode or len(case["jobs"]) < 2:
                    continue
                for job in case["jobs"]:
                    if job not in alone:
                        fail(args.raw, f"/cases/{i}/jobs", f"expected an alone run of {job} under {mode}, found none")
                groups.append(case["jobs"])
                measured.append([r / alone[j]["rate"] for j, r in zip(case["jobs"], case["iterations_per_s"])])
            if not groups:
                continue
            predicted = corun(args.sharesim, POLICY[mode], args.gpu, groups, alone, False, tmp)
            busy = corun(args.sharesim, POLICY[mode], args.gpu, groups, alone, True, tmp)
            for size in sorted({len(g) for g in groups}):
                err = [abs(p - m) / m for g, ms, ps in zip(groups, measured, predicted) if len(g) == size
                       for m, p in zip(ms, ps)]
                err_busy = [abs(p - m) / m for g, ms, ps in zip(groups, measured, busy) if len(g) == size
                            for m, p in zip(ms, ps)]
                summary.append(f"| {args.gpu} | {SHARING[mode]} | {size} | {len(err)} | "
                               f"{statistics.median(err):.3f} | {max(err):.3f} | {statistics.median(err_busy):.3f} |")
            for g, ms, ps in zip(groups, measured, predicted):
                utils = ", ".join(f"{alone[j]['gpu_util_pct']:.0f}" for j in g)
                detail.append(f"| {SHARING[mode]} | {' + '.join(g)} | {utils} | "
                              f"{', '.join(f'{m:.3f}' for m in ms)} | {', '.join(f'{p:.3f}' for p in ps)} |")
    print("| GPU | sharing | jobs | speeds | median abs rel err | max abs rel err | median, jobs treated as always busy |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(summary))
    print()
    print("| sharing | jobs | utilization.gpu alone (%) | measured speeds | predicted speeds |")
    print("|---|---|---|---|---|")
    print("\n".join(detail))


if __name__ == "__main__":
    main()
