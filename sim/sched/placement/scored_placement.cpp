#include "sim/sched/placement/scored_placement.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "sim/sched/placement/gpu_share_scorer.h"

namespace sharesim {
namespace {

class ScoredPlacement final : public PlacementPolicy {
 public:
  ScoredPlacement(const Cluster& cluster, GpuShareFormula formula) : cluster_(cluster), scorer_(cluster, formula) {}

  std::string_view name() const override { return gpu_share_formula_name(scorer_.formula()); }

  std::optional<std::uint32_t> choose(const PodShape& pod,
                                      const std::function<bool(std::uint32_t)>& feasible) override {
    scorer_.begin(pod);
    order_.clear();
    for (const Node& node : cluster_.nodes()) order_.emplace_back(-scorer_.score(node, pod), node.index);
    std::sort(order_.begin(), order_.end());
    std::optional<std::uint32_t> chosen;
    for (const auto& [negative_score, node] : order_) {
      if (feasible(node)) {
        chosen = node;
        break;
      }
    }
    scorer_.end(pod, chosen);
    return chosen;
  }
  void node_changed(std::uint32_t) override {}
  void withdrawn(const PodShape& pod, std::uint32_t node) override { scorer_.withdraw(pod, node); }
  std::int64_t max_free_units(ResourceId resource) override {
    return max_free_units_of_any_node(cluster_, resource);
  }

 private:
  const Cluster& cluster_;
  GpuShareScorer scorer_;
  std::vector<std::pair<std::int64_t, std::uint32_t>> order_;
};

}  // namespace

std::unique_ptr<PlacementPolicy> make_dot_product_placement(const Cluster& cluster) {
  return std::make_unique<ScoredPlacement>(cluster, GpuShareFormula::kDotProduct);
}
std::unique_ptr<PlacementPolicy> make_best_fit_placement(const Cluster& cluster) {
  return std::make_unique<ScoredPlacement>(cluster, GpuShareFormula::kBestFit);
}
std::unique_ptr<PlacementPolicy> make_gpu_packing_placement(const Cluster& cluster) {
  return std::make_unique<ScoredPlacement>(cluster, GpuShareFormula::kGpuPacking);
}
std::unique_ptr<PlacementPolicy> make_gpu_clustering_placement(const Cluster& cluster) {
  return std::make_unique<ScoredPlacement>(cluster, GpuShareFormula::kGpuClustering);
}
std::unique_ptr<PlacementPolicy> make_gpu_clustering_milli_placement(const Cluster& cluster) {
  return std::make_unique<ScoredPlacement>(cluster, GpuShareFormula::kGpuClusteringMilli);
}
std::unique_ptr<PlacementPolicy> make_fgd_placement(const Cluster& cluster) {
  return std::make_unique<ScoredPlacement>(cluster, GpuShareFormula::kFgd);
}

}  // namespace sharesim
