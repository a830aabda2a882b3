#include "regression/welch_test.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "sim/metrics/student_t.h"

namespace sharesim {

double student_t_two_sided_p(double t, double df) {
  if (std::isinf(t)) return 0.0;
  return regularized_incomplete_beta(df / (df + t * t), df / 2.0, 0.5);
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
