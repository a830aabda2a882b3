// Welch's t test and the incomplete beta function behind it, against values computed
// independently with SciPy 1.10 (scipy.special.betainc, scipy.stats.ttest_ind(equal_var=False)).
#include "regression/welch_test.h"

#include <gtest/gtest.h>

#include <cmath>

#include "sim/metrics/student_t.h"

namespace sharesim {
namespace {

TEST(IncompleteBeta, MatchesScipy) {
  EXPECT_NEAR(regularized_incomplete_beta(0.3, 2.5, 0.5), 0.01892712407194565, 1e-13);
  EXPECT_NEAR(regularized_incomplete_beta(0.9, 10, 3), 0.889130022255, 1e-11);  // the symmetric branch
  EXPECT_NEAR(regularized_incomplete_beta(0.5, 0.5, 0.5), 0.5, 1e-13);
  EXPECT_EQ(regularized_incomplete_beta(0, 2, 3), 0.0);
  EXPECT_EQ(regularized_incomplete_beta(1, 2, 3), 1.0);
}

TEST(StudentT, TwoSidedTailMatchesScipy) {
  EXPECT_NEAR(student_t_two_sided_p(2.0, 3.0), 0.1393259685588431, 1e-12);
  EXPECT_NEAR(student_t_two_sided_p(1.0, 1.0), 0.5, 1e-12);  // Cauchy: P(|T| > 1) = 1/2
  EXPECT_NEAR(student_t_two_sided_p(-2.0, 3.0), student_t_two_sided_p(2.0, 3.0), 1e-15);
  EXPECT_NEAR(student_t_two_sided_p(0.0, 7.0), 1.0, 1e-15);
}

TEST(Welch, MatchesScipyTtestInd) {
  // scipy.stats.ttest_ind(a, b, equal_var=False) gives t = -2.3763541031440183 for a - b.
  const WelchResult r = welch_t_test({1, 2, 3, 4, 5}, {2, 4, 6, 8, 10, 12});
  EXPECT_NEAR(r.t, 2.3763541031440183, 1e-12);  // current - baseline
  EXPECT_NEAR(r.p_value, 0.04928433820673049, 1e-10);
  EXPECT_NEAR(r.mean_current, 7.0, 1e-15);
  const WelchResult noise = welch_t_test({10.1, 10.3, 9.8, 10.0, 10.2}, {10.0, 10.4, 9.9, 10.1, 10.3});
  EXPECT_NEAR(noise.p_value, 0.6480032575886041, 1e-10);
}

TEST(Welch, ZeroVarianceDegeneratesToEquality) {
  EXPECT_EQ(welch_t_test({3, 3, 3}, {3, 3}).p_value, 1.0);
  EXPECT_EQ(welch_t_test({3, 3, 3}, {4, 4}).p_value, 0.0);
  EXPECT_THROW(welch_t_test({1}, {1, 2}), std::invalid_argument);
}

}  // namespace
}  // namespace sharesim
