#include "sim/cluster/cluster.h"

#include <algorithm>
#include <stdexcept>

#include "sim/core/assert.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "sim/input/json_pointer.h"

namespace sharesim {

Cluster::Cluster(const std::vector<NodePoolSpec>& pools, const GpuCatalog& catalog, const SharingFactory& make_sharing,
                 const std::string& scenario_file) {
  names_.intern(kNvidiaGpu);  // always id 0, even on a CPU-only cluster
  // Sized once: 100,000 GPU records (four cache lines each) grown by doubling went through 17
  // reallocations into fresh pages; a 100,000-GPU cluster took 0.59-0.63 s to set up, 0.39-0.43 s
  // sized once (docs/ci.md).
  std::size_t node_total = 0, gpu_total = 0;
  for (const NodePoolSpec& spec : pools) {
    node_total += static_cast<std::size_t>(spec.nodes);
    gpu_total += static_cast<std::size_t>(spec.nodes) * static_cast<std::size_t>(spec.gpus_per_node);
  }
  nodes_.reserve(node_total);
  gpus_.reserve(gpu_total);
  std::vector<std::uint32_t> rack_of_node;
  rack_of_node.reserve(node_total);
  std::uint32_t rack_base = 0;
  for (const NodePoolSpec& spec : pools) {
    const GpuModel* model = catalog.find(spec.gpu);
    if (model == nullptr) {
      throw InputError(scenario_file, spec.pointer + "/gpu", unknown_gpu_model_problem(spec.gpu, catalog));
    }
    TopologyKind kind = TopologyKind::Pcie;
    if (!parse_topology_kind(spec.topology, kind)) {
      throw InputError(scenario_file, spec.pointer + "/topology",
                       "expected one of \"nvswitch\", \"nvlink-pairs\", \"pcie\", found \"" + spec.topology + "\"");
    }
    NodePool pool;
    pool.name = spec.name;
    pool.gpu = model;
    pool.first_node = static_cast<std::uint32_t>(nodes_.size());
    pool.first_gpu = static_cast<std::uint32_t>(gpus_.size());
    pool.node_count = static_cast<std::uint32_t>(spec.nodes);
    pool.gpus_per_node = static_cast<std::uint32_t>(spec.gpus_per_node);
    pool.policy = spec.sharing.value("policy", "");
    pool.sharing = spec.sharing;
    pool.taints = spec.taints;
    pool.topology = std::make_shared<NodeTopology>(kind, pool.gpus_per_node);
    const auto pool_index = static_cast<std::uint32_t>(pools_.size());
    // The pool's policy object, made (and its `sharing` config checked) even for a pool without
    // GPUs. Its interface is const but for repartitioning(), so a policy that never repartitions
    // keeps no state of one GPU: all GPUs of the pool share it. Placement and every job start
    // and end then read one object that stays in the caches instead of one per GPU (issue 16,
    // docs/ci.md "2026-11-27, fourth stop").
    policies_.push_back(make_sharing(spec, *model, names_));
    GpuSharing* const pool_policy = policies_.back().get();
    const bool one_per_gpu = pool_policy->repartitioning() != nullptr;
    // Compared as int64 before any narrowing: nodes_per_rack at or above the node count is one
    // rack (docs/scenario.md), where a cast to uint32 made 2^32 a 0 to divide by and 2^32 + 1 a 1.
    const std::uint32_t per_rack = std::max<std::uint32_t>(
        1, spec.nodes_per_rack > 0 && spec.nodes_per_rack < spec.nodes ? static_cast<std::uint32_t>(spec.nodes_per_rack)
                                                                       : pool.node_count);
    for (std::uint32_t n = 0; n < pool.node_count; ++n) {
      Node node;
      node.index = static_cast<std::uint32_t>(nodes_.size());
      node.name = spec.name + "-" + std::to_string(n);
      node.pool = pool_index;
      node.first_gpu = static_cast<std::uint32_t>(gpus_.size());
      node.gpu_count = pool.gpus_per_node;
      node.cpu_milli = spec.cpu_milli;
      node.memory_mib = spec.memory_mib;
      // Labels GPU feature discovery sets (NVIDIA gpu-feature-discovery README), and the
      // kubelet's hostname; the policy adds its own (add_feature_labels, below).
      if (pool.gpus_per_node > 0) {
        node.labels["nvidia.com/gpu.product"] = model->product;
        node.labels["nvidia.com/gpu.count"] = std::to_string(pool.gpus_per_node);
        node.labels["nvidia.com/gpu.memory"] = std::to_string(model->memory_mib);
      }
      node.labels["kubernetes.io/hostname"] = node.name;
      for (std::uint32_t g = 0; g < pool.gpus_per_node; ++g) {
        Gpu gpu;
        gpu.index = static_cast<std::uint32_t>(gpus_.size());
        gpu.node = node.index;
        gpu.local_index = g;
        gpu.model = model;
        const bool first_of_pool = n == 0 && g == 0;
        if (one_per_gpu && !first_of_pool) policies_.push_back(make_sharing(spec, *model, names_));
        gpu.sharing = one_per_gpu ? policies_.back().get() : pool_policy;
        set_advertised(gpu);
        gpus_.push_back(std::move(gpu));
      }
      if (pool.gpus_per_node > 0) gpus_[node.first_gpu].sharing->add_feature_labels(node.labels, pool.gpus_per_node);
      if (n == 0) refuse_labels_set_by_cluster(spec, node, scenario_file);
      node.labels.insert(spec.labels.begin(), spec.labels.end());  // the pool's own, beside the cluster's
      rack_of_node.push_back(rack_base + n / per_rack);
      nodes_.push_back(std::move(node));
    }
    rack_base += (pool.node_count + per_rack - 1) / per_rack;
    pools_.push_back(std::move(pool));
  }
  // Node totals are sums over their GPUs, a row for every resource name interned above.
  resources_per_node_ = names_.size();
  node_capacity_.assign(nodes_.size() * resources_per_node_, 0);
  node_allocated_.assign(nodes_.size() * resources_per_node_, 0);
  for (Node& node : nodes_) {
    for (std::uint32_t g = node.first_gpu; g < node.first_gpu + node.gpu_count; ++g) {
      for (std::size_t r = 0; r < gpus_[g].resource_count; ++r) {
        node_capacity_[node_entry(node.index, gpus_[g].resources[r].resource)] += gpus_[g].resources[r].capacity;
      }
    }
    node.resource_capacity = {node_capacity_.data() + node_entry(node.index, 0), resources_per_node_};
    node.resource_allocated = {node_allocated_.data() + node_entry(node.index, 0), resources_per_node_};
  }
  network_ = std::make_unique<NetworkTopology>(rack_of_node);
}

// A pool label on a key the cluster sets itself would be overwritten on every node (a
// hostname "gpu-box" vanished and a node selector on it matched nothing): on a real node the
// kubelet sets kubernetes.io/hostname and GPU feature discovery its nvidia.com/gpu.* labels,
// whatever else labelled the node. `node`, the pool's first, holds the cluster's labels only;
// the keys they have are those of every node of the pool.
void Cluster::refuse_labels_set_by_cluster(const NodePoolSpec& spec, const Node& node,
                                           const std::string& scenario_file) {
  for (const auto& [key, value] : spec.labels) {
    const auto set = node.labels.find(key);
    if (set == node.labels.end()) continue;
    throw InputError(scenario_file, pointer_append(spec.pointer + "/labels", key),
                     "expected a label the cluster does not set itself, found " + quote(key) +
                         " (the cluster gives node " + quote(node.name) + " " + quote(set->second) +
                         ", as the kubelet sets kubernetes.io/hostname and GPU feature discovery nvidia.com/gpu.*; "
                         "docs/kubernetes.md \"Node labels\")");
  }
}

void Cluster::set_advertised(Gpu& gpu) {
  const std::vector<ResourceQuantity> advertised = gpu.sharing->advertise();
  if (advertised.size() > Gpu::kMaxResources) {
    throw std::logic_error("a sharing policy advertised more than 8 resources on one GPU");
  }
  gpu.resource_count = 0;
  for (const ResourceQuantity& q : advertised) gpu.resources[gpu.resource_count++] = {q.resource, q.quantity, 0};
}

void Cluster::withdraw_resources(std::uint32_t gpu_index) {
  Gpu& gpu = gpus_[gpu_index];
  if (!gpu.residents.empty()) throw std::logic_error("withdrawing the resources of a GPU in use");
  for (std::size_t r = 0; r < gpu.resource_count; ++r) {
    node_capacity_[node_entry(gpu.node, gpu.resources[r].resource)] -= gpu.resources[r].capacity;
  }
  gpu.resource_count = 0;
}

void Cluster::advertise_resources(std::uint32_t gpu_index) {
  Gpu& gpu = gpus_[gpu_index];
  set_advertised(gpu);
  for (std::size_t r = 0; r < gpu.resource_count; ++r) {
    // Every name a policy can advertise was interned when it was made, so the node's row has it.
    if (gpu.resources[r].resource >= resources_per_node_) {
      throw std::logic_error("a GPU advertised a resource named after the cluster was built");
    }
    node_capacity_[node_entry(gpu.node, gpu.resources[r].resource)] += gpu.resources[r].capacity;
  }
}

void Cluster::allocate_units(std::uint32_t gpu_index, ResourceId resource, std::int64_t units) {
  Gpu& g = gpus_[gpu_index];
  GpuResource* slot = g.find_resource(resource);
  if (slot == nullptr) throw std::logic_error("GPU does not advertise the resource being allocated");
  if (slot->allocated + units > slot->capacity) throw std::logic_error("GPU resource over-allocated");
  slot->allocated += units;
  node_allocated_[node_entry(g.node, resource)] += units;
}

void Cluster::release_units(std::uint32_t gpu_index, ResourceId resource, std::int64_t units) {
  Gpu& g = gpus_[gpu_index];
  GpuResource* slot = g.find_resource(resource);
  if (slot == nullptr) throw std::logic_error("GPU does not advertise the resource being released");
  SHARESIM_ASSERT(units >= 0 && slot->allocated >= units, "a GPU released more units than were allocated on it");
  slot->allocated -= units;
  std::int64_t& on_node = node_allocated_[node_entry(g.node, resource)];
  on_node -= units;
  SHARESIM_ASSERT(on_node >= 0, "a node's allocated units went negative");
}

void Cluster::allocate_pod_units(const PodClaim& claim, const PodPlacement& pod,
                                 const std::vector<DeviceAllocation>& devices) {
  Node& node = nodes_[pod.node];
  node.cpu_allocated += claim.cpu_milli;
  node.memory_allocated += claim.memory_mib;
  for (std::uint32_t d = pod.first_device; d < pod.first_device + pod.device_count; ++d) {
    SHARESIM_ASSERT(gpus_[devices[d].gpu].node == pod.node, "a pod holds a device of another node");
    allocate_units(devices[d].gpu, claim.resource, devices[d].units);
    // Per-device quantities the GPU advertises are booked here; the others are its policy's.
    for (const ResourceQuantity& q : claim.per_device.view()) {
      if (gpus_[devices[d].gpu].advertises(q.resource)) allocate_units(devices[d].gpu, q.resource, q.quantity);
    }
  }
}

void Cluster::release_pod_units(const PodClaim& claim, const PodPlacement& pod,
                                const std::vector<DeviceAllocation>& devices) {
  Node& node = nodes_[pod.node];
  node.cpu_allocated -= claim.cpu_milli;
  node.memory_allocated -= claim.memory_mib;
  SHARESIM_ASSERT(node.cpu_allocated >= 0 && node.memory_allocated >= 0,
                  "a node's allocated cpu or memory went negative");
  for (std::uint32_t d = pod.first_device; d < pod.first_device + pod.device_count; ++d) {
    release_units(devices[d].gpu, claim.resource, devices[d].units);
    for (const ResourceQuantity& q : claim.per_device.view()) {
      if (gpus_[devices[d].gpu].advertises(q.resource)) release_units(devices[d].gpu, q.resource, q.quantity);
    }
  }
}

void Cluster::place(std::uint32_t task, const PodClaim& claim, std::span<const PodPlacement> pods,
                    const std::vector<DeviceAllocation>& devices) {
  for (const PodPlacement& pod : pods) allocate_pod_units(claim, pod, devices);
  for (const PodPlacement& pod : pods) {
    for (std::uint32_t d = pod.first_device; d < pod.first_device + pod.device_count; ++d) {
      Gpu& gpu = gpus_[devices[d].gpu];
      const DeviceAsk ask = claim.ask_on(devices[d]);
      const std::uint32_t slots = gpu.sharing->choose_slots(ask, gpu.residents);
      gpu.residents.push_back(Resident{task, slots, 0.0, claim.demand, ask});
    }
  }
}

void Cluster::release(std::uint32_t task, const PodClaim& claim, std::span<const PodPlacement> pods,
                      const std::vector<DeviceAllocation>& devices) {
  [[maybe_unused]] std::size_t devices_held = 0;
  [[maybe_unused]] std::size_t residents_removed = 0;
  for (const PodPlacement& pod : pods) {
    devices_held += pod.device_count;
    for (std::uint32_t d = pod.first_device; d < pod.first_device + pod.device_count; ++d) {
      // the others keep their arrival order, which round-robin policies use
      residents_removed +=
          gpus_[devices[d].gpu].residents.erase_if([task](const Resident& r) { return r.task == task; });
    }
  }
  // place() made one resident per device; two pods of a gang on one GPU are two residents
  // there, both removed at the first of their devices.
  SHARESIM_ASSERT(residents_removed == devices_held, "a job's residents do not match the devices it holds");
  for (const PodPlacement& pod : pods) release_pod_units(claim, pod, devices);
}

}  // namespace sharesim
