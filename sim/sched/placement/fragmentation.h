#pragma once
// GPU fragmentation of a node with respect to a target workload (Weng et al., "Beware of
// Fragmentation", USENIX ATC'23, Sec. 3 and 4): the idle
// GPU milli that pods drawn from the workload could not use.
#include <cstdint>
#include <vector>

#include "sim/sched/placement/node_view.h"

namespace sharesim {

// One class of the target workload: a pod shape and its weight (how many pods of the original
// list have it). The class's probability p_m is weight / TargetWorkload::total_weight.
struct WorkloadClass {
  std::int64_t cpu_milli = 0;
  std::int32_t num_gpu = 0;
  std::int32_t gpu_milli = 0;  // per GPU
  std::uint64_t allowed_models = ~std::uint64_t{0};
  std::int64_t weight = 0;
};

struct TargetWorkload {
  std::vector<WorkloadClass> classes;
  std::int64_t total_weight = 0;  // sum of the classes' weights
};

// Fragment of node n for class m, with R = the node's total idle GPU milli (Sec. 3):
//   m asks for no GPU                                   -> F = R (no class-m pod uses the GPUs)
//   m cannot run on n (GPU model, CPU, or fewer than m.num_gpu GPUs with free >= m.gpu_milli)
//                                                       -> F = R
//   otherwise -> F = sum of free milli over the GPUs whose free milli < m.gpu_milli.
// (Memory is not considered, as in the paper.)
std::int64_t class_fragment(const PlacementNodeView& node, const WorkloadClass& m);

// F_n = sum_m p_m F_n(m), kept exact as an integer: sum_m weight_m F_n(m) = F_n x total_weight.
std::int64_t weighted_fragment(const PlacementNodeView& node, const TargetWorkload& workload);
double fragment(const PlacementNodeView& node, const TargetWorkload& workload);

}  // namespace sharesim
