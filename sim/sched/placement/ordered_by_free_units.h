#pragma once
// binpack and spread: nodes kept ordered by free GPU units. binpack walks from the fewest
// free units that still fit (Kubernetes' MostAllocated scoring on the GPU resource), spread
// from the most (LeastAllocated). Ties go to the lowest node index.
#include <memory>

#include "sim/sched/placement_policy.h"

namespace sharesim {

std::unique_ptr<PlacementPolicy> make_binpack(const Cluster& cluster);
std::unique_ptr<PlacementPolicy> make_spread(const Cluster& cluster);

}  // namespace sharesim
