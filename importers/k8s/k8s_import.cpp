#include "importers/k8s/k8s_import.h"

#include "importers/k8s/device_plugin_config.h"
#include "importers/k8s/node_import.h"
#include "importers/k8s/workload_import.h"
#include "sim/scenario/input_error.h"
#include "sim/scenario/scenario_overrides.h"

namespace sharesim {

nlohmann::ordered_json import_k8s(const K8sImportInputs& inputs, const GpuCatalog& catalog) {
  using Json = nlohmann::ordered_json;
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
  scenario["description"] = description + ".";
  scenario["cluster"] = {{"node_pools", import_node_pools(inputs.nodes, plugin, mig, catalog)}};
  if (!inputs.workloads.empty()) {
    ImportedWorkload workload = import_workloads(inputs.workloads, catalog);
    scenario["scheduler"] = {{"queue", workload.any_priority ? "priority" : "fifo"}, {"placement", "first-fit"}};
    if (!workload.jobs.empty()) scenario["workload"] = {{"jobs", std::move(workload.jobs)}};
  }
  for (const Override& override_spec : inputs.overrides) apply_override(scenario, override_spec);
  // The loader's every check, on the text that will be written.
  load_scenario_text(scenario.dump(2), inputs.name + ".json (imported)", catalog);
  return scenario;
}

}  // namespace sharesim
