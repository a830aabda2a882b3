#pragma once
// kube-scheduler's NodeResourcesBalancedAllocation score plugin
// (pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go): prefer the node whose
// resources would be used in the most equal fractions, score = (1 - std of the fractions) x 100.
#include <cstdint>
#include <span>

#include "sim/sched/placement/resource_allocation.h"

namespace sharesim {

// Fractions requested / allocatable (capped at 1) of the resources the node has; with two the
// std is |f1 - f2| / 2, with more the population standard deviation; truncated to an integer.
std::int64_t balanced_allocation_score(std::span<const ResourceUse> uses);

}  // namespace sharesim
