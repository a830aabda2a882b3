#include "sim/sched/placement/gpu_clustering_score.h"

namespace sharesim {

std::int64_t gpu_class_of(const PlacementPodRequest& pod, GpuClassing classing) {
  if (pod.num_gpu == 0) return 0;
  if (pod.is_sharing()) return gpu_class_from_per_milli(pod.gpu_milli, classing);
  return std::int64_t{kMilliPerGpu} * pod.num_gpu;
}

std::int64_t gpu_class_from_per_milli(std::int64_t per_milli_class, GpuClassing classing) {
  const bool sharing = per_milli_class > 0 && per_milli_class < kMilliPerGpu;
  return sharing && classing == GpuClassing::kArtifact ? 1 : per_milli_class;
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
