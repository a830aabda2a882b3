#include "experiments/fragmentation/experiment_input.h"

#include <algorithm>
#include <map>

#include "sim/cluster/gpu_catalog.h"
#include "sim/input/did_you_mean.h"
#include "sim/input/input_error.h"
#include "workloads/openb/openb_csv.h"
#include "workloads/openb_trace.h"

namespace sharesim {

namespace {

// A model, a node's or one a pod's gpu_spec allows, must be one the openb traces use
// (workloads/openb_trace.cpp's table) or a catalog id / GFD product name: a misspelt node model
// would become a model of its own, which no pod's gpu_spec names, and a misspelt gpu_spec entry
// would leave its pods unplaceable; either silently changes the result. A known model that no
// node has is fine in a gpu_spec (those pods wait, as on the real cluster).
void check_model(const std::string& model, const std::string& path, std::size_t line, const char* column) {
  static const OpenbModelTable openb_models = openb_model_table();  // built once, not per row
  if (openb_models.count(model) != 0 || GpuCatalog::builtin().find(model) != nullptr) return;
  std::vector<std::string> known;
  for (const auto& [name, id] : openb_models) known.push_back(name);
  const std::optional<std::string> hint = closest_match(model, known);
  std::string expected;
  for (const std::string& name : known) expected += (expected.empty() ? "" : ", ") + name;
  throw InputError(path, "line " + std::to_string(line) + ", column " + column,
                   "unknown GPU model \"" + model + "\"" + (hint ? "; did you mean \"" + *hint + "\"?" : "") +
                       " (expected an openb model: " + expected + "; or a catalog id, see `sharesim gpus`)");
}

}  // namespace

ExperimentInput make_experiment_input(const std::vector<OpenbNodeRow>& nodes, const std::vector<OpenbPodRow>& pods,
                                      const std::string& nodes_path, const std::string& pods_path) {
  ExperimentInput input;
  input.nodes_path = nodes_path;
  input.pods_path = pods_path;
  std::map<std::string, int> model_ids;
  for (const OpenbNodeRow& row : nodes) {
    if (row.model.empty()) continue;
    check_model(row.model, nodes_path, row.line, "model");
    model_ids.emplace(row.model, 0);
  }
  if (model_ids.size() > 64) {
    throw InputError(nodes_path, "column model",
                     "expected at most 64 distinct GPU models, found " + std::to_string(model_ids.size()));
  }
  for (auto& [name, id] : model_ids) {
    id = static_cast<int>(input.models.size());
    input.models.push_back(name);
  }
  for (const OpenbNodeRow& row : nodes) {
    ExperimentNode node;
    node.name = row.name;
    node.cpu_milli = row.cpu_milli;
    node.memory_mib = row.memory_mib;
    node.gpus = static_cast<std::int32_t>(row.gpus);
    node.model = row.gpus > 0 ? model_ids.at(row.model) : -1;
    input.cluster_gpu_milli += std::int64_t{node.gpus} * kMilliPerGpu;
    input.nodes.push_back(std::move(node));
  }
  if (input.cluster_gpu_milli == 0) {
    throw InputError(nodes_path, "column gpu", "expected a cluster with at least one GPU, found none");
  }
  for (const OpenbPodRow& row : pods) {
    ExperimentPod pod;
    pod.name = row.name;
    pod.request.cpu_milli = row.cpu_milli;
    pod.request.memory_mib = row.memory_mib;
    pod.request.num_gpu = static_cast<std::int32_t>(row.num_gpu);
    pod.request.gpu_milli = static_cast<std::int32_t>(row.gpu_milli);
    if (!row.gpu_spec.empty()) {
      pod.request.allowed_models = 0;
      for (const std::string& model : row.gpu_spec) {
        check_model(model, pods_path, row.line, "gpu_spec");
        const auto it = model_ids.find(model);
        if (it != model_ids.end()) pod.request.allowed_models |= std::uint64_t{1} << it->second;
      }
    }
    input.pods.push_back(std::move(pod));
  }
  std::sort(input.pods.begin(), input.pods.end(),
            [](const ExperimentPod& a, const ExperimentPod& b) { return a.name < b.name; });
  return input;
}

ExperimentInput load_experiment_input(const std::string& nodes_path, const std::string& pods_path) {
  return make_experiment_input(read_openb_nodes(nodes_path), read_openb_pods(pods_path), nodes_path, pods_path);
}

}  // namespace sharesim
