#include "experiments/fragmentation/node_chooser.h"

#include <numeric>

#include "sim/sched/placement/best_fit_score.h"
#include "sim/sched/placement/dot_product_score.h"
#include "sim/sched/placement/gpu_clustering_score.h"
#include "sim/sched/placement/gpu_packing_score.h"
#include "sim/sched/placement_policy.h"

namespace sharesim {

const std::vector<std::string>& placement_experiment_policy_names() {
  static const std::vector<std::string> names{"random",  "dotprod", "gpuclustering",      "gpupacking",
                                              "bestfit", "fgd",     "gpuclustering-milli"};
  return names;
}

std::optional<PlacementExperimentPolicy> parse_placement_experiment_policy(std::string_view name) {
  const auto& names = placement_experiment_policy_names();
  // Scenarios' spelling ("dot-product") and this experiment's ("dotprod") name the same score.
  const std::string canonical = canonical_placement_name(name);
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name || canonical_placement_name(names[i]) == canonical)
      return static_cast<PlacementExperimentPolicy>(i);
  }
  return std::nullopt;
}

std::string_view policy_name(PlacementExperimentPolicy policy) {
  return placement_experiment_policy_names()[static_cast<std::size_t>(policy)];
}

NodeChooser::NodeChooser(PlacementExperimentPolicy policy, const ClusterState& cluster, const TargetWorkload& workload,
                         std::uint64_t seed, std::uint32_t score_classes)
    : policy_(policy),
      cluster_(cluster),
      fgd_(workload),
      random_(seed, "random-policy"),
      rank_(cluster.node_count()),
      nodes_(cluster.node_count()),
      cache_(policy == PlacementExperimentPolicy::kRandom ? 0 : std::size_t{score_classes} * cluster.node_count()) {
  // rank_[node] = position of the node in a seeded shuffle of all nodes.
  std::vector<std::uint32_t> order(nodes_);
  std::iota(order.begin(), order.end(), 0u);
  RandomStream names(seed, "node-names");
  for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[names.uniform_index(i)]);
  for (std::uint32_t position = 0; position < order.size(); ++position) rank_[order[position]] = position;
}

NodeChooser::CachedScore NodeChooser::compute(std::uint32_t node, const PlacementPodRequest& pod) {
  const PlacementNodeView view = cluster_.view(node);
  CachedScore entry;
  entry.version = cluster_.version(node);
  switch (policy_) {
    case PlacementExperimentPolicy::kDotProd:
      entry.score = static_cast<std::int32_t>(dot_product_score(view, pod));
      break;
    case PlacementExperimentPolicy::kGpuClustering:
    case PlacementExperimentPolicy::kGpuClusteringMilli: {
      const GpuClassing classing =
          policy_ == PlacementExperimentPolicy::kGpuClustering ? GpuClassing::kArtifact : GpuClassing::kPerMilli;
      const GpuClassCensus census = cluster_.census(node, gpu_class_of(pod, GpuClassing::kPerMilli), classing);
      entry.score = static_cast<std::int32_t>(gpu_clustering_score(view, pod, census));
      break;
    }
    case PlacementExperimentPolicy::kGpuPacking:
      entry.score = static_cast<std::int32_t>(gpu_packing_score(view, pod));
      break;
    case PlacementExperimentPolicy::kBestFit:
      entry.score = static_cast<std::int32_t>(best_fit_raw_score(view, pod));
      break;
    case PlacementExperimentPolicy::kFgd: {
      const FgdResult result = fgd_.score(view, pod);
      entry.score = static_cast<std::int32_t>(result.score);
      if (pod.is_sharing()) entry.gpu = result.gpus.gpus[0];
      return entry;
    }
    case PlacementExperimentPolicy::kRandom:
      break;
  }
  if (pod.is_sharing()) entry.gpu = best_fit_gpus(view, pod).gpus[0];
  return entry;
}

std::optional<NodeChoice> NodeChooser::choose_random(const PlacementPodRequest& pod) {
  feasible_.clear();
  for (std::uint32_t n = 0; n < nodes_; ++n) {
    if (cluster_.fits(n, pod)) feasible_.push_back(n);
  }
  if (feasible_.empty()) return std::nullopt;
  NodeChoice choice;
  choice.node = feasible_[random_.uniform_index(feasible_.size())];
  if (pod.num_gpu == 0) return choice;
  // A random GPU (or k random GPUs) among those that can take the pod.
  const PlacementNodeView view = cluster_.view(choice.node);
  GpuChoice usable;
  for (std::size_t g = 0; g < view.gpu_free_milli.size(); ++g) {
    if (view.gpu_free_milli[g] >= pod.gpu_milli) usable.gpus[usable.count++] = static_cast<std::uint8_t>(g);
  }
  for (int i = 0; i < pod.num_gpu; ++i) {  // partial Fisher-Yates: the first num_gpu are the draw
    const auto j = i + static_cast<int>(random_.uniform_index(static_cast<std::uint64_t>(usable.count - i)));
    std::swap(usable.gpus[i], usable.gpus[j]);
    choice.gpus.gpus[choice.gpus.count++] = usable.gpus[i];
  }
  return choice;
}

std::optional<NodeChoice> NodeChooser::choose(const PlacementPodRequest& pod, std::uint32_t score_class) {
  if (policy_ == PlacementExperimentPolicy::kRandom) return choose_random(pod);
  CachedScore* row = cache_.data() + std::size_t{score_class} * nodes_;
  feasible_.clear();
  raw_.clear();
  for (std::uint32_t n = 0; n < nodes_; ++n) {
    if (!cluster_.fits(n, pod)) continue;
    if (row[n].version != cluster_.version(n)) row[n] = compute(n, pod);
    feasible_.push_back(n);
    raw_.push_back(row[n].score);
  }
  if (feasible_.empty()) return std::nullopt;
  if (policy_ == PlacementExperimentPolicy::kBestFit) normalize_min_max(raw_);
  std::size_t best = 0;
  for (std::size_t i = 1; i < feasible_.size(); ++i) {
    if (raw_[i] > raw_[best] || (raw_[i] == raw_[best] && rank_[feasible_[i]] < rank_[feasible_[best]])) best = i;
  }
  NodeChoice choice;
  choice.node = feasible_[best];
  if (pod.is_sharing()) {
    choice.gpus.count = 1;
    choice.gpus.gpus[0] = static_cast<std::uint8_t>(row[choice.node].gpu);
  } else if (pod.num_gpu > 0) {
    choice.gpus = lowest_free_gpus(cluster_.view(choice.node), pod.num_gpu);
  }
  return choice;
}

}  // namespace sharesim
