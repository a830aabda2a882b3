// The time-sharing policies (timeslice, MPS, vGPU) through whole runs and the cluster they
// build: what the device plugins advertise, what they refuse, who dies on an OOM or a fault.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <vector>

#include "policies/calibration/calibration_profile.h"
#include "policies/vgpu/vgpu_types.h"
#include "run_helpers.h"
#include "sim/cluster/gpu_catalog.h"
#include "sim/input/input_error.h"

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

TEST(Timeslice, ReplicasWithRenameAdvertiseSharedGpus) {
  const std::string sharing = R"({"policy": "timeslice", "replicas": 4, "rename_by_default": true})";
  const auto run = run_text(
      shared_scenario(1, 8, sharing, jobs_workload({{"a", 0, 10, R"({"gpu_resource": "nvidia.com/gpu.shared"})"}})));
  EXPECT_EQ(advertised(run->cluster(), "nvidia.com/gpu.shared"), 32);
  EXPECT_EQ(advertised(run->cluster(), "nvidia.com/gpu"), 0);
  EXPECT_EQ(run->runtime().jobs()[0].state, JobState::Completed);
  // A job asking nvidia.com/gpu, which no node offers under rename, could never run: an input
  // error at load rather than a job pending forever.
  const std::string error = error_of(shared_scenario(1, 8, sharing, kOneJob));
  EXPECT_NE(error.find("/workload/jobs/0/request: no node could ever hold a pod asking for 1 nvidia.com/gpu"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("expected a GPU resource that the nodes it may go on advertise (\"nvidia.com/gpu.shared\"), "
                       "found \"nvidia.com/gpu\""),
            std::string::npos)
      << error;
}

TEST(Timeslice, RequestAboveOneFailsAtAdmissionWithThePluginsError) {
  const auto run = run_text(shared_scenario(
      1, 1,
      R"({"policy": "timeslice", "replicas": 4, "rename_by_default": true, "fail_requests_greater_than_one": true})",
      jobs_workload({{"two", 0, 10, R"({"gpus": 2, "gpu_resource": "nvidia.com/gpu.shared"})"}})));
  const JobRecord& job = run->runtime().jobs()[0];
  ASSERT_EQ(job.state, JobState::Failed);
  EXPECT_EQ(job.kill_cause, KillCause::AdmissionError);
  EXPECT_EQ(run->runtime().failure_reasons()[static_cast<std::size_t>(job.failure)],
            "UnexpectedAdmissionError: Allocate failed due to rpc error: code = Unknown desc = request for "
            "'nvidia.com/gpu.shared: 2' too large: maximum request size for shared resources is 1, which is "
            "unexpected on p-0 GPU 0");
}

TEST(Timeslice, TwoReplicasWithoutTheFlagGiveNoMoreCompute) {
  const auto run = run_text(
      shared_scenario(1, 1, R"({"policy": "timeslice", "replicas": 4})",
                      jobs_workload({{"two", 0, 10, R"({"gpus": 2})"}, {"one", 0, 10, R"({"gpus": 1})"}}),
                      R"("calibration": {"overrides": {"timeslice": {"switch_cost_ns": 0, "cache_refill_ns": 0}}},)"));
  const JobRecord& two = job_named(run->runtime(), "two-0");
  const JobRecord& one = job_named(run->runtime(), "one-0");
  ASSERT_EQ(two.state, JobState::Completed);
  // Two contexts take turns: each runs at half speed, whatever replicas it holds.
  EXPECT_DOUBLE_EQ(run_time_s(two), 20.0);
  EXPECT_DOUBLE_EQ(run_time_s(one), 20.0);
  ASSERT_GE(two.note, 0);
  EXPECT_EQ(run->runtime().notes()[static_cast<std::size_t>(two.note)],
            "asked for 2 nvidia.com/gpu replicas: time-slicing replicas of one GPU give no extra compute");
  EXPECT_LT(one.note, 0);
}

TEST(Timeslice, ReplicasOfTwoGpusAreNotNotedAsGivingNoExtraCompute) {
  // 2 GPUs of 2 replicas, one taken: the 2-replica pod gets one replica of each GPU and runs on
  // both (its work done on GPU 1 too). The note said "no extra compute" from the request alone.
  const auto spread =
      run_text(shared_scenario(1, 2, R"({"policy": "timeslice", "replicas": 2})",
                               jobs_workload({{"one", 0, 100, R"({"gpus": 1})"}, {"two", 0, 100, R"({"gpus": 2})"}})));
  const JobRecord& two = job_named(spread->runtime(), "two-0");
  ASSERT_EQ(two.state, JobState::Completed);
  EXPECT_EQ(two.gpu_devices, 2u);
  EXPECT_LT(two.note, 0);
  // 4 replicas of 2 GPUs on 2 GPUs of 2: two of one GPU, and the note says so.
  const auto paired = run_text(shared_scenario(1, 2, R"({"policy": "timeslice", "replicas": 2})",
                                               jobs_workload({{"four", 0, 100, R"({"gpus": 4})"}})));
  const JobRecord& four = job_named(paired->runtime(), "four-0");
  ASSERT_GE(four.note, 0);
  EXPECT_EQ(paired->runtime().notes()[static_cast<std::size_t>(four.note)],
            "asked for 4 nvidia.com/gpu replicas, 2 of them of one GPU: time-slicing replicas of one GPU give no "
            "extra compute");
}

TEST(Timeslice, SwitchCostSlowsSharedContextsOnly) {
  // The A100-80GB profile's slice, switch cost and cache refill (docs/calibration.md).
  const auto run = run_text(shared_scenario(
      2, 1, R"({"policy": "timeslice", "replicas": 2})",
      jobs_workload({{"a", 0, 10, R"({"gpus": 1})"}, {"b", 0, 10, R"({"gpus": 1})"}, {"c", 0, 10, R"({"gpus": 1})"}})));
  // First fit: a and b share GPU 0 of node p-0, c runs alone on p-1.
  const CalibrationProfile& profile = builtin_calibration_profile("A100-80GB");
  const double slice = profile.default_slice_ns.value;
  const double gap = profile.switch_cost_ns.value + profile.cache_refill_ns.value;
  const double efficiency = slice / (slice + gap);
  EXPECT_NEAR(run_time_s(job_named(run->runtime(), "a-0")), 20.0 / efficiency, 1e-6);
  EXPECT_NEAR(run_time_s(job_named(run->runtime(), "c-0")), 10.0, 1e-9);
  // Context switches are counted while two contexts share the GPU.
  const double switches = run->metrics().context_switches;
  EXPECT_NEAR(switches, (20.0 / efficiency) / ((slice + gap) * 1e-9), 2.0);
}

TEST(Timeslice, LevelNeedsComputePolicySupport) {
  EXPECT_EQ(error_of(shared_scenario(1, 1, R"({"policy": "timeslice", "replicas": 2, "level": "long"})", kOneJob, "",
                                     "RTX3060-Laptop")),
            "<test>: /cluster/node_pools/0/sharing/level: GPU model \"RTX3060-Laptop\" does not support nvidia-smi "
            "compute-policy --set-timeslice (catalog: compute_policy_timeslice is false); remove \"level\"");
  EXPECT_EQ(error_of(shared_scenario(1, 1, R"({"policy": "timeslice", "level": "longer"})", kOneJob)),
            "<test>: /cluster/node_pools/0/sharing/level: expected one of \"default\", \"short\", \"medium\", "
            "\"long\", found \"longer\"; did you mean \"long\"?");
  EXPECT_EQ(error_of(shared_scenario(1, 1, R"({"policy": "timeslice", "replica": 2})", kOneJob)),
            "<test>: /cluster/node_pools/0/sharing/replica: unknown key \"replica\" for sharing policy \"timeslice\"; "
            "did you mean \"replicas\"?");
}

TEST(Timeslice, LongerSliceLosesLessToSwitches) {
  const auto time_with = [](const std::string& level) {
    const auto run =
        run_text(shared_scenario(1, 1, R"({"policy": "timeslice", "replicas": 2, "level": ")" + level + R"("})",
                                 jobs_workload({{"a", 0, 10, R"({"gpus": 1})"}, {"b", 0, 10, R"({"gpus": 1})"}})));
    return run_time_s(run->runtime().jobs()[0]);
  };
  EXPECT_LT(time_with("long"), time_with("default"));
  EXPECT_LT(time_with("default"), time_with("short"));
}

// A (50 GiB) runs; B (40 GiB) joins the same A100-80GB (81920 MiB): the sum does not fit.
std::string oom_scenario(const std::string& blast_radius) {
  return shared_scenario(1, 1,
                         R"({"policy": "timeslice", "replicas": 4, "oom_blast_radius": ")" + blast_radius + R"("})",
                         jobs_workload({{"a", 0, 100, R"({"gpus": 1, "demand": {"mem_mib": 51200}})"},
                                        {"b", 10, 100, R"({"gpus": 1, "demand": {"mem_mib": 40960}})"}}));
}

TEST(Timeslice, OomKillsOnlyTheNewcomerWithPodBlastRadius) {
  const auto run = run_text(oom_scenario("pod"));
  const JobRecord& a = job_named(run->runtime(), "a-0");
  const JobRecord& b = job_named(run->runtime(), "b-0");
  EXPECT_EQ(a.state, JobState::Completed);
  EXPECT_DOUBLE_EQ(run_time_s(a), 100.0);  // B died at once: A never shared the GPU
  ASSERT_EQ(b.state, JobState::Failed);
  EXPECT_EQ(b.kill_cause, KillCause::Oom);
  EXPECT_FALSE(b.killed_by_other);
  EXPECT_EQ(run->metrics().killed_by_other, 0u);
}

TEST(Timeslice, OomKillsEveryPodOnTheGpuWithGpuBlastRadius) {
  const auto run = run_text(oom_scenario("gpu"));
  const JobRecord& a = job_named(run->runtime(), "a-0");
  ASSERT_EQ(a.state, JobState::Failed);
  EXPECT_EQ(a.kill_cause, KillCause::Oom);
  EXPECT_TRUE(a.killed_by_other);
  EXPECT_EQ(time_to_seconds(a.end), 10.0);
  EXPECT_EQ(run->metrics().killed_by_other, 1u);
  EXPECT_EQ(run->metrics().killed_oom, 2u);
  EXPECT_NE(run->runtime().failure_reasons()[static_cast<std::size_t>(a.failure)].find("killed by another pod's oom"),
            std::string::npos);
}

TEST(Mps, ReplicasAdvertisedPerGpuUpToTheClientLimit) {
  const auto run = run_text(shared_scenario(1, 2, R"({"policy": "mps", "replicas": 48})", kOneJob));
  EXPECT_EQ(advertised(run->cluster(), "nvidia.com/gpu"), 96);
  EXPECT_EQ(error_of(shared_scenario(1, 2, R"({"policy": "mps", "replicas": 49})", kOneJob)),
            "<test>: /cluster/node_pools/0/sharing/replicas: expected an integer from 1 to 48, found 49");
}

TEST(Mps, ThreadPercentageCapsSmsButReservesNothing) {
  // 4 replicas: 25% of the threads each by default.
  const std::string sharing = R"({"policy": "mps", "replicas": 4})";
  const auto full = run_text(shared_scenario(1, 1, sharing, jobs_workload({{"a", 0, 10, R"({"gpus": 1})"}})));
  EXPECT_NEAR(run_time_s(full->runtime().jobs()[0]), 40.0, 1e-6);  // sm 1.0 capped at 0.25
  const auto small =
      run_text(shared_scenario(1, 1, sharing,
                               jobs_workload({{"a", 0, 10, R"({"gpus": 1, "demand": {"sm": 0.2, "bw": 0.2}})"},
                                              {"b", 0, 10, R"({"gpus": 1, "demand": {"sm": 0.2, "bw": 0.2}})"}})));
  // Two small clients fit side by side: both at standalone speed (no context switch).
  EXPECT_NEAR(run_time_s(small->runtime().jobs()[0]), 10.0, 1e-6);
  EXPECT_NEAR(run_time_s(small->runtime().jobs()[1]), 10.0, 1e-6);
  EXPECT_EQ(small->metrics().context_switches, 0.0);
}

TEST(Mps, PinnedMemoryLimitIsAnOomForThatClientOnly) {
  // 4 replicas on 81920 MiB: 20480 MiB per client by default.
  const auto run = run_text(
      shared_scenario(1, 1, R"({"policy": "mps", "replicas": 4})",
                      jobs_workload({{"a", 0, 10, R"({"gpus": 1, "demand": {"sm": 0.2, "mem_mib": 10000}})"},
                                     {"b", 1, 10, R"({"gpus": 1, "demand": {"sm": 0.2, "mem_mib": 30000}})"}})));
  EXPECT_EQ(job_named(run->runtime(), "a-0").state, JobState::Completed);
  const JobRecord& b = job_named(run->runtime(), "b-0");
  ASSERT_EQ(b.state, JobState::Failed);
  EXPECT_EQ(b.kill_cause, KillCause::Oom);
  EXPECT_NE(
      run->runtime().failure_reasons()[static_cast<std::size_t>(b.failure)].find("CUDA_MPS_PINNED_DEVICE_MEM_LIMIT"),
      std::string::npos);
}

// Faults under a policy: returns the run; every job is long so faults happen while shared.
std::unique_ptr<ScenarioRun> fault_run(const std::string& sharing) {
  return run_text(shared_scenario(
      1, 2, sharing,
      R"({"generators": [{"kind": "training", "count": 400, "arrival": {"process": "poisson", "rate_per_s": 0.02},
          "duration": {"dist": "exponential", "mean_s": 600}, "request": {"gpus": 1, "demand": {"sm": 0.3}}}]})",
      R"("faults": {"mtbf": "30m"},)"));
}

TEST(Mps, AFaultKillsEveryClientOfThatGpuOnly) {
  const auto run = fault_run(R"({"policy": "mps", "replicas": 4})");
  const ClusterRuntime& runtime = run->runtime();
  ASSERT_GT(run->metrics().killed_fault, 0u);
  ASSERT_GT(run->metrics().killed_by_other, 0u);
  // Every pod killed by another's fault died at the same instant, on the same GPU, as a pod
  // that faulted itself; none on the other GPU.
  std::map<std::pair<SimTime, std::uint32_t>, int> own_faults;  // (time, gpu) -> count
  for (const JobRecord& job : runtime.jobs()) {
    if (job.kill_cause == KillCause::Fault && !job.killed_by_other) {
      runtime.for_each_device(job, [&](const DeviceAllocation& d) { ++own_faults[{job.end, d.gpu}]; });
    }
  }
  for (const JobRecord& job : runtime.jobs()) {
    if (!job.killed_by_other) continue;
    EXPECT_EQ(job.kill_cause, KillCause::Fault);
    runtime.for_each_device(job, [&](const DeviceAllocation& d) {
      EXPECT_EQ(own_faults.count({job.end, d.gpu}), 1u) << runtime.job_name(job);
    });
  }
}

TEST(Timeslice, AFaultKillsOnlyTheFaultingContext) {
  const auto run = fault_run(R"({"policy": "timeslice", "replicas": 4})");
  EXPECT_GT(run->metrics().killed_fault, 0u);
  EXPECT_EQ(run->metrics().killed_by_other, 0u);
}

TEST(Vgpu, TypesAdvertiseVgpusPerGpuAndIsolateFramebuffers) {
  const auto run =
      run_text(shared_scenario(1, 2, R"({"policy": "vgpu", "profile": "A100-10C"})",
                               jobs_workload({{"fits", 0, 10, R"({"gpus": 1, "demand": {"mem_mib": 10240}})"},
                                              {"big", 0, 10, R"({"gpus": 1, "demand": {"mem_mib": 12000}})"}}),
                               "", "A100-40GB"));
  EXPECT_EQ(advertised(run->cluster(), "nvidia.com/gpu"), 8);
  EXPECT_EQ(job_named(run->runtime(), "fits-0").state, JobState::Completed);
  EXPECT_EQ(job_named(run->runtime(), "big-0").kill_cause, KillCause::Oom);
  EXPECT_EQ(run->metrics().killed_by_other, 0u);
  EXPECT_EQ(error_of(shared_scenario(1, 1, R"({"policy": "vgpu", "profile": "A100-12C"})", kOneJob, "", "A100-40GB")),
            "<test>: /cluster/node_pools/0/sharing/profile: expected a vGPU type of A100-40GB (\"A100-40C\", "
            "\"A100-20C\", \"A100-10C\", \"A100-8C\", \"A100-5C\", \"A100-4C\"), found \"A100-12C\"; did you mean "
            "\"A100-10C\"?");
  EXPECT_EQ(error_of(shared_scenario(1, 1, R"({"policy": "vgpu", "profile": "A100-10C", "time_slice_ms": 31})", kOneJob,
                                     "", "A100-40GB")),
            "<test>: /cluster/node_pools/0/sharing/time_slice_ms: expected a number from 1 to 30, found 31");
}

// The vGPUs of one GPU never hold more framebuffer than the GPU has: each gets the type's size,
// at most the GPU's memory (catalog memory_mib) / the type's vGPUs per GPU. An H100-80GB has
// 81559 MiB (nvidia-smi), so an H100-80C has 81559 MiB, not 81920, and an H100-20C
// 81559 / 4 = 20389 MiB, not 20480. A pod of 81800 MiB under H100-80C used to complete (peak
// 81800 MiB) where an exclusive GPU says OOM; four of 20480 MiB under H100-20C showed a peak of
// 81920 MiB. The A100 types divide the A100s' memory exactly and keep their sizes.
TEST(Vgpu, FramebuffersNeverHoldMoreThanTheGpu) {
  const auto h100_80c = run_text(shared_scenario(
      1, 1, R"({"policy": "vgpu", "profile": "H100-80C"})",
      jobs_workload({{"big", 0, 10, R"({"gpus": 1, "demand": {"mem_mib": 81800}})"}}), "", "H100-80GB"));
  const JobRecord& big = job_named(h100_80c->runtime(), "big-0");
  EXPECT_EQ(big.kill_cause, KillCause::Oom);
  ASSERT_GE(big.failure, 0);
  EXPECT_NE(h100_80c->runtime().failure_reasons()[static_cast<std::size_t>(big.failure)].find(
                "81800 MiB requested of 81559 MiB"),
            std::string::npos)
      << h100_80c->runtime().failure_reasons()[static_cast<std::size_t>(big.failure)];
  const auto four = [](std::int64_t mib) {
    const std::string request = R"({"gpus": 1, "demand": {"mem_mib": )" + std::to_string(mib) + "}}";
    return run_text(shared_scenario(
        1, 1, R"({"policy": "vgpu", "profile": "H100-20C"})",
        jobs_workload({{"a", 0, 10, request}, {"b", 0, 10, request}, {"c", 0, 10, request}, {"d", 0, 10, request}}), "",
        "H100-80GB"));
  };
  const auto over = four(20480);
  EXPECT_EQ(over->metrics().killed_oom, 4u);
  EXPECT_LE(over->gpu_usage()[0].peak_memory_mib, 81559);
  const auto fits = four(20389);
  EXPECT_EQ(fits->metrics().killed_oom, 0u);
  EXPECT_EQ(fits->gpu_usage()[0].peak_memory_mib, 4 * 20389);
  const auto a100 = run_text(
      shared_scenario(1, 1, R"({"policy": "vgpu", "profile": "A100-20C"})",
                      jobs_workload({{"a", 0, 10, R"({"gpus": 1, "demand": {"mem_mib": 20480}})"}}), "", "A100-80GB"));
  EXPECT_EQ(job_named(a100->runtime(), "a-0").state, JobState::Completed);
  // Every type of every GPU with a vGPU table, its GPUs full of pods as large as their vGPUs.
  for (const char* gpu : {"A100-40GB", "A100-80GB", "H100-80GB"}) {
    const GpuModel* model = GpuCatalog::builtin().find(gpu);
    ASSERT_NE(model, nullptr) << gpu;
    for (const VgpuType& type : vgpu_types_for(gpu)) {
      const std::int64_t framebuffer = std::min(type.framebuffer_mib, model->memory_mib / type.max_per_gpu);
      const std::string request = R"({"gpus": 1, "demand": {"mem_mib": )" + std::to_string(framebuffer) + "}}";
      std::vector<testing::JobText> jobs;
      for (std::int64_t i = 0; i < type.max_per_gpu; ++i) jobs.push_back({"j" + std::to_string(i), 0, 10, request});
      const auto run = run_text(shared_scenario(1, 1, R"({"policy": "vgpu", "profile": ")" + type.name + R"("})",
                                                jobs_workload(jobs), "", gpu));
      EXPECT_EQ(run->metrics().killed_oom, 0u) << type.name;
      EXPECT_LE(run->gpu_usage()[0].peak_memory_mib, model->memory_mib) << type.name;
    }
  }
}

// Run time of job "busy" sharing an A100-40GB (A100-10C: 4 vGPUs) with three others that are
// busy (duty 1) or nearly idle (duty 0.001: hold their vGPU, almost never have GPU work; a
// training pod with no work at all, sm 0 and bw 0, is an input error since it would never end).
double busy_job_time(const std::string& scheduler, bool others_busy) {
  const std::string other = others_busy ? R"({"gpus": 1})" : R"({"gpus": 1, "demand": {"duty": 0.001}})";
  const auto run = run_text(shared_scenario(
      1, 1, R"({"policy": "vgpu", "profile": "A100-10C", "scheduler": ")" + scheduler + R"("})",
      jobs_workload(
          {{"busy", 0, 10, R"({"gpus": 1})"}, {"x", 0, 100, other}, {"y", 0, 100, other}, {"z", 0, 100, other}}),
      R"("until": "1000s",)", "A100-40GB"));
  return run_time_s(job_named(run->runtime(), "busy-0"));
}

TEST(Vgpu, FixedShareIgnoresWhetherOthersAreBusyBestEffortDoesNot) {
  EXPECT_DOUBLE_EQ(busy_job_time("fixed_share", true), busy_job_time("fixed_share", false));
  EXPECT_LT(busy_job_time("best_effort", false), busy_job_time("best_effort", true) / 3);
  // Equal share divides among running vGPUs, busy or idle.
  EXPECT_DOUBLE_EQ(busy_job_time("equal_share", true), busy_job_time("equal_share", false));
}

// Equal and fixed share keep each vGPU's share s of the time for it whether or not it has work
// (vGPU user guide, "vGPU scheduling policies"), and a job's GPU work comes in phases long
// against the 2 ms slices (docs/models.md "Duty cycles"): the slots that fall in its host phases
// are lost, its GPU phases run at s and its host phases at full speed, so 100 s of work with
// duty u takes 100 s x ((1 - u) + u / s), as an MPS thread cap or a MIG instance slows the GPU
// phases only. Three jobs of duty 0.5 on an A100-20C GPU (e = 2 / 2.025):
//   equal share, s = e / 3: 50 + 50 x 3 / e = 201.875 s (they ended at 151.875 s, at
//     min(1, s / u), faster than best effort's 161.45 s on the same jobs, which a scheduler
//     that wastes idle slots cannot be);
//   fixed share, s = e / 4 (4 slots): 50 + 50 x 4 / e = 252.5 s (was 202.5 s).
// SM utilization counts only the slots a vGPU spends on GPU work: rate x u per job (sm 1),
// 3 x 0.4953 x 0.5 = 0.743 under equal share, not e (0.988) as if no slot went unused.
TEST(Vgpu, EqualAndFixedShareLoseTheSlotsThatFallInHostPhases) {
  const auto& profile = builtin_calibration_profile("A100-80GB");
  const double slice_ns = profile.vgpu_slice_ns_up_to_8.value;
  const double e = slice_ns / (slice_ns + profile.vgpu_switch_cost_ns.value);
  ASSERT_NEAR(e, 2.0 / 2.025, 1e-12);
  const auto three_half_busy = [](const std::string& scheduler) {
    const std::string half = R"({"gpus": 1, "demand": {"duty": 0.5}})";
    return run_text(shared_scenario(1, 1,
                                    R"({"policy": "vgpu", "profile": "A100-20C", "scheduler": ")" + scheduler + R"("})",
                                    jobs_workload({{"a", 0, 100, half}, {"b", 0, 100, half}, {"c", 0, 100, half}})));
  };
  const auto equal = three_half_busy("equal_share");
  const auto best = three_half_busy("best_effort");
  const auto fixed = three_half_busy("fixed_share");
  for (const char* name : {"a-0", "b-0", "c-0"}) {
    EXPECT_NEAR(run_time_s(job_named(equal->runtime(), name)), 50.0 + 50.0 * 3.0 / e, 1e-6) << name;
    EXPECT_NEAR(run_time_s(job_named(fixed->runtime(), name)), 50.0 + 50.0 * 4.0 / e, 1e-6) << name;
    EXPECT_GT(run_time_s(job_named(equal->runtime(), name)), run_time_s(job_named(best->runtime(), name))) << name;
  }
  const GpuUsage& used = equal->gpu_usage()[0];
  const double speed = 1.0 / (0.5 + 0.5 * 3.0 / e);
  EXPECT_NEAR(used.sm_busy_ns / static_cast<double>(used.allocated_ns), 3.0 * speed * 0.5, 1e-9);
  // Busy: some vGPU's job makes progress, its host phases included (as for every policy).
  EXPECT_EQ(used.busy_ns, used.allocated_ns);
  // A lone job under equal share has the GPU to itself; always-busy jobs keep s exactly.
  const auto alone =
      run_text(shared_scenario(1, 1, R"({"policy": "vgpu", "profile": "A100-20C", "scheduler": "equal_share"})",
                               jobs_workload({{"a", 0, 100, R"({"gpus": 1, "demand": {"duty": 0.5}})"}})));
  EXPECT_DOUBLE_EQ(run_time_s(job_named(alone->runtime(), "a-0")), 100.0);
  const auto busy =
      run_text(shared_scenario(1, 1, R"({"policy": "vgpu", "profile": "A100-20C", "scheduler": "fixed_share"})",
                               jobs_workload({{"a", 0, 100, R"({"gpus": 1})"}})));
  EXPECT_NEAR(run_time_s(job_named(busy->runtime(), "a-0")), 400.0 / e, 1e-6);
}

// fixed_share turns to every slot of the type while a VM runs on the GPU; with none left the GPU
// switches no more than one never used. Two 10 s jobs, one at a time, on an A100-20C GPU (4 slots):
// each runs at e / 4 for 40.5 s; switches only during those 81 s, one per slice + switch (2.025
// ms): 40,000. The empty gap between them used to count too (69,383).
TEST(Vgpu, FixedShareCountsNoSwitchesOnAnEmptyGpu) {
  const auto run =
      run_text(shared_scenario(1, 2, R"({"policy": "vgpu", "profile": "A100-20C", "scheduler": "fixed_share"})",
                               jobs_workload({{"a", 0, 10, R"({"gpus": 1})"}, {"b", 100, 10, R"({"gpus": 1})"}})));
  const auto& profile = builtin_calibration_profile("A100-80GB");
  const double turn_ns = profile.vgpu_slice_ns_up_to_8.value + profile.vgpu_switch_cost_ns.value;
  const GpuUsage& used = run->gpu_usage()[0];
  ASSERT_NEAR(time_to_seconds(used.allocated_ns), 81.0, 1e-6);
  EXPECT_NEAR(used.context_switches, static_cast<double>(used.allocated_ns) / turn_ns, 1e-6);
  EXPECT_EQ(run->gpu_usage()[1].context_switches, 0.0);  // never used
}

TEST(Vgpu, LicenseCostShowsInTheCostMetrics) {
  const auto run = run_text(
      shared_scenario(1, 2, R"({"policy": "vgpu", "profile": "A100-20C", "license_cost_per_gpu_year": 8760})", kOneJob,
                      R"("until": "10h", "metrics_window": {"end": "10h"}, "cost": {"gpu_hour": 2},)", "A100-40GB"));
  // 2 GPUs x 10 h x 2 + licenses 2 GPUs x 8760 per year x 10 h / 8760 h (the window is the
  // whole 10 h, not only the active span of the one job).
  EXPECT_NEAR(run->metrics().license_cost, 20.0, 1e-9);
  EXPECT_NEAR(run->metrics().cost, 40.0 + 20.0, 1e-9);
}

// An exclusive GPU has one pod, so no other pod can make it run out of memory; a pod that
// needs more than the whole GPU fails at start with the OOM the other policies give, alone. It
// used to run and show 100,000 MiB in use on an 81,920-MiB GPU.
TEST(Exclusive, APodLargerThanTheGpuIsAnOomForItselfOnly) {
  const auto run = run_text(shared_scenario(1, 2, R"({"policy": "exclusive"})",
                                            jobs_workload({{"big", 0, 10, R"({"gpus": 1, "demand": {"mem_mib": 100000}})"},
                                                           {"fits", 0, 10, R"({"gpus": 1, "demand": {"mem_mib": 81920}})"}})));
  const JobRecord& big = job_named(run->runtime(), "big-0");
  ASSERT_EQ(big.state, JobState::Failed);
  EXPECT_EQ(big.kill_cause, KillCause::Oom);
  EXPECT_FALSE(big.killed_by_other);
  EXPECT_EQ(time_to_seconds(big.end), 0.0);
  EXPECT_EQ(run->runtime().failure_reasons()[static_cast<std::size_t>(big.failure)].rfind(
                "OOM: CUDA out of memory: tried to allocate 100000 MiB; 100000 MiB requested of 81920 MiB", 0),
            0u);
  EXPECT_EQ(job_named(run->runtime(), "fits-0").state, JobState::Completed);
  EXPECT_EQ(run->metrics().killed_oom, 1u);
  EXPECT_EQ(run->metrics().killed_by_other, 0u);
  for (const Gpu& gpu : run->cluster().gpus()) {
    EXPECT_LE(run->gpu_usage()[gpu.index].peak_memory_mib, gpu.model->memory_mib);
  }
}

TEST(SharingPolicies, MemoryInUseNeverExceedsTheGpu) {
  for (const std::string sharing : {R"({"policy": "timeslice", "replicas": 8, "oom_blast_radius": "gpu"})",
                                    R"({"policy": "timeslice", "replicas": 8})", R"({"policy": "mps", "replicas": 8})",
                                    R"({"policy": "vgpu", "profile": "A100-10C"})"}) {
    const auto run = run_text(shared_scenario(
        2, 2, sharing,
        R"({"generators": [{"kind": "training", "count": 300, "arrival": {"process": "poisson", "rate_per_s": 0.05},
            "duration": {"dist": "exponential", "mean_s": 300}, "request": {"gpus": 1, "demand": {"sm": 0.4, "mem_mib": 9000}}},
           {"kind": "batch", "count": 100, "arrival": {"process": "poisson", "rate_per_s": 0.02},
            "duration": {"dist": "exponential", "mean_s": 300}, "request": {"gpus": 1, "demand": {"sm": 0.9, "mem_mib": 30000}}}]})",
        "", "A100-80GB"));
    for (const Gpu& gpu : run->cluster().gpus()) {
      EXPECT_LE(run->gpu_usage()[gpu.index].peak_memory_mib, gpu.model->memory_mib) << sharing;
    }
  }
}

// docs/scenario.md's table of policy keys names every key the timeslice and vgpu readers accept
// (their unknown-key error lists them). The timeslice row lacked duty_period_ms, which the code
// accepts and docs/models.md "Time-slicing" documents.
TEST(SharingPolicies, ScenarioPageListsEveryKeyOfTimesliceAndVgpu) {
  std::ifstream in(std::string(SHARESIM_SOURCE_DIR) + "/docs/scenario.md");
  ASSERT_TRUE(in) << "docs/scenario.md";
  std::map<std::string, std::string> rows;  // policy -> its row of the keys table
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| `", 0) != 0) continue;
    const std::size_t end = line.find('`', 3);
    if (end != std::string::npos && line.find("| keys") == std::string::npos)
      rows.emplace(line.substr(3, end - 3), line);
  }
  for (const auto& [policy, sharing] :
       std::map<std::string, std::string>{{"timeslice", R"({"policy": "timeslice", "zzz": 1})"},
                                          {"vgpu", R"({"policy": "vgpu", "profile": "A100-20C", "zzz": 1})"}}) {
    const std::string error = error_of(shared_scenario(1, 1, sharing, kOneJob));
    const std::size_t allowed = error.find("allowed: ");
    ASSERT_NE(allowed, std::string::npos) << error;
    ASSERT_TRUE(rows.contains(policy)) << policy;
    const std::string& row = rows.at(policy);
    std::size_t at = allowed;
    int keys = 0;
    while ((at = error.find('"', at)) != std::string::npos) {
      const std::size_t close = error.find('"', at + 1);
      const std::string key = error.substr(at + 1, close - at - 1);
      at = close + 1;
      if (key == "policy") continue;
      ++keys;
      EXPECT_NE(row.find("`" + key + "`"), std::string::npos) << policy << " row lacks `" << key << "`: " << row;
    }
    EXPECT_GE(keys, 4) << error;
  }
}

}  // namespace
}  // namespace sharesim
