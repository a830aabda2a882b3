#include "experiments/fragmentation/quartiles.h"

#include <algorithm>
#include <cmath>

namespace sharesim {
namespace {

double quantile_sorted(const std::vector<double>& sorted, double q) {
  const double position = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return sorted[below] + (sorted[above] - sorted[below]) * fraction;
}

}  // namespace

Quartiles quartiles(std::vector<double>& values) {
  std::sort(values.begin(), values.end());
  return {quantile_sorted(values, 0.25), quantile_sorted(values, 0.5), quantile_sorted(values, 0.75)};
}

}  // namespace sharesim
