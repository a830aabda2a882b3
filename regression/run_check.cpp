#include "regression/run_check.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "regression/welch_test.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "sim/input/json_pointer.h"
#include "sim/input/json_reader.h"
#include "sim/metrics/output_files.h"
#include "workloads/csv_reader.h"

namespace sharesim {
namespace {

namespace fs = std::filesystem;

constexpr const char* kSummary = "summary.json";
constexpr const char* kRuns = "runs.csv";

enum class DirectoryKind { single, replicated };

DirectoryKind kind_of(const std::string& dir) {
  if (fs::exists(dir) && !fs::is_directory(dir)) {
    throw InputError(dir, "", "expected a directory (a run's or a sweep's), found a file");
  }
  if (fs::is_regular_file(fs::path(dir) / kRuns)) return DirectoryKind::replicated;
  if (fs::is_regular_file(fs::path(dir) / kSummary)) return DirectoryKind::single;
  throw InputError(dir, "",
                   fs::is_directory(dir) ? "expected a run directory (summary.json) or a replicated one (runs.csv), "
                                           "found neither"
                                         : "no such directory");
}

nlohmann::json read_summary(const std::string& dir) {
  const std::string path = (fs::path(dir) / kSummary).string();
  // parse_json_text locates syntax errors by line and column, a number that overflows a
  // double (1e400) at its JSON pointer and text that is not UTF-8; all are bad input.
  const nlohmann::json summary(parse_json_text(read_text_file(path), path));
  const std::string expected = "expected an object of run metrics (a sharesim run's summary.json), found ";
  if (!summary.is_object()) throw InputError(path, kTopLevelWhere, expected + describe_value(summary));
  if (!summary.contains("metrics")) throw InputError(path, "/metrics", expected + "no \"metrics\"");
  if (!summary["metrics"].is_object())
    throw InputError(path, "/metrics", expected + describe_value(summary["metrics"]));
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

// A run directory's summary.json, read and checked: its metrics and labels by dotted path.
struct SingleRun {
  std::string file;
  nlohmann::json summary;
  MetricList metrics;
  LabelList labels;
};

SingleRun read_single(const std::string& dir) {
  SingleRun run;
  run.file = (fs::path(dir) / kSummary).string();
  run.summary = read_summary(dir);
  flatten_into(run.summary["metrics"], "", "/metrics", run.file, run.metrics, &run.labels);
  // A baseline without metrics would pass every check, whatever the run holds.
  if (run.metrics.empty()) {
    throw InputError(run.file, "/metrics",
                     "expected at least one metric (a number or null under /metrics), found none");
  }
  return run;
}

// The note on a key that differs (scenario, seed, version): the JSON pointer of the first
// difference and, when both sides hold a plain value there, the two values.
std::string difference_note(const char* key, const nlohmann::json& baseline, const nlohmann::json& current) {
  const nlohmann::json base = baseline.value(key, nlohmann::json());
  const nlohmann::json cur = current.value(key, nlohmann::json());
  std::string where = "/" + std::string(key);
  const nlohmann::json patch = nlohmann::json::diff(base, cur);
  if (!patch.empty() && patch[0].contains("path")) where += patch[0]["path"].get<std::string>();
  std::string note = std::string("the run's ") + key + " differs from the baseline's (first at " + where;
  const nlohmann::json::json_pointer pointer(where);
  if (baseline.contains(pointer) && current.contains(pointer) && baseline.at(pointer).is_primitive() &&
      current.at(pointer).is_primitive()) {
    note += ": " + baseline.at(pointer).dump() + " in the baseline, " + current.at(pointer).dump() + " in the run";
  }
  return note + ")";
}

void check_single(const std::string& run_dir, const std::string& baseline_dir, const CheckOptions& options,
                  CheckReport& report) {
  const SingleRun baseline = read_single(baseline_dir);
  const SingleRun current = read_single(run_dir);
  require_same_kinds(baseline.metrics, baseline.file, current.labels, current.file);
  require_same_kinds(current.metrics, current.file, baseline.labels, baseline.file);
  std::vector<std::string> paths;
  for (const MetricList* list : {&baseline.metrics, &current.metrics}) {
    for (const auto& [name, value] : *list) paths.push_back(name);
  }
  require_every_rule_matches(options.tolerances, paths, "--tol", "metric");
  compare_lists(
      baseline.metrics, current.metrics,
      [&](const std::string& name, const MetricValue& b, const MetricValue& c) {
        return compare_values(name, b, c, options);
      },
      report);
  // Said, not failed: a deliberate change of scenario (one GPU fewer) is what a check may test.
  for (const char* key : {"scenario", "seed", "sharesim_version"}) {
    if (baseline.summary.value(key, nlohmann::json()) == current.summary.value(key, nlohmann::json())) continue;
    report.notes.push_back(difference_note(key, baseline.summary, current.summary));
  }
}

// One metric's per-seed values in one configuration of a replicated run.
struct Samples {
  std::string metric;  // its dotted path, without the configuration: what --tol rules match
  std::vector<double> values;
  bool integral = true;
};
using SampleList = std::vector<std::pair<std::string, Samples>>;  // "metric [configuration]" -> samples

// Files `sharesim sweep` writes beside runs.csv that list its metric columns ("metrics": the
// spec's metric paths as written, which are runs.csv's column names). Whole and merged sweeps
// write aggregate.json, every shard sweep-plan.json; --update copies them into a baseline.
constexpr const char* kMetricLists[] = {"aggregate.json", "sweep-plan.json"};

// The metric columns as the sweep lists them, from the first file of kMetricLists in `dir`;
// nullopt for a bare runs.csv. Each must be a column of `csv`.
std::optional<std::set<std::string>> listed_metric_columns(const std::string& dir, const CsvReader& csv) {
  for (const char* name : kMetricLists) {
    const std::string path = (fs::path(dir) / name).string();
    if (!fs::is_regular_file(path)) continue;
    const nlohmann::json document(parse_json_text(read_text_file(path), path));
    const std::string expected = "expected an array of the sweep's metric paths (runs.csv's metric columns), found ";
    if (!document.is_object() || !document.contains("metrics")) {
      throw InputError(path, "/metrics",
                       expected + (document.is_object() ? "no \"metrics\"" : describe_value(document)));
    }
    const nlohmann::json& list = document["metrics"];
    if (!list.is_array()) throw InputError(path, "/metrics", expected + describe_value(list));
    std::set<std::string> out;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string where = pointer_append("/metrics", i);
      if (!list[i].is_string())
        throw InputError(path, where, "expected a metric path (text), found " + describe_value(list[i]));
      const std::string column = list[i].get<std::string>();
      if (!csv.has_column(column)) {
        throw InputError(path, where, "expected a column of " + csv.path() + ", found none named \"" + column + "\"");
      }
      out.insert(column);
    }
    return out;
  }
  return std::nullopt;
}

// A bare runs.csv (no sweep's list beside it): a column is a metric when its name can only be
// a path into summary.json. cost.* and metrics_window.* are also scenario keys (a sweep's grid
// over cost.gpu_hour), so there the name cannot tell, and a guess would pool configurations or
// split replicates: refused.
bool bare_metric_column(const CsvReader& csv, const std::string& column) {
  for (const char* prefix : {"metrics.", "/metrics/", "jobs.", "gpus.", "services.", "sim."}) {
    if (column.rfind(prefix, 0) == 0) return true;
  }
  for (const char* prefix : {"cost.", "metrics_window.", "/cost/", "/metrics_window/"}) {
    if (column.rfind(prefix, 0) != 0) continue;
    throw InputError(csv.path(), "line 1, column " + column,
                     "expected a column that is either a metric or a configuration, found \"" + column +
                         "\", which names a scenario setting and a summary.json figure alike; put the sweep's "
                         "aggregate.json beside runs.csv, or name a metric metrics." +
                         column.substr(column[0] == '/' ? 1 : 0));
  }
  return false;
}

// A metric column's name as a metric: dotted, without the "metrics." prefix, whichever way the
// sweep spelt it (/metrics/jobs/jct_s/mean and metrics.jobs.jct_s.mean are jobs.jct_s.mean).
std::string metric_name(const std::string& column) {
  std::string dotted = column;
  if (!column.empty() && column[0] == '/') {
    dotted.clear();
    for (const std::string& token : pointer_tokens(column)) dotted += (dotted.empty() ? "" : ".") + token;
  }
  return dotted.rfind("metrics.", 0) == 0 ? dotted.substr(8) : dotted;
}

// The byte offset of the first byte that is not part of well-formed UTF-8, or npos.
std::size_t invalid_utf8_at(const std::string& text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto byte = static_cast<unsigned char>(text[i]);
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;  // the allowed range of the second byte
    if (byte < 0x80) {
      length = 1;
    } else if (byte >= 0xC2 && byte <= 0xDF) {
      length = 2;
    } else if (byte >= 0xE0 && byte <= 0xEF) {
      length = 3;
      if (byte == 0xE0) low = 0xA0;   // no overlong forms
      if (byte == 0xED) high = 0x9F;  // no surrogates
    } else if (byte >= 0xF0 && byte <= 0xF4) {
      length = 4;
      if (byte == 0xF0) low = 0x90;
      if (byte == 0xF4) high = 0x8F;  // nothing above U+10FFFF
    } else {
      return i;
    }
    if (i + length > text.size()) return i;
    for (std::size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if (next < (k == 1 ? low : 0x80) || next > (k == 1 ? high : 0xBF)) return i;
    }
    i += length;
  }
  return std::string::npos;
}

// Names and values from runs.csv end up in the JUnit XML and Markdown reports, which must be
// UTF-8 text: anything else is refused where it is.
void require_utf8(const std::string& text, const std::string& file, const std::string& where) {
  const std::size_t at = invalid_utf8_at(text);
  if (at == std::string::npos) return;
  char byte[8];
  std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(text[at]));
  throw InputError(file, where,
                   "expected UTF-8 text, found the byte " + std::string(byte) + " at byte " + std::to_string(at + 1) +
                       " of the field");
}

SampleList read_runs(const std::string& dir) {
  const std::string path = (fs::path(dir) / kRuns).string();
  CsvReader csv(path, {"seed"});
  for (const std::string& column : csv.columns()) require_utf8(column, path, "line 1");
  const std::optional<std::set<std::string>> listed = listed_metric_columns(dir, csv);
  std::vector<std::string> metrics, configuration;
  std::map<std::string, std::string> column_of_metric;  // two columns of one metric would pool into one sample
  for (const std::string& column : csv.columns()) {
    if (column == "seed" || column == "run_id") continue;  // a replicate's own: not its configuration
    if (listed ? listed->count(column) != 0 : bare_metric_column(csv, column)) {
      const auto [other, fresh] = column_of_metric.emplace(metric_name(column), column);
      if (!fresh) {
        throw InputError(path, "line 1, column " + column,
                         "expected one column per metric, found a second column of " + other->first + " (first \"" +
                             other->second + "\")");
      }
      metrics.push_back(column);
    } else {
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
  std::map<std::pair<std::string, std::int64_t>, std::size_t> seed_line;  // (configuration, seed) -> line
  while (csv.next_row()) {
    for (const std::string& column : csv.columns()) {
      require_utf8(csv.field(column), path, "line " + std::to_string(csv.line_number()) + ", column " + column);
    }
    const std::int64_t seed = csv.integer("seed", 0);  // a row without a seed is no replicate
    std::string config;
    for (const std::string& column : configuration) {
      config += (config.empty() ? "" : ", ") + column + "=" + csv.field(column);
    }
    // The same seed twice in one configuration is one replicate counted twice: a smaller p
    // than the data support.
    const auto [first, fresh] = seed_line.try_emplace({config, seed}, csv.line_number());
    if (!fresh) {
      csv.fail("seed", "expected each seed once per configuration, found seed " + std::to_string(seed) +
                           " again (first on line " + std::to_string(first->second) + ")");
    }
    for (const std::string& column : metrics) {
      const std::string& text = csv.field(column);
      if (text.empty()) continue;  // not applicable in this run
      double value = 0;
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
        csv.fail(column, "expected a finite number (or an empty cell: not applicable), found \"" + text + "\"");
      }
      const std::string metric = metric_name(column);
      const std::string name = config.empty() ? metric : metric + " [" + config + "]";
      const auto [slot, added] = index.try_emplace(name, out.size());
      if (added) out.push_back({name, {metric, {}, true}});
      Samples& samples = out[slot->second].second;
      samples.values.push_back(value);
      samples.integral = samples.integral && text.find_first_of(".eE") == std::string::npos;
    }
  }
  // A baseline without values would pass every check, whatever the run holds.
  if (out.empty()) {
    throw InputError(path, "", "expected at least one metric value (a row with a non-empty metric cell), found none");
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
  // Samples are sets of replicates: the same values in another row order are the same sample.
  std::vector<double> base_sorted = base.values, cur_sorted = cur.values;
  std::sort(base_sorted.begin(), base_sorted.end());
  std::sort(cur_sorted.begin(), cur_sorted.end());
  if (base_sorted == cur_sorted) return row;  // same
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

namespace {

const char* kind_name(DirectoryKind k) {
  return k == DirectoryKind::single ? "a single run (summary.json)" : "replicated runs (runs.csv)";
}

}  // namespace

CheckReport check_run(const std::string& run_dir, const std::string& baseline_dir, const CheckOptions& options) {
  CheckReport report;
  report.suite = "sharesim check";
  report.subject = run_dir + " against " + baseline_dir;
  const DirectoryKind run_kind = kind_of(run_dir);
  const DirectoryKind baseline_kind = kind_of(baseline_dir);
  if (run_kind != baseline_kind) {
    throw InputError(baseline_dir, "",
                     std::string("expected ") + kind_name(run_kind) + " as " + run_dir + " holds, found " +
                         kind_name(baseline_kind));
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

bool is_new_baseline(const std::string& baseline_dir) {
  if (!fs::exists(baseline_dir)) return true;
  return fs::is_directory(baseline_dir) && fs::is_empty(baseline_dir);
}

CheckReport check_new_baseline(const std::string& run_dir, const std::string& baseline_dir,
                               const CheckOptions& options) {
  CheckReport report;
  report.suite = "sharesim check";
  report.subject = run_dir + " as the new baseline " + baseline_dir;
  std::vector<std::string> paths;
  if (kind_of(run_dir) == DirectoryKind::single) {
    const SingleRun run = read_single(run_dir);
    for (const auto& [name, value] : run.metrics) paths.push_back(name);
    compare_lists(
        MetricList{}, run.metrics,
        [](const std::string&, const MetricValue&, const MetricValue&) {
          return MetricRow{};  // never called: the baseline has no metric
        },
        report);
  } else {
    const SampleList run = read_runs(run_dir);
    for (const auto& [label, samples] : run) paths.push_back(samples.metric);
    compare_lists(
        SampleList{}, run,
        [](const std::string&, const Samples&, const Samples&) {
          return MetricRow{};  // never called: the baseline has no metric
        },
        report);
  }
  // A rule that matches nothing would be as silently useless here as in a check.
  require_every_rule_matches(options.tolerances, paths, "--tol", "metric");
  report.notes.push_back("no baseline at " + baseline_dir + " yet: every metric of the run is new");
  return report;
}

std::vector<std::string> update_baseline(const std::string& run_dir, const std::string& baseline_dir) {
  const bool single = kind_of(run_dir) == DirectoryKind::single;
  // The run is checked as a run before it becomes a baseline (a boolean metric, a nan cell).
  if (single) {
    read_single(run_dir);
  } else {
    read_runs(run_dir);
  }
  // The sweep's metric lists travel with runs.csv: they tell its metric columns from its
  // configuration columns. A stale one left in the baseline would classify the new columns.
  std::vector<std::string> files = {single ? kSummary : kRuns}, stale;
  for (const char* name : kMetricLists) {
    (!single && fs::is_regular_file(fs::path(run_dir) / name) ? files : stale).push_back(name);
  }
  std::vector<std::pair<std::string, std::string>> contents;
  for (const std::string& file : files) {
    std::ifstream in(fs::path(run_dir) / file, std::ios::binary);
    std::ostringstream content;
    content << in.rdbuf();
    if (!in) throw InputError((fs::path(run_dir) / file).string(), "", "cannot read the file");
    contents.emplace_back(file, content.str());
  }
  for (const std::string& file : stale) fs::remove(fs::path(baseline_dir) / file);
  std::vector<std::string> written;
  for (const auto& [file, content] : contents) {
    write_output_file(baseline_dir, file, content);
    written.push_back((fs::path(baseline_dir) / file).string());
  }
  return written;
}

}  // namespace sharesim
