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

}  // namespace
}  // namespace sharesim
