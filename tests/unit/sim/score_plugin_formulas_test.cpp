// kube-scheduler's resource scorers as sim/sched/placement/node_resources_fit_score.h and
// balanced_allocation_score.h compute them, on one node: 40000 of 64000 milli-CPU and 8192 of
// 262144 MiB requested with the incoming pod. Expected values by hand from
// pkg/scheduler/framework/plugins/noderesources (integer arithmetic as there).
#include <gtest/gtest.h>

#include <vector>

#include "sim/sched/placement/balanced_allocation_score.h"
#include "sim/sched/placement/node_resources_fit_score.h"

namespace sharesim {
namespace {

const std::vector<ResourceUse> kUses{{40000, 64000, 1}, {8192, 262144, 1}};

TEST(ScorePluginFormulas, LeastAllocated) {
  // cpu (64000 - 40000) x 100 / 64000 = 37, memory 96; mean 66.
  EXPECT_EQ(least_allocated_score(kUses), 66);
  // Weights: (37 x 3 + 96) / 4 = 51.
  EXPECT_EQ(least_allocated_score(std::vector<ResourceUse>{{40000, 64000, 3}, {8192, 262144, 1}}), 51);
  // Over the capacity scores 0; a resource the node lacks is left out.
  EXPECT_EQ(least_allocated_score(std::vector<ResourceUse>{{70000, 64000, 1}, {0, 0, 1}}), 0);
}

TEST(ScorePluginFormulas, MostAllocated) {
  // cpu 62, memory 3: mean 32; over the capacity counts as full.
  EXPECT_EQ(most_allocated_score(kUses), 32);
  EXPECT_EQ(most_allocated_score(std::vector<ResourceUse>{{70000, 64000, 1}}), 100);
}

TEST(ScorePluginFormulas, RequestedToCapacityRatio) {
  // Shape (0, 0) -> (100, 10), scaled to 0-100: cpu 62, memory 3; mean 32.5, rounded to 33.
  const std::vector<UtilizationShapePoint> packing{{0, 0}, {100, 10}};
  EXPECT_EQ(requested_to_capacity_ratio_score(kUses, packing), 33);
  // (0, 10) -> (100, 0) spreads: cpu 38, memory 97 -> 67.5 -> 68.
  const std::vector<UtilizationShapePoint> spreading{{0, 10}, {100, 0}};
  EXPECT_EQ(requested_to_capacity_ratio_score(kUses, spreading), 68);
  // A resource scoring 0 is left out of the mean: cpu at 100% scores 0 on the spreading shape.
  EXPECT_EQ(
      requested_to_capacity_ratio_score(std::vector<ResourceUse>{{64000, 64000, 1}, {8192, 262144, 1}}, spreading), 97);
}

TEST(ScorePluginFormulas, BalancedAllocation) {
  // Fractions 0.625 and 0.03125: std 0.296875, score 70.3 -> 70.
  EXPECT_EQ(balanced_allocation_score(kUses), 70);
  // Three resources: population std of 0.5, 0.5, 0.2 = 0.1414; 85.
  EXPECT_EQ(balanced_allocation_score(std::vector<ResourceUse>{{1, 2, 1}, {2, 4, 1}, {1, 5, 1}}), 85);
}

}  // namespace
}  // namespace sharesim
