#include "sim/sched/placement/fragmentation.h"

namespace sharesim {

std::int64_t class_fragment(const PlacementNodeView& node, const WorkloadClass& m) {
  std::int64_t idle = 0;
  std::int64_t below = 0;  // free milli of the GPUs too small for one of m's GPUs
  std::int32_t usable = 0;
  for (const std::int32_t free_milli : node.gpu_free_milli) {
    idle += free_milli;
    if (free_milli < m.gpu_milli) {
      below += free_milli;
    } else {
      ++usable;
    }
  }
  if (m.num_gpu == 0) return idle;
  const bool model_ok = node.gpu_model >= 0 && (m.allowed_models >> node.gpu_model & 1u);
  if (!model_ok || node.cpu_free_milli < m.cpu_milli || usable < m.num_gpu) return idle;
  return below;
}

std::int64_t weighted_fragment(const PlacementNodeView& node, const TargetWorkload& workload) {
  std::int64_t sum = 0;
  for (const WorkloadClass& m : workload.classes) sum += m.weight * class_fragment(node, m);
  return sum;
}

double fragment(const PlacementNodeView& node, const TargetWorkload& workload) {
  if (workload.total_weight == 0) return 0.0;
  return static_cast<double>(weighted_fragment(node, workload)) / static_cast<double>(workload.total_weight);
}

}  // namespace sharesim
