// Student's t quantiles against published tables (values to 6+ digits from NIST/SEMATECH
// e-Handbook of Statistical Methods, 1.3.6.7.2 "Critical values of the Student's t
// distribution", and for df = 1, 2 the closed forms t = tan(pi (p - 1/2)) and
// t = (2p - 1) sqrt(2 / (4p (1 - p))).
#include "sim/metrics/student_t.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace sharesim {
namespace {

TEST(StudentT, QuantilesMatchClosedFormsForOneAndTwoDegreesOfFreedom) {
  for (double p : {0.6, 0.9, 0.975, 0.995}) {
    EXPECT_NEAR(student_t_quantile(p, 1), std::tan(std::numbers::pi * (p - 0.5)), 1e-9 * student_t_quantile(p, 1));
    const double two = (2 * p - 1) * std::sqrt(2.0 / (4 * p * (1 - p)));
    EXPECT_NEAR(student_t_quantile(p, 2), two, 1e-10 * two);
  }
}

TEST(StudentT, QuantilesMatchThePublishedTable) {
  // 0.975 column (two-sided 95%) and 0.95 column of the NIST table.
  EXPECT_NEAR(student_t_quantile(0.975, 4), 2.776, 5e-4);
  EXPECT_NEAR(student_t_quantile(0.975, 9), 2.262, 5e-4);
  EXPECT_NEAR(student_t_quantile(0.975, 19), 2.093, 5e-4);
  EXPECT_NEAR(student_t_quantile(0.975, 30), 2.042, 5e-4);
  EXPECT_NEAR(student_t_quantile(0.975, 100), 1.984, 5e-4);
  EXPECT_NEAR(student_t_quantile(0.95, 10), 1.812, 5e-4);
  EXPECT_NEAR(student_t_quantile(0.995, 5), 4.032, 5e-4);
  // Large df tends to the normal quantile 1.959964.
  EXPECT_NEAR(student_t_quantile(0.975, 1e7), 1.959964, 1e-5);
}

TEST(StudentT, CdfIsSymmetricAndInvertsTheQuantile) {
  EXPECT_DOUBLE_EQ(student_t_cdf(0, 7), 0.5);
  EXPECT_NEAR(student_t_cdf(-1.3, 7), 1 - student_t_cdf(1.3, 7), 1e-15);
  for (double df : {1.0, 3.0, 12.0, 250.0}) {
    EXPECT_NEAR(student_t_cdf(student_t_quantile(0.975, df), df), 0.975, 1e-13);
    EXPECT_NEAR(student_t_quantile(0.025, df), -student_t_quantile(0.975, df), 1e-12);
  }
}

TEST(StudentT, IncompleteBetaKnownValues) {
  // I_x(1, 1) = x; I_x(a, 1) = x^a; I_{1/2}(a, a) = 1/2.
  EXPECT_NEAR(regularized_incomplete_beta(0.3, 1, 1), 0.3, 1e-14);
  EXPECT_NEAR(regularized_incomplete_beta(0.7, 3, 1), 0.343, 1e-14);
  EXPECT_NEAR(regularized_incomplete_beta(0.5, 4.5, 4.5), 0.5, 1e-14);
}

TEST(StudentT, HalfWidthOfTwentySeeds) {
  // n = 20, sd = 1: 2.093024 / sqrt(20).
  EXPECT_NEAR(confidence_half_width_95(1.0, 20), 2.093024 / std::sqrt(20.0), 1e-6);
  EXPECT_TRUE(std::isnan(confidence_half_width_95(1.0, 1)));
}

}  // namespace
}  // namespace sharesim
