#include "kernels/host/robust_stats.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sharesim::calib {

double median(std::vector<double> values) {
  if (values.empty()) throw std::logic_error("median of no values");
  const std::size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
  return (lower + upper) / 2;
}

double median_absolute_deviation(const std::vector<double>& values, double center) {
  std::vector<double> deviations;
  deviations.reserve(values.size());
  for (const double x : values) deviations.push_back(std::fabs(x - center));
  return median(std::move(deviations));
}

RobustSummary robust_summary(const std::vector<double>& values, double k) {
  const double center = median(values);
  const double spread = median_absolute_deviation(values, center);
  const double limit = k * kMadToSigma * spread;
  std::vector<double> kept;
  kept.reserve(values.size());
  for (const double x : values) {
    if (std::fabs(x - center) <= limit) kept.push_back(x);
  }
  RobustSummary summary;
  summary.kept = kept.size();
  summary.rejected = values.size() - kept.size();
  summary.median = median(kept);
  summary.mad = median_absolute_deviation(kept, summary.median);
  return summary;
}

}  // namespace sharesim::calib
