#include "sim/sched/placement/dot_product_score.h"

namespace sharesim {

std::int64_t dot_product_score(const PlacementNodeView& node, const PlacementPodRequest& pod) {
  const double cpu = static_cast<double>(node.cpu_free_milli) / kMaxSpecCpuMilli *
                     (static_cast<double>(pod.cpu_milli) / kMaxSpecCpuMilli);
  const double gpu = static_cast<double>(total_free_gpu_milli(node)) / kMaxSpecGpuMilli *
                     (static_cast<double>(pod.total_gpu_milli()) / kMaxSpecGpuMilli);
  const double dot = (cpu + gpu) / 2.0;
  return static_cast<std::int64_t>(static_cast<double>(kMaxNodeScore) * (1.0 - dot));
}

}  // namespace sharesim
