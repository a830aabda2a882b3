#pragma once
// Chooses a node and GPUs for one pod under one of the six policies of Weng et al. (ATC'23,
// Sec. 6): the scheduler of the fragmentation experiment. Filters are pod_fits_node(); the
// score is one plugin of sim/sched/placement/; the highest score wins and ties go to the node
// whose name is smallest, where node names carry a seeded random permutation prefix (the
// artifact's way of breaking ties randomly but reproducibly), i.e. to the lowest rank in a
// permutation drawn from the seed.
//
// Speed: a node's score for a pod depends only on the node's state and the pod's shape, so
// scores are cached per (score class, node) and recomputed only for nodes whose version
// changed since (one node per placed pod). BestFit caches its raw score and normalises per pod.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "experiments/fragmentation/cluster_state.h"
#include "sim/core/random_stream.h"
#include "sim/sched/placement/fgd_score.h"

namespace sharesim {

enum class PlacementExperimentPolicy {
  kRandom,
  kDotProd,
  kGpuClustering,
  kGpuPacking,
  kBestFit,
  kFgd,
  kGpuClusteringMilli
};

// "random", "dotprod", "gpuclustering", "gpupacking", "bestfit", "fgd" (the experiment's order),
// then the variant "gpuclustering-milli" (GpuClassing::kPerMilli), not one of the paper's six.
const std::vector<std::string>& placement_experiment_policy_names();
std::optional<PlacementExperimentPolicy> parse_placement_experiment_policy(std::string_view name);
std::string_view policy_name(PlacementExperimentPolicy policy);

struct NodeChoice {
  std::uint32_t node = 0;
  GpuChoice gpus;
};

class NodeChooser {
 public:
  // score_classes: how many distinct score classes the caller will pass to choose().
  NodeChooser(PlacementExperimentPolicy policy, const ClusterState& cluster, const TargetWorkload& workload,
              std::uint64_t seed, std::uint32_t score_classes);

  // The node and GPUs for the pod, or nullopt when no node passes the filters. score_class
  // identifies the pod's (cpu_milli, num_gpu, gpu_milli): pods with equal ones score equally.
  std::optional<NodeChoice> choose(const PlacementPodRequest& pod, std::uint32_t score_class);

  // Each node's tie-break rank (a permutation of 0..n-1 drawn from the seed's "node-names" stream).
  const std::vector<std::uint32_t>& ranks() const { return rank_; }

 private:
  struct CachedScore {
    std::uint32_t version = 0;  // 0: never computed
    std::int32_t score = 0;
    std::int32_t gpu = -1;  // a sharing pod's GPU (FGD's best delta or best fit), -1 otherwise
  };
  CachedScore compute(std::uint32_t node, const PlacementPodRequest& pod);
  std::optional<NodeChoice> choose_random(const PlacementPodRequest& pod);

  PlacementExperimentPolicy policy_;
  const ClusterState& cluster_;
  FgdScorer fgd_;
  RandomStream random_;  // the Random policy's draws
  std::vector<std::uint32_t> rank_;
  std::size_t nodes_;
  std::vector<CachedScore> cache_;  // [score_class x nodes + node]
  std::vector<std::uint32_t> feasible_;
  std::vector<std::int64_t> raw_;
};

}  // namespace sharesim
