// Score plugins and GPU choice inside a node, observed through whole runs.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include "run_helpers.h"

namespace sharesim {
namespace {

using testing::nodes_of;
using testing::run_text;

std::string three_jobs(const std::string& placement) {
  // A takes 2 of node 0's 4 GPUs; B (3 GPUs) goes where 3 are free; C (1 GPU) shows the policy.
  return testing::cluster_scenario(3, 4, R"({"jobs": [
      {"name": "a", "duration": "1h", "request": {"gpus": 2}},
      {"name": "b", "arrival": "1s", "duration": "1h", "request": {"gpus": 3}},
      {"name": "c", "arrival": "2s", "duration": "1h", "request": {"gpus": 1}}]})",
                                   R"("scheduler": {"placement": ")" + placement + R"("}, )");
}

TEST(Placement, FirstFitTakesTheLowestNodeThatFits) {
  EXPECT_EQ(nodes_of(*run_text(three_jobs("first-fit"))), (std::vector<std::string>{"p-0", "p-1", "p-0"}));
}

TEST(Placement, BinpackTakesTheNodeWithFewestFreeGpusThatStillFit) {
  EXPECT_EQ(nodes_of(*run_text(three_jobs("binpack"))), (std::vector<std::string>{"p-0", "p-1", "p-1"}));
}

TEST(Placement, SpreadTakesTheNodeWithMostFreeGpus) {
  EXPECT_EQ(nodes_of(*run_text(three_jobs("spread"))), (std::vector<std::string>{"p-0", "p-1", "p-2"}));
}

TEST(Placement, TwoGpuPodTakesAnNvLinkPairOverTwoLooseGpus) {
  // nvlink-pairs node of 4: pairs (0,1) and (2,3). Job a takes GPU 0; a 2-GPU pod must get
  // the intact pair (2,3), not the lower-numbered (1,2) that crosses the PCIe switches.
  const std::string scenario = R"({"name": "t", "cluster": {"node_pools": [
      {"name": "p", "nodes": 1, "gpu": "A100-80GB", "gpus_per_node": 4, "cpu_milli": 64000,
       "memory_mib": 262144, "topology": "nvlink-pairs"}]},
    "workload": {"jobs": [{"name": "a", "duration": "1h", "request": {"gpus": 1}},
                          {"name": "b", "arrival": "1s", "duration": "1h", "request": {"gpus": 2}}]}})";
  const auto run = run_text(scenario);
  auto& runtime = run->runtime();
  const PodPlacement& pod = runtime.pods()[runtime.jobs()[1].first_pod];
  ASSERT_EQ(pod.device_count, 2u);
  EXPECT_EQ(runtime.devices()[pod.first_device].gpu, 2u);
  EXPECT_EQ(runtime.devices()[pod.first_device + 1].gpu, 3u);
}

TEST(Placement, GangPodsFallBackToAnotherRackWhenTheFirstIsFull) {
  // Two racks of two 1-GPU nodes (nodes_per_rack 2). A job holds node 0. A gang of two 1-GPU
  // pods puts its first pod on node 1 (rack 0); rack 0 is then full, so the second goes to
  // the first node of rack 1.
  const std::string scenario = R"({"name": "t", "scheduler": {"placement": "first-fit"}, "cluster": {"node_pools": [
      {"name": "p", "nodes": 4, "gpu": "A100-80GB", "gpus_per_node": 1, "cpu_milli": 64000,
       "memory_mib": 262144, "nodes_per_rack": 2}]},
    "workload": {"jobs": [{"name": "one", "duration": "1h", "request": {"gpus": 1}},
                          {"name": "gang", "arrival": "1s", "pods": 2, "duration": "1h", "request": {"gpus": 1}}]}})";
  const auto run = run_text(scenario);
  auto& runtime = run->runtime();
  const JobRecord& gang = runtime.jobs()[1];
  ASSERT_EQ(gang.pod_count, 2u);
  EXPECT_EQ(runtime.pods()[gang.first_pod].node, 1u);
  EXPECT_EQ(runtime.pods()[gang.first_pod + 1].node, 2u);
}

}  // namespace
}  // namespace sharesim

namespace sharesim {
namespace {

TEST(Placement, GangPodsStayInTheFirstPodsRack) {
  // Rack 0 = pool a (nodes 0, 1), rack 1 = pool b (nodes 2, 3), 2 GPUs each, binpack.
  // Job x (H100 only) takes one GPU of node 2. The gang's first pod goes where the fewest
  // GPUs are free: node 2 (rack 1). Binpack alone would put the second pod on node 0 (all
  // others tie at 2 free, lowest index wins); the rack preference keeps it on node 3.
  const std::string scenario = R"({"name": "t", "cluster": {"node_pools": [
      {"name": "a", "nodes": 2, "gpu": "A100-80GB", "gpus_per_node": 2, "cpu_milli": 64000, "memory_mib": 262144},
      {"name": "b", "nodes": 2, "gpu": "H100-80GB", "gpus_per_node": 2, "cpu_milli": 64000, "memory_mib": 262144}]},
    "scheduler": {"placement": "binpack"},
    "workload": {"jobs": [{"name": "x", "duration": "1h", "request": {"gpus": 1, "gpu_product": "H100-80GB"}},
                          {"name": "gang", "arrival": "1s", "pods": 2, "duration": "1h", "request": {"gpus": 1}}]}})";
  const auto run = testing::run_text(scenario);
  auto& runtime = run->runtime();
  const JobRecord& gang = runtime.jobs()[1];
  ASSERT_EQ(gang.state, JobState::Completed);
  EXPECT_EQ(runtime.pods()[gang.first_pod].node, 2u);
  EXPECT_EQ(runtime.pods()[gang.first_pod + 1].node, 3u);
}

TEST(Placement, EveryGpusNodeFollowsFromThePoolsGpuRanges) {
  // Cluster::node_of_gpu finds a GPU's node from the pools' GPU ranges alone (a job's end asks
  // for that node's counts with it): pools of different sizes, one without GPUs between them.
  const auto run = testing::run_text(R"({"name": "t", "cluster": {"node_pools": [
      {"name": "a", "nodes": 2, "gpu": "A100-80GB", "gpus_per_node": 2, "cpu_milli": 64000, "memory_mib": 262144},
      {"name": "cpu", "nodes": 2, "gpu": "A100-80GB", "gpus_per_node": 0, "cpu_milli": 64000, "memory_mib": 262144},
      {"name": "b", "nodes": 3, "gpu": "H100-80GB", "gpus_per_node": 8, "cpu_milli": 64000, "memory_mib": 262144}]},
    "workload": {"jobs": [{"name": "x", "duration": "1h", "request": {"gpus": 1}}]}})");
  const Cluster& cluster = run->cluster();
  ASSERT_EQ(cluster.gpus().size(), 28u);
  for (const Gpu& gpu : cluster.gpus()) EXPECT_EQ(cluster.node_of_gpu(gpu.index), gpu.node) << "GPU " << gpu.index;
  EXPECT_EQ(cluster.node_of_gpu(4), 4u);  // the first of pool b: after the two CPU-only nodes
  EXPECT_THROW(cluster.node_of_gpu(28), std::logic_error);
}

TEST(Placement, EveryJobRecordNamesItsFirstDeviceAndThatDevicesGpu) {
  // The record's copy (JobRecord::first_device, first_gpu) must match what its first pod's
  // allocation says, for multi-GPU pods, gangs, later starts on freed GPUs and CPU-only pods.
  const auto run = testing::run_text(testing::cluster_scenario(2, 4, R"({"jobs": [
      {"name": "a", "duration": "1h", "request": {"gpus": 2}},
      {"name": "gang", "arrival": "1s", "pods": 2, "duration": "2h", "request": {"gpus": 1}},
      {"name": "cpu", "arrival": "2s", "duration": "1h", "request": {"gpus": 0, "cpu_milli": 1000}},
      {"name": "big", "arrival": "3s", "duration": "1h", "request": {"gpus": 4}},
      {"name": "late", "arrival": "3s", "duration": "1h", "request": {"gpus": 2}}]})"));
  const ClusterRuntime& runtime = run->runtime();
  std::set<std::uint32_t> first_gpus;
  std::set<std::uint32_t> first_devices;
  for (const JobRecord& job : runtime.jobs()) {
    ASSERT_EQ(job.state, JobState::Completed) << runtime.job_name(job);
    if (job.gpu_devices == 0) continue;
    EXPECT_EQ(job.first_device, runtime.pods()[job.first_pod].first_device) << runtime.job_name(job);
    EXPECT_EQ(job.first_gpu, runtime.devices()[job.first_device].gpu) << runtime.job_name(job);
    first_gpus.insert(job.first_gpu);
    first_devices.insert(job.first_device);
  }
  // Four jobs on GPUs, "late" after "a" ended (a device further down the list).
  EXPECT_EQ(first_devices.size(), 4u);
  EXPECT_GE(first_gpus.size(), 3u);
  EXPECT_EQ(runtime.jobs()[2].gpu_devices, 0u);
}

}  // namespace
}  // namespace sharesim
