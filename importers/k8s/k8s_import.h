#pragma once
// `sharesim import k8s`: a cluster as Kubernetes describes it (nodes, the NVIDIA device
// plugin's config, mig-parted's config) and its workload manifests, as one ordinary scenario
// file (docs/kubernetes.md).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "importers/k8s/yaml_documents.h"
#include "sim/cluster/gpu_catalog.h"
#include "sim/input/input_error.h"
#include "sim/scenario/scenario.h"

namespace sharesim {

struct K8sImportInputs {
  std::string nodes;                   // kubectl get nodes -o json (or YAML)
  std::string device_plugin_config;    // optional: the plugin's config or its ConfigMap
  std::string mig_config;              // optional: mig-parted's config
  std::vector<std::string> workloads;  // manifests
  std::string scheduler_config;        // optional: a KubeSchedulerConfiguration
  std::vector<Override> overrides;     // --set, applied to the scenario as in `run`
  std::string name = "k8s-import";     // the scenario's name
};

struct K8sImport {
  nlohmann::ordered_json scenario;
  std::vector<std::string> notes;            // what was left out (cordoned Nodes), one line each, for the user
  std::vector<ManifestOrigin> pool_origins;  // per cluster.node_pools entry: its first Node
  std::vector<ManifestOrigin> job_origins;   // per workload.jobs entry: the object it came from

  // An error found in the scenario (by the loader, or when its cluster and workload are built),
  // at /cluster/node_pools/N/... or /workload/jobs/N/..., given at the input object it came
  // from: "pods.yaml: document 3 (Deployment web), imported as /workload/jobs/0/request: ...".
  // Other errors are returned as they are.
  InputError located_in_inputs(const InputError& error) const;
};

// What an error in the imported scenario names as its file ("NAME.json (imported, not
// written)"): nothing is written when there is an error.
std::string imported_scenario_label(const std::string& file);

// The scenario, checked by the scenario loader (so what is written always loads). Throws
// InputError naming the file, the document and the path inside it.
K8sImport import_k8s(const K8sImportInputs& inputs, const GpuCatalog& catalog);

}  // namespace sharesim
