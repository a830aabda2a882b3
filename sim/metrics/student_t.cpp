#include "sim/metrics/student_t.h"

#include <cmath>
#include <limits>

namespace sharesim {
namespace {

// The continued fraction of I_x(a, b) (A&S 26.5.8), evaluated by the modified Lentz method:
// 1 / (1 + d1 / (1 + d2 / (1 + ...))) with
//   d_{2m+1} = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)),
//   d_{2m}   =  m (b - m) x / ((a + 2m - 1)(a + 2m)).
// It converges fast for x < (a + 1) / (a + b + 2); the caller uses the symmetry
// I_x(a, b) = 1 - I_{1-x}(b, a) otherwise.
double beta_continued_fraction(double x, double a, double b) {
  constexpr double tiny = 1e-300;
  constexpr double epsilon = 1e-16;
  double c = 1.0;
  double d = 1.0 - (a + b) * x / (a + 1.0);
  if (std::fabs(d) < tiny) d = tiny;
  d = 1.0 / d;
  double result = d;
  for (int m = 1; m <= 10000; ++m) {
    const double two_m = 2.0 * m;
    // Even step.
    double coefficient = m * (b - m) * x / ((a + two_m - 1.0) * (a + two_m));
    d = 1.0 + coefficient * d;
    if (std::fabs(d) < tiny) d = tiny;
    c = 1.0 + coefficient / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    result *= d * c;
    // Odd step.
    coefficient = -(a + m) * (a + b + m) * x / ((a + two_m) * (a + two_m + 1.0));
    d = 1.0 + coefficient * d;
    if (std::fabs(d) < tiny) d = tiny;
    c = 1.0 + coefficient / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    const double step = d * c;
    result *= step;
    if (std::fabs(step - 1.0) < epsilon) break;
  }
  return result;
}

}  // namespace

double regularized_incomplete_beta(double x, double a, double b) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  // x^a (1-x)^b / (a B(a, b)) is the prefactor of the continued fraction (A&S 26.5.8).
  const double log_front = std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  const double front = std::exp(log_front);
  if (x < (a + 1.0) / (a + b + 2.0)) return front * beta_continued_fraction(x, a, b) / a;
  return 1.0 - front * beta_continued_fraction(1.0 - x, b, a) / b;
}

double student_t_cdf(double t, double degrees_of_freedom) {
  const double nu = degrees_of_freedom;
  const double tail = 0.5 * regularized_incomplete_beta(nu / (nu + t * t), nu / 2.0, 0.5);  // P(T > |t|)
  return t >= 0 ? 1.0 - tail : tail;
}

double student_t_quantile(double p, double degrees_of_freedom) {
  if (p == 0.5) return 0;
  if (p < 0.5) return -student_t_quantile(1.0 - p, degrees_of_freedom);
  // Bracket the root: the CDF is increasing; double the upper end until it passes p.
  double low = 0, high = 1;
  while (student_t_cdf(high, degrees_of_freedom) < p && high < 1e300) {
    low = high;
    high *= 2;
  }
  // Bisection until the interval cannot shrink further in double precision.
  for (int i = 0; i < 2000; ++i) {
    const double middle = low + (high - low) / 2;
    if (middle <= low || middle >= high) break;
    if (student_t_cdf(middle, degrees_of_freedom) < p) {
      low = middle;
    } else {
      high = middle;
    }
  }
  return low + (high - low) / 2;
}

double confidence_half_width_95(double sd, unsigned long long n) {
  if (n < 2) return std::numeric_limits<double>::quiet_NaN();
  const double count = static_cast<double>(n);
  return student_t_quantile(0.975, count - 1.0) * sd / std::sqrt(count);
}

}  // namespace sharesim
