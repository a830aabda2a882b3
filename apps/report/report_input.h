#pragma once
// What the HTML report shows, read back from an output directory that `run` or `compare`
// wrote (docs/outputs.md), so that `sharesim report DIR` needs nothing but the files. A sweep
// directory would add one more reader that fills the same structure (one ReportRun per point).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sharesim {

struct ReportSample {
  double time_s = 0;
  double allocated_gpus = 0;
  double busy_gpus = 0;
  double memory_used_mib = 0;
};

// One service's latency CDF (request_latency.csv) and its SLO (services.csv).
struct LatencyCurve {
  std::string origin;
  std::string kind;
  double slo_s = 0;                               // 0 = none
  std::vector<std::pair<double, double>> points;  // (latency s, quantile)
};

// One run: a `run` directory, or one variant of a compare.
struct ReportRun {
  std::string label;
  std::string dir;
  double horizon_s = 0;
  std::uint64_t gpu_count = 0;
  std::vector<double> jct_s;            // completed jobs
  std::vector<double> slowdown;         // completed jobs with standalone work
  std::vector<double> wait_censored_s;  // every job; never-started ones at end - arrival
  std::vector<ReportSample> timeseries;
  std::vector<LatencyCurve> latency;
  std::uint64_t killed_oom = 0, killed_fault = 0, killed_admission = 0;
  nlohmann::json metrics;  // summary.json "metrics"
};

struct ReportInput {
  std::string kind;      // "run" or "compare"
  std::string scenario;  // its name
  std::string dir;
  std::vector<ReportRun> runs;
  // The table: a header (figure, then one column per run) and rows of text cells.
  std::vector<std::string> table_header;
  std::vector<std::vector<std::string>> table_rows;
  std::vector<std::string> verdict;
  std::vector<std::string> warnings;
};

// Reads DIR as a compare directory (compare.json present) or a run directory (summary.json).
// Throws InputError naming the file that is missing or malformed.
ReportInput read_report_input(const std::string& dir);

}  // namespace sharesim
