// Kubernetes-visible behaviour: pending reasons, all-or-nothing multi-GPU pods, gangs.
#include <gtest/gtest.h>

#include "run_helpers.h"
#include "sim/metrics/output_files.h"

namespace sharesim {
namespace {

using testing::cluster_scenario;
using testing::run_text;

TEST(KubernetesSemantics, DeploymentOfFiveTwoGpuPodsOnTwoFourGpuNodesLeavesOnePending) {
  const auto run = run_text(
      cluster_scenario(2, 4, R"({"jobs": [{"name": "web", "replicas": 5, "duration": "1h", "request": {"gpus": 2}}]})",
                       R"("until": "10m", )"));
  const auto& jobs = run->runtime().jobs();
  ASSERT_EQ(jobs.size(), 5u);
  int running = 0, pending = 0;
  for (const JobRecord& job : jobs) {
    running += job.state == JobState::Running;
    pending += job.state == JobState::Pending;
  }
  EXPECT_EQ(running, 4);
  EXPECT_EQ(pending, 1);
  EXPECT_EQ(jobs[4].state, JobState::Pending);  // replicas are tried in order
  EXPECT_EQ(run->runtime().scheduler().explain_unschedulable(jobs[4].spec),
            "0/2 nodes are available: 2 Insufficient nvidia.com/gpu.");
  const std::string csv = jobs_csv(run->runtime());
  EXPECT_NE(
      csv.find("web-4,web,training,pending,1,2,0,,,,,,,,,0,0,0/2 nodes are available: 2 Insufficient nvidia.com/gpu.,"),
      std::string::npos)
      << csv;
  EXPECT_EQ(run->metrics().pending_at_end, 1u);
  EXPECT_EQ(run->metrics().running_at_end, 4u);
}

TEST(KubernetesSemantics, AJobNoNodeFilterLetsThroughIsAnInputErrorNamingTheFilter) {
  // One pool, labelled zone a and tainted gpu=only:NoSchedule. A pod selecting zone b, or
  // selecting zone a without the toleration, could never run: the error says which filter left
  // no node (it said "no node could ever hold a pod asking for 1 nvidia.com/gpu, ..." alone).
  const auto scenario = [](const std::string& request) {
    return R"({"name": "t", "cluster": {"node_pools": [{"name": "p", "nodes": 2, "gpu": "A100-80GB",
        "gpus_per_node": 1, "cpu_milli": 64000, "memory_mib": 262144, "labels": {"zone": "a"},
        "taints": [{"key": "gpu", "value": "only", "effect": "NoSchedule"}]}]},
        "workload": {"jobs": [{"name": "j", "duration": "1h", "request": )" +
           request + "}]}}";
  };
  EXPECT_EQ(testing::error_of(scenario(R"({"gpus": 1, "node_selector": {"zone": "b"}})")),
            "<test>: /workload/jobs/0/request: no node could ever hold a pod asking for 1 nvidia.com/gpu, 0 cpu_milli "
            "and 0 memory_mib: no node matches its node selector (\"zone\": \"b\")");
  EXPECT_EQ(testing::error_of(scenario(R"({"gpus": 1, "node_selector": {"zone": "a"}})")),
            "<test>: /workload/jobs/0/request: no node could ever hold a pod asking for 1 nvidia.com/gpu, 0 cpu_milli "
            "and 0 memory_mib: every node that matches its node selector has a taint it does not tolerate (node "
            "\"p-0\": node(s) had untolerated taint {gpu: only})");
  EXPECT_EQ(testing::error_of(scenario(R"({"gpus": 1, "node_selector": {"zone": "a"}, "tolerations": [{"key": "gpu",
      "operator": "Equal", "value": "only", "effect": "NoSchedule"}]})")),
            "");
}

TEST(KubernetesSemantics, PendingReasonCountsEachFailingFilterPerNode) {
  // Pool a: one small node whose GPU a first job holds; pool b: 2 nodes of another model.
  const std::string scenario = R"({"name": "t", "until": "1m",
    "cluster": {"node_pools": [
      {"name": "a", "nodes": 1, "gpu": "A100-80GB", "gpus_per_node": 2, "cpu_milli": 2000, "memory_mib": 1000},
      {"name": "b", "nodes": 2, "gpu": "H100-80GB", "gpus_per_node": 8, "cpu_milli": 64000, "memory_mib": 262144}]},
    "workload": {"jobs": [
      {"name": "hog", "duration": "1h",
       "request": {"gpus": 1, "cpu_milli": 1500, "memory_mib": 800, "gpu_product": "A100-80GB"}},
      {"name": "big", "arrival": "1s", "duration": "1h",
       "request": {"gpus": 2, "cpu_milli": 1000, "memory_mib": 500, "gpu_product": "A100-80GB"}}]}})";
  const auto run = run_text(scenario);
  EXPECT_EQ(run->runtime().jobs().at(0).state, JobState::Running);
  const auto& job = run->runtime().jobs().at(1);
  EXPECT_EQ(job.state, JobState::Pending);
  // kube-scheduler sorts the "<count> <reason>" strings; NodeAffinity fails first on pool b.
  EXPECT_EQ(run->runtime().scheduler().explain_unschedulable(job.spec),
            "0/3 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 Insufficient nvidia.com/gpu, "
            "2 node(s) didn't match Pod's node affinity/selector.");
}

TEST(KubernetesSemantics, MultiGpuPodTakesAllItsGpusOnOneNodeOrWaits) {
  // 2 nodes x 4 GPUs; a 3-GPU pod arrives first, then a 3-GPU pod: each fits on one node.
  // A third 3-GPU pod must wait even though 2 GPUs are free in total (1 + 1 on two nodes).
  const auto run = run_text(
      cluster_scenario(2, 4, R"({"jobs": [{"name": "j", "replicas": 3, "duration": "1h", "request": {"gpus": 3}}]})",
                       R"("until": "30m", )"));
  const auto& jobs = run->runtime().jobs();
  EXPECT_EQ(jobs[0].state, JobState::Running);
  EXPECT_EQ(jobs[1].state, JobState::Running);
  EXPECT_EQ(jobs[2].state, JobState::Pending);
  for (int j = 0; j < 2; ++j) {
    const PodPlacement& pod = run->runtime().pods()[jobs[static_cast<std::size_t>(j)].first_pod];
    EXPECT_EQ(pod.device_count, 3u);
    for (std::uint32_t d = pod.first_device; d < pod.first_device + pod.device_count; ++d) {
      EXPECT_EQ(run->cluster().gpu(run->runtime().devices()[d].gpu).node, pod.node);
    }
  }
  EXPECT_NE(jobs[0].first_pod, jobs[1].first_pod);
  EXPECT_NE(run->runtime().pods()[jobs[0].first_pod].node, run->runtime().pods()[jobs[1].first_pod].node);
}

TEST(KubernetesSemantics, GangJobStartsAllPodsTogetherOrNone) {
  // One GPU is taken, so a gang of two 4-GPU pods cannot fit on 2 nodes of 4 GPUs: it stays
  // pending and holds nothing (one node alone could take one pod), so a later job still runs.
  const auto run = run_text(cluster_scenario(2, 4, R"({"jobs": [
      {"name": "hog", "duration": "1h", "request": {"gpus": 1}},
      {"name": "gang", "arrival": "1s", "pods": 2, "duration": "1h", "request": {"gpus": 4}},
      {"name": "small", "arrival": "2s", "duration": "1h", "request": {"gpus": 1}}]})",
                                             R"("until": "10m", )"));
  const auto& jobs = run->runtime().jobs();
  EXPECT_EQ(jobs[1].state, JobState::Pending);
  EXPECT_EQ(jobs[2].state, JobState::Running);
  EXPECT_EQ(run->runtime().counters().allocated_gpus, 2u);
  EXPECT_EQ(run->runtime().scheduler().explain_unschedulable(jobs[1].spec),
            "gang of 2 pods: only some fit at once (1/2 nodes could take one pod)");
}

TEST(KubernetesSemantics, GangJobPlacesEveryPodAndFinishesTogether) {
  const auto run = run_text(cluster_scenario(3, 4, R"({"jobs": [
      {"name": "gang", "pods": 3, "duration": "1h", "request": {"gpus": 4}}]})"));
  const JobRecord& job = run->runtime().jobs().at(0);
  EXPECT_EQ(job.state, JobState::Completed);
  EXPECT_EQ(job.pod_count, 3u);
  EXPECT_EQ(job.end - job.start, kHour);
  EXPECT_EQ(run->metrics().gpu_hours_allocated, 12.0);
}

TEST(KubernetesSemantics, PriorityQueueStartsHigherPriorityFirst) {
  // One GPU busy for 1h; a low- then a high-priority job wait; the high one starts first.
  const std::string workload = R"({"jobs": [
      {"name": "first", "duration": "1h"},
      {"name": "low", "arrival": "1s", "duration": "1h", "priority": 1},
      {"name": "high", "arrival": "2s", "duration": "1h", "priority": 10}]})";
  const auto fifo = run_text(cluster_scenario(1, 1, workload));
  const auto prio = run_text(cluster_scenario(1, 1, workload, R"("scheduler": {"queue": "priority"}, )"));
  EXPECT_LT(fifo->runtime().jobs()[1].start, fifo->runtime().jobs()[2].start);
  EXPECT_GT(prio->runtime().jobs()[1].start, prio->runtime().jobs()[2].start);
  EXPECT_EQ(prio->runtime().jobs()[2].start, kHour);
}

}  // namespace
}  // namespace sharesim

namespace sharesim {
namespace {

TEST(KubernetesSemantics, PendingReasonsSortAsCountedStrings) {
  // Two A100 nodes whose single GPUs are taken and one H100 node: "1 node(s) didn't match"
  // sorts before "2 Insufficient nvidia.com/gpu", as kube-scheduler prints it.
  const std::string scenario = R"({"name": "t", "until": "1m",
    "cluster": {"node_pools": [
      {"name": "a", "nodes": 2, "gpu": "A100-80GB", "gpus_per_node": 1, "cpu_milli": 64000, "memory_mib": 262144},
      {"name": "b", "nodes": 1, "gpu": "H100-80GB", "gpus_per_node": 1, "cpu_milli": 64000, "memory_mib": 262144}]},
    "workload": {"jobs": [
      {"name": "hog", "replicas": 2, "duration": "1h", "request": {"gpus": 1, "gpu_product": "A100-80GB"}},
      {"name": "late", "arrival": "1s", "duration": "1h", "request": {"gpus": 1, "gpu_product": "A100-80GB"}}]}})";
  const auto run = testing::run_text(scenario);
  const auto& job = run->runtime().jobs().at(2);
  EXPECT_EQ(job.state, JobState::Pending);
  EXPECT_EQ(run->runtime().scheduler().explain_unschedulable(job.spec),
            "0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, "
            "2 Insufficient nvidia.com/gpu.");
}

}  // namespace
}  // namespace sharesim
