#include "experiments/fragmentation/pod_sequence.h"

#include <numeric>

#include "sim/core/random_stream.h"
#include "sim/input/input_error.h"

namespace sharesim {

std::vector<std::uint32_t> inflate_pods(const ExperimentInput& input, double inflation, std::uint64_t seed) {
  std::vector<std::uint32_t> order(input.pods.size());
  std::iota(order.begin(), order.end(), 0u);
  if (inflation <= 0.0 || input.pods.empty()) return order;
  std::int64_t total = 0;
  for (const ExperimentPod& pod : input.pods) total += pod.request.total_gpu_milli();
  const double target = inflation * static_cast<double>(input.cluster_gpu_milli);
  RandomStream rng(seed, "inflation");
  if (static_cast<double>(total) < target) {
    if (total == 0) {
      throw InputError(input.pods_path, "", "expected some pods asking for GPUs to inflate the workload, found none");
    }
    while (true) {
      const auto drawn = static_cast<std::uint32_t>(rng.uniform_index(input.pods.size()));
      const PlacementPodRequest& request = input.pods[drawn].request;
      if (static_cast<double>(total + request.gpu_milli) > target) break;
      total += request.total_gpu_milli();
      order.push_back(drawn);
    }
  } else {
    while (static_cast<double>(total) > target && !order.empty()) {
      const std::size_t victim = rng.uniform_index(order.size());
      total -= input.pods[order[victim]].request.total_gpu_milli();
      order.erase(order.begin() + static_cast<std::ptrdiff_t>(victim));
    }
  }
  return order;
}

std::vector<std::uint32_t> build_pod_sequence(const ExperimentInput& input, double inflation, std::uint64_t seed) {
  std::vector<std::uint32_t> order = inflate_pods(input, inflation, seed);
  RandomStream rng(seed, "shuffle");
  for (std::size_t i = order.size(); i > 1; --i) {
    const std::size_t j = rng.uniform_index(i);
    std::swap(order[i - 1], order[j]);
  }
  return order;
}

}  // namespace sharesim
