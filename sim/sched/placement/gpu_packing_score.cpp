#include "sim/sched/placement/gpu_packing_score.h"

#include <algorithm>
#include <array>

namespace sharesim {

std::int64_t gpu_packing_score(const PlacementNodeView& node, const PlacementPodRequest& pod) {
  if (pod.total_gpu_milli() <= 0) return 0;
  const auto gpus = static_cast<std::int64_t>(node.gpu_free_milli.size());
  const std::int64_t fully_free = fully_free_gpu_count(node);
  if (fully_free == gpus) return std::max(kMaxNodeScore / 3 - fully_free, fully_free);  // band 3
  // The GPUs the pod would use: least free milli first (ties by index), as many as it asks for.
  std::array<std::size_t, kMaxGpusPerNodeView> order{};
  const std::size_t n = node.gpu_free_milli.size();
  for (std::size_t g = 0; g < n; ++g) order[g] = g;
  std::stable_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n),
                   [&](std::size_t a, std::size_t b) { return node.gpu_free_milli[a] < node.gpu_free_milli[b]; });
  std::int64_t wanted = pod.num_gpu;
  std::int64_t fully_free_used = 0;
  std::int64_t free_percent_on_used = 0;
  for (std::size_t i = 0; i < n && wanted > 0; ++i) {
    const std::int32_t free_milli = node.gpu_free_milli[order[i]];
    if (free_milli < pod.gpu_milli) continue;
    --wanted;
    if (free_milli == kMilliPerGpu) ++fully_free_used;
    free_percent_on_used += std::int64_t{free_milli} * 100 / kMilliPerGpu;
  }
  if (fully_free_used > 0) return std::max(kMaxNodeScore / 2 - fully_free_used, kMaxNodeScore / 3);  // band 2
  return std::max(kMaxNodeScore - free_percent_on_used / 10, kMaxNodeScore / 2);                     // band 1
}

}  // namespace sharesim
