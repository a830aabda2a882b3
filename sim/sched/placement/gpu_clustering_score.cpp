#include "sim/sched/placement/gpu_clustering_score.h"

namespace sharesim {

std::int64_t gpu_class_of(const PlacementPodRequest& pod) {
  if (pod.num_gpu == 0) return 0;
  if (pod.is_sharing()) return pod.gpu_milli;
  return std::int64_t{kMilliPerGpu} * pod.num_gpu;
}

std::int64_t gpu_clustering_score(const PlacementNodeView& node, const PlacementPodRequest& pod,
                                  const GpuClassCensus& census) {
  if (gpu_class_of(pod) == 0) return 0;
  const auto max_spec = static_cast<std::int64_t>(kMaxSpecGpuMilli);
  const std::int64_t fullness = kMaxNodeScore / 4 * (max_spec - total_free_gpu_milli(node)) / max_spec;
  std::int64_t band = 0;
  if (census.pods_of_same_class > 0) {
    band = census.distinct_classes == 1 ? 3 : 2;
  } else {
    band = census.distinct_classes == 0 ? 1 : 0;
  }
  return fullness + band * (kMaxNodeScore / 4);
}

}  // namespace sharesim
