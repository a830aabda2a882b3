#include "apps/report/report_input.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "workloads/csv_reader.h"

namespace sharesim {
namespace {

namespace fs = std::filesystem;

nlohmann::json read_json(const fs::path& path) {
  std::ifstream file(path);
  if (!file) throw InputError(path.string(), "", "cannot read the file (is this a run or compare output directory?)");
  std::stringstream text;
  text << file.rdbuf();
  try {
    return nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path.string(), "", std::string("expected JSON, found text it cannot parse: ") + e.what());
  }
}

// A cell that may be empty (a figure that does not apply).
bool optional_number(const CsvReader& csv, std::string_view column, double& out) {
  if (csv.field(column).empty()) return false;
  out = csv.number(column, -1e300);
  return true;
}

void read_jobs(ReportRun& run) {
  CsvReader csv((fs::path(run.dir) / "jobs.csv").string(), {"state", "submit_s", "wait_s", "jct_s", "slowdown"});
  while (csv.next_row()) {
    double value = 0;
    if (optional_number(csv, "jct_s", value)) run.jct_s.push_back(value);
    if (optional_number(csv, "slowdown", value)) run.slowdown.push_back(value);
    if (optional_number(csv, "wait_s", value)) {
      run.wait_censored_s.push_back(value);
    } else {
      // Never started: its wait so far, censored at the end of the run.
      run.wait_censored_s.push_back(std::max(0.0, run.horizon_s - csv.number("submit_s", 0)));
    }
  }
}

void read_timeseries(ReportRun& run) {
  CsvReader csv((fs::path(run.dir) / "timeseries.csv").string(),
                {"time_s", "allocated_gpus", "busy_gpus", "memory_used_mib"});
  while (csv.next_row()) {
    run.timeseries.push_back(ReportSample{csv.number("time_s", 0), csv.number("allocated_gpus", 0),
                                          csv.number("busy_gpus", 0), csv.number("memory_used_mib", 0)});
  }
}

void read_latency(ReportRun& run) {
  const fs::path path = fs::path(run.dir) / "request_latency.csv";
  if (!fs::exists(path)) return;  // no inference service or notebook in the run
  CsvReader csv(path.string(), {"origin", "kind", "quantile", "latency_s"});
  while (csv.next_row()) {
    if (run.latency.empty() || run.latency.back().origin != csv.field("origin")) {
      run.latency.push_back(LatencyCurve{csv.field("origin"), csv.field("kind"), 0, {}});
    }
    run.latency.back().points.emplace_back(csv.number("latency_s", 0), csv.number("quantile", 0));
  }
  for (const auto& service : run.metrics["services"]) {
    for (LatencyCurve& curve : run.latency) {
      if (curve.origin == service["origin"] && service["slo_s"].is_number()) curve.slo_s = service["slo_s"];
    }
  }
}

ReportRun read_run(const std::string& label, const fs::path& dir) {
  ReportRun run;
  run.label = label;
  run.dir = dir.string();
  const nlohmann::json summary = read_json(dir / "summary.json");
  const fs::path summary_path = dir / "summary.json";
  try {
    run.metrics = summary.at("metrics");
    run.horizon_s = run.metrics.at("sim").at("horizon_s");
    run.gpu_count = run.metrics.at("gpus").at("count");
    const nlohmann::json& killed = run.metrics.at("jobs").at("killed");
    run.killed_oom = killed.at("oom");
    run.killed_fault = killed.at("fault");
    run.killed_admission = killed.at("admission_error");
  } catch (const nlohmann::json::exception& e) {
    throw InputError(summary_path.string(), "/metrics", std::string("expected sharesim's run metrics: ") + e.what());
  }
  read_jobs(run);
  read_timeseries(run);
  read_latency(run);
  return run;
}

// A compare.csv field for the table: "-" when empty, a fraction to 3 decimals (as the compare
// table prints most figures), anything else as written.
std::string table_cell(const std::string& field) {
  if (field.empty()) return "-";
  if (field.find('.') == std::string::npos) return field;
  char* end = nullptr;
  const double value = std::strtod(field.c_str(), &end);
  return end != nullptr && *end == '\0' ? format_fixed(value, 3) : field;
}

std::string cell(const nlohmann::json& value) {
  if (value.is_null()) return "-";
  if (value.is_number_float()) return format_fixed(value.get<double>(), 3);
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

// The run's own figures, one row per scalar of summary.json's metrics (jobs, gpus, cost).
void run_table(ReportInput& input) {
  const ReportRun& run = input.runs.front();
  input.table_header = {"figure", run.label};
  for (const char* section : {"jobs", "gpus", "cost"}) {
    for (const auto& [key, value] : run.metrics[section].items()) {
      if (value.is_object() && value.contains("p50")) {
        for (const char* stat : {"p50", "p95", "p99"}) {
          input.table_rows.push_back({std::string(section) + " " + key + " " + stat, cell(value[stat])});
        }
      } else if (value.is_object() && key == "killed") {
        for (const auto& [cause, count] : value.items())
          input.table_rows.push_back({"jobs killed " + cause, cell(count)});
      } else if (!value.is_object() && !value.is_array()) {
        input.table_rows.push_back({std::string(section) + " " + key, cell(value)});
      }
    }
  }
  for (const auto& service : run.metrics["services"]) {
    const std::string name = "service " + service["origin"].get<std::string>();
    input.table_rows.push_back({name + " requests", cell(service["requests"])});
    input.table_rows.push_back({name + " latency p50 (s)", cell(service["latency_s"]["p50"])});
    input.table_rows.push_back({name + " latency p99 (s)", cell(service["latency_s"]["p99"])});
    input.table_rows.push_back({name + " SLO attainment", cell(service["slo_attainment"])});
  }
}

// compare.csv turned on its side, as `sharesim compare` prints it: figures as rows.
void compare_table(ReportInput& input) {
  const fs::path path = fs::path(input.dir) / "compare.csv";
  CsvReader header_reader(path.string(), {"variant"});
  std::ifstream file(path);
  std::string first_line;
  std::getline(file, first_line);
  std::vector<std::string> columns;
  std::stringstream split(first_line);
  for (std::string column; std::getline(split, column, ',');) columns.push_back(column);
  input.table_header = {"figure"};
  std::vector<std::vector<std::string>> by_column(columns.size());
  while (header_reader.next_row()) {
    input.table_header.push_back(header_reader.field("variant"));
    for (std::size_t c = 0; c < columns.size(); ++c) {
      by_column[c].push_back(table_cell(header_reader.field(columns[c])));
    }
  }
  for (std::size_t c = 1; c < columns.size(); ++c) {
    std::vector<std::string> row{columns[c]};
    row.insert(row.end(), by_column[c].begin(), by_column[c].end());
    input.table_rows.push_back(std::move(row));
  }
}

std::vector<std::string> strings_at(const nlohmann::json& doc, const char* key) {
  std::vector<std::string> out;
  if (doc.contains(key)) {
    for (const auto& line : doc[key]) out.push_back(line.get<std::string>());
  }
  return out;
}

}  // namespace

ReportInput read_report_input(const std::string& dir) {
  ReportInput input;
  input.dir = dir;
  const fs::path compare_json = fs::path(dir) / "compare.json";
  if (fs::exists(compare_json)) {
    const nlohmann::json doc = read_json(compare_json);
    input.kind = "compare";
    input.scenario = doc.value("scenario", "");
    for (const auto& policy : doc.at("policies")) {
      const std::string variant = policy.at("variant");
      input.runs.push_back(read_run(variant, fs::path(dir) / variant));
    }
    input.verdict = strings_at(doc, "verdict");
    input.warnings = strings_at(doc, "warnings");
    compare_table(input);
    return input;
  }
  const nlohmann::json summary = read_json(fs::path(dir) / "summary.json");
  input.kind = "run";
  input.scenario = summary.contains("scenario") ? summary["scenario"].value("name", "") : "";
  input.warnings = strings_at(summary, "warnings");
  input.runs.push_back(read_run(input.scenario, dir));
  run_table(input);
  return input;
}

}  // namespace sharesim
