// The MIG policy through whole runs: what the device plugin advertises under each strategy,
// layouts the scenario checker refuses, speeds on instances, memory and fault isolation, MIG
// with time-slicing, and dynamic repartitioning (drain, then the profile's reconfiguration time).
#include <gtest/gtest.h>

#include <cstdio>

#include "policies/calibration/calibration_profile.h"
#include "policies/contention/contention_model.h"
#include "policies/mig/mig_profiles.h"
#include "run_helpers.h"
#include "workloads/profiles/workload_profile.h"

namespace sharesim {
namespace {

using testing::advertised;
using testing::error_of;
using testing::job_named;
using testing::jobs_workload;
using testing::run_text;
using testing::run_time_s;
using testing::shared_scenario;

const std::string kOneJob = jobs_workload({{"a", 0, 10, R"({"gpus": 1})"}});

// Speed alone on an instance of `profile`, relative to the whole GPU, as docs/models.md "MIG"
// states it: the contention model with the instance's share of SMs and memory slices.
double instance_speed(const std::string& gpu, const std::string& profile, double sm, double bw) {
  const MigProfile& p = *mig_profiles_for(gpu)->find(profile);
  const double f_sm = static_cast<double>(p.sm_count) / static_cast<double>(GpuCatalog::builtin().find(gpu)->sm_count);
  return partition_rate(ContentionTask{sm, bw, 1.0, 1.0}, f_sm, p.memory_slices / 8.0);
}

TEST(Mig, SingleStrategyAdvertisesEachInstanceAsAGpu) {
  const auto run = run_text(shared_scenario(1, 2, R"({"policy": "mig", "strategy": "single", "layout": "all-1g.10gb"})",
                                            kOneJob, "", "H100-80GB"));
  EXPECT_EQ(advertised(run->cluster(), "nvidia.com/gpu"), 14);  // 7 per GPU
  EXPECT_EQ(run->runtime().jobs()[0].state, JobState::Completed);
}

TEST(Mig, MixedStrategyWithTimeSlicingAdvertisesInstancesTimesReplicas) {
  const std::string sharing =
      R"({"policy": "mig", "strategy": "mixed", "layout": ["3g.40gb", "3g.40gb"], "timeslice": {"replicas": 48}})";
  const auto run = run_text(shared_scenario(
      1, 1, sharing, jobs_workload({{"a", 0, 10, R"({"gpu_resource": "nvidia.com/mig-3g.40gb"})"}}), "", "H100-80GB"));
  EXPECT_EQ(advertised(run->cluster(), "nvidia.com/mig-3g.40gb"), 96);
  EXPECT_EQ(advertised(run->cluster(), "nvidia.com/gpu"), 0);
  // A job asking nvidia.com/gpu, which a mixed-strategy node does not offer, could never run.
  EXPECT_EQ(error_of(shared_scenario(1, 1, sharing, kOneJob, "", "H100-80GB")),
            "<test>: /workload/jobs/0/request: no node could ever hold a pod asking for 1 nvidia.com/gpu, 0 cpu_milli "
            "and 0 memory_mib: expected a GPU resource that the nodes it may go on advertise "
            "(\"nvidia.com/mig-3g.40gb\"), found \"nvidia.com/gpu\"");
}

TEST(Mig, MixedLayoutAdvertisesEachProfile) {
  const auto run = run_text(shared_scenario(
      1, 1, R"({"policy": "mig", "strategy": "mixed", "layout": ["3g.40gb", "2g.20gb", "1g.10gb", "1g.10gb"]})",
      jobs_workload({{"a", 0, 10, R"({"gpu_resource": "nvidia.com/mig-1g.10gb"})"}}), "", "H100-80GB"));
  EXPECT_EQ(advertised(run->cluster(), "nvidia.com/mig-3g.40gb"), 1);
  EXPECT_EQ(advertised(run->cluster(), "nvidia.com/mig-2g.20gb"), 1);
  EXPECT_EQ(advertised(run->cluster(), "nvidia.com/mig-1g.10gb"), 2);
}

TEST(Mig, BadLayoutsAreRejectedWithTheReasonAndThePointer) {
  const std::string overlapping =
      error_of(shared_scenario(1, 1, R"({"policy": "mig", "strategy": "mixed", "layout": ["3g.40gb@0", "4g.40gb@0"]})",
                               kOneJob, "", "H100-80GB"));
  EXPECT_NE(overlapping.find("/cluster/node_pools/0/sharing/layout"), std::string::npos) << overlapping;
  EXPECT_NE(overlapping.find("overlaps"), std::string::npos) << overlapping;
  const std::string overfull = error_of(shared_scenario(
      1, 1, R"({"policy": "mig", "strategy": "mixed", "layout": ["4g.40gb", "4g.40gb"]})", kOneJob, "", "H100-80GB"));
  EXPECT_NE(overfull.find("/cluster/node_pools/0/sharing/layout"), std::string::npos) << overfull;
  EXPECT_FALSE(overfull.empty());
  const std::string single_mixed = error_of(shared_scenario(
      1, 1, R"({"policy": "mig", "strategy": "single", "layout": ["3g.40gb", "1g.10gb"]})", kOneJob, "", "H100-80GB"));
  EXPECT_NE(single_mixed.find("strategy \"single\" needs every instance of one profile"), std::string::npos)
      << single_mixed;
  const std::string no_mig = error_of(shared_scenario(1, 1, R"({"policy": "mig"})", kOneJob, "", "V100-16GB"));
  EXPECT_NE(no_mig.find("has no MIG profiles"), std::string::npos) << no_mig;
  const std::string dynamic_single =
      error_of(shared_scenario(1, 1, R"({"policy": "mig", "repartitioning": "dynamic"})", kOneJob, "", "H100-80GB"));
  EXPECT_NE(dynamic_single.find("needs strategy \"mixed\""), std::string::npos) << dynamic_single;
}

TEST(Mig, GuideLayoutsAreAcceptedOnA100AndH100) {
  // The job asks for no GPU: whatever instances a layout has, it can run.
  const std::string cpu_job = jobs_workload({{"a", 0, 10, R"({"gpus": 0, "cpu_milli": 1000})"}});
  for (const std::string& gpu : {std::string("A100-40GB"), std::string("H100-80GB")}) {
    for (const std::string& layout : mig_profiles_for(gpu)->layout_names()) {
      EXPECT_EQ(
          error_of(shared_scenario(1, 1, R"({"policy": "mig", "strategy": "mixed", "layout": ")" + layout + R"("})",
                                   cpu_job, "", gpu)),
          "")
          << gpu << " " << layout;
    }
  }
}

TEST(Mig, ATaskRunsAtTheSpeedItsDemandGetsFromTheInstance) {
  // A compute-bound task and a bandwidth-bound one on 1g.10gb instances of an H100.
  const auto run =
      run_text(shared_scenario(1, 1, R"({"policy": "mig", "layout": "all-1g.10gb"})",
                               jobs_workload({{"compute", 0, 10, R"({"demand": {"sm": 1.0, "bw": 0.1}})"},
                                              {"memory", 0, 10, R"({"demand": {"sm": 0.05, "bw": 0.5}})"}}),
                               "", "H100-80GB"));
  const double compute = instance_speed("H100-80GB", "1g.10gb", 1.0, 0.1);
  const double memory = instance_speed("H100-80GB", "1g.10gb", 0.05, 0.5);
  EXPECT_NEAR(compute, 16.0 / 132.0, 1e-12);  // SM-bound: 16 of the H100's 132 SMs
  EXPECT_NEAR(memory, 0.25, 1e-12);           // bandwidth-bound: 1 of 8 memory slices for half the bandwidth
  EXPECT_NEAR(run_time_s(job_named(run->runtime(), "compute-0")), 10 / compute, 1e-6);
  EXPECT_NEAR(run_time_s(job_named(run->runtime(), "memory-0")), 10 / memory, 1e-6);
}

TEST(Mig, TheInstanceSlowsOnlyTheGpuPhasesOfAJobWithADutyCycle) {
  // Busy 30% of the time alone (nvidia-smi utilization.gpu 30): its host phases run at full
  // speed on a 1g instance, as under an MPS SM cap, and only its GPU phases at the instance's
  // 16/132. It used to run at 16/132 throughout, as an always-busy job (82.5 s, not 31.75 s).
  const auto run = run_text(shared_scenario(1, 1, R"({"policy": "mig", "layout": "all-1g.10gb"})",
                                            jobs_workload({{"a", 0, 10, R"({"demand": {"sm": 1.0, "bw": 0.1,
                                                              "gpu_util_pct": 30}})"}}),
                                            "", "H100-80GB"));
  const double s = instance_speed("H100-80GB", "1g.10gb", 1.0, 0.1);
  EXPECT_NEAR(run_time_s(job_named(run->runtime(), "a-0")), 10 * (0.7 + 0.3 / s), 1e-6);
}

TEST(Mig, TimeSlicedPodsOfAnInstanceTakeTurnsOnlyWhileTheirSlowedGpuPhasesOverlap) {
  // Two pods busy half the time on one 3g.40gb instance of replicas 2: their GPU phases last
  // 1/s times longer there, so each has GPU work queued u' = (u/s) / ((1-u) + u/s) of its time
  // on the instance, and the pair's turn-taking (docs/models.md "Duty cycles") uses u'.
  const auto run = run_text(shared_scenario(
      1, 1, R"({"policy": "mig", "strategy": "mixed", "layout": ["3g.40gb"], "timeslice": {"replicas": 2}})",
      jobs_workload(
          {{"a", 0, 10, R"({"gpu_resource": "nvidia.com/mig-3g.40gb", "demand": {"sm": 1.0, "duty": 0.5}})"},
           {"b", 0, 10, R"({"gpu_resource": "nvidia.com/mig-3g.40gb", "demand": {"sm": 1.0, "duty": 0.5}})"}}),
      "", "H100-80GB"));
  const double s = instance_speed("H100-80GB", "3g.40gb", 1.0, 0.5);
  const double cycle = 0.5 + 0.5 / s;
  const double u = (0.5 / s) / cycle;
  const CalibrationProfile& profile = builtin_calibration_profile("H100-80GB");
  const double slice = profile.default_slice_ns.value;
  const double e = slice / (slice + profile.switch_cost_ns.value + profile.cache_refill_ns.value);
  // Two contexts of duty u: Z = (1-u)^2 + 2u(1-u) + 2u^2/e, speed 1/Z each.
  const double z = (1 - u) * (1 - u) + 2 * u * (1 - u) + 2 * u * u / e;
  const double speed = (1 / z) / cycle;
  EXPECT_NEAR(run_time_s(job_named(run->runtime(), "a-0")), 10 / speed, 1e-5);
  EXPECT_NEAR(run_time_s(job_named(run->runtime(), "b-0")), 10 / speed, 1e-5);
}

TEST(Mig, MeasuredSliceSpeedsOverrideTheModelOnTheGpuTheyWereMeasuredOn) {
  const WorkloadProfile* profile = nullptr;
  for (const WorkloadProfile& p : ProfileLibrary::builtin().profiles()) {
    if (p.mig_speed("1g.5gb")) {
      profile = &p;
      break;
    }
  }
  ASSERT_NE(profile, nullptr);
  const std::string request = R"({"profile": ")" + profile->name + R"("})";
  const auto a100 = run_text(shared_scenario(1, 1, R"({"policy": "mig", "layout": "all-1g.5gb"})",
                                             jobs_workload({{"j", 0, 10, request}}), "", "A100-40GB"));
  // Measured speed relative to 7g, times the model's speed on the 7g instance (98 of 108 SMs).
  const double seven_g = instance_speed("A100-40GB", "7g.40gb", profile->sm, profile->bw);
  const double expected = *profile->mig_speed("1g.5gb") * seven_g;
  EXPECT_NEAR(run_time_s(job_named(a100->runtime(), "j-0")), 10 / expected, 1e-5);
  // On another model the parametric model applies.
  const auto a100_80 = run_text(shared_scenario(1, 1, R"({"policy": "mig", "layout": "all-1g.10gb"})",
                                                jobs_workload({{"j", 0, 10, request}}), "", "A100-80GB"));
  EXPECT_NEAR(run_time_s(job_named(a100_80->runtime(), "j-0")),
              10 / instance_speed("A100-80GB", "1g.10gb", profile->sm, profile->bw), 1e-5);
}

TEST(Mig, AMeasuredSpeedWithADutyCycleIsRelativeToTheWholeWorkloadOn7g) {
  // A measured speed is the whole workload's relative to 7g, so on 7g itself (relative speed 1)
  // a job with a profile runs as the same demand written out does: its GPU phases at 98/108,
  // its host phases at full speed. The measured branch used to multiply by the GPU phases'
  // speed alone (110.20 s against 105.10 s for duty 0.5; audit, stop 46).
  const WorkloadProfile* profile = nullptr;
  for (const WorkloadProfile& p : ProfileLibrary::builtin().profiles()) {
    if (p.mig_speed("7g.40gb")) {
      profile = &p;
      break;
    }
  }
  ASSERT_NE(profile, nullptr);
  ASSERT_EQ(*profile->mig_speed("7g.40gb"), 1.0);
  char bw[32];
  std::snprintf(bw, sizeof bw, "%.17g", profile->bw);
  const auto run = run_text(
      shared_scenario(1, 2, R"({"policy": "mig", "strategy": "mixed", "layout": "all-7g.40gb"})",
                      jobs_workload({{"profiled", 0, 100,
                                      R"({"gpu_resource": "nvidia.com/mig-7g.40gb", "profile": ")" + profile->name +
                                          R"(", "demand": {"sm": 1.0, "duty": 0.5}})"},
                                     {"written", 0, 100,
                                      R"({"gpu_resource": "nvidia.com/mig-7g.40gb", "demand": {"sm": 1.0, "bw": )" +
                                          std::string(bw) + R"(, "duty": 0.5}})"}}),
                      "", "A100-40GB"));
  const double s7 = instance_speed("A100-40GB", "7g.40gb", 1.0, profile->bw);
  ASSERT_NEAR(s7, 98.0 / 108.0, 1e-12);
  EXPECT_NEAR(run_time_s(job_named(run->runtime(), "written-0")), 100 * (0.5 + 0.5 / s7), 1e-5);
  EXPECT_NEAR(run_time_s(job_named(run->runtime(), "profiled-0")), 100 * (0.5 + 0.5 / s7), 1e-5);
}

TEST(Mig, MemoryIsIsolatedPerInstance) {
  // 1g.10gb holds 9.75 GiB: the 12 GiB pod is an OOM for itself only; its neighbour on the
  // next instance runs on.
  const auto run = run_text(shared_scenario(1, 1, R"({"policy": "mig", "layout": "all-1g.10gb"})",
                                            jobs_workload({{"small", 0, 10, R"({"demand": {"mem_mib": 8000}})"},
                                                           {"big", 1, 10, R"({"demand": {"mem_mib": 12288}})"}}),
                                            "", "H100-80GB"));
  const JobRecord& big = job_named(run->runtime(), "big-0");
  EXPECT_EQ(big.kill_cause, KillCause::Oom);
  EXPECT_FALSE(big.killed_by_other);
  EXPECT_NE(run->runtime().failure_reasons()[static_cast<std::size_t>(big.failure)].find("MIG instance 1g.10gb@"),
            std::string::npos);
  EXPECT_EQ(job_named(run->runtime(), "small-0").state, JobState::Completed);
}

TEST(Mig, AnInstanceFaultKillsOnlyThatInstancesPod) {
  const auto run = run_text(shared_scenario(
      1, 1, R"({"policy": "mig", "layout": "all-1g.10gb"})",
      R"({"generators": [{"kind": "training", "count": 300, "arrival": {"process": "poisson", "rate_per_s": 0.02},
          "duration": {"dist": "exponential", "mean_s": 600}, "request": {"gpus": 1, "demand": {"sm": 0.1}}}]})",
      R"("faults": {"mtbf": "30m"},)", "H100-80GB"));
  EXPECT_GT(run->metrics().killed_fault, 0u);
  EXPECT_EQ(run->metrics().killed_by_other, 0u);
  // Several pods shared the GPU while faults happened (7 instances).
  EXPECT_GT(run->gpu_usage()[0].jobs_started, 7u);
}

TEST(Mig, TimeSlicedInstanceSharesItsTimeAndNotOtherInstances) {
  // Two pods on the one 3g.40gb instance of replicas 2, one pod alone on the other.
  const auto run = run_text(shared_scenario(
      1, 1, R"({"policy": "mig", "strategy": "mixed", "layout": ["3g.40gb", "3g.40gb"], "timeslice": {"replicas": 2}})",
      jobs_workload({{"a", 0, 10, R"({"gpu_resource": "nvidia.com/mig-3g.40gb", "demand": {"sm": 1.0}})"},
                     {"b", 0, 10, R"({"gpu_resource": "nvidia.com/mig-3g.40gb", "demand": {"sm": 1.0}})"},
                     {"c", 0, 10, R"({"gpu_resource": "nvidia.com/mig-3g.40gb", "demand": {"sm": 1.0}})"}}),
      "", "H100-80GB"));
  const double alone = instance_speed("H100-80GB", "3g.40gb", 1.0, 0.5);
  const CalibrationProfile& profile = builtin_calibration_profile("H100-80GB");
  const double slice = profile.default_slice_ns.value;
  const double efficiency = slice / (slice + profile.switch_cost_ns.value + profile.cache_refill_ns.value);
  // Pods go to the least-loaded instance: a on 0, b on 1, c shares instance 0 with a.
  EXPECT_NEAR(run_time_s(job_named(run->runtime(), "b-0")), 10 / alone, 1e-6);
  EXPECT_NEAR(run_time_s(job_named(run->runtime(), "c-0")), 10 / (alone * efficiency / 2), 1e-5);
  EXPECT_GT(run->gpu_usage()[0].context_switches, 0);
}

TEST(Mig, DynamicRepartitioningWaitsForTheDrainAndTakesTheReconfigurationTime) {
  // all-1g.10gb offers no 3g.40gb: the 3g pod makes the GPU drain (the 1g pod arriving later
  // may not start there), then the GPU is laid out anew, which takes the profile's time.
  const auto run = run_text(shared_scenario(
      1, 1, R"({"policy": "mig", "strategy": "mixed", "layout": "all-1g.10gb", "repartitioning": "dynamic"})",
      jobs_workload({{"small", 0, 100, R"({"gpu_resource": "nvidia.com/mig-1g.10gb"})"},
                     {"large", 10, 10, R"({"gpu_resource": "nvidia.com/mig-3g.40gb"})"},
                     {"late", 20, 10, R"({"gpu_resource": "nvidia.com/mig-1g.10gb"})"}}),
      "", "H100-80GB"));
  const ClusterRuntime& runtime = run->runtime();
  const JobRecord& small = job_named(runtime, "small-0");
  const JobRecord& large = job_named(runtime, "large-0");
  const JobRecord& late = job_named(runtime, "late-0");
  const SimTime reconfiguration = std::llround(builtin_calibration_profile("H100-80GB").mig_reconfiguration_ns.value);
  ASSERT_GT(reconfiguration, 0);
  EXPECT_EQ(small.state, JobState::Completed);
  EXPECT_EQ(large.start, small.end + reconfiguration);
  EXPECT_GE(late.start, small.end + reconfiguration);  // no new pod on a draining GPU
  EXPECT_EQ(late.state, JobState::Completed);          // the new layout keeps 1g.10gb instances
  const GpuUsage& usage = run->gpu_usage()[0];
  EXPECT_EQ(usage.reconfigurations, 1u);
  EXPECT_EQ(usage.draining_ns, small.end - large.spec.arrival);
  EXPECT_EQ(usage.reconfiguring_ns, reconfiguration);
}

TEST(Mig, RepartitioningOneGpuLeavesTheLayoutOfItsNeighbour) {
  // The GPUs of a pool share one policy object unless it repartitions (Cluster::Cluster): here
  // "small" holds one GPU's 1g.10gb instance, and the 3g.40gb pod has the other, empty GPU laid
  // out anew. The neighbour must keep its own policy object and its all-1g.10gb layout.
  const auto run = run_text(shared_scenario(
      1, 2, R"({"policy": "mig", "strategy": "mixed", "layout": "all-1g.10gb", "repartitioning": "dynamic"})",
      jobs_workload({{"small", 0, 100, R"({"gpu_resource": "nvidia.com/mig-1g.10gb"})"},
                     {"large", 10, 10, R"({"gpu_resource": "nvidia.com/mig-3g.40gb"})"}}),
      "", "H100-80GB"));
  const Cluster& cluster = run->cluster();
  ASSERT_NE(cluster.gpu(0).sharing, cluster.gpu(1).sharing);
  const auto units_of = [&](std::uint32_t gpu, const std::string& name) {
    const int id = cluster.resource_names().find(name);
    return id < 0 ? 0 : cluster.gpu(gpu).capacity(static_cast<ResourceId>(id));
  };
  const std::uint32_t relaid = run->gpu_usage()[0].reconfigurations == 1 ? 0 : 1;
  const std::uint32_t neighbour = 1 - relaid;
  EXPECT_EQ(run->gpu_usage()[relaid].reconfigurations, 1u);
  EXPECT_EQ(run->gpu_usage()[neighbour].reconfigurations, 0u);
  EXPECT_GE(units_of(relaid, "nvidia.com/mig-3g.40gb"), 1);
  EXPECT_EQ(units_of(neighbour, "nvidia.com/mig-3g.40gb"), 0);
  EXPECT_EQ(units_of(neighbour, "nvidia.com/mig-1g.10gb"), 7);
  EXPECT_EQ(job_named(run->runtime(), "large-0").state, JobState::Completed);
}

TEST(Mig, GpusOfAPoolWithAFixedLayoutShareOnePolicyObject) {
  const auto run = run_text(shared_scenario(2, 2, R"({"policy": "mig", "strategy": "mixed", "layout": "all-1g.10gb"})",
                                            jobs_workload({{"a", 0, 10, R"({"gpu_resource": "nvidia.com/mig-1g.10gb"})"}}),
                                            "", "H100-80GB"));
  const Cluster& cluster = run->cluster();
  for (const Gpu& gpu : cluster.gpus()) EXPECT_EQ(gpu.sharing, cluster.gpu(0).sharing);
}

TEST(Mig, APodOnlyARepartitionedGpuCouldHoldIsNotACapacityProblem) {
  const std::string workload = R"({"jobs": [{"name": "a", "duration": "10s",
      "request": {"gpu_resource": "nvidia.com/mig-3g.40gb"}}]})";
  // A fixed layout without 3g.40gb instances could never hold the pod: an input error at load.
  const std::string fixed =
      error_of(shared_scenario(1, 1, R"({"policy": "mig", "strategy": "mixed", "layout": "all-1g.10gb"})", workload,
                               R"("until": "1m",)", "H100-80GB"));
  EXPECT_EQ(fixed,
            "<test>: /workload/jobs/0/request: no node could ever hold a pod asking for 1 nvidia.com/mig-3g.40gb, 0 "
            "cpu_milli and 0 memory_mib: expected a GPU resource that the nodes it may go on advertise "
            "(\"nvidia.com/mig-1g.10gb\"), found \"nvidia.com/mig-3g.40gb\"");
  const auto dynamic = run_text(shared_scenario(
      1, 1, R"({"policy": "mig", "strategy": "mixed", "layout": "all-1g.10gb", "repartitioning": "dynamic"})", workload,
      "", "H100-80GB"));
  EXPECT_EQ(capacity_problem(dynamic->cluster(), dynamic->runtime().shapes().shapes[0], 1), "");
  EXPECT_EQ(dynamic->runtime().jobs()[0].state, JobState::Completed);
}

TEST(Mig, DynamicRepartitioningLaysOutEnoughInstancesForAPodAskingSeveral) {
  // all-1g.10gb, a pod asking two 3g.40gb instances: the new layout must hold both (an H100
  // takes two). It used to get one, and the pod waited for ever (audit, stop 46).
  const auto run = run_text(shared_scenario(
      1, 1, R"({"policy": "mig", "strategy": "mixed", "layout": "all-1g.10gb", "repartitioning": "dynamic"})",
      jobs_workload({{"pair", 0, 100, R"({"limits": {"nvidia.com/mig-3g.40gb": 2}})"}}), R"("until": "1h",)",
      "H100-80GB"));
  const SimTime reconfiguration = std::llround(builtin_calibration_profile("H100-80GB").mig_reconfiguration_ns.value);
  const JobRecord& pair = job_named(run->runtime(), "pair-0");
  EXPECT_EQ(pair.state, JobState::Completed);
  EXPECT_EQ(pair.start, reconfiguration);
  EXPECT_EQ(advertised(run->cluster(), "nvidia.com/mig-3g.40gb"), 2);
}

TEST(Mig, DynamicRepartitioningLaysOutAGpuPerPodOfAGangUntilTheGangFits) {
  // Two nodes of one H100 each, all-balanced (no 7g): a gang of two 7g pods needs both GPUs laid
  // out anew, one after the other. Once one GPU offered 7g the repartitioner used to stop, and the
  // gang waited for ever; so did a pod asking two 7g on a node of two GPUs.
  const std::string sharing =
      R"({"policy": "mig", "strategy": "mixed", "layout": "all-balanced", "repartitioning": "dynamic"})";
  const SimTime reconfiguration = std::llround(builtin_calibration_profile("H100-80GB").mig_reconfiguration_ns.value);
  const auto gang = run_text(shared_scenario(2, 1, sharing,
                                             R"({"jobs": [{"name": "gang", "pods": 2, "duration": "100s",
          "request": {"limits": {"nvidia.com/mig-7g.80gb": 1}}}]})",
                                             R"("until": "1h",)", "H100-80GB"));
  const JobRecord& both = job_named(gang->runtime(), "gang-0");
  EXPECT_EQ(both.state, JobState::Completed);
  EXPECT_EQ(both.start, 2 * reconfiguration);
  EXPECT_EQ(gang->gpu_usage()[0].reconfigurations + gang->gpu_usage()[1].reconfigurations, 2u);
  const auto pod = run_text(
      shared_scenario(1, 2, sharing, jobs_workload({{"two", 0, 100, R"({"limits": {"nvidia.com/mig-7g.80gb": 2}})"}}),
                      R"("until": "1h",)", "H100-80GB"));
  EXPECT_EQ(job_named(pod->runtime(), "two-0").state, JobState::Completed);
  EXPECT_EQ(job_named(pod->runtime(), "two-0").start, 2 * reconfiguration);
}

TEST(Mig, APodNoLayoutOfItsNodeCouldHoldIsACapacityProblemUnderDynamicRepartitioning) {
  // One H100 per node holds at most one 7g.80gb: a pod asking two never fits, repartitioned or
  // not. Dynamic repartitioning used to count as able to hold anything, so the run started and
  // the pod waited for ever.
  const std::string problem = error_of(shared_scenario(
      2, 1, R"({"policy": "mig", "strategy": "mixed", "layout": "all-balanced", "repartitioning": "dynamic"})",
      jobs_workload({{"two", 0, 100, R"({"limits": {"nvidia.com/mig-7g.80gb": 2}})"}}), "", "H100-80GB"));
  EXPECT_EQ(problem,
            "<test>: /workload/jobs/0/request: no node could ever hold a pod asking for 2 nvidia.com/mig-7g.80gb, 0 "
            "cpu_milli and 0 memory_mib: the 1 H100-80GB of a node of pool \"p\" can be laid out to offer at most 1 "
            "nvidia.com/mig-7g.80gb (dynamic repartitioning)");
}

}  // namespace
}  // namespace sharesim
