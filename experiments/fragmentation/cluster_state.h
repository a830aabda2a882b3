#pragma once
// The experiment's cluster while pods are placed: free CPU, memory and per-GPU milli of every
// node, and the fragmentation bookkeeping kept incrementally (Weng et al., ATC'23, Sec. 3):
// each node's weighted fragment F_n x total_weight is cached and only the node that changed is
// recomputed, so the cluster's fragmentation is known after every pod in O(classes x GPUs).
#include <cstdint>
#include <utility>
#include <vector>

#include "experiments/fragmentation/experiment_input.h"
#include "sim/sched/placement/fragmentation.h"
#include "sim/sched/placement/gpu_clustering_score.h"

namespace sharesim {

class ClusterState {
 public:
  ClusterState(const ExperimentInput& input, const TargetWorkload& workload);

  std::size_t node_count() const { return cpu_free_.size(); }
  PlacementNodeView view(std::uint32_t node) const;
  // pod_fits_node() from cached per-node maxima (same answer, fewer memory reads).
  bool fits(std::uint32_t node, const PlacementPodRequest& pod) const;
  // Changes whenever the node's allocation changes (score caches compare it).
  std::uint32_t version(std::uint32_t node) const { return version_[node]; }
  // `per_milli_class` is the pod's class under GpuClassing::kPerMilli (what the state records);
  // the census counts classes as `classing` groups them.
  GpuClassCensus census(std::uint32_t node, std::int64_t per_milli_class, GpuClassing classing) const;

  // Takes the pod's CPU, memory and GPU milli on the node (the node must fit it).
  void place(std::uint32_t node, const PlacementPodRequest& pod, const GpuChoice& gpus);

  std::int64_t cluster_gpu_milli() const { return cluster_gpu_milli_; }
  std::int64_t allocated_gpu_milli() const { return cluster_gpu_milli_ - idle_gpu_milli_; }
  std::int64_t idle_gpu_milli() const { return idle_gpu_milli_; }
  // sum over nodes of F_n x total_weight (exact); divide by total_weight for milli.
  std::int64_t weighted_fragment_sum() const { return weighted_fragment_sum_; }
  std::int64_t total_weight() const { return workload_.total_weight; }

 private:
  void refresh(std::uint32_t node);

  const TargetWorkload& workload_;
  std::vector<std::int64_t> cpu_free_, cpu_total_, memory_free_;
  std::vector<std::uint32_t> gpu_begin_;  // node n's GPUs are gpu_free_[gpu_begin_[n] .. gpu_begin_[n+1])
  std::vector<std::int32_t> gpu_free_;
  std::vector<int> model_;
  std::vector<std::int32_t> max_free_, fully_free_;
  std::vector<std::uint32_t> version_;
  std::vector<std::int64_t> weighted_fragment_;
  std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> classes_;  // per node: (GPU class, pods)
  std::int64_t cluster_gpu_milli_ = 0;
  std::int64_t idle_gpu_milli_ = 0;
  std::int64_t weighted_fragment_sum_ = 0;
};

}  // namespace sharesim
