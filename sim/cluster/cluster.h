#pragma once
// The cluster model: node pools, nodes, GPUs, their sharing-policy objects and the
// topology graphs. Holds allocation state; the scheduler decides, the runtime executes.
//
// A placement is booked in one place: place() takes a job's units on its nodes and devices
// and makes it a resident of each device together, release() undoes both, so that a GPU's
// `residents` always match the units allocated on it.
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim/cluster/gpu_catalog.h"
#include "sim/cluster/gpu_sharing.h"
#include "sim/cluster/network_topology.h"
#include "sim/cluster/node_topology.h"
#include "sim/cluster/pod_placement.h"
#include "sim/cluster/resident_list.h"
#include "sim/cluster/resource_names.h"
#include "sim/cluster/node_pool_spec.h"

namespace sharesim {

// One advertised extended resource of a GPU and how much of it pods hold.
struct GpuResource {
  ResourceId resource = 0;
  std::int64_t capacity = 0;
  std::int64_t allocated = 0;
};

// Placement scans a node's GPUs, and a job's start and end each read a GPU of thousands, most
// likely not in the caches: what placement reads (the policy, whether it is draining, the index
// and the device resource) fills the first cache line (issue 16, docs/ci.md: on 100,000 GPUs,
// the simulated cache misses of a run fell by a tenth), and the residents' count and the first
// resident's job share another (ResidentList; both tested by GpuLayout.*).
struct alignas(64) Gpu {
  // Owned by the Cluster, and shared by every GPU of its pool unless the policy repartitions
  // GPUs (see Cluster::Cluster).
  GpuSharing* sharing = nullptr;
  std::uint16_t resource_count = 0;  // at most kMaxResources
  bool draining = false;             // takes no new pods: it is being emptied to be repartitioned
  std::uint32_t index = 0;           // cluster-wide
  // What sharing->advertise() said, held inline: placement reads it for every candidate GPU.
  static constexpr std::size_t kMaxResources = 8;
  std::array<GpuResource, kMaxResources> resources{};
  std::uint32_t node = 0;
  std::uint32_t local_index = 0;  // index within its node
  const GpuModel* model = nullptr;
  ResidentList residents;

  // The advertised entry of `resource`, nullptr when this GPU does not offer it.
  const GpuResource* find_resource(ResourceId resource) const {
    for (std::size_t i = 0; i < resource_count; ++i) {
      if (resources[i].resource == resource) return &resources[i];
    }
    return nullptr;
  }
  GpuResource* find_resource(ResourceId resource) {
    return const_cast<GpuResource*>(std::as_const(*this).find_resource(resource));
  }
  bool advertises(ResourceId resource) const { return find_resource(resource) != nullptr; }
  std::int64_t capacity(ResourceId resource) const {
    const GpuResource* r = find_resource(resource);
    return r != nullptr ? r->capacity : 0;
  }
  std::int64_t free_units(ResourceId resource) const {
    const GpuResource* r = find_resource(resource);
    return r != nullptr ? r->capacity - r->allocated : 0;
  }
};

struct Node {
  std::uint32_t index = 0;
  std::string name;
  std::uint32_t pool = 0;
  std::uint32_t first_gpu = 0;
  std::uint32_t gpu_count = 0;
  std::int64_t cpu_milli = 0;
  std::int64_t memory_mib = 0;
  std::int64_t cpu_allocated = 0;
  std::int64_t memory_allocated = 0;
  // By ResourceId: the units its GPUs advertise and the units pods hold. Views of this node's
  // rows of the Cluster's two tables, which hold every node's counts (Cluster::Cluster): a
  // job's end finds its node's row from the node's index alone, so the row is fetched with
  // the rest of the job's placement instead of after the node record (issue 16, docs/ci.md
  // 2026-11-28). Only the Cluster writes them.
  std::span<const std::int64_t> resource_capacity;
  std::span<const std::int64_t> resource_allocated;
  std::map<std::string, std::string> labels;

  std::int64_t free_resource(ResourceId id) const {
    return id < resource_capacity.size() ? resource_capacity[id] - resource_allocated[id] : 0;
  }
};

struct NodePool {
  std::string name;
  const GpuModel* gpu = nullptr;
  std::uint32_t first_node = 0;
  std::uint32_t node_count = 0;
  std::uint32_t gpus_per_node = 0;
  std::uint32_t first_gpu = 0;  // its node_count * gpus_per_node GPUs are numbered from here, node by node
  std::string policy;  // sharing policy name, for reports
  std::shared_ptr<const NodeTopology> topology;
  nlohmann::json sharing;  // the pool's sharing config as given
  std::vector<Taint> taints;
};

// Makes the sharing-policy object of one GPU. Supplied by policies/ (sim/ knows none).
// Throws InputError for a bad `sharing` config (it knows the pool's JSON pointer).
using SharingFactory =
    std::function<std::unique_ptr<GpuSharing>(const NodePoolSpec& pool, const GpuModel& model, ResourceNames& names)>;

class Cluster {
 public:
  Cluster(const std::vector<NodePoolSpec>& pools, const GpuCatalog& catalog, const SharingFactory& make_sharing,
          const std::string& scenario_file);

  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<Gpu>& gpus() const { return gpus_; }
  const std::vector<NodePool>& pools() const { return pools_; }
  Node& node(std::uint32_t i) { return nodes_[i]; }
  Gpu& gpu(std::uint32_t i) { return gpus_[i]; }
  const Node& node(std::uint32_t i) const { return nodes_[i]; }
  const Gpu& gpu(std::uint32_t i) const { return gpus_[i]; }
  const NodePool& pool_of(const Node& n) const { return pools_[n.pool]; }
  const NodeTopology& topology_of(const Node& n) const { return *pools_[n.pool].topology; }
  const NetworkTopology& network() const { return *network_; }
  ResourceNames& resource_names() { return names_; }
  const ResourceNames& resource_names() const { return names_; }

  // A job's placement as one operation: for every pod, its cpu and memory on the node, its
  // units and per-device quantities on each device, and the job (`task`) as a resident of each
  // device, in device order (the policy chooses its slots as it joins). `devices` holds the
  // ranges the pods name.
  void place(std::uint32_t task, const PodClaim& claim, std::span<const PodPlacement> pods,
             const std::vector<DeviceAllocation>& devices);
  // Undoes place(): the job leaves the residents of its devices (the others keep their order,
  // which round-robin policies use) and its units go back.
  void release(std::uint32_t task, const PodClaim& claim, std::span<const PodPlacement> pods,
               const std::vector<DeviceAllocation>& devices);
  // One pod's units without residents, for the preemption dry run, which takes running pods
  // off a node and puts them back (it restores the residents itself).
  void allocate_pod_units(const PodClaim& claim, const PodPlacement& pod, const std::vector<DeviceAllocation>& devices);
  void release_pod_units(const PodClaim& claim, const PodPlacement& pod, const std::vector<DeviceAllocation>& devices);

  // The node of GPU `gpu`, from the pools' GPU ranges alone: no node or GPU record is read,
  // so a job's end can ask for its node's counts at once. The index of a GPU of this cluster.
  std::uint32_t node_of_gpu(std::uint32_t gpu) const {
    for (const NodePool& pool : pools_) {
      const std::uint32_t offset = gpu - pool.first_gpu;  // wraps around below the pool
      if (offset < pool.node_count * pool.gpus_per_node) return pool.first_node + offset / pool.gpus_per_node;
    }
    throw std::logic_error("node_of_gpu: no such GPU");
  }
  // Asks for the cache lines a job's end on `node` writes: its cpu and memory counts and its
  // row of units (ClusterRuntime::prefetch_placement, with the job's pod, device and GPU).
  void prefetch_node_counts(std::uint32_t node) const {
    __builtin_prefetch(&nodes_[node].cpu_allocated, 1);
    __builtin_prefetch(node_allocated_.data() + node_entry(node, 0), 1);
  }

  // Takes/returns `units` of `resource` on one GPU (and its node's totals).
  void allocate_units(std::uint32_t gpu, ResourceId resource, std::int64_t units);
  void release_units(std::uint32_t gpu, ResourceId resource, std::int64_t units);
  // Takes an empty GPU's resources out of its node's allocatable (while it is repartitioned),
  // and puts back what its policy advertises now.
  void withdraw_resources(std::uint32_t gpu);
  void advertise_resources(std::uint32_t gpu);

 private:
  // Fills gpu.resources from what its policy advertises.
  static void set_advertised(Gpu& gpu);
  // Throws InputError at /cluster/node_pools/N/labels/KEY for a pool label whose key the
  // cluster or the pool's policy set on `node` (the pool's first, before its own labels).
  static void refuse_labels_set_by_cluster(const NodePoolSpec& spec, const Node& node,
                                           const std::string& scenario_file);

  std::vector<NodePool> pools_;
  std::vector<std::unique_ptr<GpuSharing>> policies_;  // what the GPUs' `sharing` point to
  // This node's entry of `resource` in node_capacity_ or node_allocated_.
  std::size_t node_entry(std::uint32_t node, ResourceId resource) const {
    return std::size_t{node} * resources_per_node_ + resource;
  }

  std::vector<Node> nodes_;
  std::vector<Gpu> gpus_;
  ResourceNames names_;
  // Every node's units by resource, a row of resources_per_node_ (the resource names known
  // when the cluster was built) per node, which Node::resource_capacity and
  // resource_allocated view.
  std::vector<std::int64_t> node_capacity_;
  std::vector<std::int64_t> node_allocated_;
  std::size_t resources_per_node_ = 0;
  std::unique_ptr<NetworkTopology> network_;
};

}  // namespace sharesim
