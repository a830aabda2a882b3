#pragma once
// The inputs of the fragmentation experiment (Weng et al., "Beware of Fragmentation", USENIX
// ATC'23, Sec. 6): an openb node list and pod list, turned into placement requests
// (sim/sched/placement/node_view.h). GPU models get small ids (at most 64 distinct models), so
// a pod's gpu_spec becomes a bit mask.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/sched/placement/node_view.h"

namespace sharesim {

struct ExperimentNode {
  std::string name;
  std::int64_t cpu_milli = 0;
  std::int64_t memory_mib = 0;
  std::int32_t gpus = 0;
  int model = -1;  // id into ExperimentInput::models, -1 without GPUs
};

struct ExperimentPod {
  std::string name;
  PlacementPodRequest request;
};

struct ExperimentInput {
  std::string nodes_path, pods_path;
  std::vector<ExperimentNode> nodes;  // in file order
  std::vector<std::string> models;    // model id -> name, sorted by name
  std::vector<ExperimentPod> pods;    // sorted by name (the experiment's starting order)
  std::int64_t cluster_gpu_milli = 0;
};

// Reads both files (workloads/openb/openb_csv.h); throws InputError on bad rows. A gpu_spec
// model that no node has is allowed (the pod then fits nowhere and fails); a cluster without
// GPUs is an error.
ExperimentInput load_experiment_input(const std::string& nodes_path, const std::string& pods_path);

// The same from rows already in memory (tests build hand-made clusters this way).
struct OpenbNodeRow;
struct OpenbPodRow;
ExperimentInput make_experiment_input(const std::vector<OpenbNodeRow>& nodes, const std::vector<OpenbPodRow>& pods,
                                      const std::string& nodes_path = "nodes", const std::string& pods_path = "pods");

}  // namespace sharesim
