#include "apps/compare_run.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "apps/progress_bar.h"
#include "apps/run_verdict.h"
#include "policies/mig/mig_profiles.h"
#include "policies/vgpu/vgpu_types.h"
#include "sim/core/csv_format.h"
#include "sim/metrics/output_files.h"
#include "sim/scenario/did_you_mean.h"
#include "sim/scenario/error_text.h"
#include "sim/scenario/input_error.h"
#include "sim/scenario/json_pointer.h"

namespace sharesim {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::int64_t kSharesPerGpu = 4;  // replicas of timeslice and mps, vGPUs per GPU of vgpu

// The policies compare knows by name, in the order: every built-in policy.
const std::vector<std::string>& builtin_names() {
  static const std::vector<std::string> names{"exclusive", "timeslice", "mps", "mig", "vgpu", "fractional"};
  return names;
}

bool has_gpus(const NodePoolSpec& pool) { return pool.gpus_per_node > 0; }

// The C-series type that puts kSharesPerGpu vGPUs on a GPU, else the nearest with more
// (smaller vGPUs), else the one with the most; empty when sharesim has no table for the GPU.
std::optional<std::string> default_vgpu_profile(const std::string& gpu_id) {
  const std::vector<VgpuType> types = vgpu_types_for(gpu_id);
  const VgpuType* best = nullptr;
  for (const VgpuType& type : types) {
    if (type.max_per_gpu < kSharesPerGpu) continue;
    if (best == nullptr || type.max_per_gpu < best->max_per_gpu) best = &type;
  }
  for (const VgpuType& type : types) {
    if (best == nullptr || (best->max_per_gpu < kSharesPerGpu && type.max_per_gpu > best->max_per_gpu)) best = &type;
  }
  if (best == nullptr) return std::nullopt;
  return best->name;
}

// A built-in policy's default sharing object for one pool.
Json builtin_sharing(const std::string& policy, const NodePoolSpec& pool) {
  Json sharing{{"policy", policy}};
  if (policy == "timeslice" || policy == "mps") sharing["replicas"] = kSharesPerGpu;
  if (policy == "vgpu") {
    // Without a type table the registry's own message says so when the run is built.
    if (const std::optional<std::string> profile = default_vgpu_profile(pool.gpu)) sharing["profile"] = *profile;
  }
  if (policy == "mig") {
    // Single strategy, so pods keep asking nvidia.com/gpu; all-2g is three instances per GPU,
    // the MIG layout nearest the 4-way sharing of the others. Without a MIG table the
    // registry's own message says so when the run is built.
    if (const MigGpuProfiles* mig = mig_profiles_for(pool.gpu)) {
      for (const std::string& layout : mig->layout_names()) {
        if (layout.rfind("all-2g.", 0) == 0 && layout.find(".me") == std::string::npos) {
          sharing["strategy"] = "single";
          sharing["layout"] = layout;
          break;
        }
      }
    }
  }
  return sharing;
}

// Pool names and variant names share the scenario's name rule.
bool is_valid_name(const std::string& name) {
  if (name.empty() || name.front() == '-' || name.back() == '-') return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; });
}

const Json* scenario_variants(const Scenario& scenario) {
  const auto compare = scenario.document.find("compare");
  if (compare == scenario.document.end()) return nullptr;
  const auto variants = compare->find("variants");
  return variants == compare->end() ? nullptr : &*variants;
}

std::string variant_pointer(const std::string& name) { return pointer_append("/compare/variants", name); }

// Checks every scenario variant's name, listed or not, so that validate-like mistakes surface.
void check_variant_names(const Scenario& scenario) {
  const Json* variants = scenario_variants(scenario);
  if (variants == nullptr) return;
  for (auto entry = variants->begin(); entry != variants->end(); ++entry) {
    const std::string& name = entry.key();
    if (!is_valid_name(name)) {
      throw InputError(scenario.file, variant_pointer(name),
                       "expected a variant name of lowercase letters, digits and '-' that starts and ends with a "
                       "letter or digit, found " +
                           quote(name));
    }
    const auto& builtin = builtin_names();
    if (std::find(builtin.begin(), builtin.end(), name) != builtin.end()) {
      throw InputError(scenario.file, variant_pointer(name),
                       "variant name " + quote(name) +
                           " is a built-in policy name (its defaults: docs/scenario.md \"compare\"); choose another");
    }
  }
}

// Restates an error raised while building or running a variant so that it points at what the
// user wrote: a scenario variant's own key, or the --policies name of a built-in default.
[[noreturn]] void rethrow_for_variant(const InputError& e, const Scenario& scenario, const CompareVariant& variant) {
  if (e.file() == scenario.file) {
    for (std::size_t i = 0; i < scenario.node_pools.size(); ++i) {
      const NodePoolSpec& pool = scenario.node_pools[i];
      const std::string sharing = pool.pointer + "/sharing";
      if (!has_gpus(pool) || !pointer_within(e.where(), sharing)) continue;
      const std::string rest = e.where().substr(sharing.size());
      if (!variant.builtin) {
        throw InputError(scenario.file, variant_pointer(variant.name) + rest,
                         e.problem() + " (on node pool " + quote(pool.name) + ", GPU " + pool.gpu + ")");
      }
      throw InputError("--policies", "",
                       quote(variant.name) + ": " + e.problem() + " (built-in default " + variant.sharing[i].dump() +
                           " on node pool " + quote(pool.name) + " of " + scenario.file + ")");
    }
  }
  throw InputError(e.file(), e.where(), e.problem() + " (compare variant " + quote(variant.name) + ")");
}

// The scenario with every GPU pool's sharing replaced, in the typed pools and in the document
// (which summary.json echoes as the scenario that ran).
Scenario variant_scenario(const Scenario& scenario, const CompareVariant& variant) {
  Scenario copy = scenario;
  Json& pools = copy.document["cluster"]["node_pools"];
  for (std::size_t i = 0; i < copy.node_pools.size(); ++i) {
    if (variant.sharing[i].is_null()) continue;
    copy.node_pools[i].sharing = nlohmann::json(variant.sharing[i]);
    pools[i]["sharing"] = variant.sharing[i];
  }
  return copy;
}

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

std::vector<std::string> parse_policy_list(std::string_view text, const std::string& option) {
  std::vector<std::string> names;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string name(
        text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (name.empty()) {
      throw InputError(option, "",
                       "expected a comma-separated list of policy names (e.g. " + std::string(kDefaultComparePolicies) +
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

Json CompareVariant::sharing_summary() const {
  Json first;
  bool same = true;
  for (const Json& config : sharing) {
    if (config.is_null()) continue;
    if (first.is_null()) {
      first = config;
    } else if (config != first) {
      same = false;
    }
  }
  if (same) return first;
  // Pools differ (vgpu types depend on the GPU): name them. Pool names are unique.
  Json by_pool = Json::object();
  for (std::size_t i = 0; i < sharing.size(); ++i) {
    if (!sharing[i].is_null()) by_pool[pools[i]] = sharing[i];
  }
  return by_pool;
}

CompareVariant compare_variant(const Scenario& scenario, const std::string& name) {
  check_variant_names(scenario);
  CompareVariant variant;
  variant.name = name;
  const auto& builtin = builtin_names();
  if (std::find(builtin.begin(), builtin.end(), name) != builtin.end()) {
    variant.policy = name;
    for (const NodePoolSpec& pool : scenario.node_pools) {
      variant.sharing.push_back(has_gpus(pool) ? builtin_sharing(name, pool) : Json());
      variant.pools.push_back(pool.name);
    }
    return variant;
  }
  const Json* variants = scenario_variants(scenario);
  if (variants == nullptr || !variants->contains(name)) {
    std::vector<std::string> known = builtin;
    if (variants != nullptr) {
      for (auto entry = variants->begin(); entry != variants->end(); ++entry) known.push_back(entry.key());
    }
    const std::optional<std::string> suggestion = closest_match(name, known);
    throw InputError("--policies", "",
                     "unknown policy or variant " + quote(name) + "; " +
                         (suggestion ? "did you mean " + quote(*suggestion) + "?"
                                     : "expected one of " + quoted_list(known) +
                                           " (variants come from the scenario's compare.variants)"));
  }
  const Json& config = (*variants)[name];
  variant.policy = config["policy"].get<std::string>();  // the schema requires a string
  variant.builtin = false;
  for (const NodePoolSpec& pool : scenario.node_pools) {
    variant.sharing.push_back(has_gpus(pool) ? config : Json());
    variant.pools.push_back(pool.name);
  }
  return variant;
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
      result.run = std::make_unique<ScenarioRun>(variant_scenario(scenario_, result.variant), catalog);
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
  // Build the compare files first; each run builds its own files before writing them.
  const std::string csv_text = csv();
  const std::string json_text = json().dump(2) + "\n";
  for (CompareResult& r : results_) r.run->write_outputs(dir + "/" + r.variant.name);
  write_output_file(dir, "compare.csv", csv_text);
  write_output_file(dir, "compare.json", json_text);
}

}  // namespace sharesim
