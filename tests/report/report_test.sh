#!/usr/bin/env bash
# The HTML report in a real browser: `sharesim compare --report` on report-scenario.json
# (training jobs, an inference service, OOM kills), then headless Chromium renders report.html.
# Checks: the report is
# self-contained and every plot holds data (report_check.py), Chromium logs no console error,
# the DOM it built holds every plot's SVG, and the screenshot is not blank (png_pixels.py).
# `sharesim report DIR` on the same directory rebuilds the same file.
# Usage: report_test.sh SHARESIM SOURCE_DIR. Exit 77 (skipped) without chromium or gnuplot.
set -uo pipefail
sharesim=$1
src=$2
here=$src/tests/report
for tool in chromium gnuplot python3; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIP: $tool is not installed (scripts/install-deps.sh installs it)"
    exit 77
  fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
check() {
  local name=$1
  shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; failures=$((failures + 1)); fi
}

out=$tmp/compare
check "compare --report writes report.html" \
  "$sharesim" compare "$here/report-scenario.json" --policies exclusive,timeslice --report -o "$out" \
  >"$tmp/stdout" 2>"$tmp/stderr"
check "compare prints the report's path" grep -q "^report      $out/report.html" "$tmp/stdout"
check "compare prints the verdict" grep -q "^verdict" "$tmp/stdout"
plots="jct-cdf slowdown-cdf wait-cdf latency-cdf gpus-in-use utilization memory kills"
line_plots="jct-cdf slowdown-cdf wait-cdf latency-cdf gpus-in-use utilization memory"
check "report is self-contained and every line plot has data" python3 "$here/report_check.py" "$out/report.html" 20 $line_plots
check "the kills plot is drawn" python3 "$here/report_check.py" "$out/report.html" 4 kills
# Its data: time-slicing (no memory isolation) OOM-kills 60 GiB jobs, exclusive GPUs none.
check "the kills plot holds time-slicing's OOM kills" \
  awk '$1 == "\"timeslice\"" && $2 > 0 { found = 1 } END { exit !found }' "$out/report/kills.dat"
check "the SLO line is on the latency plot" grep -q "SLO 0.250 s" "$out/report.html"
check "the plots' gnuplot scripts are kept" test -f "$out/report/latency-cdf.gp"

cp "$out/report.html" "$tmp/first.html"
check "sharesim report DIR rebuilds it" "$sharesim" report "$out" >"$tmp/stdout2"
check "the same directory gives the same report" cmp -s "$out/report.html" "$tmp/first.html"

run_out=$tmp/run
check "run --report" "$sharesim" run -q "$here/report-scenario.json" --report -o "$run_out"
check "run's report has data in every line plot" python3 "$here/report_check.py" "$run_out/report.html" 20 $line_plots

browser() {
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --enable-logging=stderr --v=0 \
    --user-data-dir="$tmp/profile" "$@" "file://$out/report.html"
}
browser --window-size=1400,2400 --screenshot="$tmp/shot.png" >"$tmp/chromium.out" 2>"$tmp/chromium.err"
check "chromium took a screenshot" test -s "$tmp/shot.png"
if grep -E 'CONSOLE|Uncaught|Failed to load' "$tmp/chromium.err" >"$tmp/console"; then
  echo "console messages:"; cat "$tmp/console"
fi
check "no console error while rendering" test ! -s "$tmp/console"
browser --dump-dom >"$tmp/dom.html" 2>/dev/null
for plot in $plots; do
  check "the rendered DOM holds plot $plot" python3 -c '
import re, sys
dom = open(sys.argv[1]).read()
m = re.search(r"<div class=\"plot\" id=\"%s\">(.*?)</div>" % sys.argv[2], dom, re.S)
sys.exit(0 if m and "<svg" in m.group(1) else 1)' "$tmp/dom.html" "$plot"
done
read -r dark width height < <(python3 "$here/png_pixels.py" "$tmp/shot.png")
echo "screenshot: ${width}x${height}, $dark pixels not white"
# Eight plots with axes, curves and a table cover far more than 2% of a 1400x2400 page.
check "the screenshot is not blank" test "$dark" -gt $((width * height / 50))
if [ -n "${SHARESIM_REPORT_SCREENSHOT:-}" ]; then cp "$tmp/shot.png" "$SHARESIM_REPORT_SCREENSHOT"; fi

echo "$failures failed"
[ "$failures" -eq 0 ]
