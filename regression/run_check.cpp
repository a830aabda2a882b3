#include "regression/run_check.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "regression/welch_test.h"
#include "sim/metrics/output_files.h"
#include "sim/input/input_error.h"
#include "sim/input/json_pointer.h"
#include "sim/input/json_reader.h"
#include "workloads/csv_reader.h"

namespace sharesim {
namespace {

namespace fs = std::filesystem;

constexpr const char* kSummary = "summary.json";
constexpr const char* kRuns = "runs.csv";

enum class DirectoryKind { single, replicated };

DirectoryKind kind_of(const std::string& dir) {
  if (fs::is_regular_file(fs::path(dir) / kRuns)) return DirectoryKind::replicated;
  if (fs::is_regular_file(fs::path(dir) / kSummary)) return DirectoryKind::single;
  throw InputError(dir, "",
                   fs::is_directory(dir) ? "expected a run directory (summary.json) or a replicated one (runs.csv), "
                                           "found neither"
                                         : "no such directory");
}

nlohmann::json read_summary(const std::string& dir) {
  const std::string path = (fs::path(dir) / kSummary).string();
  // parse_json_text locates syntax errors by line and column and a number that overflows a
  // double (1e400) at its JSON pointer; both are bad input, not an internal error.
  const nlohmann::json summary(parse_json_text(read_text_file(path), path));
  if (!summary.is_object() || !summary.contains("metrics") || !summary["metrics"].is_object()) {
    throw InputError(path, "/metrics", "expected an object of run metrics (a sharesim run's summary.json)");
  }
  return summary;
}

// Text values (labels such as "kind") by dotted path, with their JSON pointers: not compared,
// but a path that is a label on one side and a number on the other is a malformed file.
using LabelList = std::map<std::string, std::string>;

void flatten_into(const nlohmann::json& value, const std::string& path, const std::string& pointer,
                  const std::string& file, MetricList& out, LabelList* labels) {
  if (value.is_object()) {
    for (const auto& [key, member] : value.items()) {
      flatten_into(member, path.empty() ? key : path + "." + key, pointer_append(pointer, key), file, out, labels);
    }
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      std::string name = std::to_string(i);
      for (const char* key : {"origin", "pool", "name"}) {
        if (value[i].is_object() && value[i].contains(key) && value[i][key].is_string()) {
          name = value[i][key].get<std::string>();
          break;
        }
      }
      flatten_into(value[i], path + "." + name, pointer_append(pointer, i), file, out, labels);
    }
  } else if (value.is_number()) {
    out.push_back({path, {value.get<double>(), value.is_number_integer(), false, pointer}});
  } else if (value.is_null()) {
    out.push_back({path, {0, false, true, pointer}});
  } else if (value.is_string()) {
    if (labels != nullptr) labels->emplace(path, pointer);
  } else {
    throw InputError(file, pointer, "expected a number, null or a label (text), found " + value.dump());
  }
}

// A path that is a number (or null) in one file and a label in the other.
void require_same_kinds(const MetricList& metrics, const std::string& metrics_file, const LabelList& labels,
                        const std::string& labels_file) {
  for (const auto& [name, value] : metrics) {
    const auto label = labels.find(name);
    if (label == labels.end()) continue;
    throw InputError(labels_file, label->second,
                     "expected a number or null, as " + metrics_file + " has at " + value.pointer +
                         ", found a text value");
  }
}

std::string value_text(const MetricValue& v) { return v.null ? "null" : format_metric_value(v.value); }

MetricRow compare_values(const std::string& name, const MetricValue& base, const MetricValue& cur,
                         const CheckOptions& options) {
  MetricRow row;
  row.name = name;
  row.baseline = value_text(base);
  row.current = value_text(cur);
  const Tolerance tolerance = tolerance_for(name, options.tolerances, default_tolerance(base.integral && cur.integral));
  row.tolerance = tolerance.text();
  if (base.null || cur.null) {
    row.status = base.null == cur.null ? MetricRow::Status::same : MetricRow::Status::regressed;
    return row;
  }
  row.change = format_change(base.value, cur.value);
  if (base.value == cur.value) {
    row.status = MetricRow::Status::same;
  } else {
    row.status = tolerance.allows(base.value, cur.value) ? MetricRow::Status::within : MetricRow::Status::regressed;
  }
  return row;
}

// Adds rows for every metric of `baseline` (in its order) and then those only `current` has.
template <typename Value, typename Compare>
void compare_lists(const std::vector<std::pair<std::string, Value>>& baseline,
                   const std::vector<std::pair<std::string, Value>>& current, const Compare& compare,
                   CheckReport& report) {
  std::map<std::string, const Value*> by_name;
  for (const auto& [name, value] : current) by_name[name] = &value;
  std::map<std::string, bool> in_baseline;
  for (const auto& [name, value] : baseline) {
    in_baseline[name] = true;
    const auto found = by_name.find(name);
    if (found == by_name.end()) {
      MetricRow row;
      row.name = name;
      row.status = MetricRow::Status::missing;
      report.rows.push_back(row);
    } else {
      report.rows.push_back(compare(name, value, *found->second));
    }
  }
  for (const auto& [name, value] : current) {
    if (in_baseline.count(name) != 0) continue;
    MetricRow row;
    row.name = name;
    row.status = MetricRow::Status::added;
    report.rows.push_back(row);
  }
}

void check_single(const std::string& run_dir, const std::string& baseline_dir, const CheckOptions& options,
                  CheckReport& report) {
  const nlohmann::json baseline = read_summary(baseline_dir);
  const nlohmann::json current = read_summary(run_dir);
  const std::string baseline_file = (fs::path(baseline_dir) / kSummary).string();
  const std::string run_file = (fs::path(run_dir) / kSummary).string();
  MetricList baseline_metrics, run_metrics;
  LabelList baseline_labels, run_labels;
  flatten_into(baseline["metrics"], "", "/metrics", baseline_file, baseline_metrics, &baseline_labels);
  flatten_into(current["metrics"], "", "/metrics", run_file, run_metrics, &run_labels);
  require_same_kinds(baseline_metrics, baseline_file, run_labels, run_file);
  require_same_kinds(run_metrics, run_file, baseline_labels, baseline_file);
  std::vector<std::string> paths;
  for (const MetricList* list : {&baseline_metrics, &run_metrics}) {
    for (const auto& [name, value] : *list) paths.push_back(name);
  }
  require_every_rule_matches(options.tolerances, paths, "--tol", "metric");
  compare_lists(
      baseline_metrics, run_metrics,
      [&](const std::string& name, const MetricValue& b, const MetricValue& c) {
        return compare_values(name, b, c, options);
      },
      report);
  // Said, not failed: a deliberate change of scenario (one GPU fewer) is what a check may test.
  for (const char* key : {"scenario", "seed", "sharesim_version"}) {
    if (baseline.value(key, nlohmann::json()) == current.value(key, nlohmann::json())) continue;
    std::string where;
    const nlohmann::json patch =
        nlohmann::json::diff(baseline.value(key, nlohmann::json()), current.value(key, nlohmann::json()));
    if (!patch.empty() && patch[0].contains("path")) where = patch[0]["path"].get<std::string>();
    report.notes.push_back(std::string("the run's ") + key + " differs from the baseline's" +
                           (where.empty() ? "" : " (first at /" + std::string(key) + where + ")"));
  }
}

// One metric's per-seed values in one configuration of a replicated run.
struct Samples {
  std::string metric;  // its dotted path, without the configuration: what --tol rules match
  std::vector<double> values;
  bool integral = true;
};
using SampleList = std::vector<std::pair<std::string, Samples>>;  // "metric [configuration]" -> samples

bool is_metric_column(const std::string& column) {
  for (const char* prefix : {"metrics.", "jobs.", "gpus.", "services.", "cost.", "sim."}) {
    if (column.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

SampleList read_runs(const std::string& dir) {
  const std::string path = (fs::path(dir) / kRuns).string();
  CsvReader csv(path, {"seed"});
  std::vector<std::string> metrics, configuration;
  for (const std::string& column : csv.columns()) {
    if (is_metric_column(column)) {
      metrics.push_back(column);
    } else if (column != "seed" && column != "run_id") {  // a replicate's own: not its configuration
      configuration.push_back(column);
    }
  }
  if (metrics.empty()) {
    throw InputError(path, "line 1",
                     "expected metric columns named by their path in summary.json's metrics (jobs.completed or "
                     "metrics.jobs.completed), found none");
  }
  SampleList out;
  std::map<std::string, std::size_t> index;
  while (csv.next_row()) {
    csv.integer("seed", 0);  // a row without a seed is no replicate
    std::string config;
    for (const std::string& column : configuration) {
      config += (config.empty() ? "" : ", ") + column + "=" + csv.field(column);
    }
    for (const std::string& column : metrics) {
      const std::string& text = csv.field(column);
      if (text.empty()) continue;  // not applicable in this run
      const double value = csv.number(column, -HUGE_VAL);
      const std::string metric = column.rfind("metrics.", 0) == 0 ? column.substr(8) : column;
      const std::string name = config.empty() ? metric : metric + " [" + config + "]";
      const auto [slot, fresh] = index.try_emplace(name, out.size());
      if (fresh) out.push_back({name, {metric, {}, true}});
      Samples& samples = out[slot->second].second;
      samples.values.push_back(value);
      samples.integral = samples.integral && text.find_first_of(".eE") == std::string::npos;
    }
  }
  return out;
}

std::string samples_text(const std::vector<double>& values) {
  double sum = 0;
  for (const double v : values) sum += v;
  const double mean = sum / static_cast<double>(values.size());
  double squares = 0;
  for (const double v : values) squares += (v - mean) * (v - mean);
  const double sd = values.size() > 1 ? std::sqrt(squares / static_cast<double>(values.size() - 1)) : 0.0;
  return format_metric_value(mean) + " ± " + format_metric_value(sd) + " (" + std::to_string(values.size()) + ")";
}

MetricRow compare_samples(const std::string& name, const Samples& base, const Samples& cur,
                          const CheckOptions& options) {
  MetricRow row;
  row.name = name;
  row.baseline = samples_text(base.values);
  row.current = samples_text(cur.values);
  const Tolerance tolerance =
      tolerance_for(base.metric, options.tolerances, default_tolerance(base.integral && cur.integral));
  row.tolerance = tolerance.text();
  if (base.values == cur.values) return row;  // same
  double mean_base = 0, mean_cur = 0;
  for (const double v : base.values) mean_base += v / static_cast<double>(base.values.size());
  for (const double v : cur.values) mean_cur += v / static_cast<double>(cur.values.size());
  row.change = format_change(mean_base, mean_cur);
  bool significant = true;  // with one value a side there is no spread to test against
  if (base.values.size() >= 2 && cur.values.size() >= 2) {
    const WelchResult test = welch_t_test(base.values, cur.values);
    char p[32];
    std::snprintf(p, sizeof p, "%.3g", test.p_value);
    row.p_value = p;
    significant = test.p_value < options.alpha;
  }
  const bool beyond = !tolerance.allows(mean_base, mean_cur);
  row.status = beyond && significant ? MetricRow::Status::regressed : MetricRow::Status::within;
  return row;
}

}  // namespace

Tolerance default_tolerance(bool integral) { return integral ? Tolerance::exact() : Tolerance::relative(0.05); }

MetricList flatten_metrics(const nlohmann::json& metrics, const std::string& file) {
  MetricList out;
  flatten_into(metrics, "", "/metrics", file, out, nullptr);
  return out;
}

CheckReport check_run(const std::string& run_dir, const std::string& baseline_dir, const CheckOptions& options) {
  CheckReport report;
  report.suite = "sharesim check";
  report.subject = run_dir + " against " + baseline_dir;
  const DirectoryKind run_kind = kind_of(run_dir);
  const DirectoryKind baseline_kind = kind_of(baseline_dir);
  const auto name = [](DirectoryKind k) {
    return k == DirectoryKind::single ? "a single run (summary.json)" : "replicated runs (runs.csv)";
  };
  if (run_kind != baseline_kind) {
    throw InputError(
        baseline_dir, "",
        std::string("expected ") + name(run_kind) + " as " + run_dir + " holds, found " + name(baseline_kind));
  }
  if (run_kind == DirectoryKind::single) {
    check_single(run_dir, baseline_dir, options, report);
  } else {
    const SampleList baseline = read_runs(baseline_dir);
    const SampleList current = read_runs(run_dir);
    std::vector<std::string> paths;
    for (const SampleList* list : {&baseline, &current}) {
      for (const auto& [label, samples] : *list) paths.push_back(samples.metric);
    }
    require_every_rule_matches(options.tolerances, paths, "--tol", "metric");
    compare_lists(
        baseline, current,
        [&](const std::string& metric, const Samples& b, const Samples& c) {
          return compare_samples(metric, b, c, options);
        },
        report);
  }
  return report;
}

std::string update_baseline(const std::string& run_dir, const std::string& baseline_dir) {
  const std::string file = kind_of(run_dir) == DirectoryKind::single ? kSummary : kRuns;
  if (file == kSummary) read_summary(run_dir);  // checked before it becomes a baseline
  std::ifstream in(fs::path(run_dir) / file, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  if (!in) throw InputError((fs::path(run_dir) / file).string(), "", "cannot read the file");
  write_output_file(baseline_dir, file, content.str());
  return (fs::path(baseline_dir) / file).string();
}

}  // namespace sharesim
