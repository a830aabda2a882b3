#include "kernels/host/robust_stats.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace sharesim::calib {
namespace {

TEST(RobustStats, MedianOfOddAndEvenCounts) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_THROW(median({}), std::logic_error);
}

TEST(RobustStats, MadIsTheMedianDeviation) {
  // Deviations from 3: 2, 1, 0, 1, 97 -> median 1.
  EXPECT_DOUBLE_EQ(median_absolute_deviation({1, 2, 3, 4, 100}, 3), 1);
}

TEST(RobustStats, RejectsOutliersFarFromTheMedian) {
  std::vector<double> values;
  for (int i = 0; i < 100; ++i) values.push_back(1000 + (i % 11) - 5);
  values.push_back(1e6);
  values.push_back(-1e6);
  const RobustSummary s = robust_summary(values);
  EXPECT_EQ(s.rejected, 2u);
  EXPECT_EQ(s.kept, 100u);
  EXPECT_NEAR(s.median, 1000, 1);
  EXPECT_GT(s.mad, 0);
}

TEST(RobustStats, ConstantSamplesKeepEverything) {
  const RobustSummary s = robust_summary({7, 7, 7, 7});
  EXPECT_EQ(s.kept, 4u);
  EXPECT_DOUBLE_EQ(s.median, 7);
  EXPECT_DOUBLE_EQ(s.mad, 0);
}

}  // namespace
}  // namespace sharesim::calib
