#pragma once
// Where a pod runs and what it takes there: the records the scheduler writes when it places a
// pod and the cluster books (Cluster::place, Cluster::release).
#include <cstdint>

#include "sim/cluster/gpu_sharing.h"
#include "sim/cluster/resource_names.h"

namespace sharesim {

// One device a pod holds, and how many units of the pod's GPU resource it takes there.
struct DeviceAllocation {
  std::uint32_t gpu = 0;
  std::int64_t units = 0;
};

struct PodPlacement {
  std::uint32_t node = 0;
  std::uint32_t first_device = 0;  // range in the allocation list the caller passed
  std::uint32_t device_count = 0;
};

// What one pod takes from its node and its devices, as the cluster books it: cpu and memory on
// the node; on each device its units of `resource` (DeviceAllocation::units) and the per-device
// quantities the GPU advertises; and, once placed, a resident with `demand` on each device.
struct PodClaim {
  std::int64_t cpu_milli = 0;
  std::int64_t memory_mib = 0;
  ResourceId resource = 0;
  std::int64_t requested_units = 0;  // units the pod asked for in total (DeviceAsk::requested)
  PerDeviceQuantities per_device;
  PhaseDemand demand;

  // The ask of one of its devices, as the policy sees it.
  DeviceAsk ask_on(const DeviceAllocation& device) const {
    return DeviceAsk{resource, device.units, requested_units, per_device};
  }
};

}  // namespace sharesim
