#pragma once
// The quantities a request's `limits` may name beside its one device resource, each an amount of
// every device the pod is given (a share of that GPU's compute or memory), not a number of
// devices: the scheduler checks and takes it per device (PodShape::gpu_per_device). The policies
// that honour such quantities declare them in their registry entries (policies/policy_entry.h),
// so that the workload reader checks requests against them without knowing any policy.
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace sharesim {

inline constexpr std::int64_t kNoPerDeviceLimit = std::numeric_limits<std::int64_t>::max();

struct PerDeviceResourceRule {
  std::string name;
  std::string device_resource;  // the device resource it must go with
  std::int64_t min = 0;
  std::int64_t max = kNoPerDeviceLimit;
  std::int64_t step = 1;  // the value must be a multiple of it
  std::string meaning;    // what it is and who says so, for error messages
  // What it sets when another rule sets the same (only one of them may be given), e.g. "the
  // memory of the vGPU"; empty when no other does.
  std::string sets;
};

struct PerDeviceResourceRules {
  // In the order a pod shape lists its quantities, so that equal requests make equal shapes.
  std::vector<PerDeviceResourceRule> rules;
  // The quantities, in percent of one GPU, that carry a trace pod's fraction of a GPU (gpu_milli
  // < 1000, docs/traces.md); empty: such a pod holds a whole GPU.
  std::vector<std::string> gpu_fraction_percent;

  const PerDeviceResourceRule* find(std::string_view name) const {
    for (const PerDeviceResourceRule& rule : rules) {
      if (rule.name == name) return &rule;
    }
    return nullptr;
  }
};

}  // namespace sharesim
