#include "sim/sched/placement/fgd_score.h"

#include <cmath>

namespace sharesim {

double fgd_sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

std::int64_t FgdScorer::weighted_after(const PlacementNodeView& node, std::int64_t idle_after, std::int32_t from,
                                       std::int32_t take, std::int32_t whole, std::int64_t cpu) const {
  const std::int64_t cpu_after = node.cpu_free_milli - cpu;
  const std::int32_t to = from - take;
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < workload_.classes.size(); ++i) {
    const WorkloadClass& m = workload_.classes[i];
    const ClassState& s = state_[i];
    std::int64_t fragment = idle_after;
    if (s.static_ok && cpu_after >= m.cpu_milli) {
      std::int64_t below = s.below;
      std::int32_t usable = s.usable - whole;  // whole GPUs go from 1000 to 0: usable to unusable
      if (take > 0) {
        if (from >= m.gpu_milli) {
          --usable;
        } else {
          below -= from;
        }
        if (to >= m.gpu_milli) {
          ++usable;
        } else {
          below += to;
        }
      }
      if (usable >= m.num_gpu) fragment = below;
    }
    sum += m.weight * fragment;
  }
  return sum;
}

FgdResult FgdScorer::score(const PlacementNodeView& node, const PlacementPodRequest& pod) {
  state_.resize(workload_.classes.size());
  std::int64_t idle = 0;
  for (const std::int32_t free_milli : node.gpu_free_milli) idle += free_milli;
  std::int64_t before = 0;
  for (std::size_t i = 0; i < workload_.classes.size(); ++i) {
    const WorkloadClass& m = workload_.classes[i];
    ClassState& s = state_[i];
    s = ClassState{};
    s.static_ok = m.num_gpu > 0 && node.gpu_model >= 0 && (m.allowed_models >> node.gpu_model & 1u);
    for (const std::int32_t free_milli : node.gpu_free_milli) {
      if (free_milli < m.gpu_milli) {
        s.below += free_milli;
      } else {
        ++s.usable;
      }
    }
    const bool fits = s.static_ok && node.cpu_free_milli >= m.cpu_milli && s.usable >= m.num_gpu;
    before += m.weight * (fits ? s.below : idle);
  }
  const auto score_of = [&](std::int64_t after) {
    const double delta = workload_.total_weight == 0
                             ? 0.0
                             : static_cast<double>(before - after) / static_cast<double>(workload_.total_weight);
    return static_cast<std::int64_t>(fgd_sigmoid(delta / 1000.0) * static_cast<double>(kMaxNodeScore));
  };
  FgdResult result;
  if (pod.is_sharing()) {
    bool found = false;
    for (std::size_t g = 0; g < node.gpu_free_milli.size(); ++g) {
      const std::int32_t from = node.gpu_free_milli[g];
      if (from < pod.gpu_milli) continue;
      const std::int64_t after = weighted_after(node, idle - pod.gpu_milli, from, pod.gpu_milli, 0, pod.cpu_milli);
      const std::int64_t score = score_of(after);
      if (!found || score > result.score) {
        found = true;
        result.score = score;
        result.gpus.count = 1;
        result.gpus.gpus[0] = static_cast<std::uint8_t>(g);
      }
    }
    return result;
  }
  const std::int32_t whole = pod.num_gpu;
  const std::int64_t after =
      weighted_after(node, idle - std::int64_t{kMilliPerGpu} * whole, 0, 0, whole, pod.cpu_milli);
  result.score = score_of(after);
  result.gpus = lowest_free_gpus(node, whole);
  return result;
}

}  // namespace sharesim
