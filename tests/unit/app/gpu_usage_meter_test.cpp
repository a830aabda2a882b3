// The GPU usage meter (sim/metrics/gpu_usage_meter.h) through whole runs: figures of gpus.csv
// and the summary that the meter closes at the end of a run, and what counts once per GPU.
#include <gtest/gtest.h>

#include <cmath>

#include "policies/calibration/calibration_profile.h"
#include "run_helpers.h"

namespace sharesim {
namespace {

using testing::job_named;
using testing::jobs_workload;
using testing::run_text;
using testing::shared_scenario;

// One H100 laid out all-1g.10gb with dynamic repartitioning: "small" (arrives at 0) holds a
// 1g.10gb instance for well over 100 s; "large" (arrives at 10 s) asks for a 3g.40gb instance,
// so the GPU drains from 10 s until small ends, then is reconfigured.
std::string draining_scenario(const std::string& extra) {
  return shared_scenario(
      1, 1, R"({"policy": "mig", "strategy": "mixed", "layout": "all-1g.10gb", "repartitioning": "dynamic"})",
      jobs_workload({{"small", 0, 100, R"({"gpu_resource": "nvidia.com/mig-1g.10gb"})"},
                     {"large", 10, 10, R"({"gpu_resource": "nvidia.com/mig-3g.40gb"})"}}),
      extra, "H100-80GB");
}

TEST(GpuUsageMeter, ADrainUnderWayWhenTheRunStopsCountsUpToTheEnd) {
  // Stopped at 50 s: the GPU has drained for 40 s and was never laid out anew.
  const auto run = run_text(draining_scenario(R"("until": "50s", )"));
  const GpuUsage& usage = run->gpu_usage()[0];
  EXPECT_EQ(usage.reconfigurations, 0u);
  EXPECT_EQ(usage.draining_ns, 40 * kSecond);
  EXPECT_EQ(usage.reconfiguring_ns, 0);
  EXPECT_EQ(usage.in_window.draining_ns, 40 * kSecond);
  EXPECT_DOUBLE_EQ(run->metrics().repartitioning_gpu_hours, 40.0 / 3600.0);
}

TEST(GpuUsageMeter, ADrainUnderWayIsClippedToTheMeasurementWindow) {
  // The window [20 s, 45 s] holds 25 s of the drain over [10 s, 50 s]; gpus.csv keeps all 40 s.
  const auto run = run_text(draining_scenario(R"("until": "50s", "metrics_window": {"start": "20s", "end": "45s"}, )"));
  const GpuUsage& usage = run->gpu_usage()[0];
  EXPECT_EQ(usage.draining_ns, 40 * kSecond);
  EXPECT_EQ(usage.in_window.draining_ns, 25 * kSecond);
  EXPECT_DOUBLE_EQ(run->metrics().repartitioning_gpu_hours, 25.0 / 3600.0);
}

TEST(GpuUsageMeter, AReconfigurationUnderWayWhenTheRunStopsCountsUpToTheEnd) {
  const SimTime reconfiguration = std::llround(builtin_calibration_profile("H100-80GB").mig_reconfiguration_ns.value);
  ASSERT_GT(reconfiguration, 1);
  const auto whole = run_text(draining_scenario(""));
  const SimTime small_end = job_named(whole->runtime(), "small-0").end;
  ASSERT_GT(small_end, 10 * kSecond);
  // Stopped half-way through the reconfiguration that starts when small ends.
  const SimTime until = small_end + reconfiguration / 2;
  const auto run = run_text(draining_scenario(R"("until": ")" + std::to_string(until) + R"(ns", )"));
  const GpuUsage& usage = run->gpu_usage()[0];
  EXPECT_EQ(usage.reconfigurations, 0u);
  EXPECT_EQ(usage.draining_ns, small_end - 10 * kSecond);
  EXPECT_EQ(usage.reconfiguring_ns, reconfiguration / 2);
  EXPECT_EQ(usage.in_window.draining_ns, usage.draining_ns);
  EXPECT_EQ(usage.in_window.reconfiguring_ns, usage.reconfiguring_ns);
  EXPECT_DOUBLE_EQ(run->metrics().repartitioning_gpu_hours,
                   time_to_seconds(usage.draining_ns + usage.reconfiguring_ns) / 3600.0);
}

TEST(GpuUsageMeter, AJobCountsOnceOnAGpuThatHoldsSeveralOfItsPods) {
  // A gang of 2 one-GPU pods on one GPU time-sliced in 2 replicas: both pods share GPU 0, which
  // the job started on once (docs/outputs.md, gpus.csv jobs_started). It counted each pod.
  const auto run = run_text(shared_scenario(1, 1, R"({"policy": "timeslice", "replicas": 2})",
                                            R"({"jobs": [{"name": "g", "kind": "training", "duration": "1h", "pods": 2,
                                                "request": {"gpus": 1, "demand": {"sm": 1.0}}}]})"));
  const JobRecord& gang = job_named(run->runtime(), "g-0");
  ASSERT_EQ(gang.pod_count, 2u);
  ASSERT_EQ(gang.gpu_devices, 2u);
  EXPECT_EQ(run->gpu_usage()[0].jobs_started, 1u);
}

TEST(GpuUsageMeter, AJobOnSeveralGpusCountsOnceOnEach) {
  // Two nodes of one exclusive GPU and a gang of 2 pods: one pod on each GPU.
  const auto run = run_text(testing::cluster_scenario(
      2, 1, R"({"jobs": [{"name": "g", "kind": "training", "duration": "1h", "pods": 2, "request": {"gpus": 1}}]})"));
  EXPECT_EQ(run->gpu_usage()[0].jobs_started, 1u);
  EXPECT_EQ(run->gpu_usage()[1].jobs_started, 1u);
}

TEST(GpuUsageMeter, APodOnTwoMigInstancesCountsTheMemoryAndSmsOfBoth) {
  // One pod on two 1g.10gb instances holds two devices, each with its 6000 MiB (the OOM check
  // counts it on each instance) and its SMs: the GPU's figures are those of two pods on one
  // instance each. The meter counted the pod once (6000 MiB and one instance's SMs).
  const std::string sharing = R"({"policy": "mig", "strategy": "mixed", "layout": ["1g.10gb", "1g.10gb"]})";
  const std::string demand = R"("demand": {"sm": 1.0, "bw": 0.5, "mem_mib": 6000})";
  const auto one_pod = run_text(shared_scenario(
      1, 1, sharing, jobs_workload({{"pair", 0, 100, R"({"limits": {"nvidia.com/mig-1g.10gb": 2}, )" + demand + "}"}}),
      "", "H100-80GB"));
  const auto two_pods = run_text(
      shared_scenario(1, 1, sharing,
                      jobs_workload({{"a", 0, 100, R"({"gpu_resource": "nvidia.com/mig-1g.10gb", )" + demand + "}"},
                                     {"b", 0, 100, R"({"gpu_resource": "nvidia.com/mig-1g.10gb", )" + demand + "}"}}),
                      "", "H100-80GB"));
  const GpuUsage& one = one_pod->gpu_usage()[0];
  const GpuUsage& two = two_pods->gpu_usage()[0];
  ASSERT_EQ(job_named(one_pod->runtime(), "pair-0").end, job_named(two_pods->runtime(), "a-0").end);
  EXPECT_EQ(one.peak_memory_mib, 12000);
  EXPECT_EQ(one.peak_memory_mib, two.peak_memory_mib);
  EXPECT_DOUBLE_EQ(one.memory_mib_ns, two.memory_mib_ns);
  EXPECT_NEAR(one.sm_busy_ns, two.sm_busy_ns, two.sm_busy_ns * 1e-12);
  EXPECT_NEAR(two.sm_busy_ns / static_cast<double>(job_named(two_pods->runtime(), "a-0").end), 2 * 16.0 / 132.0, 1e-9);
}

TEST(GpuUsageMeter, SliceModeCountsTheSmsOfTheContextOnTheGpuNotOfThoseInHostPhases) {
  // An always-busy job and one busy half the time, time-sliced: the GPU does 1000 + 500 s of
  // their work, as in fluid mode. In slice mode a context in a host phase (rate 1, no GPU) was
  // counted as using its SMs times its duty, and the one holding the slice only times its duty:
  // sm_utilization 0.807 against 0.971 in fluid mode (audit, stop 46).
  const std::string workload = jobs_workload(
      {{"a", 0, 1000, R"({"gpus": 1})"}, {"b", 0, 1000, R"({"gpus": 1, "demand": {"sm": 1.0, "duty": 0.5}})"}});
  const auto utilization = [&](const std::string& fidelity) {
    const auto run = run_text(shared_scenario(
        1, 1, R"({"policy": "timeslice", "replicas": 4, "fidelity": ")" + fidelity + R"("})", workload));
    return run->metrics().sm_utilization_mean;
  };
  const double fluid = utilization("fluid");
  const double slice = utilization("slice");
  EXPECT_GT(fluid, 0.95);
  EXPECT_NEAR(slice, fluid, 0.02);
}

}  // namespace
}  // namespace sharesim
