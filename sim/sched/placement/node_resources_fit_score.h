#pragma once
// kube-scheduler's NodeResourcesFit score plugin and its three scoring strategies
// (pkg/scheduler/framework/plugins/noderesources/least_allocated.go, most_allocated.go,
// requested_to_capacity_ratio.go; https://kubernetes.io/docs/concepts/scheduling-eviction/resource-bin-packing/).
// Each resource gets a 0-100 score; the node's score is their weighted mean, in integer
// arithmetic as kube-scheduler's (RequestedToCapacityRatio rounds the mean to nearest).
#include <cstdint>
#include <span>
#include <vector>

#include "sim/sched/scheduler_spec.h"
#include "sim/sched/placement/resource_allocation.h"

namespace sharesim {

// LeastAllocated (spread): (allocatable - requested) x 100 / allocatable; 0 when over.
std::int64_t least_allocated_score(std::span<const ResourceUse> uses);
// MostAllocated (bin packing): requested x 100 / allocatable, requested capped at allocatable.
std::int64_t most_allocated_score(std::span<const ResourceUse> uses);
// RequestedToCapacityRatio: the broken-linear `shape` (utilization 0-100 -> score 0-10, scaled
// x10 to kube-scheduler's 0-100) at each resource's utilization; a resource whose score is 0
// is left out of the mean, as kube-scheduler does.
std::int64_t requested_to_capacity_ratio_score(std::span<const ResourceUse> uses,
                                               std::span<const UtilizationShapePoint> shape);

}  // namespace sharesim
