#include "regression/welch_test.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace sharesim {
namespace {

// The continued fraction of A&S 26.5.8, 1 / (1 + d1 / (1 + d2 / (1 + ...))), with
// d_{2m+1} = -(a+m)(a+b+m) x / ((a+2m)(a+2m+1)) and d_{2m} = m(b-m) x / ((a+2m-1)(a+2m)).
double beta_continued_fraction(double a, double b, double x) {
  constexpr double tiny = 1e-300;
  constexpr double epsilon = 1e-15;
  // Modified Lentz: f = b0 + a1/(b1 + a2/(b2 + ...)) with b0 = 0, a1 = 1 and b_j = 1 after.
  double c = 1.0;
  double d = 1.0 - (a + b) * x / (a + 1.0);  // 1 + d1
  if (std::fabs(d) < tiny) d = tiny;
  d = 1.0 / d;
  double f = d;
  for (int m = 1; m <= 10000; ++m) {
    const double even = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
    const double odd = -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0));
    for (const double term : {even, odd}) {
      d = 1.0 + term * d;
      if (std::fabs(d) < tiny) d = tiny;
      c = 1.0 + term / c;
      if (std::fabs(c) < tiny) c = tiny;
      d = 1.0 / d;
      f *= c * d;
      if (std::fabs(c * d - 1.0) < epsilon && term == odd) return f;
    }
  }
  return f;  // 10000 terms: far beyond what the a, b of a t test need
}

}  // namespace

double regularized_incomplete_beta(double a, double b, double x) {
  if (!(a > 0) || !(b > 0) || !(x >= 0 && x <= 1)) {
    throw std::invalid_argument("regularized_incomplete_beta: needs a, b > 0 and 0 <= x <= 1");
  }
  if (x == 0 || x == 1) return x;
  // x^a (1-x)^b / (a B(a, b)), in logarithms.
  const double log_front = a * std::log(x) + b * std::log1p(-x) + std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b);
  if (x > (a + 1.0) / (a + b + 2.0)) {
    return 1.0 - std::exp(log_front) * beta_continued_fraction(b, a, 1.0 - x) / b;
  }
  return std::exp(log_front) * beta_continued_fraction(a, b, x) / a;
}

double student_t_two_sided_p(double t, double df) {
  if (std::isinf(t)) return 0.0;
  return regularized_incomplete_beta(df / 2.0, 0.5, df / (df + t * t));
}

WelchResult welch_t_test(const std::vector<double>& baseline, const std::vector<double>& current) {
  if (baseline.size() < 2 || current.size() < 2) {
    throw std::invalid_argument("welch_t_test: each sample needs at least two values");
  }
  const auto moments = [](const std::vector<double>& sample, double& mean, double& sd) {
    double sum = 0;
    for (const double v : sample) sum += v;
    mean = sum / static_cast<double>(sample.size());
    double squares = 0;
    for (const double v : sample) squares += (v - mean) * (v - mean);
    sd = std::sqrt(squares / static_cast<double>(sample.size() - 1));
  };
  WelchResult r;
  moments(baseline, r.mean_baseline, r.sd_baseline);
  moments(current, r.mean_current, r.sd_current);
  const double v1 = r.sd_baseline * r.sd_baseline / static_cast<double>(baseline.size());
  const double v2 = r.sd_current * r.sd_current / static_cast<double>(current.size());
  const double difference = r.mean_current - r.mean_baseline;
  if (v1 + v2 == 0) {
    r.p_value = difference == 0 ? 1.0 : 0.0;
    r.t = difference == 0 ? 0.0 : std::copysign(std::numeric_limits<double>::infinity(), difference);
    return r;
  }
  r.t = difference / std::sqrt(v1 + v2);
  r.df = (v1 + v2) * (v1 + v2) /
         (v1 * v1 / static_cast<double>(baseline.size() - 1) + v2 * v2 / static_cast<double>(current.size() - 1));
  r.p_value = student_t_two_sided_p(r.t, r.df);
  return r;
}

}  // namespace sharesim
