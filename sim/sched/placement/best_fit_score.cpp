#include "sim/sched/placement/best_fit_score.h"

#include <algorithm>

namespace sharesim {

std::int64_t best_fit_raw_score(const PlacementNodeView& node, const PlacementPodRequest& pod) {
  const double cpu_left = static_cast<double>(node.cpu_free_milli - pod.cpu_milli);
  const double gpu_left = static_cast<double>(total_free_gpu_milli(node) - pod.total_gpu_milli());
  // Lower is better in [0, 1]; reversed and scaled so that higher is better.
  const double left = cpu_left / kMaxSpecCpuMilli * 0.5 + gpu_left / kMaxSpecGpuMilli * 0.5;
  return static_cast<std::int64_t>((1.0 - left) * static_cast<double>(kMaxNodeScore));
}

void normalize_min_max(std::span<std::int64_t> scores) {
  if (scores.empty()) return;
  const auto [lowest, highest] = std::minmax_element(scores.begin(), scores.end());
  const std::int64_t low = *lowest;
  const std::int64_t range = *highest - low;
  for (std::int64_t& score : scores) score = range == 0 ? 0 : (score - low) * kMaxNodeScore / range;
}

}  // namespace sharesim
