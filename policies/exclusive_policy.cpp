#include "policies/exclusive_policy.h"

#include <memory>

namespace sharesim {

bool ExclusivePolicy::admit(const DeviceAsk& /*ask*/, std::int64_t free_units, std::span<const Resident> residents,
                            std::string* reason) const {
  if (free_units >= 1 && residents.empty()) return true;
  if (reason != nullptr) *reason = "Insufficient nvidia.com/gpu";
  return false;
}

void ExclusivePolicy::compute_rates(std::span<Resident> residents) const {
  // One resident at most, running alone: standalone speed by definition of the work unit;
  // an idle phase (sm = 0, bw = 0) makes no progress.
  for (Resident& resident : residents) resident.rate = is_active(resident) ? 1.0 : 0.0;
}

PolicyEntry exclusive_policy_entry() {
  PolicyEntry entry;
  entry.name = "exclusive";
  entry.make = [](const PolicyBuildContext& build) -> std::unique_ptr<GpuSharing> {
    build.config.reject_unknown_keys({});
    return std::make_unique<ExclusivePolicy>(build.names.intern(kNvidiaGpu));
  };
  entry.in_demo = true;
  entry.whole_gpus = true;
  return entry;
}

}  // namespace sharesim
