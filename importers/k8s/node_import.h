#pragma once
// Nodes (`kubectl get nodes -o json`: a List, or one Node; YAML too) as scenario node pools:
// nodes with the same GPU model, GPU count, allocatable cpu and memory, labels, taints and
// sharing are one pool.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "importers/k8s/device_plugin_config.h"
#include "sim/cluster/gpu_catalog.h"

namespace sharesim {

// The catalog model of a GPU feature discovery product label value, as a node carries it:
// the plain product name, or with the "-SHARED" or "-MIG-<profile>" suffix GFD adds; nullptr
// when unknown.
const GpuModel* model_of_gfd_product(const std::string& product, const GpuCatalog& catalog);

// "unknown GPU product "X" (known: "NVIDIA-A100-SXM4-80GB" (A100-80GB), ...)".
std::string unknown_gfd_product_problem(const std::string& product, const GpuCatalog& catalog);

struct ImportedNodePools {
  nlohmann::ordered_json pools = nlohmann::ordered_json::array();  // the scenario's cluster.node_pools
  std::vector<ManifestOrigin> origins;  // per pool, its first Node: errors found in the scenario name it
  std::vector<std::string> notes;       // Nodes left out (cordoned), one line each, for the user
};

// Throws InputError naming the file, the document and the path inside it for anything it
// cannot read.
ImportedNodePools import_node_pools(const std::string& nodes_file, const DevicePluginConfigs& plugin,
                                    const MigPartedConfigs& mig, const GpuCatalog& catalog);

}  // namespace sharesim
