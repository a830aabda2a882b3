// Inputs at the edges of what the model can represent: runs stay well-defined.
#include <gtest/gtest.h>

#include <algorithm>

#include "run_helpers.h"

namespace sharesim {
namespace {

TEST(ExtremeInput, HeavyTailedDurationsBeyond292YearsNeitherOverflowNorStall) {
  // Lognormal with mean 1e9 s and cv 1e4: some draws exceed what int64 nanoseconds hold.
  const auto run = testing::run_text(testing::cluster_scenario(4, 8, R"({"generators": [
      {"name": "tail", "kind": "training", "count": 2000, "arrival": {"process": "poisson", "rate_per_s": 1},
       "duration": {"dist": "lognormal", "mean_s": 1e9, "cv": 1e4}}]})",
                                                               R"("until": "1h", )"));
  EXPECT_EQ(run->metrics().submitted, 2000u);
  SimTime longest = 0;
  for (const JobRecord& job : run->runtime().jobs()) longest = std::max(longest, job.spec.work);
  EXPECT_EQ(longest, kTimeNever);  // saturated, not wrapped negative
  EXPECT_GT(run->metrics().completed, 0u);
}

TEST(ExtremeInput, AJobEndingPastTheEndOfTimeIsStillRunningWhenTheRunEnds) {
  // Submitted at 9e9 s with work that never ends (a duration of 2^63 - 1 ns, as a saturated draw
  // gives it): its end is past 2^63 ns (about 9.22e9 s). The time-series sampler used to overflow
  // there ("event scheduled in the past", exit 1), and the job completed at the end of time; it
  // runs on instead (docs/reliability.md). A finite duration ending there, 3e8 s, is refused when
  // the scenario is loaded (docs/scenario.md, explicit jobs).
  EXPECT_THROW(testing::run_text(testing::cluster_scenario(
                   1, 1, R"({"jobs": [{"name": "late", "arrival": "9000000000s", "duration": "300000000s"}]})")),
               InputError);
  const auto run = testing::run_text(testing::cluster_scenario(
      1, 1, R"({"jobs": [{"name": "late", "arrival": "9000000000s", "duration": "9223372036854775807ns"}]})"));
  const JobRecord& job = run->runtime().jobs().at(0);
  EXPECT_EQ(job.state, JobState::Running);
  EXPECT_EQ(job.start, 9'000'000'000 * kSecond);
  EXPECT_EQ(run->metrics().completed, 0u);
  EXPECT_EQ(run->runtime().last_job_event(), 9'000'000'000 * kSecond);  // its start: the run ends there
}

}  // namespace
}  // namespace sharesim
