// Analytic and cross-mode validation of time-slicing (docs/models.md "Time-slicing").
//
// With zero switch cost, a time-sliced GPU whose contexts take equal turns is a
// processor-sharing server: under Poisson arrivals the mean response time is
// E[T] = E[S] / (1 - rho), whatever the service-time distribution (Kleinrock, "Queueing
// Systems", vol. 2, 1976, sec. 4.4; Harchol-Balter, "Performance Modeling and Design of
// Computer Systems", 2013, ch. 22). R replications (seeds) give i.i.d. mean response times;
// their spread gives the standard error and the test allows 4 of them, after checking that
// the standard error is small enough for a 5% model error to fail.
#include <gtest/gtest.h>

#include <cmath>

#include "run_helpers.h"

namespace sharesim {
namespace {

using testing::run_text;

std::string ps_scenario(const std::string& duration, double rate_per_s, int count, const std::string& fidelity,
                        const std::string& overrides) {
  return R"({"name": "ps", "seed": 1, "calibration": {"overrides": )" + overrides +
         R"(}, "cluster": {"node_pools": [{"name": "p", "nodes": 1, "gpu": "A100-80GB", "gpus_per_node": 1,
         "cpu_milli": 64000, "memory_mib": 262144,
         "sharing": {"policy": "timeslice", "replicas": 200, "fidelity": ")" +
         fidelity + R"("}}]}, "workload": {"generators": [{"kind": "training", "count": )" + std::to_string(count) +
         R"(, "arrival": {"process": "poisson", "rate_per_s": )" + std::to_string(rate_per_s) + R"(}, "duration": )" +
         duration + R"(, "request": {"gpus": 1}}]}})";
}

const std::string kNoSwitchCost = R"({"timeslice": {"switch_cost_ns": 0, "cache_refill_ns": 0}})";

void expect_processor_sharing(const std::string& duration) {
  constexpr double kMeanService = 10.0;
  constexpr double kRho = 0.7;
  constexpr int kReplications = 16;
  constexpr int kJobs = 30000;
  const testing::Estimate estimate =
      testing::replicate(ps_scenario(duration, kRho / kMeanService, kJobs, "fluid", kNoSwitchCost), kReplications,
                         [](const ScenarioRun& run) {
                           EXPECT_EQ(run.metrics().completed, static_cast<std::uint64_t>(kJobs));
                           return run.metrics().jct_s.mean;
                         });
  const double expected = kMeanService / (1 - kRho);
  EXPECT_LT(4 * estimate.standard_error, 0.05 * expected) << "too noisy to catch a 5% error";
  EXPECT_NEAR(estimate.mean, expected, 4 * estimate.standard_error) << duration;
}

TEST(TimesliceValidation, ProcessorSharingMeanResponseExponential) {
  expect_processor_sharing(R"({"dist": "exponential", "mean_s": 10})");
}

TEST(TimesliceValidation, ProcessorSharingMeanResponseLognormal) {
  expect_processor_sharing(R"({"dist": "lognormal", "mean_s": 10, "cv": 2})");
}

TEST(TimesliceValidation, WorkIsConservedWithoutSwitchCost) {
  const auto run =
      run_text(ps_scenario(R"({"dist": "exponential", "mean_s": 10})", 0.08, 2000, "fluid", kNoSwitchCost));
  double work = 0;
  for (const JobRecord& job : run->runtime().jobs()) work += static_cast<double>(job.spec.work);
  // sm 1.0: the SM-busy integral is the work done.
  EXPECT_NEAR(run->gpu_usage()[0].sm_busy_ns / work, 1.0, 1e-9);
}

TEST(TimesliceValidation, AJobOnTwoGpusWorksEachOnlyAtItsOwnRate) {
  // Job a holds both GPUs, b shares GPU 0 with it (no switch cost): a progresses at 1/2 on
  // both, the slower GPU's rate. SMs busy on each GPU are the work done there: GPU 1 carries
  // only a's 100 s (it counted a at the rate GPU 1's policy gave it, 1, for 200 s), GPU 0 a's
  // and b's.
  const auto run = run_text(testing::shared_scenario(
      1, 2, R"({"policy": "timeslice", "replicas": 2})",
      testing::jobs_workload({{"a", 0, 100, R"({"gpus": 2})"}, {"b", 0, 100, R"({"gpus": 1})"}}),
      R"("calibration": {"overrides": )" + kNoSwitchCost + "},"));
  for (const JobRecord& job : run->runtime().jobs()) EXPECT_EQ(time_to_seconds(job.end), 200.0);
  EXPECT_NEAR(run->gpu_usage()[0].sm_busy_ns, 200e9, 1e3);
  EXPECT_NEAR(run->gpu_usage()[1].sm_busy_ns, 100e9, 1e3);
}

TEST(TimesliceValidation, FluidAndSliceModesAgreeOnThroughput) {
  // Default profile: 1024 us slices, 25 us switch cost. A loaded GPU (rho 0.9 of its
  // switch-free capacity), 600 jobs of 0.5 s on average.
  const std::string duration = R"({"dist": "exponential", "mean_s": 0.5})";
  const auto fluid = run_text(ps_scenario(duration, 1.8, 600, "fluid", "{}"));
  const auto slice = run_text(ps_scenario(duration, 1.8, 600, "slice", "{}"));
  ASSERT_EQ(fluid->metrics().completed, 600u);
  ASSERT_EQ(slice->metrics().completed, 600u);
  const double fluid_throughput = fluid->metrics().throughput_jobs_per_hour;
  const double slice_throughput = slice->metrics().throughput_jobs_per_hour;
  EXPECT_NEAR(slice_throughput / fluid_throughput, 1.0, 0.02);
  // Slice mode really ran slices: about one switch per slice while shared.
  EXPECT_GT(slice->metrics().context_switches, 1000.0);
  EXPECT_NEAR(slice->metrics().context_switches / fluid->metrics().context_switches, 1.0, 0.05);
}

}  // namespace
}  // namespace sharesim
