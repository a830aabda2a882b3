// The residual SD and standard error of a line through the origin, against a hand computation.
#include "kernels/host/slope_uncertainty.h"

#include <gtest/gtest.h>

#include <cmath>

namespace sharesim::calib {
namespace {

TEST(SlopeUncertainty, MatchesTheTextbookFormulas) {
  // y = 2x with residuals +0.1, -0.1, +0.2 at x = 1, 2, 3 (slope taken as 2, as a fit would give
  // approximately): RSS = 0.06 over n - 1 = 2 degrees of freedom, sum x^2 = 14.
  const auto u = slope_uncertainty({1, 2, 3}, {2.1, 3.9, 6.2}, 2.0);
  ASSERT_TRUE(u.has_value());
  EXPECT_NEAR(u->residual_sd, std::sqrt(0.06 / 2), 1e-12);
  EXPECT_NEAR(u->standard_error, std::sqrt(0.06 / 2) / std::sqrt(14.0), 1e-12);
}

TEST(SlopeUncertainty, PointsAtZeroCarryNothingAndOnePointShowsNoScatter) {
  EXPECT_FALSE(slope_uncertainty({0, 0, 2}, {0, 5, 4}, 2.0).has_value());
  EXPECT_FALSE(slope_uncertainty({}, {}, 1.0).has_value());
  const auto exact = slope_uncertainty({0, 1, 2}, {7, 3, 6}, 3.0);  // (0, 7) is not counted
  ASSERT_TRUE(exact.has_value());
  EXPECT_DOUBLE_EQ(exact->standard_error, 0.0);
}

}  // namespace
}  // namespace sharesim::calib
