#include "experiments/fragmentation/cluster_state.h"

#include <algorithm>

namespace sharesim {

ClusterState::ClusterState(const ExperimentInput& input, const TargetWorkload& workload) : workload_(workload) {
  for (const ExperimentNode& node : input.nodes) {
    cpu_free_.push_back(node.cpu_milli);
    cpu_total_.push_back(node.cpu_milli);
    memory_free_.push_back(node.memory_mib);
    model_.push_back(node.model);
    max_free_.push_back(0);
    fully_free_.push_back(0);
    version_.push_back(1);
    weighted_fragment_.push_back(0);
    gpu_begin_.push_back(static_cast<std::uint32_t>(gpu_free_.size()));
    gpu_free_.insert(gpu_free_.end(), static_cast<std::size_t>(node.gpus), kMilliPerGpu);
    cluster_gpu_milli_ += std::int64_t{node.gpus} * kMilliPerGpu;
  }
  classes_.resize(input.nodes.size());
  gpu_begin_.push_back(static_cast<std::uint32_t>(gpu_free_.size()));
  idle_gpu_milli_ = cluster_gpu_milli_;
  for (std::uint32_t i = 0; i < input.nodes.size(); ++i) refresh(i);
}

PlacementNodeView ClusterState::view(std::uint32_t node) const {
  PlacementNodeView v;
  v.cpu_free_milli = cpu_free_[node];
  v.cpu_total_milli = cpu_total_[node];
  v.memory_free_mib = memory_free_[node];
  v.gpu_free_milli =
      std::span<const std::int32_t>(gpu_free_.data() + gpu_begin_[node], gpu_begin_[node + 1] - gpu_begin_[node]);
  v.gpu_model = model_[node];
  return v;
}

bool ClusterState::fits(std::uint32_t node, const PlacementPodRequest& pod) const {
  if (cpu_free_[node] < pod.cpu_milli || memory_free_[node] < pod.memory_mib) return false;
  if (pod.num_gpu == 0) return true;
  if (model_[node] < 0 || !(pod.allowed_models >> model_[node] & 1u)) return false;
  if (pod.is_sharing()) return max_free_[node] >= pod.gpu_milli;
  return fully_free_[node] >= pod.num_gpu;
}

GpuClassCensus ClusterState::census(std::uint32_t node, std::int64_t per_milli_class, GpuClassing classing) const {
  GpuClassCensus census;
  const std::int64_t target = gpu_class_from_per_milli(per_milli_class, classing);
  std::vector<std::int64_t> seen;  // a handful of classes per node
  for (const auto& [cls, pods] : classes_[node]) {
    const std::int64_t grouped = gpu_class_from_per_milli(cls, classing);
    if (std::find(seen.begin(), seen.end(), grouped) == seen.end()) seen.push_back(grouped);
    if (grouped == target) census.pods_of_same_class += pods;
  }
  census.distinct_classes = static_cast<std::int64_t>(seen.size());
  return census;
}

void ClusterState::place(std::uint32_t node, const PlacementPodRequest& pod, const GpuChoice& gpus) {
  cpu_free_[node] -= pod.cpu_milli;
  memory_free_[node] -= pod.memory_mib;
  for (int i = 0; i < gpus.count; ++i) {
    gpu_free_[gpu_begin_[node] + gpus.gpus[i]] -= pod.gpu_milli;
    idle_gpu_milli_ -= pod.gpu_milli;
  }
  const std::int64_t cls = gpu_class_of(pod, GpuClassing::kPerMilli);  // the finer grouping; census() coarsens
  if (cls != 0) {
    auto& list = classes_[node];
    const auto it = std::find_if(list.begin(), list.end(), [&](const auto& entry) { return entry.first == cls; });
    if (it == list.end()) {
      list.emplace_back(cls, 1);
    } else {
      ++it->second;
    }
  }
  ++version_[node];
  refresh(node);
}

void ClusterState::refresh(std::uint32_t node) {
  std::int32_t max_free = 0;
  std::int32_t fully_free = 0;
  for (std::uint32_t g = gpu_begin_[node]; g < gpu_begin_[node + 1]; ++g) {
    max_free = std::max(max_free, gpu_free_[g]);
    fully_free += gpu_free_[g] == kMilliPerGpu ? 1 : 0;
  }
  max_free_[node] = max_free;
  fully_free_[node] = fully_free;
  const std::int64_t weighted = weighted_fragment(view(node), workload_);
  weighted_fragment_sum_ += weighted - weighted_fragment_[node];
  weighted_fragment_[node] = weighted;
}

}  // namespace sharesim
