// The fragmentation measure and the FGD score on hand-made nodes against hand-computed values
// (Weng et al., ATC'23, Sec. 3 and 4), and FGD's fast path against the definition.
#include "sim/sched/placement/fragmentation.h"

#include <gtest/gtest.h>

#include <cmath>

#include "placement_test_helpers.h"
#include "sim/core/random_stream.h"
#include "sim/sched/placement/fgd_score.h"

namespace sharesim {
namespace {

using testing::node_view;
using testing::sharing_pod;
using testing::whole_gpu_pod;

WorkloadClass workload_class(std::int32_t gpus, std::int32_t milli, std::int64_t cpu, std::int64_t weight,
                             std::uint64_t models = ~std::uint64_t{0}) {
  WorkloadClass m;
  m.num_gpu = gpus;
  m.gpu_milli = milli;
  m.cpu_milli = cpu;
  m.weight = weight;
  m.allowed_models = models;
  return m;
}

TargetWorkload workload_of(std::vector<WorkloadClass> classes) {
  TargetWorkload w;
  for (const WorkloadClass& m : classes) w.total_weight += m.weight;
  w.classes = std::move(classes);
  return w;
}

TEST(Fragmentation, ClassFragmentCases) {
  const std::vector<std::int32_t> gpus{1000, 300, 450, 0};  // idle R = 1750
  const PlacementNodeView node = node_view(gpus, 10000);
  // A sharing class of 400: GPUs below 400 are fragments: 300 + 0 = 300.
  EXPECT_EQ(class_fragment(node, workload_class(1, 400, 1000, 1)), 300);
  // A sharing class of 500: 300 + 450 + 0 = 750.
  EXPECT_EQ(class_fragment(node, workload_class(1, 500, 1000, 1)), 750);
  // One whole GPU: everything but the free GPU, 750.
  EXPECT_EQ(class_fragment(node, workload_class(1, 1000, 1000, 1)), 750);
  // Two whole GPUs: only one is free, so the class cannot run: all idle, 1750.
  EXPECT_EQ(class_fragment(node, workload_class(2, 1000, 1000, 1)), 1750);
  // Too much CPU: 1750.
  EXPECT_EQ(class_fragment(node, workload_class(1, 400, 10001, 1)), 1750);
  // Wrong GPU model (the node is model 0): 1750.
  EXPECT_EQ(class_fragment(node, workload_class(1, 400, 1000, 1, 0b10)), 1750);
  // No GPU asked for: 1750.
  EXPECT_EQ(class_fragment(node, workload_class(0, 0, 1000, 1)), 1750);
  // A fully used node has no fragment.
  const std::vector<std::int32_t> full{0, 0};
  EXPECT_EQ(class_fragment(node_view(full), workload_class(0, 0, 1000, 1)), 0);
}

TEST(Fragmentation, ExpectedOverTheWorkload) {
  const std::vector<std::int32_t> gpus{1000, 300, 450, 0};
  const PlacementNodeView node = node_view(gpus, 10000);
  // p = (3, 1) / 4: 0.75 x 300 + 0.25 x 1750 = 662.5.
  const TargetWorkload w = workload_of({workload_class(1, 400, 1000, 3), workload_class(2, 1000, 1000, 1)});
  EXPECT_EQ(weighted_fragment(node, w), 3 * 300 + 1750);
  EXPECT_DOUBLE_EQ(fragment(node, w), 662.5);
}

TEST(FgdScore, HandComputedSharingPod) {
  // Classes: A = sharing 500 (weight 1), B = one whole GPU (weight 1). Node GPUs {1000, 300}:
  // before, F(A) = 300, F(B) = 300, F = 300.
  const TargetWorkload w = workload_of({workload_class(1, 500, 1000, 1), workload_class(1, 1000, 1000, 1)});
  const std::vector<std::int32_t> gpus{1000, 300};
  const PlacementNodeView node = node_view(gpus, 10000);
  EXPECT_DOUBLE_EQ(fragment(node, w), 300.0);
  // A 200-milli pod on GPU 0 ({800, 300}): F(A) = 300, F(B) = 1100 (no whole GPU left), F = 700,
  // delta = -400 -> floor(sigmoid(-0.4) x 100) = 40. On GPU 1 ({1000, 100}): F(A) = F(B) = 100,
  // F = 100, delta = 200 -> floor(sigmoid(0.2) x 100) = 54. FGD keeps GPU 1.
  EXPECT_EQ(static_cast<int>(fgd_sigmoid(-0.4) * 100), 40);
  EXPECT_EQ(static_cast<int>(fgd_sigmoid(0.2) * 100), 54);
  FgdScorer scorer(w);
  const FgdResult result = scorer.score(node, sharing_pod(200, 1000));
  EXPECT_EQ(result.score, 54);
  ASSERT_EQ(result.gpus.count, 1);
  EXPECT_EQ(result.gpus.gpus[0], 1);
}

TEST(FgdScore, HandComputedWholeGpuAndCpuPods) {
  const TargetWorkload w = workload_of({workload_class(1, 500, 1000, 1), workload_class(1, 1000, 1000, 1)});
  const std::vector<std::int32_t> gpus{300, 1000, 1000};
  const PlacementNodeView node = node_view(gpus, 10000);
  // Before: F(A) = 300, F(B) = 300 -> 300. A 1-GPU pod takes GPU 1 ({300, 0, 1000}): still
  // 300 for both -> delta 0 -> floor(0.5 x 100) = 50.
  FgdScorer scorer(w);
  FgdResult result = scorer.score(node, whole_gpu_pod(1, 1000));
  EXPECT_EQ(result.score, 50);
  ASSERT_EQ(result.gpus.count, 1);
  EXPECT_EQ(result.gpus.gpus[0], 1);
  // A CPU-only pod leaving 500 cpu makes both classes impossible: F = R = 2300 -> delta -2000
  // -> floor(sigmoid(-2) x 100) = 11.
  result = scorer.score(node, testing::cpu_pod(9500));
  EXPECT_EQ(result.score, static_cast<std::int64_t>(fgd_sigmoid(-2.0) * 100));
  EXPECT_EQ(result.score, 11);
}

// FGD's incremental evaluation must equal the definition: F(before) - F(after) recomputed on
// a copy of the node with the pod placed.
TEST(FgdScore, FastPathMatchesDefinition) {
  RandomStream rng(7);
  for (int trial = 0; trial < 500; ++trial) {
    std::vector<WorkloadClass> classes;
    const int count = 1 + static_cast<int>(rng.uniform_index(6));
    for (int i = 0; i < count; ++i) {
      const int kind = static_cast<int>(rng.uniform_index(3));
      const auto gpus = kind == 0 ? 0 : kind == 1 ? 1 : 1 + static_cast<std::int32_t>(rng.uniform_index(4));
      const auto milli = kind == 0 ? 0 : kind == 1 ? 1 + static_cast<std::int32_t>(rng.uniform_index(999)) : 1000;
      classes.push_back(workload_class(gpus, milli, static_cast<std::int64_t>(rng.uniform_index(16)) * 1000,
                                       1 + static_cast<std::int64_t>(rng.uniform_index(50)),
                                       rng.uniform_index(4) == 0 ? 0b10 : 0b11));
    }
    const TargetWorkload w = workload_of(classes);
    std::vector<std::int32_t> gpus(1 + rng.uniform_index(8));
    for (std::int32_t& g : gpus)
      g = rng.uniform_index(3) == 0 ? 1000 : static_cast<std::int32_t>(rng.uniform_index(1001));
    const PlacementNodeView node = node_view(gpus, 16000);
    const int kind = static_cast<int>(rng.uniform_index(3));
    const PlacementPodRequest pod = kind == 0 ? testing::cpu_pod(static_cast<std::int64_t>(rng.uniform_index(8)) * 1000)
                                    : kind == 1
                                        ? sharing_pod(1 + static_cast<std::int32_t>(rng.uniform_index(999)), 2000)
                                        : whole_gpu_pod(1 + static_cast<std::int32_t>(rng.uniform_index(2)), 2000);
    if (!pod_fits_node(node, pod)) continue;
    FgdScorer scorer(w);
    const FgdResult fast = scorer.score(node, pod);
    const std::int64_t before = weighted_fragment(node, w);
    std::int64_t best = -1;
    const auto score_after = [&](const std::vector<std::int32_t>& after_gpus) {
      const PlacementNodeView after = node_view(after_gpus, 16000 - pod.cpu_milli);
      const double delta =
          static_cast<double>(before - weighted_fragment(after, w)) / static_cast<double>(w.total_weight);
      return static_cast<std::int64_t>(fgd_sigmoid(delta / 1000.0) * 100);
    };
    if (pod.is_sharing()) {
      for (std::size_t g = 0; g < gpus.size(); ++g) {
        if (gpus[g] < pod.gpu_milli) continue;
        std::vector<std::int32_t> after = gpus;
        after[g] -= pod.gpu_milli;
        best = std::max(best, score_after(after));
      }
    } else {
      std::vector<std::int32_t> after = gpus;
      const GpuChoice taken = lowest_free_gpus(node, pod.num_gpu);
      for (int i = 0; i < taken.count; ++i) after[taken.gpus[i]] = 0;
      best = score_after(after);
    }
    ASSERT_EQ(fast.score, best) << "trial " << trial;
  }
}

}  // namespace
}  // namespace sharesim
