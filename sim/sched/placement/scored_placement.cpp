#include "sim/sched/placement/scored_placement.h"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>
#include <vector>

#include "sim/sched/placement/best_fit_score.h"
#include "sim/sched/placement/dot_product_score.h"
#include "sim/sched/placement/fgd_score.h"
#include "sim/sched/placement/gpu_clustering_score.h"
#include "sim/sched/placement/gpu_packing_score.h"

namespace sharesim {
namespace {

enum class Formula { kDotProduct, kBestFit, kGpuPacking, kGpuClustering, kGpuClusteringMilli, kFgd };

const char* formula_name(Formula formula) {
  switch (formula) {
    case Formula::kDotProduct:
      return "dot-product";
    case Formula::kBestFit:
      return "best-fit";
    case Formula::kGpuPacking:
      return "gpu-packing";
    case Formula::kGpuClustering:
      return "gpu-clustering";
    case Formula::kGpuClusteringMilli:
      return "gpu-clustering-milli";
    case Formula::kFgd:
      return "fgd";
  }
  return "";
}

std::int64_t capacity_of(const Gpu& gpu, ResourceId resource) {
  for (std::size_t i = 0; i < gpu.resource_count; ++i) {
    if (gpu.resources[i].resource == resource) return gpu.resources[i].capacity;
  }
  return 0;
}

class ScoredPlacement final : public PlacementPolicy {
 public:
  ScoredPlacement(const Cluster& cluster, Formula formula) : cluster_(cluster), formula_(formula), fgd_(workload_) {}

  std::string_view name() const override { return formula_name(formula_); }

  std::optional<std::uint32_t> choose(const PodShape& pod,
                                      const std::function<bool(std::uint32_t)>& feasible) override {
    if (formula_ == Formula::kFgd) count_shape(pod, 1);
    order_.clear();
    for (const Node& node : cluster_.nodes()) order_.emplace_back(-score(node, pod), node.index);
    std::sort(order_.begin(), order_.end());
    for (const auto& [negative_score, node] : order_) {
      if (feasible(node)) {
        if (formula_ == Formula::kFgd) count_shape(pod, 0);  // the placed pod stays counted
        return node;
      }
    }
    if (formula_ == Formula::kFgd) count_shape(pod, -1);
    return std::nullopt;
  }
  void node_changed(std::uint32_t) override {}
  std::int64_t max_free_units(ResourceId resource) override {
    std::int64_t most = 0;
    for (const Node& node : cluster_.nodes()) most = std::max(most, node.free_resource(resource));
    return most;
  }

 private:
  // The node as a PlacementNodeView for `pod`, and the pod as a request (see the header).
  std::int64_t score(const Node& node, const PodShape& pod) {
    gpu_free_.clear();
    std::int64_t capacity = 0;
    for (std::uint32_t g = node.first_gpu; g < node.first_gpu + node.gpu_count; ++g) {
      const Gpu& gpu = cluster_.gpu(g);
      const std::int64_t c = capacity_of(gpu, pod.gpu_resource);
      capacity = std::max(capacity, c);
      gpu_free_.push_back(c > 0 ? static_cast<std::int32_t>(kMilliPerGpu * gpu.free_units(pod.gpu_resource) / c) : 0);
    }
    PlacementNodeView view;
    view.cpu_free_milli = node.cpu_milli - node.cpu_allocated;
    view.cpu_total_milli = node.cpu_milli;
    view.memory_free_mib = node.memory_mib - node.memory_allocated;
    view.gpu_free_milli = gpu_free_;
    view.gpu_model = node.gpu_count > 0 ? 0 : -1;  // the scheduler's selector filter handles models
    const PlacementPodRequest request = request_of(pod, capacity);
    switch (formula_) {
      case Formula::kDotProduct:
        return dot_product_score(view, request);
      case Formula::kBestFit:
        return best_fit_raw_score(view, request);
      case Formula::kGpuPacking:
        return gpu_packing_score(view, request);
      case Formula::kGpuClustering:
        return gpu_clustering_score(view, request, census(node, pod, GpuClassing::kArtifact));
      case Formula::kGpuClusteringMilli:
        return gpu_clustering_score(view, request, census(node, pod, GpuClassing::kPerMilli));
      case Formula::kFgd:
        return pod_fits_node(view, request) ? fgd_.score(view, request).score : 0;
    }
    return 0;
  }

  static PlacementPodRequest request_of(const PodShape& pod, std::int64_t capacity) {
    PlacementPodRequest request;
    request.cpu_milli = pod.cpu_milli;
    request.memory_mib = pod.memory_mib;
    if (pod.gpu_units <= 0) return request;
    if (capacity > 1 && pod.gpu_units < capacity) {
      request.num_gpu = 1;
      request.gpu_milli = static_cast<std::int32_t>(kMilliPerGpu * pod.gpu_units / capacity);
    } else {
      const std::int64_t per_gpu = std::max<std::int64_t>(capacity, 1);
      request.num_gpu = static_cast<std::int32_t>((pod.gpu_units + per_gpu - 1) / per_gpu);
      request.gpu_milli = kMilliPerGpu;
    }
    return request;
  }

  // GPU classes on the node: a resident's class is (resource, units its pod requested), the
  // per-milli grouping; under kArtifact every ask of less than one GPU's units is one class.
  GpuClassCensus census(const Node& node, const PodShape& pod, GpuClassing classing) const {
    const auto class_of = [&](ResourceId resource, std::int64_t units) -> std::pair<ResourceId, std::int64_t> {
      if (classing == GpuClassing::kArtifact && units < typical_capacity(resource))
        return {std::numeric_limits<ResourceId>::max(), 0};
      return {resource, units};
    };
    const auto target = class_of(pod.gpu_resource, pod.gpu_units);
    std::vector<std::pair<ResourceId, std::int64_t>> classes;
    GpuClassCensus result;
    for (std::uint32_t g = node.first_gpu; g < node.first_gpu + node.gpu_count; ++g) {
      for (const Resident& resident : cluster_.gpu(g).residents) {
        const auto cls = class_of(resident.ask.resource, resident.ask.requested);
        if (std::find(classes.begin(), classes.end(), cls) == classes.end()) classes.push_back(cls);
        if (cls == target) ++result.pods_of_same_class;
      }
    }
    result.distinct_classes = static_cast<std::int64_t>(classes.size());
    return result;
  }

  // FGD's target workload: shapes placed so far (delta = +1 before choosing, -1 when the pod
  // found no node, 0 when it was placed).
  void count_shape(const PodShape& pod, int delta) {
    if (delta == 0) return;
    const std::int64_t capacity = typical_capacity(pod.gpu_resource);
    const PlacementPodRequest r = request_of(pod, capacity);
    const auto key = std::make_tuple(r.num_gpu, r.gpu_milli, r.cpu_milli);
    std::int64_t& count = counts_[key];
    count += delta;
    workload_.classes.clear();
    workload_.total_weight = 0;
    for (const auto& [k, n] : counts_) {
      if (n <= 0) continue;
      WorkloadClass m;
      m.num_gpu = std::get<0>(k);
      m.gpu_milli = std::get<1>(k);
      m.cpu_milli = std::get<2>(k);
      m.weight = n;
      workload_.classes.push_back(m);
      workload_.total_weight += n;
    }
  }
  std::int64_t typical_capacity(ResourceId resource) const {
    for (const Gpu& gpu : cluster_.gpus()) {
      const std::int64_t c = capacity_of(gpu, resource);
      if (c > 0) return c;
    }
    return 1;
  }

  const Cluster& cluster_;
  Formula formula_;
  TargetWorkload workload_;
  FgdScorer fgd_;
  std::map<std::tuple<std::int32_t, std::int32_t, std::int64_t>, std::int64_t> counts_;
  std::vector<std::int32_t> gpu_free_;
  std::vector<std::pair<std::int64_t, std::uint32_t>> order_;
};

}  // namespace

std::unique_ptr<PlacementPolicy> make_dot_product_placement(const Cluster& cluster) {
  return std::make_unique<ScoredPlacement>(cluster, Formula::kDotProduct);
}
std::unique_ptr<PlacementPolicy> make_best_fit_placement(const Cluster& cluster) {
  return std::make_unique<ScoredPlacement>(cluster, Formula::kBestFit);
}
std::unique_ptr<PlacementPolicy> make_gpu_packing_placement(const Cluster& cluster) {
  return std::make_unique<ScoredPlacement>(cluster, Formula::kGpuPacking);
}
std::unique_ptr<PlacementPolicy> make_gpu_clustering_placement(const Cluster& cluster) {
  return std::make_unique<ScoredPlacement>(cluster, Formula::kGpuClustering);
}
std::unique_ptr<PlacementPolicy> make_gpu_clustering_milli_placement(const Cluster& cluster) {
  return std::make_unique<ScoredPlacement>(cluster, Formula::kGpuClusteringMilli);
}
std::unique_ptr<PlacementPolicy> make_fgd_placement(const Cluster& cluster) {
  return std::make_unique<ScoredPlacement>(cluster, Formula::kFgd);
}

}  // namespace sharesim
