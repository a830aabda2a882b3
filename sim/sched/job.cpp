#include "sim/sched/job.h"

#include <functional>

namespace sharesim {
namespace {

std::uint64_t shape_hash(const PodShape& shape) {
  std::uint64_t hash = std::hash<std::string>{}(shape.gpu_product);
  // Boost-style hash_combine (the golden-ratio constant spreads the bits).
  const auto mix = [&hash](std::uint64_t value) { hash ^= value + 0x9e3779b97f4a7c15ULL + (hash << 6) + (hash >> 2); };
  mix(static_cast<std::uint64_t>(shape.cpu_milli));
  mix(static_cast<std::uint64_t>(shape.memory_mib));
  mix(shape.gpu_resource);
  mix(static_cast<std::uint64_t>(shape.gpu_units));
  mix(static_cast<std::uint64_t>(shape.demand.mem_mib));
  for (const ResourceQuantity& q : shape.gpu_per_device.view())
    mix(q.resource ^ static_cast<std::uint64_t>(q.quantity));
  return hash;
}

}  // namespace

std::uint32_t ShapeTable::intern(const PodShape& shape) {
  const std::uint64_t hash = shape_hash(shape);
  const auto [first, last] = by_hash_.equal_range(hash);
  for (auto it = first; it != last; ++it) {
    if (shapes[it->second] == shape) return it->second;
  }
  const auto index = static_cast<std::uint32_t>(shapes.size());
  shapes.push_back(shape);
  by_hash_.emplace(hash, index);
  return index;
}

}  // namespace sharesim
