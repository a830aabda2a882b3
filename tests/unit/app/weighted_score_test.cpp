// Weighted score plugins (scheduler.score_plugins; sim/sched/placement/weighted_score_placement.h)
// in whole runs: the node's score is the sum of each plugin's 0-100 score times its weight, so
// changing the weights changes the node chosen. Expected nodes worked out by hand.
#include <gtest/gtest.h>

#include "run_helpers.h"

namespace sharesim {
namespace {

using testing::nodes_of;
using testing::run_text;

// Two empty nodes of 4 exclusive GPUs, 64000 milli-CPU, 262144 MiB. a (1 GPU, 32000 milli-CPU)
// goes to p-0 (equal scores, lowest index). Then c (1 GPU, 8000 milli-CPU, 8192 MiB):
//   NodeResourcesFit LeastAllocated (cpu, memory): p-0 (37 + 96) / 2 = 66, p-1 (87 + 96) / 2 = 91;
//   GpuPackingScore: p-0 is used with free GPUs, 50 - 1 = 49; p-1 is all free, max(33 - 4, 4) = 29.
std::vector<std::string> placed_with_weights(int fit_weight, int packing_weight) {
  return nodes_of(*run_text(testing::cluster_scenario(2, 4, R"({"jobs": [
      {"name": "a", "duration": "1h", "request": {"gpus": 1, "cpu_milli": 32000}},
      {"name": "c", "arrival": "1s", "duration": "1h", "request": {"gpus": 1, "cpu_milli": 8000, "memory_mib": 8192}}]})",
                                                      R"("scheduler": {"score_plugins": [
      {"name": "NodeResourcesFit", "strategy": "LeastAllocated", "weight": )" +
                                                          std::to_string(fit_weight) + R"(},
      {"name": "GpuPackingScore", "weight": )" + std::to_string(packing_weight) +
                                                          R"(}]}, )")));
}

TEST(WeightedScore, WeightsChangeTheChosenNode) {
  // 1:1 -> p-0 66 + 49 = 115, p-1 91 + 29 = 120: spread wins.
  EXPECT_EQ(placed_with_weights(1, 1), (std::vector<std::string>{"p-0", "p-1"}));
  // 1:2 -> p-0 66 + 98 = 164, p-1 91 + 58 = 149: packing wins.
  EXPECT_EQ(placed_with_weights(1, 2), (std::vector<std::string>{"p-0", "p-0"}));
}

TEST(WeightedScore, MostAllocatedOnTheGpuResourcePacks) {
  // MostAllocated on nvidia.com/gpu alone: p-0 would hold 2 of 4 (50), p-1 1 of 4 (25).
  const auto run = run_text(testing::cluster_scenario(2, 4, R"({"jobs": [
      {"name": "a", "duration": "1h", "request": {"gpus": 1}},
      {"name": "b", "arrival": "1s", "duration": "1h", "request": {"gpus": 1}}]})",
                                                      R"("scheduler": {"score_plugins": [
      {"name": "NodeResourcesFit", "strategy": "MostAllocated", "resources": [{"name": "nvidia.com/gpu", "weight": 1}]},
      {"name": "NodeResourcesBalancedAllocation"}]}, )"));
  EXPECT_EQ(nodes_of(*run), (std::vector<std::string>{"p-0", "p-0"}));
  EXPECT_EQ(run->runtime().scheduler().placement().name(), "NodeResourcesFit+NodeResourcesBalancedAllocation");
}

TEST(WeightedScore, BadCombinationsAreLocated) {
  const auto error_of = [](const std::string& scheduler) {
    try {
      testing::scenario_from_text(testing::cluster_scenario(1, 4, R"({"jobs": [{"name": "a", "duration": "1h"}]})",
                                                            R"("scheduler": )" + scheduler + ", "));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of(R"({"placement": "binpack", "score_plugins": [{"name": "FGDScore"}]})"),
            "<test>: /scheduler/score_plugins: expected either \"placement\" or \"score_plugins\", found both "
            "(score_plugins replace the placement)");
  EXPECT_EQ(error_of(R"({"score_plugins": [{"name": "FGDScore", "strategy": "MostAllocated"}]})"),
            "<test>: /scheduler/score_plugins/0/strategy: only NodeResourcesFit has a scoring strategy, found one on "
            "\"FGDScore\"");
  EXPECT_EQ(error_of(R"({"score_plugins": [{"name": "NodeResourcesFit", "strategy": "RequestedToCapacityRatio"}]})"),
            "<test>: /scheduler/score_plugins/0: strategy \"RequestedToCapacityRatio\" needs a \"shape\" "
            "(utilization -> score points)");
  EXPECT_NE(error_of(R"({"score_plugins": [{"name": "NodeResourcesMostAllocated"}]})")
                .find("<test>: /scheduler/score_plugins/0/name: expected one of \"NodeResourcesFit\""),
            std::string::npos);
}

}  // namespace
}  // namespace sharesim
