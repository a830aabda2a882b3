#pragma once
// first-fit: the lowest-index node that passes the filters, found through a max segment tree
// of free GPU units (FreeUnitsIndex), so nodes without room are skipped in O(log n).
#include <memory>

#include "sim/sched/placement_policy.h"

namespace sharesim {

std::unique_ptr<PlacementPolicy> make_first_fit(const Cluster& cluster);

}  // namespace sharesim
