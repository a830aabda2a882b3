#include "importers/k8s/k8s_import.h"

#include <optional>

#include "importers/k8s/device_plugin_config.h"
#include "importers/k8s/node_import.h"
#include "importers/k8s/scheduler_config.h"
#include "importers/k8s/workload_import.h"
#include "sim/input/input_error.h"
#include "sim/scenario/scenario_overrides.h"

namespace sharesim {

namespace {

// The index N of a pointer "<array>/N" or "<array>/N/...", or nullopt.
std::optional<std::size_t> index_in(const std::string& pointer, const std::string& array) {
  if (pointer.rfind(array + "/", 0) != 0) return std::nullopt;
  const std::string rest = pointer.substr(array.size() + 1);
  const std::string digits = rest.substr(0, rest.find('/'));
  if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::stoul(digits);
}

}  // namespace

std::string imported_scenario_label(const std::string& file) { return file + " (imported, not written)"; }

InputError K8sImport::located_in_inputs(const InputError& error) const {
  for (const auto& [array, origins] :
       {std::pair{"/cluster/node_pools", &pool_origins}, std::pair{"/workload/jobs", &job_origins}}) {
    const std::optional<std::size_t> index = index_in(error.where(), array);
    if (!index || *index >= origins->size()) continue;
    const ManifestOrigin& origin = (*origins)[*index];
    return InputError(origin.file, origin.place + ", imported as " + error.where(), error.problem());
  }
  return error;
}

K8sImport import_k8s(const K8sImportInputs& inputs, const GpuCatalog& catalog) {
  using Json = nlohmann::ordered_json;
  K8sImport result;
  if (inputs.nodes.empty()) throw InputError("--nodes", "", "expected the nodes file (kubectl get nodes -o json)");
  const DevicePluginConfigs plugin =
      inputs.device_plugin_config.empty() ? DevicePluginConfigs() : DevicePluginConfigs(inputs.device_plugin_config);
  const MigPartedConfigs mig = inputs.mig_config.empty() ? MigPartedConfigs() : MigPartedConfigs(inputs.mig_config);
  Json scenario = Json::object();
  scenario["name"] = inputs.name;
  std::string description = "Imported by sharesim import k8s from the nodes in " + inputs.nodes;
  if (!inputs.device_plugin_config.empty()) description += ", the device plugin config " + inputs.device_plugin_config;
  if (!inputs.mig_config.empty()) description += ", the mig-parted config " + inputs.mig_config;
  for (const std::string& file : inputs.workloads) description += ", the manifests " + file;
  if (!inputs.scheduler_config.empty()) description += ", the scheduler config " + inputs.scheduler_config;
  scenario["description"] = description + ".";
  ImportedNodePools pools = import_node_pools(inputs.nodes, plugin, mig, catalog);
  scenario["cluster"] = {{"node_pools", std::move(pools.pools)}};
  result.pool_origins = std::move(pools.origins);
  result.notes = std::move(pools.notes);
  const std::optional<ImportedSchedulerConfig> config =
      inputs.scheduler_config.empty() ? std::nullopt : std::optional(import_scheduler_config(inputs.scheduler_config));
  ImportedWorkload workload;
  if (!inputs.workloads.empty()) {
    workload = import_workloads(inputs.workloads, catalog);
    result.job_origins = workload.origins;
    // A scenario with a workload section but no jobs cannot run; without --workload it is a
    // cluster-only scenario for describe-nodes, written on purpose.
    if (workload.jobs.empty()) {
      throw InputError(inputs.workloads.front(), "",
                       "expected at least one Pod, Deployment, StatefulSet, ReplicaSet, Job or training job with "
                       "pods in the workload files, found none");
    }
  }
  if (!inputs.workloads.empty() || config) {
    // kube-scheduler: PrioritySort orders the queue, DefaultPreemption is on unless the
    // profile disables it; without a scheduler config, the score is sharesim's first-fit.
    Json scheduler = {{"queue", workload.any_priority ? "priority" : "fifo"}};
    if (config && !config->score_plugins.empty()) {
      scheduler["score_plugins"] = config->score_plugins;
    } else {
      scheduler["placement"] = "first-fit";
    }
    scheduler["preemption"] = config ? config->preemption : true;
    if (!workload.priority_classes.empty()) scheduler["priority_classes"] = workload.priority_classes;
    scenario["scheduler"] = scheduler;
  }
  if (!workload.jobs.empty()) scenario["workload"] = {{"jobs", std::move(workload.jobs)}};
  for (const Override& override_spec : inputs.overrides) apply_override(scenario, override_spec);
  result.scenario = std::move(scenario);
  // The loader's every check, on the text that will be written.
  try {
    load_scenario_text(result.scenario.dump(2), imported_scenario_label(inputs.name + ".json"), catalog);
  } catch (const InputError& error) {
    throw result.located_in_inputs(error);
  }
  return result;
}

}  // namespace sharesim
