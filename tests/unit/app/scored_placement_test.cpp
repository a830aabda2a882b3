// The score plugins of the GPU-sharing literature (sim/sched/placement/scored_placement.h) as
// placement policies of ordinary scenarios, observed through whole runs. Expected nodes are
// worked out by hand from the formulas in docs/placement.md.
#include <gtest/gtest.h>

#include "run_helpers.h"

namespace sharesim {
namespace {

using testing::nodes_of;
using testing::run_text;

// Three empty nodes of 4 exclusive GPUs and 64 CPUs. a (2 GPUs) and b (3 GPUs) go to p-0 and
// p-1 under every score (equal scores, lowest index; b does not fit p-0); c (1 GPU) shows the
// policy: p-0 has 2 free GPUs, p-1 one, p-2 four.
std::vector<std::string> three_jobs(const std::string& placement) {
  return nodes_of(*run_text(testing::cluster_scenario(3, 4, R"({"jobs": [
      {"name": "a", "duration": "1h", "request": {"gpus": 2, "cpu_milli": 8000}},
      {"name": "b", "arrival": "1s", "duration": "1h", "request": {"gpus": 3, "cpu_milli": 8000}},
      {"name": "c", "arrival": "2s", "duration": "1h", "request": {"gpus": 1, "cpu_milli": 8000}}]})",
                                                      R"("scheduler": {"placement": ")" + placement + R"("}, )")));
}

TEST(ScoredPlacement, DotProductTiesOnTheTwoUsedNodes) {
  // c: p-0 97.07 -> 97, p-1 97.85 -> 97, p-2 95.3 -> 95: tie, lowest index.
  EXPECT_EQ(three_jobs("dot-product"), (std::vector<std::string>{"p-0", "p-1", "p-0"}));
}

TEST(ScoredPlacement, BestFitFillsTheFullestNode) {
  // c: p-0 75, p-1 81 (full after), p-2 59.
  EXPECT_EQ(three_jobs("best-fit"), (std::vector<std::string>{"p-0", "p-1", "p-1"}));
}

TEST(ScoredPlacement, GpuPackingPrefersUsedNodes) {
  // c: p-0 and p-1 are used nodes with a free GPU (band 2: 49), p-2 is empty (29).
  EXPECT_EQ(three_jobs("gpu-packing"), (std::vector<std::string>{"p-0", "p-1", "p-0"}));
}

TEST(ScoredPlacement, GpuClusteringAvoidsOtherClasses) {
  // c (1 GPU): p-0 runs a 2-GPU pod (0 + 18), p-1 a 3-GPU pod (0 + 21), p-2 is idle (25 + 12).
  EXPECT_EQ(three_jobs("gpu-clustering"), (std::vector<std::string>{"p-0", "p-1", "p-2"}));
}

// Two nodes of one time-sliced GPU (4 replicas); a asks 1 replica, then b asks 2.
std::vector<std::string> sharing_pods(const std::string& placement) {
  return nodes_of(*run_text(R"({"name": "t", "until": "1m", "scheduler": {"placement": ")" + placement + R"("},
    "cluster": {"node_pools": [{"name": "p", "nodes": 2, "gpu": "A100-80GB", "gpus_per_node": 1, "cpu_milli": 8000,
                                "memory_mib": 8192, "sharing": {"policy": "timeslice", "replicas": 4}}]},
    "workload": {"jobs": [{"name": "a", "duration": "1h", "request": {"gpus": 1}},
                          {"name": "b", "arrival": "1s", "duration": "1h", "request": {"gpus": 2}}]}})"));
}

TEST(ScoredPlacement, GpuClusteringPutsAllSharingPodsInOneClassAsTheArtifact) {
  // b (500 milli) on p-0, which runs only sharing pods: 75 + 25 x 7250 / 8000 = 97; idle p-1: 25 + 21.
  EXPECT_EQ(sharing_pods("gpu-clustering"), (std::vector<std::string>{"p-0", "p-0"}));
  // Per milli, a (250) is another class than b (500): p-0 0 + 22, idle p-1 25 + 21.
  EXPECT_EQ(sharing_pods("gpu-clustering-milli"), (std::vector<std::string>{"p-0", "p-1"}));
}

TEST(ScoredPlacement, FgdTakesTheNodeWhoseFragmentationDropsMost) {
  // Target workload = shapes placed so far (a, b, c; weight 1 each). c on p-1 uses its last,
  // otherwise fragmented GPU: delta 666.7 -> 66; p-0 and p-2: delta 0 -> 50.
  EXPECT_EQ(three_jobs("fgd"), (std::vector<std::string>{"p-0", "p-1", "p-1"}));
}

}  // namespace
}  // namespace sharesim
