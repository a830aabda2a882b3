#include "sim/sched/placement/resource_allocation.h"

namespace sharesim {

ScoredResource resolve_scored_resource(const std::string& name, std::int64_t weight, const ResourceNames& names) {
  ScoredResource resource;
  resource.weight = weight;
  if (name == "cpu") {
    resource.kind = ScoredResource::Kind::kCpu;
  } else if (name == "memory") {
    resource.kind = ScoredResource::Kind::kMemory;
  } else if (const int id = names.find(name); id >= 0) {
    resource.kind = ScoredResource::Kind::kExtended;
    resource.id = static_cast<ResourceId>(id);
  }
  return resource;
}

namespace {

// The pod's request of an extended resource: its GPU units, or a per-device quantity.
std::int64_t pod_request(const PodShape& pod, ResourceId id) {
  if (pod.gpu_units > 0 && pod.gpu_resource == id) return pod.gpu_units;
  for (const ResourceQuantity& q : pod.gpu_per_device.view()) {
    if (q.resource == id) return q.quantity;
  }
  return 0;
}

}  // namespace

void resource_uses(const Node& node, const PodShape& pod, std::span<const ScoredResource> resources,
                   std::vector<ResourceUse>& out) {
  for (const ScoredResource& resource : resources) {
    ResourceUse use;
    use.weight = resource.weight;
    switch (resource.kind) {
      case ScoredResource::Kind::kCpu:
        use.allocatable = node.cpu_milli;
        use.requested = node.cpu_allocated + pod.cpu_milli;
        break;
      case ScoredResource::Kind::kMemory:
        use.allocatable = node.memory_mib;
        use.requested = node.memory_allocated + pod.memory_mib;
        break;
      case ScoredResource::Kind::kExtended:
        if (const std::int64_t asked = pod_request(pod, resource.id);
            asked > 0 && resource.id < node.resource_capacity.size()) {
          use.allocatable = node.resource_capacity[resource.id];
          use.requested = node.resource_allocated[resource.id] + asked;
        }
        break;
      case ScoredResource::Kind::kUnknown:
        break;
    }
    out.push_back(use);
  }
}

}  // namespace sharesim
