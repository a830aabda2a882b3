#include "policies/exclusive_policy.h"

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

}  // namespace sharesim
