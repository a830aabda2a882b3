#!/usr/bin/env python3
"""Reads the comparison compare.py dumped (-d FILE) and fails on a significant slowdown.

A benchmark regressed when its median real time is more than THRESHOLD (a fraction) above the
baseline's and the Mann-Whitney U test compare.py ran on the repetitions gives p < ALPHA. With
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
    pvalues = {}
    medians = {}
    for row in rows:
        name = row.get("run_name", row["name"])
        if row.get("utest"):
            pvalues[name] = row["utest"].get("time_pvalue")
        if row.get("aggregate_name") == "median" or (not row.get("aggregate_name") and name not in medians):
            m = row["measurements"][0]
            medians[name] = m["time"]  # (contender - baseline) / baseline of the real time
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
