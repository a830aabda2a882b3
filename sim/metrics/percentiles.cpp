#include "sim/metrics/percentiles.h"

#include <algorithm>
#include <cmath>

namespace sharesim {

double percentile(std::vector<double>& values, double fraction) {
  if (values.empty()) return 0;
  const double position = fraction * static_cast<double>(values.size() - 1);
  const auto lower = static_cast<std::size_t>(std::floor(position));
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(lower), values.end());
  const double low_value = values[lower];
  if (lower + 1 >= values.size()) return low_value;
  // The next order statistic is the minimum of the part after `lower`.
  const double high_value = *std::min_element(values.begin() + static_cast<std::ptrdiff_t>(lower) + 1, values.end());
  return low_value + (position - static_cast<double>(lower)) * (high_value - low_value);
}

SampleSummary summarize(std::vector<double>& values) {
  SampleSummary summary;
  summary.count = values.size();
  if (values.empty()) return summary;
  // Plain sum in a fixed order: deterministic for the same input order.
  double sum = 0;
  for (double v : values) sum += v;
  summary.mean = sum / static_cast<double>(values.size());
  summary.max = *std::max_element(values.begin(), values.end());
  // Ascending fractions: after selecting rank r, every later rank lies in [r, end), so each
  // selection works on what is left above the previous one.
  std::size_t done = 0;
  for (auto [fraction, out] : {std::pair{0.50, &summary.p50}, {0.95, &summary.p95}, {0.99, &summary.p99}}) {
    const double position = fraction * static_cast<double>(values.size() - 1);
    const auto lower = static_cast<std::size_t>(std::floor(position));
    const auto begin = values.begin() + static_cast<std::ptrdiff_t>(done);
    std::nth_element(begin, values.begin() + static_cast<std::ptrdiff_t>(lower), values.end());
    const double low_value = values[lower];
    double high_value = low_value;
    if (lower + 1 < values.size()) {
      high_value = *std::min_element(values.begin() + static_cast<std::ptrdiff_t>(lower) + 1, values.end());
    }
    *out = low_value + (position - static_cast<double>(lower)) * (high_value - low_value);
    done = lower;
  }
  return summary;
}

}  // namespace sharesim
