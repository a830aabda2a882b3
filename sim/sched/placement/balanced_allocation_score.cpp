#include "sim/sched/placement/balanced_allocation_score.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "sim/sched/placement/node_view.h"

namespace sharesim {

std::int64_t balanced_allocation_score(std::span<const ResourceUse> uses) {
  std::vector<double> fractions;
  double total = 0;
  for (const ResourceUse& use : uses) {
    if (use.allocatable == 0) continue;
    const double fraction = std::min(1.0, static_cast<double>(use.requested) / static_cast<double>(use.allocatable));
    fractions.push_back(fraction);
    total += fraction;
  }
  double std_dev = 0;
  if (fractions.size() == 2) {
    std_dev = std::abs((fractions[0] - fractions[1]) / 2);
  } else if (fractions.size() > 2) {
    const double mean = total / static_cast<double>(fractions.size());
    double sum = 0;
    for (const double f : fractions) sum += (f - mean) * (f - mean);
    std_dev = std::sqrt(sum / static_cast<double>(fractions.size()));
  }
  return static_cast<std::int64_t>((1 - std_dev) * static_cast<double>(kMaxNodeScore));
}

}  // namespace sharesim
