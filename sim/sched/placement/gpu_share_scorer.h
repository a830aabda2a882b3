#pragma once
// One score formula of the GPU-sharing literature (docs/placement.md) evaluated on the
// cluster's nodes: the scenario placement plugins (scored_placement.h) and the weighted score
// plugins (weighted_score_placement.h) share it.
//
// How the cluster maps onto the formulas' node view: a GPU's free milli is 1000 x its free
// units of the pod's GPU resource / its capacity of that resource (an exclusive GPU is 1000 or
// 0; a GPU advertising 4 time-slicing replicas with 1 taken has 750). A pod asking u units of a
// resource of capacity c per GPU is a sharing pod of 1000 x u / c milli when u < c, else
// ceil(u / c) whole GPUs, c being the capacity of the GPUs of the node scored (the most units of
// the resource one GPU of the node offers). gpu-clustering's classes take each resident's c from
// its own GPU. fgd's target workload is the shapes of the pods placed that started, weighted by
// their counts (the current pod's shape included), since a scenario has no fixed pod list: a
// gang that does not start leaves none of its pods counted (begin, end, withdraw). A placed
// pod's shape is the one it had on the node it went to; the pod being placed, which has no GPU
// yet, counts on each node scored with its shape there.
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <tuple>
#include <vector>

#include "sim/cluster/cluster.h"
#include "sim/sched/job.h"
#include "sim/sched/placement/fgd_score.h"
#include "sim/sched/placement/gpu_clustering_score.h"

namespace sharesim {

enum class GpuShareFormula { kDotProduct, kBestFit, kGpuPacking, kGpuClustering, kGpuClusteringMilli, kFgd };

// The scenario placement name of a formula ("dot-product", ..., "fgd").
std::string_view gpu_share_formula_name(GpuShareFormula formula);

class GpuShareScorer {
 public:
  GpuShareScorer(const Cluster& cluster, GpuShareFormula formula)
      : cluster_(cluster), formula_(formula), fgd_(workload_) {}
  GpuShareScorer(const GpuShareScorer&) = delete;
  GpuShareScorer& operator=(const GpuShareScorer&) = delete;

  GpuShareFormula formula() const { return formula_; }
  // The formula's score of the node for the pod; best-fit's is the raw score (before the
  // min-max normalisation over the feasible nodes, normalize_min_max).
  std::int64_t score(const Node& node, const PodShape& pod);
  // FGD's target workload (no-op for the other formulas). begin(): the pod about to be scored
  // counts while it is. end(): it stays counted when it was placed on `node`, else it leaves.
  // withdraw(): a pod end() kept leaves, since it did not start (its gang failed), so only pods
  // that start count; a gang's earlier pods count while its later ones are scored.
  void begin(const PodShape& pod);
  void end(const PodShape& pod, std::optional<std::uint32_t> node);
  void withdraw(const PodShape& pod, std::uint32_t node);

 private:
  // An fgd class: (num_gpu, gpu_milli, cpu_milli) of the pod's request on a node.
  using ShapeClass = std::tuple<std::int32_t, std::int32_t, std::int64_t>;
  static ShapeClass class_of(const PlacementPodRequest& request);
  static PlacementPodRequest request_of(const PodShape& pod, std::int64_t capacity);
  std::int64_t node_capacity(const Node& node, ResourceId resource) const;
  GpuClassCensus census(const Node& node, const PodShape& pod, std::int64_t capacity, GpuClassing classing) const;
  void count(const ShapeClass& shape_class, int delta);
  // The class the pod being scored counts in now: moved to the class of its shape on the node
  // being scored (score), to the node it was placed on, or out (end).
  void count_scored_pod(const std::optional<ShapeClass>& shape_class);

  const Cluster& cluster_;
  GpuShareFormula formula_;
  TargetWorkload workload_;
  FgdScorer fgd_;
  std::map<ShapeClass, std::int64_t> counts_;
  bool scoring_ = false;                    // between begin() and end()
  std::optional<ShapeClass> scored_class_;  // where the pod being scored is counted
  std::vector<std::int32_t> gpu_free_;
};

}  // namespace sharesim
