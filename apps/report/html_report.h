#pragma once
// The HTML report of a run or compare directory: one self-contained file (inline SVG plots from
// gnuplot, inline CSS, no script, nothing fetched) with the verdict, the warnings, the table,
// and the plots: JCT, slowdown, wait and request-latency CDFs per policy, GPUs in use,
// utilization and memory over time, kills by cause (docs/outputs.md "report.html").
#include <string>

namespace sharesim {

// Reads DIR (apps/report/report_input.h), draws the plots into DIR/report/ (their data and
// gnuplot scripts stay there) and writes DIR/report.html. Returns the report's path. Throws
// InputError for a directory that is not a run or compare output (a missing or malformed file,
// located by its JSON pointer or line), or when gnuplot fails; a missing gnuplot or a target that
// cannot be written (report.html a directory) is found before anything is written.
std::string write_html_report(const std::string& dir);

}  // namespace sharesim
