#pragma once
// The score plugins of the GPU-sharing literature (docs/placement.md) as placement policies of
// ordinary scenarios: "dot-product", "best-fit", "gpu-packing", "gpu-clustering", "fgd". Each
// scores every node from a PlacementNodeView of the cluster's current state and offers the
// nodes to the scheduler's filters from the highest score down (ties: lowest node index). Unlike
// binpack and spread this is O(nodes) per placement, as in kube-scheduler.
//
// How the cluster maps onto the formulas, and fgd's target workload: gpu_share_scorer.h.
// best-fit orders by the raw score (the experiment's min-max normalisation is monotone and
// needs the feasible set first).
#include <memory>

#include "sim/sched/placement_policy.h"

namespace sharesim {

std::unique_ptr<PlacementPolicy> make_dot_product_placement(const Cluster& cluster);
std::unique_ptr<PlacementPolicy> make_best_fit_placement(const Cluster& cluster);
std::unique_ptr<PlacementPolicy> make_gpu_packing_placement(const Cluster& cluster);
std::unique_ptr<PlacementPolicy> make_gpu_clustering_placement(const Cluster& cluster);
// GpuClustering with a class per gpu_milli (GpuClassing::kPerMilli): "gpu-clustering-milli".
std::unique_ptr<PlacementPolicy> make_gpu_clustering_milli_placement(const Cluster& cluster);
std::unique_ptr<PlacementPolicy> make_fgd_placement(const Cluster& cluster);

}  // namespace sharesim
