#include "experiments/fragmentation/target_workload.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace sharesim {

TargetWorkload build_target_workload(const std::vector<ExperimentPod>& pods, double coverage) {
  using Key = std::tuple<std::int32_t, std::int32_t, std::int64_t, std::uint64_t>;  // num_gpu, milli, cpu, models
  std::map<Key, std::int64_t> counts;
  for (const ExperimentPod& pod : pods) {
    const PlacementPodRequest& r = pod.request;
    ++counts[Key{r.num_gpu, r.gpu_milli, r.cpu_milli, r.allowed_models}];
  }
  std::vector<std::pair<Key, std::int64_t>> ranked(counts.begin(), counts.end());
  // Most frequent first; the map order (the key) breaks ties.
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  TargetWorkload workload;
  const double wanted = coverage * static_cast<double>(pods.size());
  for (const auto& [key, count] : ranked) {
    if (static_cast<double>(workload.total_weight) >= wanted) break;
    WorkloadClass m;
    m.num_gpu = std::get<0>(key);
    m.gpu_milli = std::get<1>(key);
    m.cpu_milli = std::get<2>(key);
    m.allowed_models = std::get<3>(key);
    m.weight = count;
    workload.classes.push_back(m);
    workload.total_weight += count;
  }
  return workload;
}

}  // namespace sharesim
