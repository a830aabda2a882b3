#include "sim/sched/placement/node_resources_fit_score.h"

#include <algorithm>
#include <cmath>

#include "sim/sched/placement/node_view.h"

namespace sharesim {
namespace {

// The weighted mean of the per-resource scores over the resources the node has.
template <typename PerResource>
std::int64_t weighted_mean(std::span<const ResourceUse> uses, PerResource&& per_resource) {
  std::int64_t sum = 0, weights = 0;
  for (const ResourceUse& use : uses) {
    if (use.allocatable == 0) continue;
    sum += per_resource(use) * use.weight;
    weights += use.weight;
  }
  return weights == 0 ? 0 : sum / weights;
}

// helper.BuildBrokenLinearFunction over points already scaled to 0-100.
std::int64_t broken_linear(std::span<const UtilizationShapePoint> shape, std::int64_t utilization) {
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (utilization <= shape[i].utilization) {
      if (i == 0) return shape[0].score;
      const UtilizationShapePoint& a = shape[i - 1];
      const UtilizationShapePoint& b = shape[i];
      return a.score + (b.score - a.score) * (utilization - a.utilization) / (b.utilization - a.utilization);
    }
  }
  return shape.back().score;
}

}  // namespace

std::int64_t least_allocated_score(std::span<const ResourceUse> uses) {
  return weighted_mean(uses, [](const ResourceUse& use) -> std::int64_t {
    if (use.requested > use.allocatable) return 0;
    return (use.allocatable - use.requested) * kMaxNodeScore / use.allocatable;
  });
}

std::int64_t most_allocated_score(std::span<const ResourceUse> uses) {
  return weighted_mean(uses, [](const ResourceUse& use) {
    return std::min(use.requested, use.allocatable) * kMaxNodeScore / use.allocatable;
  });
}

std::int64_t requested_to_capacity_ratio_score(std::span<const ResourceUse> uses,
                                               std::span<const UtilizationShapePoint> shape) {
  // The shape's scores are 0-10 (MaxCustomPriorityScore); kube-scheduler scales them to 0-100.
  std::vector<UtilizationShapePoint> scaled(shape.begin(), shape.end());
  for (UtilizationShapePoint& point : scaled) point.score *= kMaxNodeScore / 10;
  std::int64_t sum = 0, weights = 0;
  for (const ResourceUse& use : uses) {
    if (use.allocatable == 0) continue;
    const std::int64_t utilization =
        use.requested >= use.allocatable ? 100 : std::max<std::int64_t>(use.requested, 0) * 100 / use.allocatable;
    const std::int64_t score = broken_linear(scaled, utilization);
    if (score <= 0) continue;
    sum += score * use.weight;
    weights += use.weight;
  }
  if (weights == 0) return 0;
  return static_cast<std::int64_t>(std::round(static_cast<double>(sum) / static_cast<double>(weights)));
}

}  // namespace sharesim
