#pragma once
// Placement indexes are kept per GPU resource name (nvidia.com/gpu, nvidia.com/gpu.shared,
// ...), built lazily the first time a pod asks for that resource, and updated on every node
// change. An index built with Value::Usable holds, for nodes whose GPUs' policy has a
// usable-units rule (sim/cluster/usable_units.h), the units pods could still be admitted to
// rather than the free ones: never below what placement accepts, so skipping a node with fewer
// than a pod's units changes no placement (issue 16: HAMi GPUs full by memory still advertise
// vGPUs, and first-fit asked each of them on every placement).
#include <algorithm>
#include <memory>
#include <vector>

#include "sim/cluster/cluster.h"
#include "sim/cluster/usable_units.h"

namespace sharesim {

// One lazily built index per GPU resource name that pods actually request.
template <typename Index>
class PerResource {
 public:
  enum class Value : std::uint8_t { Free, Usable };
  explicit PerResource(const Cluster& cluster, Value value = Value::Free) : cluster_(cluster), value_(value) {
    if (value_ == Value::Usable) {
      rules_.reserve(cluster.gpus().size());
      for (const Gpu& gpu : cluster.gpus()) rules_.push_back(rule_of(gpu));
    }
  }

  // Whether any GPU of the cluster has a usable-units rule (else Value::Usable equals Free).
  static bool any_usable_rule(const Cluster& cluster) {
    return std::any_of(cluster.gpus().begin(), cluster.gpus().end(),
                       [](const Gpu& gpu) { return rule_of(gpu) != nullptr; });
  }

  Index& get(ResourceId resource) {
    // Pods almost always ask for the resource the previous pod asked for.
    if (last_ != nullptr && last_resource_ == resource) return *last_;
    if (resource >= indexes_.size()) indexes_.resize(resource + 1u);
    if (!indexes_[resource]) {
      indexes_[resource] = std::make_unique<Index>(cluster_.nodes().size());
      for (const Node& node : cluster_.nodes()) indexes_[resource]->set(node.index, value(node, resource));
    }
    last_resource_ = resource;
    last_ = indexes_[resource].get();
    return *last_;
  }
  void node_changed(std::uint32_t node) {
    for (std::size_t r = 0; r < indexes_.size(); ++r) {
      if (indexes_[r]) indexes_[r]->set(node, value(cluster_.node(node), static_cast<ResourceId>(r)));
    }
  }
  // Recomputes one node's entry for `resource` (residents may have joined since node_changed).
  void refresh(std::uint32_t node, ResourceId resource) { get(resource).set(node, value(cluster_.node(node), resource)); }

 private:
  static const UsableUnitsRule* rule_of(const Gpu& gpu) {
    return dynamic_cast<const UsableUnitsRule*>(gpu.sharing);
  }
  std::int64_t value(const Node& node, ResourceId resource) const {
    const std::int64_t free = node.free_resource(resource);
    if (value_ == Value::Free || free <= 0) return free;
    std::int64_t usable = 0;
    for (std::uint32_t g = node.first_gpu; g < node.first_gpu + node.gpu_count; ++g) {
      const Gpu& gpu = cluster_.gpu(g);
      const std::int64_t gpu_free = gpu.free_units(resource);
      usable += rules_[g] != nullptr ? rules_[g]->usable_units(resource, gpu_free, gpu.residents) : gpu_free;
    }
    return std::min(free, usable);
  }

  const Cluster& cluster_;
  Value value_;
  std::vector<const UsableUnitsRule*> rules_;  // by GPU, Value::Usable only; nullptr = no rule
  std::vector<std::unique_ptr<Index>> indexes_;
  ResourceId last_resource_ = 0;
  Index* last_ = nullptr;  // points into indexes_ (unique_ptr targets never move)
};

}  // namespace sharesim
