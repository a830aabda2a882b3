#pragma once
// What the scheduler places: a job of one or more identical pods with Kubernetes-like
// requests. Request shapes are interned (a million jobs from one generator share one
// PodShape) so a job record stays small.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/cluster/gpu_sharing.h"
#include "sim/cluster/pod_placement.h"
#include "sim/cluster/taints.h"
#include "sim/core/sim_time.h"

namespace sharesim {

struct PodShape {
  std::int64_t cpu_milli = 0;
  std::int64_t memory_mib = 0;
  ResourceId gpu_resource = 0;         // the GPU extended resource requested (nvidia.com/gpu, ...)
  std::int64_t gpu_units = 0;          // as the pod's `limits` ask for it
  PerDeviceQuantities gpu_per_device;  // further resources taken from each of its devices
  std::string gpu_product;             // GFD product name of the GPU model asked for; empty = any model
  std::string gpu_model_id;            // its catalog id: the selector matches nodes of that model
  // nodeSelector on any other node label: every (key, value) must be a label of the node.
  std::vector<std::pair<std::string, std::string>> node_selector;
  std::vector<Toleration> tolerations;  // of the nodes' taints
  PhaseDemand demand;                   // contention-model demand while running

  bool operator==(const PodShape&) const = default;
};

// What a pod of this shape takes from the cluster (Cluster::place).
inline PodClaim claim_of(const PodShape& shape) {
  return PodClaim{shape.cpu_milli, shape.memory_mib, shape.gpu_resource, shape.gpu_units, shape.gpu_per_device,
                  shape.demand};
}

struct ShapeTable {
  std::vector<PodShape> shapes;
  // Index of an equal shape, added if new. Hashed: a trace can hold thousands of shapes.
  std::uint32_t intern(const PodShape& shape);

 private:
  std::unordered_multimap<std::uint64_t, std::uint32_t> by_hash_;
};

struct JobSpec {
  SimTime arrival = 0;
  SimTime work = 0;         // standalone duration on whole GPUs of its type
  std::uint32_t shape = 0;  // index into ShapeTable
  std::uint32_t pods = 1;   // gang size: all pods are placed together or none is
  std::int32_t priority = 0;
  std::uint32_t origin = 0;    // index into the run's JobOrigin table (sim/runtime/job_origin.h)
  std::uint32_t sequence = 0;  // number within its origin
  // Its PriorityClass's preemptionPolicy: PreemptLowerPriority (true) or Never. Sits in what was
  // padding, so the spec stays 40 bytes.
  bool preempts = true;
};

}  // namespace sharesim
