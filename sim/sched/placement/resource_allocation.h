#pragma once
// What kube-scheduler's resource scorers (NodeResourcesFit's scoring strategies and
// NodeResourcesBalancedAllocation) look at on a node: for each configured resource, the node's
// allocatable amount and what its pods would request with the incoming pod added
// (calculateResourceAllocatableRequest in
// pkg/scheduler/framework/plugins/noderesources/resource_allocation.go).
//
// Differences from kube-scheduler: memory is in MiB (the ratios are the same up to rounding),
// and cpu and memory are the pods' requests as written: kube-scheduler's NodeResourcesFit
// counts a container without a cpu or memory request as 100m / 200 MiB (NonZeroRequested).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/cluster/cluster.h"
#include "sim/sched/job.h"

namespace sharesim {

// A configured resource, resolved against the cluster's resource names.
struct ScoredResource {
  enum class Kind { kCpu, kMemory, kExtended, kUnknown };  // kUnknown: advertised by no GPU
  Kind kind = Kind::kUnknown;
  ResourceId id = 0;  // kExtended only
  std::int64_t weight = 1;
};

ScoredResource resolve_scored_resource(const std::string& name, std::int64_t weight, const ResourceNames& names);

// One resource as a scorer sees it. allocatable 0 means "skip this resource": the node does
// not have it, or it is an extended resource the pod does not ask for (kube-scheduler returns
// (0, 0) for those, so that a CPU pod's score ignores the GPUs).
struct ResourceUse {
  std::int64_t requested = 0;
  std::int64_t allocatable = 0;
  std::int64_t weight = 1;
};

// The uses of `resources` on the node if the pod were placed there (appended to `out`).
void resource_uses(const Node& node, const PodShape& pod, std::span<const ScoredResource> resources,
                   std::vector<ResourceUse>& out);

}  // namespace sharesim
