#pragma once
// `sharesim import k8s`: a cluster as Kubernetes describes it (nodes, the NVIDIA device
// plugin's config, mig-parted's config) and its workload manifests, as one ordinary scenario
// file (docs/kubernetes.md).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/cluster/gpu_catalog.h"
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

// The scenario, checked by the scenario loader (so what is written always loads). Throws
// InputError naming the file, the document and the path inside it.
nlohmann::ordered_json import_k8s(const K8sImportInputs& inputs, const GpuCatalog& catalog);

}  // namespace sharesim
