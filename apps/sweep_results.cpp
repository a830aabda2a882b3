#include "apps/sweep_results.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "apps/run_pool.h"
#include "apps/scenario_run.h"
#include "sim/core/csv_format.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "sim/input/json_reader.h"
#include "sim/metrics/output_files.h"
#include "sim/metrics/output_set.h"
#include "sim/metrics/student_t.h"

namespace sharesim {
namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kPlanFile = "sweep-plan.json";

Json optional_number(const std::optional<double>& value) { return value ? Json(*value) : Json(nullptr); }

}  // namespace

std::string sweep_run_dir(const std::string& sweep_dir, const std::string& id) {
  return (std::filesystem::path(sweep_dir) / "runs" / id).string();
}

void write_sweep_plan(const std::string& sweep_dir, const SweepPlan& plan) {
  // Shards may write the plan into one shared folder at once: each under its own temporary
  // name (host and process), renamed into place (the same bytes either way).
  std::error_code ec;
  std::filesystem::create_directories(sweep_dir, ec);
  if (ec) throw InputError(sweep_dir, "", "cannot create output directory: " + ec.message());
  write_file_atomically((std::filesystem::path(sweep_dir) / kPlanFile).string(), plan.to_json().dump(1) + "\n");
}

SweepPlan read_sweep_plan(const std::string& sweep_dir) {
  const std::string path = (std::filesystem::path(sweep_dir) / kPlanFile).string();
  if (!std::filesystem::exists(path)) {
    throw InputError(sweep_dir, "", std::string("no ") + kPlanFile + " here: not a folder `sharesim sweep` wrote");
  }
  return SweepPlan::from_json(parse_json_text(read_text_file(path), path), path);
}

MetricStats metric_stats(const std::vector<double>& values) {
  MetricStats stats;
  stats.n = values.size();
  if (values.empty()) return stats;
  double sum = 0;
  for (double v : values) sum += v;
  stats.mean = sum / static_cast<double>(values.size());
  if (values.size() < 2) return stats;
  double squares = 0;  // two passes: no cancellation when the spread is small next to the mean
  for (double v : values) squares += (v - stats.mean) * (v - stats.mean);
  stats.sd = std::sqrt(squares / static_cast<double>(values.size() - 1));
  stats.ci95 = confidence_half_width_95(*stats.sd, values.size());
  return stats;
}

std::optional<double> metric_value(const Json& summary, const std::string& metric, const std::string& summary_file) {
  const Json* value = summary_value(summary, metric);
  if (value == nullptr) {
    throw InputError(summary_file, "",
                     "has no field " + quote(metric) +
                         " (a metric of the sweep; paths are dotted, e.g. \"metrics.jobs.wait_s.p95\", "
                         "docs/outputs.md)");
  }
  if (value->is_null()) return std::nullopt;
  if (!value->is_number()) {
    throw InputError(summary_file, "",
                     "expected a number at " + quote(metric) + " (a metric of the sweep), found " + value->dump());
  }
  return value->get<double>();
}

SweepResults build_sweep_results(const SweepPlan& plan, const std::vector<std::string>& sweep_dirs) {
  // Each run's metric values, read from its summary.json.
  std::vector<std::vector<std::optional<double>>> values(plan.runs.size());
  std::size_t missing = 0;
  std::string first_missing;
  for (std::size_t r = 0; r < plan.runs.size(); ++r) {
    const SweepRun& run = plan.runs[r];
    std::string found;
    for (const std::string& dir : sweep_dirs) {
      if (run_is_finished(sweep_run_dir(dir, run.id))) {
        found = sweep_run_dir(dir, run.id);
        break;
      }
    }
    if (found.empty()) {
      if (missing++ == 0) first_missing = run.id + " (seed " + std::to_string(run.seed) + ")";
      continue;
    }
    const Json summary = read_run_summary(found);
    const std::string file = found + "/summary.json";
    for (const std::string& metric : plan.metrics) values[r].push_back(metric_value(summary, metric, file));
  }
  if (missing > 0) {
    throw InputError(sweep_dirs.front(), "",
                     std::to_string(missing) + " of " + std::to_string(plan.runs.size()) +
                         " runs have no finished output in " +
                         (sweep_dirs.size() == 1 ? "this folder" : "any of the folders given") + " (first: run " +
                         first_missing + "); run the missing shards, or the sweep again to resume it");
  }

  SweepResults results;
  // runs.csv
  std::string& runs = results.runs_csv;
  {
    CsvRow header(runs);
    for (const std::string& path : plan.point_paths) header.text(path);
    header.text("variant").text("seed");
    for (const std::string& metric : plan.metrics) header.text(metric);
    header.text("run_id").end();
  }
  for (std::size_t r = 0; r < plan.runs.size(); ++r) {
    const SweepRun& run = plan.runs[r];
    CsvRow row(runs);
    for (const Json& value : run.point) row.text(point_value_text(value));
    row.text(run.variant).integer(run.seed);
    for (const std::optional<double>& value : values[r]) row.number_if(value.has_value(), value.value_or(0));
    row.text(run.id).end();
  }

  // Groups: each (point, variant) with its runs, in plan order.
  std::vector<std::vector<std::size_t>> groups(plan.groups);
  for (std::size_t r = 0; r < plan.runs.size(); ++r) groups.at(plan.runs[r].group).push_back(r);

  std::string& aggregate = results.aggregate_csv;
  {
    CsvRow header(aggregate);
    for (const std::string& path : plan.point_paths) header.text(path);
    header.text("variant").text("runs");
    for (const std::string& metric : plan.metrics) {
      header.text(metric + ".n").text(metric + ".mean").text(metric + ".sd").text(metric + ".ci95");
    }
    header.end();
  }
  Json json;
  json["sharesim_version"] = sharesim_version();
  json["metrics"] = plan.metrics;
  json["confidence"] =
      "ci95: half-width of the two-sided 95% confidence interval of the mean, Student's t with n-1 "
      "degrees of freedom";
  Json rows = Json::array();
  for (const std::vector<std::size_t>& members : groups) {
    if (members.empty()) continue;
    const SweepRun& first = plan.runs[members.front()];
    CsvRow row(aggregate);
    Json entry;
    Json point = Json::object();
    for (std::size_t p = 0; p < plan.point_paths.size(); ++p) {
      row.text(point_value_text(first.point[p]));
      point[plan.point_paths[p]] = first.point[p];
    }
    row.text(first.variant).integer(members.size());
    entry["point"] = std::move(point);
    entry["variant"] = first.variant;
    entry["runs"] = members.size();
    Json metrics = Json::object();
    for (std::size_t m = 0; m < plan.metrics.size(); ++m) {
      std::vector<double> sample;
      for (std::size_t r : members) {
        if (values[r][m]) sample.push_back(*values[r][m]);
      }
      const MetricStats stats = metric_stats(sample);
      row.integer(stats.n).number_if(stats.n > 0, stats.mean);
      row.number_if(stats.sd.has_value(), stats.sd.value_or(0))
          .number_if(stats.ci95.has_value(), stats.ci95.value_or(0));
      metrics[plan.metrics[m]] = Json{{"n", stats.n},
                                      {"mean", stats.n > 0 ? Json(stats.mean) : Json(nullptr)},
                                      {"sd", optional_number(stats.sd)},
                                      {"ci95", optional_number(stats.ci95)}};
    }
    row.end();
    entry["metrics"] = std::move(metrics);
    rows.push_back(std::move(entry));
  }
  json["groups"] = std::move(rows);
  results.aggregate_json = json.dump(2) + "\n";
  return results;
}

void write_sweep_results(const std::string& dir, const SweepResults& results) {
  write_output_file(dir, "runs.csv", results.runs_csv);
  write_output_file(dir, "aggregate.csv", results.aggregate_csv);
  write_output_file(dir, "aggregate.json", results.aggregate_json);
}

}  // namespace sharesim
