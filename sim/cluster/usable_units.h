#pragma once
// An optional capability of a sharing policy (sim/cluster/gpu_sharing.h): placement's shortcut
// past GPUs that GpuSharing::admit() would refuse whatever the ask. A policy that has such a
// rule also derives from UsableUnitsRule; placement indexes (first-fit,
// sim/sched/placement/per_resource_index.h) find it with dynamic_cast once per GPU and skip a
// node whose GPUs all answer 0 (issue 16: HAMi GPUs full by memory still advertise vGPUs).
#include <cstdint>
#include <span>

#include "sim/cluster/gpu_sharing.h"

namespace sharesim {

class UsableUnitsRule {
 public:
  virtual ~UsableUnitsRule() = default;
  // An upper bound on the units of `resource` any pod could still be admitted to on this GPU,
  // given `free_units` of it are free and `residents` are there. It may depend only on
  // `free_units` and the residents' asks (not on their phases or rates), and must never be
  // below what admit() accepts, or placements change.
  virtual std::int64_t usable_units(ResourceId resource, std::int64_t free_units,
                                    std::span<const Resident> residents) const = 0;
};

}  // namespace sharesim
