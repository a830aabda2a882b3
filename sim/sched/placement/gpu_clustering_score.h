#pragma once
// GpuClustering (Weng et al., ATC'23, Sec. 6): put pods of the same GPU class together, so
// that a node's GPUs are shared by pods of one kind.
#include <cstdint>

#include "sim/sched/placement/node_view.h"

namespace sharesim {

// How pods are put into GPU classes. kArtifact, the default, as the FGD artifact's
// GpuClusteringScore does: every sharing pod (one GPU, gpu_milli < 1000) in one class, a pod
// of k whole GPUs in class 1000 x k. kPerMilli, the variant ("gpu-clustering-milli"), as
// sharesim's first version did: a sharing pod's class is its gpu_milli.
enum class GpuClassing { kArtifact, kPerMilli };

// A pod's GPU class: 0 for a CPU-only pod; for a sharing pod gpu_milli (1..999) under
// kPerMilli and 1 under kArtifact; 1000 x k for a pod of k whole GPUs.
std::int64_t gpu_class_of(const PlacementPodRequest& pod, GpuClassing classing = GpuClassing::kArtifact);
// The class under `classing` of a pod whose kPerMilli class is `per_milli_class`.
std::int64_t gpu_class_from_per_milli(std::int64_t per_milli_class, GpuClassing classing);

// What the node runs, by GPU class: how many of its pods are of the pod's class, and how many
// distinct GPU classes it runs (CPU-only pods are not counted).
struct GpuClassCensus {
  std::int64_t pods_of_same_class = 0;
  std::int64_t distinct_classes = 0;
};

// Four bands of 25 (the artifact's GpuClusteringScore), each topped up by how full the node's
// GPUs are, 25 x (8000 - free GPU milli) / 8000 in integer arithmetic:
//   75 + : the node runs only pods of the pod's class;
//   50 + : it runs the pod's class among others;
//   25 + : it runs no GPU pod;
//    0 + : it runs other classes only.
// 0 for a CPU-only pod.
std::int64_t gpu_clustering_score(const PlacementNodeView& node, const PlacementPodRequest& pod,
                                  const GpuClassCensus& census);

}  // namespace sharesim
