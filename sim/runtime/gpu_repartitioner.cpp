#include "sim/runtime/gpu_repartitioner.h"

#include <algorithm>

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

void GpuRepartitioner::consider(std::uint32_t job, const PodShape& shape) {
  if (shape.gpu_units == 0) return;
  // One repartitioning under way per resource; and none while some GPU offers the resource
  // at all (the pod waits for it, rather than drain GPUs that serve other pods).
  if (std::find(considered_.begin(), considered_.end(), shape.gpu_resource) != considered_.end()) return;
  considered_.push_back(shape.gpu_resource);
  const DeviceAsk ask{shape.gpu_resource, 1, shape.gpu_units, shape.gpu_per_device};
  const Gpu* chosen = nullptr;
  for (const Gpu& gpu : cluster_.gpus()) {
    if (gpu.advertises(shape.gpu_resource)) return;
    if (gpu.draining || !scheduler_.node_may_host(shape, cluster_.node(gpu.node))) continue;
    const GpuRepartitioning* repartitioning = gpu.sharing->repartitioning();
    if (repartitioning == nullptr || !repartitioning->can_repartition_for(ask)) continue;
    if (chosen == nullptr || gpu.residents.size() < chosen->residents.size()) chosen = &gpu;
  }
  if (chosen == nullptr) return;
  const std::uint32_t g = chosen->index;
  cluster_.gpu(g).draining = true;
  repartitions_[g] = Repartition{ask, job, sim_.now(), -1};
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
