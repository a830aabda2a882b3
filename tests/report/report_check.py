#!/usr/bin/env python3
"""Checks a sharesim report.html: self-contained (no script, nothing fetched) and every plot
holds data (an SVG whose drawn paths have enough points), not empty axes.

Usage: report_check.py REPORT.html MIN_POINTS PLOT_ID... ; each PLOT_ID must have data.
Prints one line per problem and exits 1 when there is one.
"""
import re
import sys


def path_points(d):
    # Every coordinate pair of an SVG path's data ("M10,20 L30,40 ..." or "M10 20 L30 40").
    numbers = re.findall(r"-?\d+(?:\.\d+)?", d)
    return len(numbers) // 2


def main():
    html = open(sys.argv[1], encoding="utf-8").read()
    min_points = int(sys.argv[2])
    problems = []
    if re.search(r"<script", html, re.I):
        problems.append("the report has a <script> element")
    for attribute in re.findall(r"""(?:src|href)\s*=\s*["']([^"']*)["']""", html, re.I):
        if not attribute.startswith("#"):
            problems.append(f"the report refers to an outside resource: {attribute}")
    if re.search(r"@import|url\(\s*['\"]?http", html, re.I):
        problems.append("the report's CSS fetches something")
    for plot in sys.argv[3:]:
        match = re.search(r'<div class="plot" id="%s">(.*?)</div>' % re.escape(plot), html, re.S)
        if match is None:
            problems.append(f"plot {plot}: missing")
            continue
        body = match.group(1)
        if "<svg" not in body:
            problems.append(f"plot {plot}: no SVG ({body.strip()[:80]})")
            continue
        most = max((path_points(d) for d in re.findall(r"""<path[^>]*\sd=['"]([^'"]*)['"]""", body)), default=0)
        if most < min_points:
            problems.append(f"plot {plot}: its longest path has {most} points, expected at least {min_points}")
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
