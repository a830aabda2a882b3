#pragma once
// Welch's two-sample t test (unequal variances), for comparing per-seed samples of a metric
// between a run and its baseline (`sharesim check` on replicated runs, docs/ci.md).
#include <vector>

namespace sharesim {

// P(|T| >= |t|) for Student's t with `df` > 0 degrees of freedom: I_{df/(df+t^2)}(df/2, 1/2)
// (Abramowitz & Stegun 26.7.1 with 26.5.27), with the incomplete beta of sim/metrics/student_t.h.
double student_t_two_sided_p(double t, double df);

struct WelchResult {
  double mean_baseline = 0, mean_current = 0;
  double sd_baseline = 0, sd_current = 0;  // sample standard deviations (n - 1)
  double t = 0;                            // (mean_current - mean_baseline) / standard error
  double df = 0;                           // Welch-Satterthwaite degrees of freedom
  double p_value = 1;                      // two-sided
};

// Welch (1947): t = (m2 - m1) / sqrt(s1^2/n1 + s2^2/n2), with df = (s1^2/n1 + s2^2/n2)^2 /
// ((s1^2/n1)^2/(n1-1) + (s2^2/n2)^2/(n2-1)). Both samples need at least two values. When both
// variances are zero the test degenerates: p = 1 for equal means, 0 otherwise.
WelchResult welch_t_test(const std::vector<double>& baseline, const std::vector<double>& current);

}  // namespace sharesim
