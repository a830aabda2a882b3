#include "policies/exclusive_policy.h"

#include <memory>

#include "policies/memory_accounting.h"

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

void ExclusivePolicy::on_join(std::span<const Resident> residents, Casualties& out) const {
  // The newcomer is the only resident (admit takes none beside another), so the memory in use is
  // its own: an allocation larger than the GPU fails in that pod alone, with the CUDA error the
  // policies without memory isolation give (timeslice, MPS).
  const Resident& newcomer = residents.back();
  const std::int64_t used = resident_memory_mib(residents);
  if (used <= memory_mib_) return;
  out.killed.push_back(residents.size() - 1);
  out.cause = KillCause::Oom;
  out.reason = oom_message(newcomer.demand.mem_mib, used, memory_mib_);
}

PolicyEntry exclusive_policy_entry() {
  PolicyEntry entry;
  entry.name = "exclusive";
  entry.make = [](const PolicyBuildContext& build) -> std::unique_ptr<GpuSharing> {
    build.config.reject_unknown_keys({});
    return std::make_unique<ExclusivePolicy>(build.names.intern(kNvidiaGpu), build.model.memory_mib);
  };
  entry.in_demo = true;
  entry.whole_gpus = true;
  return entry;
}

}  // namespace sharesim
