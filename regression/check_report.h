#pragma once
// The outcome of comparing metrics with a baseline, one row per metric, and its three
// renderings: a text table for the terminal, Markdown for a CI job page, JUnit XML for a CI
// test report (docs/ci.md). Shared by `sharesim check` and `sharesim-calibrate compare`.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "sim/metrics/output_set.h"

namespace sharesim {

struct MetricRow {
  enum class Status {
    same,       // identical values
    within,     // moved, within tolerance (or, for samples, not significantly)
    regressed,  // moved beyond tolerance: a failure
    missing,    // in the baseline, not in the run: a failure
    added,      // in the run, not in the baseline: reported, not a failure
    unchecked,  // moved, and no tolerance applies (a field measured once): reported, not a failure
  };
  std::string name;      // the metric's path
  std::string baseline;  // value as printed ("" when missing); samples: "mean ± sd (n)"
  std::string current;
  std::string change;     // "+3.2%", "+1" (absolute when the baseline is 0), "" when same
  std::string tolerance;  // Tolerance::text()
  std::string p_value;    // Welch's p for samples, "" otherwise
  Status status = Status::same;

  bool failed() const { return status == Status::regressed || status == Status::missing; }
};

struct CheckReport {
  std::string suite;    // JUnit testsuite name: "sharesim check"
  std::string subject;  // what was compared: "RUN against BASELINE"
  std::vector<MetricRow> rows;
  std::vector<std::string> notes;  // remarks that are not failures (scenario differs, ...)

  std::size_t failures() const;
  std::size_t moved() const;      // rows whose value differs (within, regressed, missing, added, unchecked)
  std::size_t unchecked() const;  // rows without a tolerance
};

// "%.6g"-style text of a number, as the report prints values.
std::string format_metric_value(double value);
// "+3.20%" of the baseline, or "+0.5" when the baseline is 0.
std::string format_change(double baseline, double current);
const char* status_name(MetricRow::Status status);

// The rows that moved, as a table, then one line: "check: N metrics, M moved, K beyond
// tolerance: FAIL|PASS".
std::string format_report_text(const CheckReport& report);
// A heading with the verdict, the notes and a table of the rows that moved.
std::string format_report_markdown(const CheckReport& report);
// <testsuites><testsuite name=suite tests=N failures=K><testcase name=metric> ... with a
// <failure> per failed row.
std::string format_report_junit(const CheckReport& report);

// Checks every report file (option such as "--junit", path) before any is written, so that
// bad input exits 2 with no report left behind: an empty path, a directory, a path below a
// file, or two reports into one file is an InputError.
void require_report_paths(const std::vector<std::pair<std::string, std::string>>& reports);


}  // namespace sharesim
