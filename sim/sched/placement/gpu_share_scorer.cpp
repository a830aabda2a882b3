#include "sim/sched/placement/gpu_share_scorer.h"

#include <algorithm>
#include <limits>

#include "sim/sched/placement/best_fit_score.h"
#include "sim/sched/placement/dot_product_score.h"
#include "sim/sched/placement/gpu_packing_score.h"

namespace sharesim {
namespace {

std::int64_t capacity_of(const Gpu& gpu, ResourceId resource) {
  for (std::size_t i = 0; i < gpu.resource_count; ++i) {
    if (gpu.resources[i].resource == resource) return gpu.resources[i].capacity;
  }
  return 0;
}

}  // namespace

std::string_view gpu_share_formula_name(GpuShareFormula formula) {
  switch (formula) {
    case GpuShareFormula::kDotProduct:
      return "dot-product";
    case GpuShareFormula::kBestFit:
      return "best-fit";
    case GpuShareFormula::kGpuPacking:
      return "gpu-packing";
    case GpuShareFormula::kGpuClustering:
      return "gpu-clustering";
    case GpuShareFormula::kGpuClusteringMilli:
      return "gpu-clustering-milli";
    case GpuShareFormula::kFgd:
      return "fgd";
  }
  return "";
}

std::int64_t GpuShareScorer::node_capacity(const Node& node, ResourceId resource) const {
  std::int64_t capacity = 0;
  for (std::uint32_t g = node.first_gpu; g < node.first_gpu + node.gpu_count; ++g)
    capacity = std::max(capacity, capacity_of(cluster_.gpu(g), resource));
  return capacity;
}

std::int64_t GpuShareScorer::score(const Node& node, const PodShape& pod) {
  gpu_free_.clear();
  std::int64_t capacity = 0;  // node_capacity(), found in the same pass over the node's GPUs
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
    case GpuShareFormula::kDotProduct:
      return dot_product_score(view, request);
    case GpuShareFormula::kBestFit:
      return best_fit_raw_score(view, request);
    case GpuShareFormula::kGpuPacking:
      return gpu_packing_score(view, request);
    case GpuShareFormula::kGpuClustering:
      return gpu_clustering_score(view, request, census(node, pod, capacity, GpuClassing::kArtifact));
    case GpuShareFormula::kGpuClusteringMilli:
      return gpu_clustering_score(view, request, census(node, pod, capacity, GpuClassing::kPerMilli));
    case GpuShareFormula::kFgd:
      if (!pod_fits_node(view, request)) return 0;
      if (scoring_) count_scored_pod(class_of(request));  // the pod's shape on this node
      return fgd_.score(view, request).score;
  }
  return 0;
}

PlacementPodRequest GpuShareScorer::request_of(const PodShape& pod, std::int64_t capacity) {
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
// per-milli grouping; under kArtifact every ask of less than one GPU's units is one class. "One
// GPU's units" is the capacity of the resident's own GPU, and for the pod being scored the
// node's `capacity`. (Taking the capacity of the cluster's first GPU offering the resource made
// a pod asking 2 of a GPU's 4 time-slicing replicas a whole-GPU pod when a pool of 2 replicas
// came first: audit gc.json.)
GpuClassCensus GpuShareScorer::census(const Node& node, const PodShape& pod, std::int64_t capacity,
                                      GpuClassing classing) const {
  const auto class_of = [&](ResourceId resource, std::int64_t units,
                            std::int64_t gpu_capacity) -> std::pair<ResourceId, std::int64_t> {
    if (classing == GpuClassing::kArtifact && units < gpu_capacity) return {std::numeric_limits<ResourceId>::max(), 0};
    return {resource, units};
  };
  const auto target = class_of(pod.gpu_resource, pod.gpu_units, capacity);
  std::vector<std::pair<ResourceId, std::int64_t>> classes;
  GpuClassCensus result;
  for (std::uint32_t g = node.first_gpu; g < node.first_gpu + node.gpu_count; ++g) {
    const Gpu& gpu = cluster_.gpu(g);
    for (const Resident& resident : gpu.residents) {
      const auto cls = class_of(resident.ask.resource, resident.ask.requested, capacity_of(gpu, resident.ask.resource));
      if (std::find(classes.begin(), classes.end(), cls) == classes.end()) classes.push_back(cls);
      if (cls == target) ++result.pods_of_same_class;
    }
  }
  result.distinct_classes = static_cast<std::int64_t>(classes.size());
  return result;
}

GpuShareScorer::ShapeClass GpuShareScorer::class_of(const PlacementPodRequest& request) {
  return {request.num_gpu, request.gpu_milli, request.cpu_milli};
}

void GpuShareScorer::begin(const PodShape& /*pod*/) { scoring_ = formula_ == GpuShareFormula::kFgd; }

void GpuShareScorer::end(const PodShape& pod, std::optional<std::uint32_t> node) {
  if (!scoring_) return;
  scoring_ = false;
  std::optional<ShapeClass> placed;
  if (node) placed = class_of(request_of(pod, node_capacity(cluster_.node(*node), pod.gpu_resource)));
  count_scored_pod(placed);
  scored_class_.reset();  // a placed pod stays counted
}

void GpuShareScorer::withdraw(const PodShape& pod, std::uint32_t node) {
  if (formula_ != GpuShareFormula::kFgd) return;
  count(class_of(request_of(pod, node_capacity(cluster_.node(node), pod.gpu_resource))), -1);
}

void GpuShareScorer::count_scored_pod(const std::optional<ShapeClass>& shape_class) {
  if (shape_class == scored_class_) return;  // one class for all nodes: the workload stays as it is
  if (scored_class_) count(*scored_class_, -1);
  if (shape_class) count(*shape_class, 1);
  scored_class_ = shape_class;
}

void GpuShareScorer::count(const ShapeClass& shape_class, int delta) {
  std::int64_t& n = counts_[shape_class];
  n += delta;
  workload_.classes.clear();
  workload_.total_weight = 0;
  for (const auto& [k, weight] : counts_) {
    if (weight <= 0) continue;
    WorkloadClass m;
    m.num_gpu = std::get<0>(k);
    m.gpu_milli = std::get<1>(k);
    m.cpu_milli = std::get<2>(k);
    m.weight = weight;
    workload_.classes.push_back(m);
    workload_.total_weight += weight;
  }
}

}  // namespace sharesim
