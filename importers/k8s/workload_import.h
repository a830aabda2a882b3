#pragma once
// Workload manifests (YAML or JSON, multi-document, or `kubectl get ... -o json` Lists) as
// the scenario's `workload.jobs`: Pod, Deployment, StatefulSet and ReplicaSet (replicas), Job
// (parallelism/completions), training-operator jobs (`*ReplicaSpecs`), with PriorityClasses
// for priorityClassName. Run time and GPU behaviour come from sharesim.io/ annotations
// (docs/kubernetes.md).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "importers/k8s/yaml_documents.h"
#include "sim/cluster/gpu_catalog.h"

namespace sharesim {

struct ImportedWorkload {
  nlohmann::ordered_json jobs = nlohmann::ordered_json::array();
  std::vector<ManifestOrigin> origins;  // per job, the object it came from: errors found in the scenario name it
  bool any_priority = false;  // some pod has a priority other than 0: the queue orders by it
  // The PriorityClasses the pods name, as scheduler.priority_classes (name -> {value,
  // preemption_policy}); empty when none is named.
  nlohmann::ordered_json priority_classes = nlohmann::ordered_json::object();
};

// Throws InputError naming the file, the document and the path inside it.
ImportedWorkload import_workloads(const std::vector<std::string>& files, const GpuCatalog& catalog);

}  // namespace sharesim
