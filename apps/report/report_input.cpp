#include "apps/report/report_input.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "sim/input/json_pointer.h"
#include "sim/input/json_reader.h"
#include "workloads/csv_reader.h"

namespace sharesim {
namespace {

namespace fs = std::filesystem;

using Json = nlohmann::ordered_json;

// One JSON file of the directory, and the checks that turn a value of another shape into one
// located error, FILE: POINTER: expected WHAT, found WHAT WAS THERE (the files are sharesim's
// own outputs, but a hand-edited or truncated one must not reach the drawing code).
struct JsonFile {
  std::string path;
  Json root;

  [[noreturn]] void fail(const std::string& pointer, const std::string& expected, const Json* found) const {
    throw InputError(
        path, where_of_pointer(pointer),
        "expected " + expected + ", found " + (found == nullptr ? std::string("none") : describe_value(*found)));
  }
  // `value` (at `pointer`) as an object.
  const Json& object(const Json& value, const std::string& pointer, const std::string& expected) const {
    if (!value.is_object()) fail(pointer, expected, &value);
    return value;
  }
  // The member `key` of `parent` (an object at `pointer`), or nullptr when absent.
  static const Json* find(const Json& parent, const char* key) {
    const auto it = parent.find(key);
    return it == parent.end() ? nullptr : &*it;
  }
  const Json& object_member(const Json& parent, const std::string& pointer, const char* key,
                            const std::string& expected) const {
    const Json* value = find(parent, key);
    if (value == nullptr) fail(pointer_append(pointer, key), expected, nullptr);
    return object(*value, pointer_append(pointer, key), expected);
  }
  double number_member(const Json& parent, const std::string& pointer, const char* key,
                       const std::string& expected) const {
    const Json* value = find(parent, key);
    if (value == nullptr || !value->is_number()) fail(pointer_append(pointer, key), expected, value);
    return value->get<double>();
  }
  std::uint64_t count_member(const Json& parent, const std::string& pointer, const char* key) const {
    const Json* value = find(parent, key);
    if (value == nullptr || !value->is_number_unsigned()) {
      fail(pointer_append(pointer, key), "a count (an integer >= 0)", value);
    }
    return value->get<std::uint64_t>();
  }
  // An optional member that, when present, is an array of strings.
  std::vector<std::string> strings_member(const Json& parent, const std::string& pointer, const char* key) const {
    std::vector<std::string> out;
    const Json* value = find(parent, key);
    if (value == nullptr) return out;
    const std::string at = pointer_append(pointer, key);
    if (!value->is_array()) fail(at, "an array of strings", value);
    for (std::size_t i = 0; i < value->size(); ++i) {
      const Json& line = (*value)[i];
      if (!line.is_string()) fail(pointer_append(at, i), "a string", &line);
      out.push_back(line.get<std::string>());
    }
    return out;
  }
};

JsonFile read_json(const fs::path& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    throw InputError(path.string(), "", "cannot read the file (is this a run or compare output directory?)");
  }
  // read_text_file refuses a directory or a FIFO at once (a FIFO would block forever);
  // parse_json_text locates a syntax error by line and column.
  JsonFile file{path.string(), parse_json_text(read_text_file(path.string()), path.string())};
  file.object(file.root, "", "a JSON object (as sharesim writes " + path.filename().string() + ")");
  return file;
}

// summary.json's metrics as the report reads them, checked: a malformed file is one located
// error here, never a crash or a library's message further on.
nlohmann::json checked_metrics(const JsonFile& summary) {
  const Json& metrics = summary.object_member(summary.root, "", "metrics", "sharesim's run metrics (an object)");
  const Json& sim = summary.object_member(metrics, "/metrics", "sim", "an object");
  summary.number_member(sim, "/metrics/sim", "horizon_s", "the simulated horizon in seconds (a number)");
  const Json& gpus = summary.object_member(metrics, "/metrics", "gpus", "an object");
  summary.count_member(gpus, "/metrics/gpus", "count");
  const Json& jobs = summary.object_member(metrics, "/metrics", "jobs", "an object");
  const Json& killed = summary.object_member(jobs, "/metrics/jobs", "killed", "an object of kill counts by cause");
  for (const char* cause : {"oom", "fault", "admission_error"})
    summary.count_member(killed, "/metrics/jobs/killed", cause);
  if (const Json* cost = JsonFile::find(metrics, "cost")) summary.object(*cost, "/metrics/cost", "an object");
  // Every figure the table shows is a number or null (a figure that does not apply): summary.json
  // has no strings among them, and its only arrays are jobs/by_origin and gpus/by_pool.
  for (const char* section : {"jobs", "gpus", "cost"}) {
    const Json* figures = JsonFile::find(metrics, section);
    if (figures == nullptr) continue;  // cost may be absent
    const std::string at = pointer_append("/metrics", section);
    for (const auto& [key, value] : figures->items()) {
      const std::string figure = pointer_append(at, key);
      if (value.is_array() && ((std::string_view(section) == "jobs" && key == "by_origin") ||
                               (std::string_view(section) == "gpus" && key == "by_pool"))) {
        continue;  // per origin and per pool: not in the table
      }
      if (value.is_object()) {
        const bool kill_counts = std::string_view(section) == "jobs" && key == "killed";
        if (!kill_counts && !value.contains("p50")) {
          summary.fail(figure, "a figure (a number or null) or statistics (an object with p50)", &value);
        }
        for (const auto& [name, item] : value.items()) {
          if (kill_counts) {
            summary.count_member(value, figure, name.c_str());
          } else if (!item.is_number() && !item.is_null()) {
            summary.fail(pointer_append(figure, name), "a number or null", &item);
          }
        }
      } else if (!value.is_number() && !value.is_null()) {
        summary.fail(figure, "a number or null", &value);
      }
    }
  }
  if (const Json* services = JsonFile::find(metrics, "services")) {
    if (!services->is_array()) summary.fail("/metrics/services", "an array of services", services);
    for (std::size_t i = 0; i < services->size(); ++i) {
      const std::string at = pointer_append("/metrics/services", i);
      const Json& service = summary.object((*services)[i], at, "a service (an object)");
      const Json* origin = JsonFile::find(service, "origin");
      if (origin == nullptr || !origin->is_string())
        summary.fail(pointer_append(at, "origin"), "a service's origin (a string)", origin);
      if (const Json* latency = JsonFile::find(service, "latency_s")) {
        summary.object(*latency, pointer_append(at, "latency_s"), "an object of latency statistics");
        for (const char* stat : {"p50", "p99"}) {
          const Json* figure = JsonFile::find(*latency, stat);
          if (figure != nullptr && !figure->is_number() && !figure->is_null()) {
            summary.fail(pointer_append(pointer_append(at, "latency_s"), stat), "a number or null", figure);
          }
        }
      }
      for (const char* key : {"requests", "slo_attainment"}) {
        const Json* figure = JsonFile::find(service, key);
        if (figure != nullptr && !figure->is_number() && !figure->is_null()) {
          summary.fail(pointer_append(at, key), "a number or null", figure);
        }
      }
      const Json* slo = JsonFile::find(service, "slo_s");
      if (slo != nullptr && !slo->is_null() && !slo->is_number()) {
        summary.fail(pointer_append(at, "slo_s"), "the SLO in seconds (a number) or null", slo);
      }
    }
  }
  return nlohmann::json(metrics);  // sorted keys: the table lists each section's figures by name
}

// `object`'s member `key`, or null when it is absent or `object` is not an object.
const nlohmann::json& member_or_null(const nlohmann::json& object, const char* key) {
  static const nlohmann::json null_value;
  if (!object.is_object()) return null_value;
  const auto it = object.find(key);
  return it == object.end() ? null_value : *it;
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
  const nlohmann::json& services = member_or_null(run.metrics, "services");  // checked by checked_metrics
  if (!services.is_array()) return;
  for (const auto& service : services) {
    const nlohmann::json& slo = member_or_null(service, "slo_s");
    for (LatencyCurve& curve : run.latency) {
      if (curve.origin == member_or_null(service, "origin") && slo.is_number()) curve.slo_s = slo.get<double>();
    }
  }
}

ReportRun read_run(const std::string& label, const fs::path& dir) {
  ReportRun run;
  run.label = label;
  run.dir = dir.string();
  run.metrics = checked_metrics(read_json(dir / "summary.json"));
  run.horizon_s = run.metrics["sim"]["horizon_s"].get<double>();
  run.gpu_count = run.metrics["gpus"]["count"].get<std::uint64_t>();
  const nlohmann::json& killed = run.metrics["jobs"]["killed"];
  run.killed_oom = killed["oom"].get<std::uint64_t>();
  run.killed_fault = killed["fault"].get<std::uint64_t>();
  run.killed_admission = killed["admission_error"].get<std::uint64_t>();
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
    const nlohmann::json& figures = member_or_null(run.metrics, section);
    if (!figures.is_object()) continue;  // "cost" may be absent; the others are checked
    for (const auto& [key, value] : figures.items()) {
      if (value.is_object() && value.contains("p50")) {
        for (const char* stat : {"p50", "p95", "p99"}) {
          input.table_rows.push_back(
              {std::string(section) + " " + key + " " + stat, cell(member_or_null(value, stat))});
        }
      } else if (value.is_object() && key == "killed") {
        for (const auto& [cause, count] : value.items())
          input.table_rows.push_back({"jobs killed " + cause, cell(count)});
      } else if (!value.is_object() && !value.is_array()) {
        input.table_rows.push_back({std::string(section) + " " + key, cell(value)});
      }
    }
  }
  const nlohmann::json& services = member_or_null(run.metrics, "services");
  if (!services.is_array()) return;
  for (const auto& service : services) {  // each an object with a string "origin" (checked_metrics)
    const std::string name = "service " + member_or_null(service, "origin").get<std::string>();
    const nlohmann::json& latency = member_or_null(service, "latency_s");
    input.table_rows.push_back({name + " requests", cell(member_or_null(service, "requests"))});
    input.table_rows.push_back({name + " latency p50 (s)", cell(member_or_null(latency, "p50"))});
    input.table_rows.push_back({name + " latency p99 (s)", cell(member_or_null(latency, "p99"))});
    input.table_rows.push_back({name + " SLO attainment", cell(member_or_null(service, "slo_attainment"))});
  }
}

// compare.csv turned on its side, as `sharesim compare` prints it: figures as rows.
void compare_table(ReportInput& input) {
  const fs::path path = fs::path(input.dir) / "compare.csv";
  CsvReader header_reader(path.string(), {"variant"});
  const std::vector<std::string> columns = header_reader.columns();  // as the reader parsed the header
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

}  // namespace

ReportInput read_report_input(const std::string& dir) {
  ReportInput input;
  input.dir = dir;
  const fs::path compare_json = fs::path(dir) / "compare.json";
  if (fs::exists(compare_json)) {
    const JsonFile doc = read_json(compare_json);
    input.kind = "compare";
    if (const Json* scenario = JsonFile::find(doc.root, "scenario")) {
      if (!scenario->is_string()) doc.fail("/scenario", "the scenario's name (a string)", scenario);
      input.scenario = scenario->get<std::string>();
    }
    const Json* policies = JsonFile::find(doc.root, "policies");
    if (policies == nullptr || !policies->is_array() || policies->empty()) {
      doc.fail("/policies", "a non-empty array of the policies compared", policies);
    }
    for (std::size_t i = 0; i < policies->size(); ++i) {
      const std::string at = pointer_append("/policies", i);
      const Json& policy = doc.object((*policies)[i], at, "a policy's figures (an object)");
      // The variant names its run's subdirectory: one plain name, nothing that leads elsewhere.
      const Json* variant = JsonFile::find(policy, "variant");
      if (variant == nullptr || !variant->is_string() || variant->get_ref<const std::string&>().empty() ||
          variant->get_ref<const std::string&>().find('/') != std::string::npos || *variant == "." ||
          *variant == "..") {
        doc.fail(pointer_append(at, "variant"), "a variant name (its subdirectory of " + dir + ")", variant);
      }
      const std::string name = variant->get<std::string>();
      input.runs.push_back(read_run(name, fs::path(dir) / name));
    }
    input.verdict = doc.strings_member(doc.root, "", "verdict");
    input.warnings = doc.strings_member(doc.root, "", "warnings");
    compare_table(input);
    return input;
  }
  const JsonFile summary = read_json(fs::path(dir) / "summary.json");
  input.kind = "run";
  if (const Json* scenario = JsonFile::find(summary.root, "scenario")) {
    summary.object(*scenario, "/scenario", "the scenario as run (an object)");
    if (const Json* name = JsonFile::find(*scenario, "name")) {
      if (!name->is_string()) summary.fail("/scenario/name", "the scenario's name (a string)", name);
      input.scenario = name->get<std::string>();
    }
  }
  input.warnings = summary.strings_member(summary.root, "", "warnings");
  input.runs.push_back(read_run(input.scenario, dir));
  run_table(input);
  return input;
}

}  // namespace sharesim
