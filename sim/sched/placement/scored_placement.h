#pragma once
// The score plugins of the GPU-sharing literature (docs/placement.md) as placement policies of
// ordinary scenarios: "dot-product", "best-fit", "gpu-packing", "gpu-clustering", "fgd". Each
// scores every node from a PlacementNodeView of the cluster's current state and offers the
// nodes to the scheduler's filters from the highest score down (ties: lowest node index). Unlike
// binpack and spread this is O(nodes) per placement, as in kube-scheduler.
//
// How the cluster maps onto the view: a GPU's free milli is 1000 x its free units of the
// pod's GPU resource / its capacity of that resource (an exclusive GPU is 1000 or 0; a GPU
// advertising 4 time-slicing replicas with 1 taken has 750). A pod asking u units of a resource
// of capacity c per GPU is a sharing pod of 1000 x u / c milli when u < c, else ceil(u / c)
// whole GPUs. The scheduler's filters and device assignment decide feasibility and the GPUs;
// the plugin only orders the nodes. best-fit uses the raw score (the experiment's min-max
// normalisation is monotone and needs the feasible set first). fgd's target workload is the
// pod shapes this plugin has placed so far, weighted by their counts (the current pod's shape
// included), since a scenario has no fixed pod list to take it from.
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
