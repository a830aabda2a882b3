#pragma once
// Score plugins (DESIGN.md "Scheduler"): the order in which feasible nodes are preferred.
// Policies whose score is a monotone function of a node's free GPU units keep an ordered
// index and walk it, so a placement costs O(log n) instead of a scan of every node; the
// scheduler's filters decide feasibility through the `feasible` callback.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/cluster/cluster.h"
#include "sim/sched/job.h"

namespace sharesim {

class PlacementPolicy {
 public:
  virtual ~PlacementPolicy() = default;
  virtual std::string_view name() const = 0;
  // Offers candidate nodes to `feasible` in preference order; returns the first it accepts.
  virtual std::optional<std::uint32_t> choose(const PodShape& pod,
                                              const std::function<bool(std::uint32_t node)>& feasible) = 0;
  // Called after a node's allocation changed.
  virtual void node_changed(std::uint32_t node) = 0;
  // A pod choose() gave `node` did not start after all: a later pod of its gang found no node
  // (Scheduler::try_place). A policy that learns from the pods it places (fgd's target
  // workload) forgets this one, so only pods that start count.
  virtual void withdrawn(const PodShape& /*pod*/, std::uint32_t /*node*/) {}
  // The most free units of `resource` on any one node (a quick "nothing can fit" test).
  virtual std::int64_t max_free_units(ResourceId resource) = 0;
};

// max_free_units by looking at every node, for placements that keep no index of free units.
std::int64_t max_free_units_of_any_node(const Cluster& cluster, ResourceId resource);

// "first-fit" (lowest-index node that fits), "binpack" (fewest free GPU units that still
// fit, as Kubernetes' MostAllocated strategy on the GPU resource), "spread" (most free GPU
// units, as LeastAllocated). Ties go to the lowest node index. Also the scores of the
// GPU-sharing literature (placement/scored_placement.h, docs/placement.md): "dot-product",
// "best-fit", "gpu-packing", "gpu-clustering", "fgd". nullptr for unknown names.
std::unique_ptr<PlacementPolicy> make_placement_policy(std::string_view name, const Cluster& cluster);
std::vector<std::string> placement_policy_names();

// One spelling for placement names (docs/placement.md): the hyphenated one above. The names
// `sharesim place` first used ("dotprod", "bestfit", "gpupacking", "gpuclustering") map to it;
// any other name comes back unchanged.
std::string canonical_placement_name(std::string_view name);

}  // namespace sharesim
