#include "sim/runtime/gpu_repartitioner.h"

#include <algorithm>
#include <numeric>

#include "sim/core/assert.h"

namespace sharesim {

GpuRepartitioner::GpuRepartitioner(Simulator& sim, Cluster& cluster, Scheduler& scheduler, const ShapeTable& shapes,
                                   Listener& listener)
    : sim_(sim), cluster_(cluster), scheduler_(scheduler), shapes_(shapes), listener_(listener) {
  done_handler_.owner = this;
  for (const Gpu& gpu : cluster.gpus()) enabled_ = enabled_ || gpu.sharing->repartitioning() != nullptr;
}

void GpuRepartitioner::begin_plan() {
  considered_.clear();
  for (const auto& [gpu, plan] : repartitions_) considered_.push_back(plan.ask.resource);
}

void GpuRepartitioner::consider(std::uint32_t job, const PodShape& shape, std::uint32_t pods) {
  if (shape.gpu_units == 0) return;
  // One repartitioning under way per resource.
  if (std::find(considered_.begin(), considered_.end(), shape.gpu_resource) != considered_.end()) return;
  considered_.push_back(shape.gpu_resource);
  const DeviceAsk ask{shape.gpu_resource, shape.gpu_units, shape.gpu_units, shape.gpu_per_device};
  // The pods the resource offered now (busy or free, on GPUs not being drained) could hold, a
  // pod's units all on one node: while they hold the whole job, it waits for busy instances
  // rather than drain GPUs that serve other pods. Only a job they cannot hold, a pod asking
  // more instances than a node offers or a gang larger than the offer, drains a GPU, and only
  // one whose new layout lets its node hold one more pod of the job.
  const auto units_offered = [&](const Node& node) {
    std::int64_t units = 0;
    for (std::uint32_t g = node.first_gpu; g < node.first_gpu + node.gpu_count; ++g) {
      if (!cluster_.gpu(g).draining) units += cluster_.gpu(g).capacity(shape.gpu_resource);
    }
    return units;
  };
  std::int64_t pods_offered = 0;
  for (const Node& node : cluster_.nodes()) {
    if (scheduler_.node_may_host(shape, node)) pods_offered += units_offered(node) / shape.gpu_units;
    if (pods_offered >= static_cast<std::int64_t>(pods)) return;  // usually at the first node offering it
  }
  // Of the GPUs whose new layout adds units on a node whose GPUs, all laid out for the
  // resource, would hold one more pod than it does now: the one on the node that offers the
  // most units already (closest to holding a pod), then with the fewest residents.
  const auto most_units = [&](const Gpu& gpu) {
    const GpuRepartitioning* repartitioning = gpu.sharing->repartitioning();
    return repartitioning != nullptr && repartitioning->can_repartition_for(ask) ? repartitioning->most_units_for(ask)
                                                                                 : gpu.capacity(shape.gpu_resource);
  };
  const Gpu* chosen = nullptr;
  std::int64_t chosen_node_units = 0;
  std::vector<std::int64_t> gpu_most;  // most_units of each GPU of the node (a layout parse each)
  for (const Node& node : cluster_.nodes()) {
    if (!scheduler_.node_may_host(shape, node)) continue;
    const std::int64_t node_units = units_offered(node);
    gpu_most.clear();
    for (std::uint32_t g = node.first_gpu; g < node.first_gpu + node.gpu_count; ++g) {
      gpu_most.push_back(most_units(cluster_.gpu(g)));
    }
    const std::int64_t node_most = std::accumulate(gpu_most.begin(), gpu_most.end(), std::int64_t{0});
    if (node_most / shape.gpu_units <= node_units / shape.gpu_units) continue;
    for (std::uint32_t g = node.first_gpu; g < node.first_gpu + node.gpu_count; ++g) {
      const Gpu& gpu = cluster_.gpu(g);
      // A GPU that cannot be laid out for the resource counts its capacity: it adds nothing.
      if (gpu.draining || gpu_most[g - node.first_gpu] <= gpu.capacity(shape.gpu_resource)) continue;
      if (chosen == nullptr || node_units > chosen_node_units ||
          (node_units == chosen_node_units && gpu.residents.size() < chosen->residents.size())) {
        chosen = &gpu;
        chosen_node_units = node_units;
      }
    }
  }
  if (chosen == nullptr) return;
  const std::uint32_t g = chosen->index;
  cluster_.gpu(g).draining = true;
  // As many units as the pod still lacks on that node, or all it asks for when that is fewer.
  const std::int64_t lacking = shape.gpu_units - chosen_node_units % shape.gpu_units;
  repartitions_[g] =
      Repartition{DeviceAsk{shape.gpu_resource, lacking, shape.gpu_units, shape.gpu_per_device}, job, sim_.now(), -1};
  listener_.draining(job, "drain " + cluster_.node(chosen->node).name + " GPU " + std::to_string(chosen->local_index) +
                              " to offer " + cluster_.resource_names().name(shape.gpu_resource));
  if (chosen->residents.empty()) begin_reconfiguration(g);
}

void GpuRepartitioner::begin_reconfiguration(std::uint32_t gpu) {
  Repartition& plan = repartitions_.at(gpu);
  if (plan.reconfigure_start >= 0) return;
  SHARESIM_ASSERT(cluster_.gpu(gpu).residents.empty(), "reconfiguring a GPU that still holds pods");
  plan.reconfigure_start = sim_.now();
  cluster_.withdraw_resources(gpu);
  scheduler_.node_changed(cluster_.gpu(gpu).node);
  sim_.schedule_in(cluster_.gpu(gpu).sharing->repartitioning()->repartition_time(), done_handler_, gpu);
}

void GpuRepartitioner::on_repartitioned(std::uint32_t gpu_index) {
  const Repartition plan = repartitions_.at(gpu_index);
  repartitions_.erase(gpu_index);
  Gpu& gpu = cluster_.gpu(gpu_index);
  gpu.sharing->repartitioning()->repartition_for(plan.ask);
  cluster_.advertise_resources(gpu_index);
  gpu.draining = false;
  scheduler_.node_changed(gpu.node);
  listener_.repartitioned(gpu_index, plan.trigger, plan.drain_start, plan.reconfigure_start,
                          cluster_.node(gpu.node).name + " GPU " + std::to_string(gpu.local_index) + " now offers " +
                              cluster_.resource_names().name(plan.ask.resource));
}

}  // namespace sharesim
