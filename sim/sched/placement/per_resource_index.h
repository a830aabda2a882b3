#pragma once
// Placement indexes are kept per GPU resource name (nvidia.com/gpu, nvidia.com/gpu.shared,
// ...), built lazily the first time a pod asks for that resource, and updated on every node
// change.
#include <memory>
#include <vector>

#include "sim/cluster/cluster.h"

namespace sharesim {

// One lazily built index per GPU resource name that pods actually request.
template <typename Index>
class PerResource {
 public:
  explicit PerResource(const Cluster& cluster) : cluster_(cluster) {}

  Index& get(ResourceId resource) {
    // Pods almost always ask for the resource the previous pod asked for.
    if (last_ != nullptr && last_resource_ == resource) return *last_;
    if (resource >= indexes_.size()) indexes_.resize(resource + 1u);
    if (!indexes_[resource]) {
      indexes_[resource] = std::make_unique<Index>(cluster_.nodes().size());
      for (const Node& node : cluster_.nodes()) indexes_[resource]->set(node.index, node.free_resource(resource));
    }
    last_resource_ = resource;
    last_ = indexes_[resource].get();
    return *last_;
  }
  void node_changed(std::uint32_t node) {
    for (std::size_t r = 0; r < indexes_.size(); ++r) {
      if (indexes_[r]) indexes_[r]->set(node, cluster_.node(node).free_resource(static_cast<ResourceId>(r)));
    }
  }

 private:
  const Cluster& cluster_;
  std::vector<std::unique_ptr<Index>> indexes_;
  ResourceId last_resource_ = 0;
  Index* last_ = nullptr;  // points into indexes_ (unique_ptr targets never move)
};

}  // namespace sharesim
