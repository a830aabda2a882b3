#include "workloads/openb_trace.h"

#include <algorithm>
#include <iostream>

#include "sim/core/csv_format.h"
#include "sim/input/did_you_mean.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"

namespace sharesim {

namespace {

OpenbModelTable default_model_table() {
  // Disclosed models by name (V100M16/V100M32: V100 with 16/32 GB, openb README). G1-G3 are
  // undisclosed internal codes: the entries below are assumptions, not facts (docs/traces.md).
  return {{"P100", "P100"}, {"T4", "T4"}, {"V100M16", "V100-16GB"}, {"V100M32", "V100-32GB"},
          {"A10", "A10"},   {"G1", "L4"}, {"G2", "A100-40GB"},      {"G3", "A100-80GB"}};
}

}  // namespace

std::string openb_model_key_problem(const std::string& key) {
  const OpenbModelTable table = default_model_table();
  if (table.contains(key)) return "";
  std::vector<std::string> names;
  for (const auto& [name, id] : table) names.push_back(name);
  const std::optional<std::string> near = closest_match(key, names);
  return "expected a GPU model name of the openb trace (" + quoted_list(names) + "), found " + quote(key) +
         (near ? "; did you mean " + quote(*near) + "?" : "");
}

OpenbModelTable openb_model_table(const nlohmann::json& overrides, const std::string& file,
                                  const std::string& pointer) {
  OpenbModelTable table = default_model_table();
  for (const auto& [name, id] : overrides.items()) {
    if (const std::string problem = openb_model_key_problem(name); !problem.empty()) {
      throw InputError(file, pointer + "/" + name, problem);
    }
    table[name] = id.get<std::string>();
  }
  return table;
}

OpenbTraceReader::OpenbTraceReader(const std::string& path, OpenbModelTable models, std::optional<SimTime> end)
    : pods_(path), models_(std::move(models)), end_(end) {
  // The placement experiment reads lists without times (sharesim place); a replay in time needs
  // each pod's creation (docs/traces.md).
  if (!pods_.has_times()) {
    throw InputError(path, "line 1",
                     "expected a column \"creation_time\" in the header, found none; a pod list without times "
                     "(openb_pod_list_multigpu*.csv) cannot be replayed in time (sharesim place takes it)");
  }
}

OpenbTraceReader::~OpenbTraceReader() = default;

std::string OpenbTraceReader::end_note() const {
  if (relaxed_specs_ == 0) return "";
  return std::to_string(relaxed_specs_) + " pod" + (relaxed_specs_ == 1 ? "" : "s") +
         " named several GPU models in gpu_spec that map to different catalog ids; a node selector names one "
         "model, so these pods may run on any GPU model";
}

bool OpenbTraceReader::next(TraceRecord& out) {
  OpenbPodRow& row = row_;
  if (!pods_.next(row)) return false;
  const std::string at = "line " + std::to_string(row.line);
  out = TraceRecord{};
  out.line = row.line;
  out.name = row.name;
  out.submit = row.creation_time * kSecond;
  // Stay from creation to deletion, cut at the trace end. In nanoseconds: the trace's columns
  // are whole seconds, but "end" is a duration (docs/traces.md), exact to the nanosecond.
  std::optional<SimTime> leave;
  if (row.deletion_time) leave = *row.deletion_time * kSecond;  // at most kMaxTimeSeconds: no overflow
  const bool cut = end_ && (!leave || *leave > *end_);
  if (cut) leave = *end_;
  if (!leave) {
    const std::string found = pods_.has_column("deletion_time") ? quote(pods_.field("deletion_time"))
                                                                : std::string("no deletion_time column");
    throw InputError(path(), at + ", column deletion_time",
                     "expected a deletion time (or a trace \"end\" to cut running pods at), found " + found);
  }
  if (*leave < out.submit) {
    std::string found;
    append_seconds(found, *leave);
    throw InputError(path(), at + ", column deletion_time",
                     "expected a time >= creation_time (" + std::to_string(row.creation_time) + "), found " + found +
                         (cut ? " (the trace end)" : ""));
  }
  out.duration = *leave - out.submit;
  out.cpu_milli = row.cpu_milli;
  out.memory_mib = row.memory_mib;
  out.gpus_per_pod = row.num_gpu;  // a sharing pod (gpu_milli < 1000) takes one whole GPU under exclusive
  out.gpu_milli = row.gpu_milli;
  std::string selected;
  bool several = false;
  for (const std::string& model : row.gpu_spec) {
    const auto it = models_.find(model);
    if (it == models_.end()) {
      std::vector<std::string> known;
      for (const auto& [name, id] : models_) known.push_back(name);
      throw InputError(
          path(), at + ", column gpu_spec",
          "expected GPU models from the gpu_models table (" + quoted_list(known) + "), found " + quote(model));
    }
    if (!selected.empty() && selected != it->second) several = true;
    selected = it->second;
  }
  if (several) {
    ++relaxed_specs_;
    selected.clear();
  }
  if (row.num_gpu > 0) out.gpu_model_id = selected;
  return true;
}

nlohmann::ordered_json openb_node_pools(const std::string& path, const OpenbModelTable& models, bool with_cpu_nodes) {
  OpenbNodeReader reader(path);
  OpenbNodeRow row;
  struct Pool {
    nlohmann::ordered_json spec;
    std::int64_t nodes = 0;
  };
  std::vector<Pool> pools;
  std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t, std::string>, std::size_t> index;
  std::map<std::string, std::size_t> names;  // pools by name: names round cores and GiB down
  std::map<std::string, std::size_t> line_of_node;
  std::size_t rows = 0;
  while (reader.next(row)) {
    ++rows;
    if (const auto [seen, inserted] = line_of_node.try_emplace(row.name, row.line); !inserted) {
      throw InputError(path, "line " + std::to_string(row.line) + ", column sn",
                       "expected each node once, found " + quote(row.name) + " again (also line " +
                           std::to_string(seen->second) + ")");
    }
    if (row.gpus == 0 && !with_cpu_nodes) continue;
    std::string id;
    if (row.gpus > 0) {
      const auto it = models.find(row.model);
      if (it == models.end()) {
        throw InputError(path, "line " + std::to_string(row.line) + ", column model",
                         "expected a GPU model of the gpu_models table, found " + quote(row.model));
      }
      id = it->second;
    }
    const auto key = std::make_tuple(row.cpu_milli, row.memory_mib, row.gpus, row.model);
    const auto [it, inserted] = index.try_emplace(key, pools.size());
    if (inserted) {
      std::string name = (row.gpus > 0 ? row.model : std::string("cpu")) + "-" + std::to_string(row.gpus) + "g-" +
                         std::to_string(row.cpu_milli / 1000) + "c-" + std::to_string(row.memory_mib / 1024) + "gi";
      std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
      // Two shapes whose cores or memory differ by less than the rounding share a name: the
      // later one gets "-2", "-3", ... (a scenario's pool names are unique).
      if (const std::size_t same = ++names[name]; same > 1) name += "-" + std::to_string(same);
      Pool pool;
      pool.spec["name"] = name;
      pool.spec["nodes"] = 0;
      pool.spec["gpu"] = row.gpus > 0 ? id : std::string("T4");  // gpus_per_node 0: the model is unused
      pool.spec["gpus_per_node"] = row.gpus;
      pool.spec["cpu_milli"] = row.cpu_milli;
      pool.spec["memory_mib"] = row.memory_mib;
      pool.spec["labels"] = {{"openb.model", row.gpus > 0 ? row.model : std::string("none")}};
      pools.push_back(std::move(pool));
    }
    ++pools[it->second].nodes;
  }
  if (rows == 0) throw InputError(path, "line 2", "expected at least one node, found none");
  if (pools.empty()) {
    throw InputError(path, "", "expected at least one node with GPUs, found " + std::to_string(rows) +
                                   " CPU-only nodes (--with-cpu-nodes makes pools of them too)");
  }
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (Pool& pool : pools) {
    pool.spec["nodes"] = pool.nodes;
    out.push_back(std::move(pool.spec));
  }
  return out;
}

}  // namespace sharesim
