#pragma once
// The results of a sweep, built from its plan and its runs' summary.json files only, so that
// a sweep run at once, resumed after a kill, or run as shards and merged gives the same
// bytes (docs/sweeps.md "Outputs"):
// - runs.csv: one row per run in plan order: the grid and zip values (one column per dotted
//   path), variant, seed, each metric (column named by its dotted summary.json path), run_id;
// - aggregate.csv / aggregate.json: one row per grid point and variant: runs, then for each
//   metric n (runs where it has a value), mean, sd (sample standard deviation), ci95 (the
//   half-width of the 95% confidence interval of the mean, Student's t with n-1 degrees of
//   freedom; sim/metrics/student_t.h).
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "apps/sweep_spec.h"

namespace sharesim {

// DIR/runs/<id>: where a sweep in DIR puts a run's outputs.
std::string sweep_run_dir(const std::string& sweep_dir, const std::string& id);

// DIR/sweep-plan.json, written by every shard (the same bytes) and read by `sweep merge`.
void write_sweep_plan(const std::string& sweep_dir, const SweepPlan& plan);
SweepPlan read_sweep_plan(const std::string& sweep_dir);

// Mean, sample standard deviation and 95% CI half-width of values, in their order.
struct MetricStats {
  std::size_t n = 0;
  double mean = 0;
  std::optional<double> sd;    // n >= 2
  std::optional<double> ci95;  // n >= 2
};
MetricStats metric_stats(const std::vector<double>& values);

// A metric's value in a run's summary: a number, or nothing for null (e.g. no job completed).
// InputError (the summary file, the metric) when the path is absent or not a number.
std::optional<double> metric_value(const nlohmann::ordered_json& summary, const std::string& metric,
                                   const std::string& summary_file);

struct SweepResults {
  std::string runs_csv;
  std::string aggregate_csv;
  std::string aggregate_json;
};

// The results of `plan`, each run's outputs found in the first of `sweep_dirs` that has it.
// Throws InputError naming the runs missing from all of them.
SweepResults build_sweep_results(const SweepPlan& plan, const std::vector<std::string>& sweep_dirs);

// Writes runs.csv, aggregate.csv, then aggregate.json into `dir`.
void write_sweep_results(const std::string& dir, const SweepResults& results);

}  // namespace sharesim
