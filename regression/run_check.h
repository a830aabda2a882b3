#pragma once
// `sharesim check`: compares a run's metrics with a baseline's (docs/ci.md). A run directory
// holds summary.json; a replicated (sweep) directory holds runs.csv, one row per run with a
// `seed` column and one column per metric, named by its dotted path in summary.json's
// "metrics" (`jobs.completed`, `metrics.jobs.completed` or `/metrics/jobs/completed`); every
// other column (grid values, variant) but `run_id` (sharesim sweep's id of the replicate) names
// the configuration the row belongs to. Which columns are metrics is read from the sweep's
// aggregate.json (or sweep-plan.json) beside runs.csv, from the column names for a bare one.
// Single runs are compared value by value within tolerances; replicated runs per
// configuration and metric with Welch's t test.
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "regression/check_report.h"
#include "regression/tolerance.h"

namespace sharesim {

struct CheckOptions {
  std::vector<ToleranceRule> tolerances;  // --tol, later rules win
  // Replicated runs: a mean that moved beyond tolerance is a regression only when Welch's
  // two-sided p is below alpha (otherwise the seeds' noise explains it).
  double alpha = 0.01;
};

// Defaults per kind of metric: counts (integers in summary.json, integer columns in runs.csv)
// exact; everything else (times, rates, fractions, costs) 5% relative.
Tolerance default_tolerance(bool integral);

struct MetricValue {
  double value = 0;
  bool integral = false;
  bool null = false;  // JSON null: "not applicable" (no SLO set, ...)
  std::string pointer;  // where it is in summary.json ("/metrics/jobs/completed"), for errors
};
using MetricList = std::vector<std::pair<std::string, MetricValue>>;

// Every number (and null) under `metrics`, by dotted path; array elements are named by their
// "origin", "pool" or "name" member when they have one (jobs.by_origin.train.completed), else
// by index. Strings (labels) are left out; anything else (a boolean) is an InputError naming
// `file` and the value's JSON pointer.
MetricList flatten_metrics(const nlohmann::json& metrics, const std::string& file = "summary.json");

// Compares RUN_DIR with BASELINE_DIR; throws InputError for a missing or malformed file, when
// one is a single run and the other replicated, or for a tolerance rule that matches no metric.
CheckReport check_run(const std::string& run_dir, const std::string& baseline_dir, const CheckOptions& options);

// --update into a baseline directory that does not exist yet or is empty.
bool is_new_baseline(const std::string& baseline_dir);
// The report of --update into a new baseline: the run is read and checked as check_run reads
// it (InputError for a malformed or empty one, or a --tol rule matching none of its metrics);
// every metric is a row "added".
CheckReport check_new_baseline(const std::string& run_dir, const std::string& baseline_dir,
                               const CheckOptions& options);

// --update: checks the run as check_run reads it, then copies its summary.json (or runs.csv
// with the sweep's aggregate.json and sweep-plan.json, which say which columns are metrics)
// into the baseline directory, creating it; returns the paths written.
std::vector<std::string> update_baseline(const std::string& run_dir, const std::string& baseline_dir);

}  // namespace sharesim
