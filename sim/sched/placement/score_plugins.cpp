// The score plugins a scenario's `score_plugins` may name: kube-scheduler's resource scorers
// and the GPU-sharing scores of docs/placement.md under the FGD artifact's plugin names
// (hkust-adsl/kubernetes-scheduler-simulator: DotProductScore, BestFitScore, GpuPackingScore,
// GpuClusteringScore, FGDScore).
#include <array>
#include <utility>
#include <vector>

#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "sim/sched/placement/balanced_allocation_score.h"
#include "sim/sched/placement/best_fit_score.h"
#include "sim/sched/placement/gpu_share_scorer.h"
#include "sim/sched/placement/node_resources_fit_score.h"
#include "sim/sched/placement/score_plugin.h"

namespace sharesim {
namespace {

// kube-scheduler's default resources of both resource scorers: cpu and memory, weight 1.
std::vector<ScoredResource> scored_resources(const ScorePluginSpec& spec, const Cluster& cluster) {
  std::vector<ScoredResource> resources;
  if (spec.resources.empty()) {
    resources.push_back(resolve_scored_resource("cpu", 1, cluster.resource_names()));
    resources.push_back(resolve_scored_resource("memory", 1, cluster.resource_names()));
  }
  for (const ScoreResourceSpec& r : spec.resources)
    resources.push_back(resolve_scored_resource(r.name, r.weight, cluster.resource_names()));
  return resources;
}

class NodeResourcesFit final : public ScorePlugin {
 public:
  NodeResourcesFit(const ScorePluginSpec& spec, const Cluster& cluster)
      : strategy_(spec.strategy), shape_(spec.shape), resources_(scored_resources(spec, cluster)) {}

  std::int64_t score(const Node& node, const PodShape& pod) override {
    uses_.clear();
    resource_uses(node, pod, resources_, uses_);
    if (strategy_ == "MostAllocated") return most_allocated_score(uses_);
    if (strategy_ == "RequestedToCapacityRatio") return requested_to_capacity_ratio_score(uses_, shape_);
    return least_allocated_score(uses_);
  }

 private:
  std::string strategy_;
  std::vector<UtilizationShapePoint> shape_;
  std::vector<ScoredResource> resources_;
  std::vector<ResourceUse> uses_;
};

class NodeResourcesBalancedAllocation final : public ScorePlugin {
 public:
  NodeResourcesBalancedAllocation(const ScorePluginSpec& spec, const Cluster& cluster)
      : resources_(scored_resources(spec, cluster)) {}

  std::int64_t score(const Node& node, const PodShape& pod) override {
    uses_.clear();
    resource_uses(node, pod, resources_, uses_);
    // A pod that requests none of the resources is skipped (PreScore returns Skip, kubernetes
    // issue 129138): it adds 0 on every node.
    bool requests_any = false;
    for (std::size_t i = 0; i < uses_.size(); ++i) {
      const ScoredResource& r = resources_[i];
      requests_any = requests_any || (r.kind == ScoredResource::Kind::kCpu && pod.cpu_milli > 0) ||
                     (r.kind == ScoredResource::Kind::kMemory && pod.memory_mib > 0) ||
                     (r.kind == ScoredResource::Kind::kExtended && uses_[i].allocatable > 0);
    }
    return requests_any ? balanced_allocation_score(uses_) : 0;
  }

 private:
  std::vector<ScoredResource> resources_;
  std::vector<ResourceUse> uses_;
};

// A formula of docs/placement.md; BestFitScore is min-max normalised over the feasible nodes
// as the artifact's NormalizeScore does, the others are already 0-100.
class GpuShareScorePlugin final : public ScorePlugin {
 public:
  GpuShareScorePlugin(const Cluster& cluster, GpuShareFormula formula) : scorer_(cluster, formula) {}

  void begin(const PodShape& pod) override { scorer_.begin(pod); }
  void end(const PodShape& pod, std::optional<std::uint32_t> node) override { scorer_.end(pod, node); }
  void withdrawn(const PodShape& pod, std::uint32_t node) override { scorer_.withdraw(pod, node); }
  std::int64_t score(const Node& node, const PodShape& pod) override { return scorer_.score(node, pod); }
  void normalize(std::span<std::int64_t> scores) const override {
    if (scorer_.formula() == GpuShareFormula::kBestFit) normalize_min_max(scores);
  }

 private:
  GpuShareScorer scorer_;
};

constexpr std::array<std::pair<const char*, GpuShareFormula>, 5> kGpuSharePlugins{{
    {"DotProductScore", GpuShareFormula::kDotProduct},
    {"BestFitScore", GpuShareFormula::kBestFit},
    {"GpuPackingScore", GpuShareFormula::kGpuPacking},
    {"GpuClusteringScore", GpuShareFormula::kGpuClustering},
    {"FGDScore", GpuShareFormula::kFgd},
}};

}  // namespace

std::unique_ptr<ScorePlugin> make_score_plugin(const ScorePluginSpec& spec, const Cluster& cluster,
                                               const std::string& scenario_file) {
  if (spec.name == "NodeResourcesFit") return std::make_unique<NodeResourcesFit>(spec, cluster);
  if (spec.name == "NodeResourcesBalancedAllocation")
    return std::make_unique<NodeResourcesBalancedAllocation>(spec, cluster);
  std::vector<std::string> names{"NodeResourcesFit", "NodeResourcesBalancedAllocation"};
  for (const auto& [name, formula] : kGpuSharePlugins) {
    if (spec.name == name) return std::make_unique<GpuShareScorePlugin>(cluster, formula);
    names.emplace_back(name);
  }
  throw InputError(scenario_file, spec.pointer + "/name",
                   "expected one of " + quoted_list(names) + ", found " + quote(spec.name));
}

}  // namespace sharesim
