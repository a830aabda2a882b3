#pragma once
// One node pool of a scenario's cluster section: what Cluster builds its nodes and GPUs from.
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/cluster/taints.h"

namespace sharesim {

struct NodePoolSpec {
  std::string name;
  std::int64_t nodes = 0;
  std::string gpu;  // catalog id
  std::int64_t gpus_per_node = 0;
  std::int64_t cpu_milli = 0;
  std::int64_t memory_mib = 0;
  std::map<std::string, std::string> labels;  // merged with nvidia.com/gpu.product etc. by the cluster
  std::vector<Taint> taints;                  // of every node of the pool
  std::string topology;                       // "nvswitch", "nvlink-pairs" or "pcie"
  std::int64_t nodes_per_rack = 0;            // 0 = all nodes of the pool under one leaf switch
  nlohmann::json sharing;                     // {"policy": "exclusive", ...}
  std::string pointer;                        // JSON pointer of this pool, for later error messages
};

}  // namespace sharesim
