// Each score formula on hand-made nodes, against values computed by hand from the formulas
// in docs/placement.md (Weng et al., ATC'23, Sec. 6, and its artifact).
#include <gtest/gtest.h>

#include "placement_test_helpers.h"
#include "sim/sched/placement/best_fit_score.h"
#include "sim/sched/placement/dot_product_score.h"
#include "sim/sched/placement/gpu_clustering_score.h"
#include "sim/sched/placement/gpu_packing_score.h"

namespace sharesim {
namespace {

using testing::cpu_pod;
using testing::node_view;
using testing::sharing_pod;
using testing::whole_gpu_pod;

TEST(PlacementFilters, CpuMemoryModelAndGpus) {
  const std::vector<std::int32_t> gpus{1000, 300};
  const PlacementNodeView node = node_view(gpus, 10000);
  EXPECT_TRUE(pod_fits_node(node, sharing_pod(300, 10000)));
  EXPECT_FALSE(pod_fits_node(node, sharing_pod(300, 10001)));  // cpu
  PlacementPodRequest heavy = sharing_pod(300, 1000);
  heavy.memory_mib = 262145;
  EXPECT_FALSE(pod_fits_node(node, heavy));  // memory
  EXPECT_TRUE(pod_fits_node(node, whole_gpu_pod(1, 1000)));
  EXPECT_FALSE(pod_fits_node(node, whole_gpu_pod(2, 1000)));  // only one fully free GPU
  PlacementPodRequest other_model = sharing_pod(100, 1000);
  other_model.allowed_models = 0b10;  // model 1 only; the node is model 0
  EXPECT_FALSE(pod_fits_node(node, other_model));
  other_model.allowed_models = 0b11;
  EXPECT_TRUE(pod_fits_node(node, other_model));
  EXPECT_TRUE(pod_fits_node(node_view({}, 10000), cpu_pod(10000)));
  EXPECT_FALSE(pod_fits_node(node_view({}, 10000), sharing_pod(100, 1000)));
}

TEST(PlacementGpuChoice, BestFitTakesTheLeastFreeGpuThatFits) {
  const std::vector<std::int32_t> gpus{1000, 400, 600, 400};
  const PlacementNodeView node = node_view(gpus);
  GpuChoice choice = best_fit_gpus(node, sharing_pod(300));
  ASSERT_EQ(choice.count, 1);
  EXPECT_EQ(choice.gpus[0], 1);  // 400 (lowest index of the two)
  choice = best_fit_gpus(node, sharing_pod(500));
  EXPECT_EQ(choice.gpus[0], 2);  // 600
  const std::vector<std::int32_t> free4{0, 1000, 500, 1000, 1000};
  choice = best_fit_gpus(node_view(free4), whole_gpu_pod(2));
  ASSERT_EQ(choice.count, 2);
  EXPECT_EQ(choice.gpus[0], 1);
  EXPECT_EQ(choice.gpus[1], 3);
  EXPECT_EQ(best_fit_gpus(node, cpu_pod()).count, 0);
}

TEST(DotProductScore, HandComputed) {
  // <(64000/128000, 1500/8000), (8000/128000, 250/8000)> = 0.03125 + 0.005859375; / 2 =
  // 0.0185546875; 100 x (1 - 0.0185546875) = 98.14... -> 98.
  const std::vector<std::int32_t> gpus{1000, 500};
  EXPECT_EQ(dot_product_score(node_view(gpus, 64000), sharing_pod(250, 8000)), 98);
  // A full-size empty node and a full-size pod: dot product 2 / 2 = 1 -> 0.
  const std::vector<std::int32_t> eight(8, 1000);
  EXPECT_EQ(dot_product_score(node_view(eight, 128000, 128000), whole_gpu_pod(8, 128000)), 0);
  // Half the node free, pod of half of everything: (0.5 x 0.5 + 0.5 x 0.5) / 2 = 0.25 -> 75.
  const std::vector<std::int32_t> half{1000, 1000, 1000, 1000, 0, 0, 0, 0};
  EXPECT_EQ(dot_product_score(node_view(half, 64000, 128000), whole_gpu_pod(4, 64000)), 75);
}

TEST(BestFitScore, RawAndNormalised) {
  // Left after placing: cpu 56000 / 128000 x 0.5 = 0.21875, gpu 1250 / 8000 x 0.5 = 0.078125;
  // 100 x (1 - 0.296875) = 70.3 -> 70.
  const std::vector<std::int32_t> gpus{1000, 500};
  EXPECT_EQ(best_fit_raw_score(node_view(gpus, 64000), sharing_pod(250, 8000)), 70);
  // Exactly full after placing -> 100.
  const std::vector<std::int32_t> one{1000};
  EXPECT_EQ(best_fit_raw_score(node_view(one, 8000), whole_gpu_pod(1, 8000)), 100);
  std::vector<std::int64_t> scores{70, 40, 100, 41};
  normalize_min_max(scores);
  // (70-40) x 100 / 60 = 50; (41-40) x 100 / 60 = 1 (integer division).
  EXPECT_EQ(scores, (std::vector<std::int64_t>{50, 0, 100, 1}));
  std::vector<std::int64_t> equal{5, 5};
  normalize_min_max(equal);
  EXPECT_EQ(equal, (std::vector<std::int64_t>{0, 0}));
}

TEST(GpuPackingScore, ThreeBands) {
  const std::vector<std::int32_t> empty8(8, 1000);
  EXPECT_EQ(gpu_packing_score(node_view(empty8), sharing_pod(250)), 25);  // max(33 - 8, 8)
  const std::vector<std::int32_t> empty2(2, 1000);
  EXPECT_EQ(gpu_packing_score(node_view(empty2), sharing_pod(250)), 31);  // max(33 - 2, 2)
  const std::vector<std::int32_t> used{1000, 600, 300};
  // Best fit takes the 300 GPU: 100 - (300 x 100 / 1000) / 10 = 97.
  EXPECT_EQ(gpu_packing_score(node_view(used), sharing_pod(250)), 97);
  // 300 is too small for 500; the 600 GPU: 100 - 60 / 10 = 94.
  EXPECT_EQ(gpu_packing_score(node_view(used), sharing_pod(500)), 94);
  // Only the fully free GPU fits 700: band 2, max(50 - 1, 33) = 49.
  EXPECT_EQ(gpu_packing_score(node_view(used), sharing_pod(700)), 49);
  const std::vector<std::int32_t> three_free{1000, 1000, 1000, 200};
  EXPECT_EQ(gpu_packing_score(node_view(three_free), whole_gpu_pod(2)), 48);  // 50 - 2
  EXPECT_EQ(gpu_packing_score(node_view(used), cpu_pod()), 0);
  // The bands keep their order: partly used GPU > free GPU on a used node > empty node.
  EXPECT_GT(gpu_packing_score(node_view(used), sharing_pod(250)), gpu_packing_score(node_view(used), sharing_pod(700)));
  EXPECT_GT(gpu_packing_score(node_view(used), sharing_pod(700)),
            gpu_packing_score(node_view(empty2), sharing_pod(700)));
}

TEST(GpuClusteringScore, FourBandsPlusFullness) {
  // The artifact's classes (the default): every sharing pod in one class.
  EXPECT_EQ(gpu_class_of(sharing_pod(250)), gpu_class_of(sharing_pod(700)));
  EXPECT_NE(gpu_class_of(sharing_pod(250)), gpu_class_of(whole_gpu_pod(1)));
  // The per-milli variant: a sharing pod's class is its gpu_milli.
  EXPECT_EQ(gpu_class_of(sharing_pod(250), GpuClassing::kPerMilli), 250);
  EXPECT_EQ(gpu_class_of(whole_gpu_pod(1), GpuClassing::kPerMilli), 1000);
  EXPECT_EQ(gpu_class_from_per_milli(250, GpuClassing::kArtifact), gpu_class_of(sharing_pod(700)));
  EXPECT_EQ(gpu_class_from_per_milli(2000, GpuClassing::kArtifact), 2000);
  EXPECT_EQ(gpu_class_of(whole_gpu_pod(1)), 1000);
  EXPECT_EQ(gpu_class_of(whole_gpu_pod(2)), 2000);
  EXPECT_EQ(gpu_class_of(cpu_pod()), 0);
  const std::vector<std::int32_t> six_free{1000, 1000, 1000, 1000, 1000, 1000, 0, 0};  // 25 x 2000 / 8000 = 6
  const PlacementNodeView node = node_view(six_free);
  EXPECT_EQ(gpu_clustering_score(node, sharing_pod(250), {2, 1}), 81);  // only its class: 75 + 6
  EXPECT_EQ(gpu_clustering_score(node, sharing_pod(250), {2, 2}), 56);  // its class among others: 50 + 6
  EXPECT_EQ(gpu_clustering_score(node, sharing_pod(250), {0, 1}), 6);   // other classes only: 0 + 6
  const std::vector<std::int32_t> idle8(8, 1000);
  EXPECT_EQ(gpu_clustering_score(node_view(idle8), sharing_pod(250), {0, 0}), 25);  // no GPU pod: 25 + 0
  const std::vector<std::int32_t> idle2(2, 1000);
  EXPECT_EQ(gpu_clustering_score(node_view(idle2), sharing_pod(250), {0, 0}), 43);  // 25 + 25 x 6000 / 8000
  EXPECT_EQ(gpu_clustering_score(node, cpu_pod(), {0, 0}), 0);
}

}  // namespace
}  // namespace sharesim
