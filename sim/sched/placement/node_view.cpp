#include "sim/sched/placement/node_view.h"

namespace sharesim {

std::int64_t total_free_gpu_milli(const PlacementNodeView& node) {
  std::int64_t total = 0;
  for (const std::int32_t free_milli : node.gpu_free_milli) total += free_milli;
  return total;
}

int fully_free_gpu_count(const PlacementNodeView& node) {
  int count = 0;
  for (const std::int32_t free_milli : node.gpu_free_milli) count += free_milli == kMilliPerGpu ? 1 : 0;
  return count;
}

bool pod_fits_node(const PlacementNodeView& node, const PlacementPodRequest& pod) {
  if (node.cpu_free_milli < pod.cpu_milli || node.memory_free_mib < pod.memory_mib) return false;
  if (pod.num_gpu == 0) return true;
  if (node.gpu_model < 0 || !(pod.allowed_models >> node.gpu_model & 1u)) return false;
  int usable = 0;
  for (const std::int32_t free_milli : node.gpu_free_milli) usable += free_milli >= pod.gpu_milli ? 1 : 0;
  return usable >= pod.num_gpu;
}

GpuChoice lowest_free_gpus(const PlacementNodeView& node, int k) {
  GpuChoice choice;
  for (std::size_t g = 0; g < node.gpu_free_milli.size() && choice.count < k; ++g) {
    if (node.gpu_free_milli[g] == kMilliPerGpu) choice.gpus[choice.count++] = static_cast<std::uint8_t>(g);
  }
  return choice;
}

GpuChoice best_fit_gpus(const PlacementNodeView& node, const PlacementPodRequest& pod) {
  if (pod.num_gpu == 0) return {};
  if (!pod.is_sharing()) return lowest_free_gpus(node, pod.num_gpu);
  GpuChoice choice;
  std::int32_t least = kMilliPerGpu + 1;
  for (std::size_t g = 0; g < node.gpu_free_milli.size(); ++g) {
    const std::int32_t free_milli = node.gpu_free_milli[g];
    if (free_milli >= pod.gpu_milli && free_milli < least) {
      least = free_milli;
      choice.count = 1;
      choice.gpus[0] = static_cast<std::uint8_t>(g);
    }
  }
  return choice;
}

}  // namespace sharesim
