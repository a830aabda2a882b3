#include "apps/compare_run.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "apps/progress_bar.h"
#include "apps/run_verdict.h"
#include "policies/policy_registry.h"
#include "sim/core/csv_format.h"
#include "sim/metrics/output_files.h"
#include "sim/metrics/output_set.h"
#include "sim/input/did_you_mean.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"

namespace sharesim {
namespace {

using Json = nlohmann::ordered_json;

bool has_gpus(const NodePoolSpec& pool) { return pool.gpus_per_node > 0; }

// ---- figures --------------------------------------------------------------------------

// One figure of a run: its compare.csv column / compare.json key, its label in the table, and
// its value (absent when there is nothing to measure, e.g. no job completed).
struct Figure {
  const char* key;
  const char* label;
  int decimals;  // in the table; -1 = an integer
  std::optional<double> (*value)(const RunMetrics& m);
};

std::optional<double> when(bool known, double value) { return known ? std::optional<double>(value) : std::nullopt; }

const std::vector<Figure>& figures() {
  using M = RunMetrics;
  static const std::vector<Figure> list{
      {"jobs_submitted", "jobs submitted", -1, [](const M& m) { return when(true, double(m.submitted)); }},
      {"jobs_completed", "jobs completed", -1, [](const M& m) { return when(true, double(m.completed)); }},
      {"jobs_failed", "jobs failed", -1, [](const M& m) { return when(true, double(m.failed)); }},
      {"jobs_pending_at_end", "jobs pending at end", -1,
       [](const M& m) { return when(true, double(m.pending_at_end)); }},
      {"jobs_never_started", "  of which never started", -1,
       [](const M& m) { return when(true, double(m.never_started)); }},
      {"jct_p50_s", "JCT p50 (s)", 1, [](const M& m) { return when(m.jct_s.count > 0, m.jct_s.p50); }},
      {"jct_p95_s", "JCT p95 (s)", 1, [](const M& m) { return when(m.jct_s.count > 0, m.jct_s.p95); }},
      {"wait_p50_s", "wait p50 (s), started", 1, [](const M& m) { return when(m.wait_s.count > 0, m.wait_s.p50); }},
      {"wait_p95_s", "wait p95 (s), started", 1, [](const M& m) { return when(m.wait_s.count > 0, m.wait_s.p95); }},
      // The never-started jobs at the wait they had reached by the end: a lower bound.
      {"wait_censored_p50_s", "wait p50 (s), all, censored at end", 1,
       [](const M& m) { return when(m.wait_censored_s.count > 0, m.wait_censored_s.p50); }},
      {"wait_censored_p95_s", "wait p95 (s), all, censored at end", 1,
       [](const M& m) { return when(m.wait_censored_s.count > 0, m.wait_censored_s.p95); }},
      {"slowdown_p50", "slowdown p50", 2, [](const M& m) { return when(m.slowdown.count > 0, m.slowdown.p50); }},
      {"slowdown_p95", "slowdown p95", 2, [](const M& m) { return when(m.slowdown.count > 0, m.slowdown.p95); }},
      {"throughput_per_hour", "throughput (jobs/h)", 2,
       [](const M& m) { return when(true, m.throughput_jobs_per_hour); }},
      {"utilization_mean", "GPU utilization", 3, [](const M& m) { return when(true, m.utilization_mean); }},
      {"allocated_fraction_mean", "GPU allocated", 3, [](const M& m) { return when(true, m.allocated_fraction_mean); }},
      {"sm_utilization_mean", "SM utilization", 3, [](const M& m) { return when(true, m.sm_utilization_mean); }},
      {"slo_attainment", "SLO attainment", 3, [](const M& m) { return when(m.slo_attainment >= 0, m.slo_attainment); }},
      {"request_latency_p50_s", "request latency p50 (s)", 3,
       [](const M& m) { return when(m.request_latency_s.count > 0, m.request_latency_s.p50); }},
      {"request_latency_p99_s", "request latency p99 (s)", 3,
       [](const M& m) { return when(m.request_latency_s.count > 0, m.request_latency_s.p99); }},
      {"request_slo_attainment", "request SLO attainment", 3,
       [](const M& m) { return when(m.request_slo_attainment >= 0, m.request_slo_attainment); }},
      {"notebook_cell_slowdown_p50", "notebook cell slowdown p50", 2,
       [](const M& m) { return when(m.notebook_cell_slowdown.count > 0, m.notebook_cell_slowdown.p50); }},
      {"notebook_cell_slowdown_p95", "notebook cell slowdown p95", 2,
       [](const M& m) { return when(m.notebook_cell_slowdown.count > 0, m.notebook_cell_slowdown.p95); }},
      {"restarts", "restarts", -1, [](const M& m) { return when(true, double(m.restarts)); }},
      {"killed_oom", "OOM kills", -1, [](const M& m) { return when(true, double(m.killed_oom)); }},
      {"killed_fault", "fault kills", -1, [](const M& m) { return when(true, double(m.killed_fault)); }},
      {"killed_admission_error", "admission errors", -1,
       [](const M& m) { return when(true, double(m.killed_admission)); }},
      {"killed_by_another_pod", "killed by another pod", -1,
       [](const M& m) { return when(true, double(m.killed_by_other)); }},
      {"gpus_used_peak", "GPUs used at peak", -1, [](const M& m) { return when(true, double(m.gpus_used_peak)); }},
      {"gpu_count", "GPUs in the cluster", -1, [](const M& m) { return when(true, double(m.gpu_count)); }},
      {"context_switches", "context switches", 0, [](const M& m) { return when(true, m.context_switches); }},
      {"gpu_hours_used", "GPU-hours used", 1, [](const M& m) { return when(true, m.gpu_hours_allocated); }},
      {"gpu_hours_provisioned", "GPU-hours provisioned", 1,
       [](const M& m) { return when(true, m.gpu_hours_provisioned); }},
      {"cost_used", "cost of GPU-hours used", 2, [](const M& m) { return when(true, m.cost_used); }},
      {"cost_total", "cost provisioned", 2, [](const M& m) { return when(true, m.cost); }},
      {"cost_vgpu_licenses", "  of which vGPU licenses", 2, [](const M& m) { return when(true, m.license_cost); }},
  };
  return list;
}

std::string table_cell(const Figure& figure, std::optional<double> value) {
  if (!value) return "-";
  return format_fixed(*value, figure.decimals < 0 ? 0 : figure.decimals);
}

Json json_value(const Figure& figure, std::optional<double> value) {
  if (!value) return nullptr;
  if (figure.decimals < 0) return static_cast<std::uint64_t>(*value);
  return *value;
}

// A sharing object as flat text for a CSV cell, no JSON in it: "policy=mig strategy=single
// layout=all-2g.20gb"; nested objects as dotted keys, lists joined by '|'; per pool (when pools
// differ) "a100: policy=vgpu profile=A100-20C; h100: ...".
void append_flat(std::string& out, const std::string& key, const Json& value) {
  if (value.is_object()) {
    for (auto entry = value.begin(); entry != value.end(); ++entry) append_flat(out, key + "." + entry.key(), *entry);
    return;
  }
  std::string text;
  if (value.is_array()) {
    for (const Json& item : value)
      text += (text.empty() ? "" : "|") + (item.is_string() ? item.get<std::string>() : item.dump());
  } else {
    text = value.is_string() ? value.get<std::string>() : value.dump();
  }
  out += (out.empty() ? "" : " ") + key + "=" + text;
}

std::string sharing_text(const Json& sharing) {
  std::string out;
  const bool by_pool = !sharing.contains("policy");
  for (auto entry = sharing.begin(); entry != sharing.end(); ++entry) {
    if (by_pool) {
      out += (out.empty() ? "" : "; ") + entry.key() + ": " + sharing_text(*entry);
    } else {
      std::string pair;
      append_flat(pair, entry.key(), *entry);
      out += (out.empty() ? "" : " ") + pair;
    }
  }
  return out;
}

std::string pad_left(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}
std::string pad_right(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

}  // namespace

std::string default_compare_policies() { return demo_policy_list(); }

std::vector<std::string> parse_policy_list(std::string_view text, const std::string& option) {
  std::vector<std::string> names;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string name(
        text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (name.empty()) {
      throw InputError(option, "",
                       "expected a comma-separated list of policy names (e.g. " + default_compare_policies() +
                           "), found " + quote(text));
    }
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      throw InputError(option, "", "policy " + quote(name) + " is listed twice in " + quote(text));
    }
    names.push_back(name);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return names;
}

CompareVariant compare_variant(const Scenario& scenario, const std::string& name) {
  return sharing_variant(scenario, name);
}

CompareRun::CompareRun(const Scenario& scenario, const GpuCatalog& catalog, const std::vector<std::string>& names)
    : scenario_(scenario) {
  if (names.empty()) throw InputError("--policies", "", "expected at least one policy name, found none");
  if (std::none_of(scenario_.node_pools.begin(), scenario_.node_pools.end(), has_gpus)) {
    throw InputError(scenario_.file, "/cluster/node_pools",
                     "compare needs a node pool with GPUs, found only pools with gpus_per_node 0");
  }
  // Every name first, so that a typo late in the list is reported before anything is built.
  std::vector<CompareVariant> variants;
  for (const std::string& name : names) variants.push_back(compare_variant(scenario_, name));
  for (CompareVariant& variant : variants) {
    CompareResult result;
    result.variant = std::move(variant);
    try {
      result.run = std::make_unique<ScenarioRun>(apply_sharing_variant(scenario_, result.variant), catalog);
    } catch (const InputError& e) {
      rethrow_for_variant(e, scenario_, result.variant);
    }
    results_.push_back(std::move(result));
  }
}

void CompareRun::run(bool progress) {
  std::size_t done = 0;
  for (CompareResult& result : results_) {
    try {
      if (progress) {
        ProgressBar bar(
            scenario_.until, result.run->runtime(),
            "[" + std::to_string(++done) + "/" + std::to_string(results_.size()) + "] " + result.variant.name + "  ");
        result.run->run([&bar](SimTime now) { bar.update(now); });
        bar.finish();
      } else {
        result.run->run();
      }
    } catch (const InputError& e) {
      // A trace row found bad only while the run reads it.
      rethrow_for_variant(e, scenario_, result.variant);
    }
  }
  ran_ = true;
}

std::string CompareRun::table(const std::string& output_dir) const {
  const std::size_t label_width = 36;
  std::vector<std::size_t> widths;
  for (const CompareResult& r : results_) widths.push_back(std::max<std::size_t>(11, r.variant.name.size()) + 2);
  std::uint64_t gpus = 0;
  for (const NodePoolSpec& pool : scenario_.node_pools) gpus += std::uint64_t(pool.nodes * pool.gpus_per_node);

  std::string out = "compare     " + scenario_.name + "   seed " + std::to_string(scenario_.seed) + "   until " +
                    (scenario_.until == kTimeNever ? std::string("all work done") : format_duration(scenario_.until)) +
                    "   " + count_of(static_cast<long long>(gpus), "GPU", "GPUs") + "\n\n";
  auto row = [&](const std::string& label, const std::vector<std::string>& cells) {
    std::string line = pad_right(label, label_width);
    for (std::size_t i = 0; i < cells.size(); ++i) line += pad_left(cells[i], widths[i]);
    out += line + "\n";
  };
  std::vector<std::string> cells;
  for (const CompareResult& r : results_) cells.push_back(r.variant.name);
  row("", cells);
  cells.clear();
  for (const CompareResult& r : results_) cells.push_back(r.variant.policy);
  row("policy", cells);
  for (const Figure& figure : figures()) {
    cells.clear();
    for (const CompareResult& r : results_) {
      cells.push_back(ran_ ? table_cell(figure, figure.value(r.run->metrics())) : "-");
    }
    row(figure.label, cells);
    // The request rows above pool every service's requests, so the many fast requests of one
    // service hide the tail of another: with two or more, each service's own p99 and SLO share.
    if (ran_ && std::string_view(figure.key) == "request_slo_attainment") {
      const std::vector<ServiceMetrics>& services = results_.front().run->metrics().services;
      std::size_t inference = 0;
      for (const ServiceMetrics& s : services)
        if (s.kind == "inference") ++inference;
      for (std::size_t i = 0; inference >= 2 && i < services.size(); ++i) {
        if (services[i].kind != "inference") continue;
        for (const bool p99 : {true, false}) {
          if (!p99 && services[i].slo_s <= 0) continue;
          cells.clear();
          for (const CompareResult& r : results_) {
            const std::vector<ServiceMetrics>& mine = r.run->metrics().services;
            if (i >= mine.size()) {
              cells.push_back("-");
            } else if (p99) {
              cells.push_back(mine[i].latency_s.count > 0 ? format_fixed(mine[i].latency_s.p99, 3) : "-");
            } else {
              cells.push_back(mine[i].slo_attainment >= 0 ? format_fixed(mine[i].slo_attainment, 3) : "-");
            }
          }
          row("  " + services[i].name + (p99 ? " p99 (s)" : " SLO attainment"), cells);
        }
      }
    }
  }
  out += "\nsharing (every GPU pool)\n";
  std::size_t name_width = 0;
  for (const CompareResult& r : results_) name_width = std::max(name_width, r.variant.name.size());
  double wall = 0;
  std::uint64_t events = 0;
  for (const CompareResult& r : results_) {
    out += "  " + pad_right(r.variant.name, name_width) + "  " + r.variant.sharing_summary().dump() + "\n";
    if (ran_) {
      wall += r.run->metrics().wall_s;
      events += r.run->metrics().events;
    }
  }
  const std::vector<std::string> verdict_lines = verdict();
  if (!verdict_lines.empty()) out += "\nverdict\n";
  for (const std::string& v : verdict_lines) out += "  " + v + "\n";
  char line[160];
  const std::size_t ran = ran_ ? results_.size() : 0;
  std::snprintf(line, sizeof line, "\nsimulated   %zu %s, %llu events, %.3f s wall\n", ran, ran == 1 ? "run" : "runs",
                static_cast<unsigned long long>(events), wall);
  out += line;
  if (!output_dir.empty()) out += "outputs     " + output_dir + "/\n";
  return out;
}

std::string CompareRun::csv() const {
  std::string out = "variant,policy,sharing";
  for (const Figure& figure : figures()) out += std::string(",") + figure.key;
  out += "\n";
  for (const CompareResult& r : results_) {
    CsvRow row(out);
    row.text(r.variant.name).text(r.variant.policy).text(sharing_text(r.variant.sharing_summary()));
    for (const Figure& figure : figures()) {
      const std::optional<double> value = ran_ ? figure.value(r.run->metrics()) : std::optional<double>(std::nullopt);
      if (value && figure.decimals < 0) {
        row.integer(static_cast<std::uint64_t>(*value));
      } else {
        row.number_if(value.has_value(), value.value_or(0));
      }
    }
    row.end();
  }
  return out;
}

std::vector<std::string> CompareRun::warnings() const {
  std::vector<std::string> lines;
  if (!ran_) return lines;
  for (const CompareResult& r : results_) {
    for (std::string& w : run_warnings(*r.run, "policy " + r.variant.name)) lines.push_back(std::move(w));
  }
  return lines;
}

std::vector<std::string> CompareRun::verdict() const {
  if (!ran_) return {};
  std::vector<VerdictCandidate> candidates;
  for (const CompareResult& r : results_) candidates.push_back({r.variant.name, r.run.get()});
  return compare_verdict(scenario_, candidates);
}

Json CompareRun::json() const {
  Json doc;
  doc["sharesim_version"] = sharesim_version();
  doc["scenario"] = scenario_.name;
  doc["seed"] = scenario_.seed;
  Json rows = Json::array();
  for (const CompareResult& r : results_) {
    Json row;
    row["variant"] = r.variant.name;
    row["policy"] = r.variant.policy;
    row["sharing"] = r.variant.sharing_summary();
    for (const Figure& figure : figures()) {
      row[figure.key] = ran_ ? json_value(figure, figure.value(r.run->metrics())) : Json(nullptr);
    }
    rows.push_back(std::move(row));
  }
  doc["policies"] = std::move(rows);
  doc["verdict"] = verdict();
  doc["warnings"] = warnings();
  return doc;
}

void CompareRun::write_outputs(const std::string& dir) {
  // One set: every variant's run directory and the comparison, swapped in together.
  OutputSet set(dir);
  for (CompareResult& r : results_) r.run->write_outputs(set, r.variant.name + "/");
  set.write("compare.csv", csv());
  set.write("compare.json", json().dump(2) + "\n");
  set.commit();
}

}  // namespace sharesim
