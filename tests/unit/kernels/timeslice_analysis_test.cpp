#include "kernels/host/timeslice_analysis.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "tests/unit/kernels/synthetic.h"

namespace sharesim::calib {
namespace {

using testing::make_probe_run;
using testing::ProbeSpec;

// Every process count the probe uses, several seeds: the known slice and switch gap come back.
TEST(TimesliceAnalysis, RecoversSliceAndSwitchGapForTwoToEightProcesses) {
  for (int n = 2; n <= 8; ++n) {
    for (unsigned seed = 1; seed <= 3; ++seed) {
      ProbeSpec spec;
      spec.processes = n;
      spec.seed = seed * 100 + static_cast<unsigned>(n);
      const ProbeRunResult r = analyze_probe_run(make_probe_run(spec));
      SCOPED_TRACE("processes " + std::to_string(n) + " seed " + std::to_string(seed));
      EXPECT_EQ(r.processes, n);
      EXPECT_NEAR(r.slice_ns.median, spec.slice_ns, 0.01 * spec.slice_ns);
      EXPECT_NEAR(r.switch_ns.median, spec.switch_ns, 0.1 * spec.switch_ns);
      // Foreign tenants' holes are outliers of the switch gap, rejected.
      EXPECT_GT(r.switch_ns.rejected, 0u);
      // A context is off while the n - 1 others run.
      const double off = (n - 1) * spec.slice_ns + n * spec.switch_ns;
      EXPECT_NEAR(r.off_ns.median, off, 0.05 * off);
      EXPECT_GT(r.hiccup_limit_ns, 3000);
    }
  }
}

TEST(TimesliceAnalysis, OtherSliceLengthsAndCoarseTimer) {
  // A 2 ms slice (vGPU) and a 1 us timer tick, as on GPUs before Hopper.
  ProbeSpec spec;
  spec.processes = 3;
  spec.slice_ns = 2000000;
  spec.switch_ns = 50000;
  spec.tick_ns = 1000;
  const TimesliceFit fit = fit_timeslice({make_probe_run(spec)});
  EXPECT_NEAR(fit.slice_ns.median, 2000000, 20000);
  EXPECT_NEAR(fit.switch_ns.median, 50000, 3000);
}

TEST(TimesliceAnalysis, WithoutHiccupsTheSlicesAreExact) {
  ProbeSpec spec;
  spec.processes = 4;
  spec.slice_jitter_ns = 0;
  spec.switch_jitter_ns = 0;
  spec.hiccup_probability = 0;
  spec.foreign_probability = 0;
  const ProbeRunResult r = analyze_probe_run(make_probe_run(spec));
  EXPECT_DOUBLE_EQ(r.slice_ns.median, spec.slice_ns);
  EXPECT_DOUBLE_EQ(r.switch_ns.median, spec.switch_ns);
  EXPECT_EQ(r.slice_ns.rejected, 0u);
}

TEST(TimesliceAnalysis, PoolsRunsByTheirMedians) {
  std::vector<ProbeRun> runs;
  for (int n = 2; n <= 8; ++n) {
    ProbeSpec spec;
    spec.processes = n;
    spec.seed = 40u + static_cast<unsigned>(n);
    runs.push_back(make_probe_run(spec));
  }
  const TimesliceFit fit = fit_timeslice(runs);
  ASSERT_EQ(fit.runs.size(), 7u);
  EXPECT_NEAR(fit.slice_ns.median, 1024000, 5000);
  EXPECT_NEAR(fit.switch_ns.median, 30000, 2000);
}

TEST(TimesliceAnalysis, RejectsLogsThatCannotGiveASlice) {
  ProbeRun one;
  one.processes = 2;
  one.contexts.push_back({{0, 1000000}, {}});
  EXPECT_THROW(analyze_probe_run(one), std::invalid_argument);  // one context only

  ProbeRun disjoint;
  disjoint.processes = 2;
  disjoint.contexts.push_back({{0, 1000}, {}});
  disjoint.contexts.push_back({{5000, 9000}, {}});
  EXPECT_THROW(analyze_probe_run(disjoint), std::invalid_argument);

  ProbeRun never_switched;
  never_switched.processes = 2;
  never_switched.contexts.push_back({{0, 1000000}, {}});
  never_switched.contexts.push_back({{0, 1000000}, {}});
  EXPECT_THROW(analyze_probe_run(never_switched), std::invalid_argument);
  EXPECT_THROW(fit_timeslice({}), std::invalid_argument);
}

TEST(CacheRefill, RecoversThePenaltyAndDropsInterruptedWalks) {
  const testing::WalkSpec spec;
  const CacheRefillResult r = analyze_cache_refill(testing::make_walks(spec), 500000);
  EXPECT_NEAR(r.penalty_ns, spec.penalty_ns, 500);
  EXPECT_NEAR(r.steady_ns.median, spec.steady_ns, 300);
  EXPECT_GT(r.interrupted, 20u);
}

TEST(CacheRefill, NoPenaltyIsZeroNotNegative) {
  testing::WalkSpec spec;
  spec.penalty_ns = 0;
  const CacheRefillResult r = analyze_cache_refill(testing::make_walks(spec), 500000);
  EXPECT_GE(r.penalty_ns, 0);
  EXPECT_LT(r.penalty_ns, 300);
}

TEST(CacheRefill, NeedsBothKindsOfWalk) {
  testing::WalkSpec spec;
  spec.after_switch_fraction = 0;
  EXPECT_THROW(analyze_cache_refill(testing::make_walks(spec), 500000), std::invalid_argument);
}

}  // namespace
}  // namespace sharesim::calib
