#!/usr/bin/env python3
"""Reads the comparison compare.py dumped (-d FILE) and fails on a significant slowdown.

A benchmark regressed when its median CPU time is more than THRESHOLD (a fraction) above the
baseline's and the Mann-Whitney U test compare.py ran on the repetitions gives p < ALPHA. CPU
time, not wall time: on a shared machine the neighbours' load inflates wall time far more. With
fewer than 2 repetitions there is no U test and the threshold alone decides.

    slowdown_check.py COMPARE.json THRESHOLD ALPHA     exit 0 fine, 1 slower, 2 bad input
"""
import json
import sys


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        rows = json.load(open(sys.argv[1]))
        threshold, alpha = float(sys.argv[2]), float(sys.argv[3])
    except (OSError, ValueError) as e:
        print(f"slowdown_check: {sys.argv[1]}: {e}", file=sys.stderr)
        return 2
    # compare.py gives one row per benchmark (its repetitions, with the U test) and one per
    # aggregate ("NAME_median", aggregate_name "median"); without repetitions only the first.
    pvalues = {}
    medians = {}
    for row in rows:
        aggregate = row.get("aggregate_name", "")
        if row["name"] == "OVERALL_GEOMEAN" or aggregate not in ("", "median"):
            continue
        name = row["name"][: -len("_median")] if aggregate == "median" else row["name"]
        if row.get("utest"):
            pvalues[name] = row["utest"].get("cpu_pvalue")
        if aggregate == "median" or name not in medians:
            medians[name] = row["measurements"][0]["cpu"]  # (contender - baseline) / baseline, CPU time
    slower = []
    for name, change in medians.items():
        p = pvalues.get(name)
        significant = p is None or p < alpha
        if change > threshold and significant:
            slower.append(f"{name}: median {change:+.1%}" + (f", U test p = {p:.3g}" if p is not None else ""))
    for line in slower:
        print(f"bench: SLOWER {line}")
    print(f"bench: {len(medians)} benchmarks compared, {len(slower)} significantly slower than the baseline "
          f"(> {threshold:.0%}, p < {alpha})")
    return 1 if slower else 0


if __name__ == "__main__":
    sys.exit(main())
