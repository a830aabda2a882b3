// The fractional sharing policy (cGPU and HAMi flavours) through whole runs, and the request
// `limits` that ask for its resources: what each flavour advertises and refuses, the compute
// caps, the per-pod memory limit, and the one-line input errors.
#include <gtest/gtest.h>

#include "apps/compare_run.h"
#include "policies/calibration/calibration_profile.h"
#include "sim/cluster/usable_units.h"
#include "run_helpers.h"

namespace sharesim {
namespace {

using testing::advertised;
using testing::error_of;
using testing::job_named;
using testing::jobs_workload;
using testing::run_text;
using testing::run_time_s;
using testing::shared_scenario;

const std::string kCgpu = R"({"policy": "fractional", "flavour": "cgpu"})";
const std::string kHami = R"({"policy": "fractional", "flavour": "hami"})";

// A cGPU request: `gib` of aliyun.com/gpu-mem, and a core percentage unless 0.
std::string cgpu_request(int gib, int percent, const std::string& demand = "") {
  std::string limits = R"({"limits": {"aliyun.com/gpu-mem": )" + std::to_string(gib);
  if (percent > 0) limits += R"(, "aliyun.com/gpu-core.percentage": )" + std::to_string(percent);
  return limits + "}" + (demand.empty() ? "" : R"(, "demand": )" + demand) + "}";
}

std::string pending_reason(const ScenarioRun& run, const std::string& job) {
  return run.runtime().scheduler().explain_unschedulable(job_named(run.runtime(), job).spec);
}

const std::string kOneCgpuJob = jobs_workload({{"a", 0, 10, cgpu_request(4, 0)}});

TEST(FractionalCgpu, AdvertisesWholeGibAndCorePercentPerGpu) {
  // V100-16GB: nvidia-smi reports 16160 MiB, i.e. 15 whole GiB, as ACK's device plugin offers.
  const auto run = run_text(shared_scenario(1, 4, kCgpu, kOneCgpuJob, "", "V100-16GB"));
  EXPECT_EQ(advertised(run->cluster(), "aliyun.com/gpu-mem"), 60);
  EXPECT_EQ(advertised(run->cluster(), "aliyun.com/gpu-core.percentage"), 400);
  EXPECT_EQ(advertised(run->cluster(), "nvidia.com/gpu"), 0);
  const std::string text = describe_nodes_text(run->cluster());
  EXPECT_NE(text.find("  aliyun.com/gpu-mem:              60\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  aliyun.com/gpu-core.percentage:  400\n"), std::string::npos) << text;
  EXPECT_NE(text.find("sharesim/sharing-policy=fractional"), std::string::npos) << text;
}

TEST(FractionalCgpu, CorePercentageMustBeAMultipleOfFive) {
  EXPECT_EQ(error_of(shared_scenario(1, 1, kCgpu, jobs_workload({{"a", 0, 10, cgpu_request(4, 33)}}), "", "V100-16GB")),
            "<test>: /workload/jobs/0/request/limits/aliyun.com~1gpu-core.percentage: expected a multiple of 5 from "
            "5 to 100, found 33; ACK cGPU allocates computing power in multiples of 5 percent of a GPU, at least 5 "
            "(Alibaba Cloud ACK documentation, \"Allocate computing power by scheduling shared GPU\")");
  for (const int bad : {0, 3, 105}) {
    const std::string request =
        R"({"limits": {"aliyun.com/gpu-mem": 4, "aliyun.com/gpu-core.percentage": )" + std::to_string(bad) + "}}";
    EXPECT_NE(error_of(shared_scenario(1, 1, kCgpu, jobs_workload({{"a", 0, 10, request}}), "", "V100-16GB"))
                  .find("expected a multiple of 5 from 5 to 100, found " + std::to_string(bad)),
              std::string::npos)
        << bad;
  }
}

TEST(FractionalCgpu, MemoryOnlyAndMemoryPlusCorePodsNeverShareANode) {
  // One V100-16GB: "cores" asks 4 GiB and 30% and runs 3 s of work at 0.3 (10 s); "memory"
  // asks 4 GiB only and arrives at 1 s: the GPU has room, the node rule keeps it waiting.
  const std::string workload =
      jobs_workload({{"cores", 0, 3, cgpu_request(4, 30)}, {"memory", 1, 10, cgpu_request(4, 0)}});
  const auto waiting = run_text(shared_scenario(1, 1, kCgpu, workload, R"("until": "5s",)", "V100-16GB"));
  EXPECT_EQ(job_named(waiting->runtime(), "memory-0").state, JobState::Pending);
  EXPECT_EQ(pending_reason(*waiting, "memory-0"),
            "0/1 nodes are available: 1 node(s) run memory+core cGPU pods (aliyun.com/gpu-core.percentage); ACK "
            "cGPU never mixes them with memory-only pods.");
  const auto run = run_text(shared_scenario(1, 1, kCgpu, workload, "", "V100-16GB"));
  const JobRecord& memory = job_named(run->runtime(), "memory-0");
  EXPECT_EQ(memory.state, JobState::Completed);
  EXPECT_NEAR(time_to_seconds(memory.start), 10.0, 1e-6);  // when "cores" left the node

  // The other way round: a memory+core pod waits for the memory-only pods to leave.
  const auto reverse = run_text(shared_scenario(
      1, 2, kCgpu, jobs_workload({{"memory", 0, 10, cgpu_request(4, 0)}, {"cores", 1, 3, cgpu_request(4, 30)}}),
      R"("until": "5s",)", "V100-16GB"));
  EXPECT_EQ(pending_reason(*reverse, "cores-0"),
            "0/1 nodes are available: 1 node(s) run memory-only cGPU pods (aliyun.com/gpu-mem without "
            "aliyun.com/gpu-core.percentage); ACK cGPU never mixes them with memory+core pods.");
}

TEST(FractionalCgpu, ThreePodsAtThirtyPercentEachRunAtThirtyPercent) {
  const CalibrationProfile& profile = builtin_calibration_profile("V100-16GB");
  const double slice = profile.default_slice_ns.value;
  const double efficiency = slice / (slice + profile.switch_cost_ns.value + profile.cache_refill_ns.value);
  ASSERT_GE(efficiency, 0.9);  // three caps of 0.3 fit in the time left by switching
  const auto run = run_text(shared_scenario(
      1, 1, kCgpu,
      jobs_workload(
          {{"a", 0, 3, cgpu_request(4, 30)}, {"b", 0, 3, cgpu_request(4, 30)}, {"c", 0, 3, cgpu_request(4, 30)}}),
      "", "V100-16GB"));
  for (const char* name : {"a-0", "b-0", "c-0"}) {
    const JobRecord& job = job_named(run->runtime(), name);
    ASSERT_EQ(job.state, JobState::Completed) << name;
    EXPECT_NEAR(run_time_s(job), 3.0 / 0.3, 1e-6) << name;
  }
  EXPECT_GT(run->metrics().context_switches, 0.0);  // three contexts took turns
}

TEST(FractionalCgpu, CapsAreMaxMinFairSharesOfTheGpusTime) {
  // 20% and 80% on one GPU (cGPU hands out at most 100 percent of it): the first runs at its
  // cap, the second takes the rest of the time switching leaves (efficiency - 0.2 < 0.8), then
  // runs alone at its cap.
  const CalibrationProfile& profile = builtin_calibration_profile("V100-16GB");
  const double slice = profile.default_slice_ns.value;
  const double efficiency = slice / (slice + profile.switch_cost_ns.value + profile.cache_refill_ns.value);
  ASSERT_LT(efficiency - 0.2, 0.8);
  const auto run = run_text(shared_scenario(
      1, 1, kCgpu, jobs_workload({{"small", 0, 2, cgpu_request(4, 20)}, {"large", 0, 100, cgpu_request(4, 80)}}), "",
      "V100-16GB"));
  EXPECT_NEAR(run_time_s(job_named(run->runtime(), "small-0")), 2.0 / 0.2, 1e-6);
  const double shared_s = 10.0;
  EXPECT_NEAR(run_time_s(job_named(run->runtime(), "large-0")),
              shared_s + (100.0 - shared_s * (efficiency - 0.2)) / 0.8, 1e-6);
  // Alone, a pod is still held to its percentage.
  const auto alone =
      run_text(shared_scenario(1, 1, kCgpu, jobs_workload({{"a", 0, 5, cgpu_request(4, 50)}}), "", "V100-16GB"));
  EXPECT_NEAR(run_time_s(alone->runtime().jobs()[0]), 10.0, 1e-6);
}

TEST(FractionalCgpu, MemoryAndCoresOfAPodComeFromOneGpu) {
  // 2 x V100-16GB = 30 GiB on the node, but a pod's GiB come from one GPU (15): with 8 GiB held
  // on each GPU the node has 14 GiB free, 7 on each GPU, and a 10 GiB pod waits.
  const auto run = run_text(shared_scenario(
      1, 2, kCgpu,
      jobs_workload(
          {{"a", 0, 100, cgpu_request(8, 0)}, {"b", 0, 100, cgpu_request(8, 0)}, {"big", 1, 10, cgpu_request(10, 0)}}),
      R"("until": "5s",)", "V100-16GB"));
  EXPECT_EQ(job_named(run->runtime(), "big-0").state, JobState::Pending);
  EXPECT_EQ(pending_reason(*run, "big-0"), "0/1 nodes are available: 1 Insufficient aliyun.com/gpu-mem.");
  // The computing power is counted per GPU too: 20 + 90 percent do not fit on one GPU.
  const auto cores = run_text(shared_scenario(
      1, 1, kCgpu, jobs_workload({{"small", 0, 100, cgpu_request(4, 20)}, {"large", 1, 10, cgpu_request(4, 90)}}),
      R"("until": "5s",)", "V100-16GB"));
  EXPECT_EQ(pending_reason(*cores, "large-0"),
            "0/1 nodes are available: 1 Insufficient aliyun.com/gpu-core.percentage.");
}

TEST(FractionalCgpu, APodNoGpuCanHoldIsFoundAtLoad) {
  // The node has 30 GiB, but no GPU has 16: a pod that can never run is a capacity problem
  // (reported at load for generator mixes and trace rows), not a pod pending forever.
  const auto run = run_text(shared_scenario(1, 2, kCgpu, kOneCgpuJob, "", "V100-16GB"));
  const Cluster& cluster = run->cluster();
  PodShape shape = run->runtime().shapes().shapes[0];
  EXPECT_EQ(capacity_problem(cluster, shape, 1), "");
  shape.gpu_units = 16;
  EXPECT_EQ(capacity_problem(cluster, shape, 1),
            "no node could ever hold a pod asking for 16 aliyun.com/gpu-mem, 0 cpu_milli and 0 memory_mib: expected "
            "at most 15 aliyun.com/gpu-mem, what one V100-16GB of node pool \"p\" has (a pod's units all come from "
            "one GPU), found 16");
  // Two 8 GiB pods per GPU, so a gang of 4 fits the two GPUs and a gang of 5 does not.
  shape.gpu_units = 7;
  EXPECT_EQ(capacity_problem(cluster, shape, 4), "");
  EXPECT_NE(capacity_problem(cluster, shape, 5).find("can hold at most 4 at once"), std::string::npos);
}

TEST(FractionalCgpu, AJobAskingMoreGibThanAGpuHasIsAnInputErrorAtItsRequest) {
  // 81 GiB of cGPU memory where each A100-80GB offers 80: an explicit job and a generator's
  // request are refused at load as mix entries and trace rows are, not left pending forever.
  EXPECT_EQ(error_of(shared_scenario(1, 2, kCgpu, jobs_workload({{"big", 0, 10, cgpu_request(81, 0)}}))),
            "<test>: /workload/jobs/0/request: no node could ever hold a pod asking for 81 aliyun.com/gpu-mem, 0 "
            "cpu_milli and 0 memory_mib: expected at most 80 aliyun.com/gpu-mem, what one A100-80GB of node pool "
            "\"p\" has (a pod's units all come from one GPU), found 81");
  const std::string generator =
      R"({"generators": [{"name": "g", "kind": "training", "count": 2, "arrival": {"process": "poisson",
          "rate_per_s": 1}, "duration": {"dist": "constant", "mean_s": 10}, "request": )" +
      cgpu_request(81, 0) + "}]}";
  const std::string error = error_of(shared_scenario(1, 2, kCgpu, generator));
  EXPECT_NE(error.find("<test>: /workload/generators/0/request: no node could ever hold a pod asking for 81"),
            std::string::npos)
      << error;
  // 80 GiB fit an empty GPU.
  EXPECT_EQ(error_of(shared_scenario(1, 2, kCgpu, jobs_workload({{"big", 0, 10, cgpu_request(80, 0)}}))), "");
}

TEST(FractionalHami, AVgpuWithMoreMemoryThanItsGpuIsAnInputErrorWithHamisReason) {
  // HAMi's admission refuses a vGPU of 90000 MiB even on an empty A100-80GB (81920 MiB):
  // capacity_problem asks the policy, where counting the free vGPUs alone would let it pass.
  const auto hami = [](int mib) {
    return jobs_workload(
        {{"big", 0, 10, R"({"limits": {"nvidia.com/gpu": 1, "nvidia.com/gpumem": )" + std::to_string(mib) + "}}"}});
  };
  EXPECT_EQ(error_of(shared_scenario(1, 2, kHami, hami(90000))),
            "<test>: /workload/jobs/0/request: no node could ever hold a pod asking for 1 nvidia.com/gpu, 0 cpu_milli "
            "and 0 memory_mib: on an empty A100-80GB of node pool \"p\", the fractional policy refuses it: HAMi "
            "CardInsufficientMemory: the pod's vGPU needs 90000 MiB of device memory, more than a GPU has left");
  // The whole GPU's memory fits, and the check is the policy's: one MiB more does not.
  const auto run = run_text(shared_scenario(1, 2, kHami, hami(81920)));
  EXPECT_EQ(run->runtime().jobs()[0].state, JobState::Completed);
  PodShape shape = run->runtime().shapes().shapes[0];
  EXPECT_EQ(capacity_problem(run->cluster(), shape, 2), "");
  ASSERT_EQ(shape.gpu_per_device.count, 1u);
  shape.gpu_per_device.items[0].quantity = 81921;
  EXPECT_NE(capacity_problem(run->cluster(), shape, 1).find("HAMi CardInsufficientMemory"), std::string::npos);
}

TEST(FractionalHami, APodsVgpusAreEachOnADifferentGpu) {
  // n vGPUs on n different GPUs (docs/models.md): a pod of 2 on one GPU can never run. Counting
  // the GPU's ten free vGPUs let it pass validation and wait forever, "Insufficient nvidia.com/gpu".
  const auto pod = [](int vgpus, int pods) {
    return R"({"jobs": [{"name": "v", "arrival": "0s", "duration": "10s", "pods": )" + std::to_string(pods) +
           R"(, "request": {"limits": {"nvidia.com/gpu": )" + std::to_string(vgpus) +
           R"(, "nvidia.com/gpumem": 1000}}}]})";
  };
  EXPECT_EQ(error_of(shared_scenario(1, 1, kHami, pod(2, 1))),
            "<test>: /workload/jobs/0/request: no node could ever hold a pod asking for 2 nvidia.com/gpu, 0 cpu_milli "
            "and 0 memory_mib: its 2 nvidia.com/gpu must each be on a different GPU (the fractional policy gives a "
            "pod one per GPU), and a node of pool \"p\" has 1 GPU");
  EXPECT_NE(error_of(shared_scenario(1, 2, kHami, pod(3, 1))).find("has 2 GPUs"), std::string::npos);
  const auto run = run_text(shared_scenario(1, 2, kHami, pod(2, 1)));
  const JobRecord& job = run->runtime().jobs()[0];
  ASSERT_EQ(job.state, JobState::Completed);
  std::vector<std::uint32_t> gpus;
  run->runtime().for_each_device(job, [&](const DeviceAllocation& device) { gpus.push_back(device.gpu); });
  EXPECT_EQ(gpus, (std::vector<std::uint32_t>{0, 1}));
  // A gang of three such pods fits two GPUs (each gives every pod one vGPU); the capacity check
  // counts one unit per GPU per pod, not the GPUs' vGPUs alone.
  EXPECT_EQ(error_of(shared_scenario(1, 2, kHami, pod(2, 3))), "");
  EXPECT_EQ(run_text(shared_scenario(1, 2, kHami, pod(2, 3)))->runtime().jobs()[0].state, JobState::Completed);
}

TEST(FractionalHami, AGangsPodsSeeEachOtherOnAGpuAsTheyArePlaced) {
  // Two pods of one gang, each a whole GPU's cores (100: HAMi's ExclusiveDeviceAllocateConflict
  // on a GPU that already has a vGPU). The gang's first pod is held while the second is placed;
  // held as units only, it was not a resident, so HAMi admitted the second pod beside it on GPU 0,
  // where the two ran at half speed.
  const std::string gang = R"({"jobs": [{"name": "g", "arrival": "0s", "duration": "100s", "pods": 2,
      "request": {"limits": {"nvidia.com/gpu": 1, "nvidia.com/gpucores": 100}}}]})";
  const auto run = run_text(shared_scenario(1, 2, kHami, gang));
  const JobRecord& job = run->runtime().jobs()[0];
  ASSERT_EQ(job.state, JobState::Completed);
  EXPECT_EQ(run_time_s(job), 100.0);
  std::vector<std::uint32_t> gpus;
  run->runtime().for_each_device(job, [&](const DeviceAllocation& device) { gpus.push_back(device.gpu); });
  EXPECT_EQ(gpus, (std::vector<std::uint32_t>{0, 1}));
  // On one GPU the gang can never run: an input error at load, where counting the GPU's ten
  // free vGPUs alone let it pass and wait forever. Memory counts the same way: two vGPUs of
  // 50000 MiB never share an A100-80GB.
  EXPECT_EQ(error_of(shared_scenario(1, 1, kHami, gang)),
            "<test>: /workload/jobs/0/pods: a job's 2 pods (each 1 nvidia.com/gpu, 0 cpu_milli and 0 memory_mib) "
            "must run together, but the whole cluster can hold at most 1 at once");
  const auto memory_gang = [](int pods, int mib) {
    return R"({"jobs": [{"name": "g", "arrival": "0s", "duration": "100s", "pods": )" + std::to_string(pods) +
           R"(, "request": {"limits": {"nvidia.com/gpu": 1, "nvidia.com/gpumem": )" + std::to_string(mib) + "}}}]}";
  };
  EXPECT_EQ(error_of(shared_scenario(1, 2, kHami, memory_gang(2, 50000))), "");
  EXPECT_NE(error_of(shared_scenario(1, 2, kHami, memory_gang(3, 50000))).find("can hold at most 2 at once"),
            std::string::npos);
  EXPECT_EQ(error_of(shared_scenario(1, 2, kHami, memory_gang(4, 40000))), "");
}

TEST(FractionalPolicy, APodAskingAResourceNoPoolAdvertisesIsAnInputError) {
  // A cGPU pod on a HAMi pool: no GPU offers aliyun.com/gpu-mem.
  EXPECT_EQ(error_of(shared_scenario(1, 2, kHami, kOneCgpuJob)),
            "<test>: /workload/jobs/0/request: no node could ever hold a pod asking for 4 aliyun.com/gpu-mem, 0 "
            "cpu_milli and 0 memory_mib: expected a GPU resource that the nodes it may go on advertise "
            "(\"nvidia.com/gpu\"), found \"aliyun.com/gpu-mem\"");
}

TEST(FractionalPolicy, PodBeyondItsMemoryLimitIsKilledAlone) {
  // cGPU: "over" is granted 4 GiB and needs 5000 MiB; "fits" on the same GPU carries on.
  const auto run =
      run_text(shared_scenario(1, 1, kCgpu,
                               jobs_workload({{"fits", 0, 10, cgpu_request(4, 0, R"({"mem_mib": 4096})")},
                                              {"over", 1, 10, cgpu_request(4, 0, R"({"mem_mib": 5000})")}}),
                               "", "V100-16GB"));
  const JobRecord& fits = job_named(run->runtime(), "fits-0");
  const JobRecord& over = job_named(run->runtime(), "over-0");
  EXPECT_EQ(fits.state, JobState::Completed);
  ASSERT_EQ(over.state, JobState::Failed);
  EXPECT_EQ(over.kill_cause, KillCause::Oom);
  EXPECT_FALSE(over.killed_by_other);
  EXPECT_EQ(run->metrics().killed_by_other, 0u);
  EXPECT_EQ(run->metrics().killed_oom, 1u);
  EXPECT_EQ(run->runtime().failure_reasons()[static_cast<std::size_t>(over.failure)],
            "OOM: CUDA out of memory: tried to allocate 5000 MiB; 5000 MiB requested of 4096 MiB (cGPU memory "
            "limit, aliyun.com/gpu-mem) on p-0 GPU 0");

  // HAMi: the same with nvidia.com/gpumem.
  const auto hami = run_text(shared_scenario(
      1, 1, kHami,
      jobs_workload(
          {{"fits", 0, 10,
            R"({"limits": {"nvidia.com/gpu": 1, "nvidia.com/gpumem": 3000}, "demand": {"mem_mib": 3000}})"},
           {"over", 1, 10,
            R"({"limits": {"nvidia.com/gpu": 1, "nvidia.com/gpumem": 3000}, "demand": {"mem_mib": 3001}})"}})));
  EXPECT_EQ(job_named(hami->runtime(), "fits-0").state, JobState::Completed);
  EXPECT_EQ(job_named(hami->runtime(), "over-0").kill_cause, KillCause::Oom);
  EXPECT_EQ(hami->metrics().killed_by_other, 0u);
}

TEST(FractionalHami, AdvertisesSplitCountVgpusPerGpu) {
  const std::string job = jobs_workload({{"a", 0, 10, R"({"gpus": 1})"}});
  const auto run = run_text(shared_scenario(1, 2, kHami, job));
  EXPECT_EQ(advertised(run->cluster(), "nvidia.com/gpu"), 20);    // HAMi deviceSplitCount 10
  EXPECT_EQ(advertised(run->cluster(), "nvidia.com/gpumem"), 0);  // tracked per device, not advertised
  EXPECT_EQ(advertised(run->cluster(), "nvidia.com/gpucores"), 0);
  const auto four =
      run_text(shared_scenario(1, 2, R"({"policy": "fractional", "flavour": "hami", "device_split_count": 4})", job));
  EXPECT_EQ(advertised(four->cluster(), "nvidia.com/gpu"), 8);
  // hami is the default flavour.
  const auto plain = run_text(shared_scenario(1, 2, R"({"policy": "fractional"})", job));
  EXPECT_EQ(advertised(plain->cluster(), "nvidia.com/gpu"), 20);
}

TEST(FractionalHami, MemoryAndCoreOverAsksAreRefusedWithTheSchedulersReason) {
  // One A100-80GB (81920 MiB): 60000 MiB are taken, 30000 more do not fit.
  const auto memory = run_text(shared_scenario(
      1, 1, kHami,
      jobs_workload({{"a", 0, 100, R"({"limits": {"nvidia.com/gpu": 1, "nvidia.com/gpumem": 60000}})"},
                     {"b", 1, 100, R"({"limits": {"nvidia.com/gpu": 1, "nvidia.com/gpumem": 30000}})"}}),
      R"("until": "10s",)"));
  EXPECT_EQ(job_named(memory->runtime(), "a-0").state, JobState::Running);
  EXPECT_EQ(pending_reason(*memory, "b-0"),
            "0/1 nodes are available: 1 HAMi CardInsufficientMemory: the pod's vGPU needs 30000 MiB of device memory, "
            "more than a GPU has left.");
  // 60 + 50 cores exceed the GPU's 100.
  const auto cores = run_text(shared_scenario(
      1, 1, kHami,
      jobs_workload(
          {{"a", 0, 100,
            R"({"limits": {"nvidia.com/gpu": 1, "nvidia.com/gpumem-percentage": 25, "nvidia.com/gpucores": 60}})"},
           {"b", 1, 100,
            R"({"limits": {"nvidia.com/gpu": 1, "nvidia.com/gpumem-percentage": 25, "nvidia.com/gpucores": 50}})"}}),
      R"("until": "10s",)"));
  EXPECT_EQ(pending_reason(*cores, "b-0"),
            "0/1 nodes are available: 1 HAMi CardInsufficientCore: the pod's vGPU needs 50% of a GPU's compute "
            "(nvidia.com/gpucores), more than a GPU has left.");
  // Without gpumem a vGPU holds the whole GPU's memory (and so its cores): a plain pod is alone.
  const auto whole = run_text(
      shared_scenario(1, 1, kHami, jobs_workload({{"a", 0, 100, R"({"gpus": 1})"}, {"b", 1, 100, R"({"gpus": 1})"}}),
                      R"("until": "10s",)"));
  EXPECT_EQ(job_named(whole->runtime(), "b-0").state, JobState::Pending);
}

TEST(FractionalHami, AGpuWhoseMemoryOrCoresAreAllGrantedOffersNoUsableUnits) {
  // First-fit skips such GPUs (sim/cluster/usable_units.h): admit() refuses every vGPU there,
  // though each still advertises free vGPUs. a takes GPU 0's whole memory, b GPU 1's cores (a
  // 100-core vGPU wants an unused GPU), so c, with 1000 MiB and no cores, goes to GPU 2.
  const auto run = run_text(shared_scenario(
      1, 3, kHami,
      jobs_workload({{"a", 0, 100, R"({"limits": {"nvidia.com/gpu": 1, "nvidia.com/gpumem": 81920}})"},
                     {"b", 1, 100, R"({"limits": {"nvidia.com/gpu": 1, "nvidia.com/gpumem": 1000, "nvidia.com/gpucores": 100}})"},
                     {"c", 2, 100, R"({"limits": {"nvidia.com/gpu": 1, "nvidia.com/gpumem": 1000}})"}}),
      R"("until": "10s",)"));
  for (const char* job : {"a-0", "b-0", "c-0"}) EXPECT_EQ(job_named(run->runtime(), job).state, JobState::Running) << job;
  const auto vgpu = static_cast<ResourceId>(run->cluster().resource_names().find("nvidia.com/gpu"));
  const auto usable = [&](std::uint32_t index) {
    const Gpu& gpu = run->cluster().gpu(index);
    const auto* rule = dynamic_cast<const UsableUnitsRule*>(gpu.sharing);
    EXPECT_NE(rule, nullptr);
    return rule != nullptr ? rule->usable_units(vgpu, gpu.free_units(vgpu), gpu.residents) : -1;
  };
  EXPECT_EQ(run->cluster().gpu(0).free_units(vgpu), 9);
  EXPECT_EQ(usable(0), 0);  // memory
  EXPECT_EQ(usable(1), 0);  // cores
  EXPECT_EQ(usable(2), 9);  // 1000 MiB and no cores taken: more vGPUs fit
  EXPECT_EQ(run->cluster().gpu(2).residents.size(), 1u);
}

TEST(FractionalHami, CoresCapComputeExceptAtZeroAndHundred) {
  const auto time_with = [](const std::string& limits) {
    const auto run =
        run_text(shared_scenario(1, 1, kHami, jobs_workload({{"a", 0, 10, R"({"limits": )" + limits + "}"}})));
    return run_time_s(run->runtime().jobs()[0]);
  };
  EXPECT_NEAR(time_with(R"({"nvidia.com/gpu": 1, "nvidia.com/gpumem": 1000, "nvidia.com/gpucores": 50})"), 20.0, 1e-6);
  // hami-core applies no limit at 0 (and a pod with neither gpumem nor gpucores holds 100).
  EXPECT_NEAR(time_with(R"({"nvidia.com/gpu": 1, "nvidia.com/gpumem": 1000, "nvidia.com/gpucores": 0})"), 10.0, 1e-6);
  EXPECT_NEAR(time_with(R"({"nvidia.com/gpu": 1})"), 10.0, 1e-6);
}

TEST(FractionalConfig, FlavourAndSplitCountAreChecked) {
  EXPECT_EQ(error_of(shared_scenario(1, 1, R"({"policy": "fractional", "flavour": "cgppu"})", kOneCgpuJob)),
            "<test>: /cluster/node_pools/0/sharing/flavour: expected one of \"cgpu\", \"hami\", found \"cgppu\"; did "
            "you mean \"cgpu\"?");
  EXPECT_EQ(error_of(shared_scenario(1, 1, R"({"policy": "fractional", "flavor": "cgpu"})", kOneCgpuJob)),
            "<test>: /cluster/node_pools/0/sharing/flavor: unknown key \"flavor\" for sharing policy \"fractional\"; "
            "did you mean \"flavour\"?");
  EXPECT_EQ(error_of(shared_scenario(1, 1, R"({"policy": "fractional", "flavour": "cgpu", "device_split_count": 4})",
                                     kOneCgpuJob)),
            "<test>: /cluster/node_pools/0/sharing/device_split_count: \"device_split_count\" applies to flavour "
            "\"hami\" only: cGPU pods ask for GiB of one GPU's memory (aliyun.com/gpu-mem), not for vGPUs");
}

TEST(FractionalConfig, CompareRunsTheHamiDefault) {
  // `sharesim compare --policies fractional`: {"policy": "fractional"}, flavour hami, whose
  // plain "gpus": 1 pods hold a whole GPU's memory and compute, as under exclusive.
  const std::string workload = jobs_workload({{"a", 0, 10, R"({"gpus": 1})"}, {"b", 0, 10, R"({"gpus": 1})"}});
  CompareRun compare(testing::scenario_from_text(testing::cluster_scenario(1, 1, workload)), GpuCatalog::builtin(),
                     {"exclusive", "fractional"});
  compare.run();
  ASSERT_EQ(compare.results().size(), 2u);
  for (const CompareResult& r : compare.results()) {
    ASSERT_TRUE(r.run) << r.variant.name;
    EXPECT_EQ(time_to_seconds(job_named(r.run->runtime(), "b-0").end), 20.0) << r.variant.name;
  }
  EXPECT_EQ(compare.results()[1].run->cluster().pools().front().policy, "fractional");
}

// ---- the request's `limits` --------------------------------------------------------------

std::string limits_error(const std::string& request, const std::string& sharing = kHami) {
  return error_of(shared_scenario(1, 1, sharing, jobs_workload({{"a", 0, 10, request}})));
}

TEST(RequestLimits, InputErrorsNameTheKeyAndTheRule) {
  const std::string where = "<test>: /workload/jobs/0/request";
  EXPECT_EQ(limits_error(R"({"gpus": 1, "limits": {"nvidia.com/gpu": 1}})"),
            where +
                "/gpus: \"gpus\" and \"limits\" both give the GPU request; use one of them (\"limits\" names the "
                "device resource and its count itself)");
  EXPECT_EQ(limits_error(R"({"gpu_resource": "nvidia.com/gpu", "limits": {"nvidia.com/gpu": 1}})"),
            where +
                "/gpu_resource: \"gpu_resource\" and \"limits\" both give the GPU request; use one of them "
                "(\"limits\" names the device resource and its count itself)");
  EXPECT_EQ(limits_error(R"({"limits": {"nvidia.com/gpucores": 20}})"),
            where +
                "/limits: expected one device resource in \"limits\" (e.g. \"nvidia.com/gpu\", "
                "\"aliyun.com/gpu-mem\", \"nvidia.com/mig-1g.10gb\"), found none");
  EXPECT_EQ(limits_error(R"({"limits": {"aliyun.com/gpu-mem": 4, "nvidia.com/gpu": 1}})"),
            where +
                "/limits/nvidia.com~1gpu: expected one device resource in \"limits\", found two: "
                "\"aliyun.com/gpu-mem\" and \"nvidia.com/gpu\" (the other keys may only be per-device quantities: "
                "aliyun.com/gpu-core.percentage, nvidia.com/gpumem, nvidia.com/gpumem-percentage, "
                "nvidia.com/gpucores)");
  EXPECT_EQ(limits_error(R"({"limits": {"nvidia.com/gpu": 1, "aliyun.com/gpu-core.percentage": 30}})"),
            where +
                "/limits/aliyun.com~1gpu-core.percentage: \"aliyun.com/gpu-core.percentage\" goes with the "
                "device resource \"aliyun.com/gpu-mem\", found \"nvidia.com/gpu\"; ACK cGPU allocates computing "
                "power in multiples of 5 percent of a GPU, at least 5 (Alibaba Cloud ACK documentation, "
                "\"Allocate computing power by scheduling shared GPU\")");
  EXPECT_EQ(limits_error(R"({"limits": {"nvidia.com/gpu": 1, "nvidia.com/gpucores": 101}})"),
            where +
                "/limits/nvidia.com~1gpucores: expected an integer from 0 to 100, found 101; HAMi: percent of "
                "the GPU's compute for each vGPU");
  EXPECT_EQ(limits_error(R"({"limits": {"nvidia.com/gpu": 1, "nvidia.com/gpumem": 0}})"),
            where +
                "/limits/nvidia.com~1gpumem: expected an integer >= 1, found 0; HAMi: MiB of device memory for "
                "each vGPU");
  EXPECT_EQ(limits_error(R"({"limits": {"nvidia.com/gpu": 1, "nvidia.com/gpumem-percentage": 0}})"),
            where +
                "/limits/nvidia.com~1gpumem-percentage: expected an integer from 1 to 100, found 0; HAMi: "
                "percent of the GPU's device memory for each vGPU");
  EXPECT_EQ(limits_error(R"({"limits": {"nvidia.com/gpu": 0}})"),
            where +
                "/limits/nvidia.com~1gpu: expected an integer >= 1 (units of the device resource "
                "\"nvidia.com/gpu\"), found 0");
  EXPECT_EQ(limits_error(
                R"({"limits": {"nvidia.com/gpu": 1, "nvidia.com/gpumem": 100, "nvidia.com/gpumem-percentage": 10}})"),
            where +
                "/limits/nvidia.com~1gpumem-percentage: expected either \"nvidia.com/gpumem\" or "
                "\"nvidia.com/gpumem-percentage\", found both (each sets the memory of the vGPU)");
  // The schema still wants integers.
  EXPECT_EQ(limits_error(R"({"limits": {"nvidia.com/gpu": "1"}})"),
            where + "/limits/nvidia.com~1gpu: expected an integer >= 0, found \"1\"");
}

TEST(RequestLimits, DeviceResourceAloneIsTheOldForm) {
  // {"limits": {"nvidia.com/gpu": 2}} is {"gpus": 2}: same jobs.csv under exclusive GPUs.
  const auto run_with = [](const std::string& request) {
    const auto run = run_text(testing::cluster_scenario(
        1, 4, jobs_workload({{"a", 0, 10, request}, {"b", 0, 10, request}, {"c", 0, 10, request}})));
    std::vector<double> ends;
    for (const JobRecord& job : run->runtime().jobs()) ends.push_back(time_to_seconds(job.end));
    return ends;
  };
  EXPECT_EQ(run_with(R"({"limits": {"nvidia.com/gpu": 2}})"), run_with(R"({"gpus": 2})"));
  EXPECT_EQ(run_with(R"({"gpus": 2})"), (std::vector<double>{10, 10, 20}));
}

}  // namespace
}  // namespace sharesim
