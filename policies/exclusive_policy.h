#pragma once
// Exclusive GPUs: the NVIDIA device plugin without sharing. Each GPU advertises one
// `nvidia.com/gpu`; a pod that holds it runs alone at standalone speed. No other pod can take
// its memory, but a pod that needs more than the whole GPU runs out of memory by itself.
#include "policies/policy_entry.h"
#include "sim/cluster/gpu_sharing.h"

namespace sharesim {

class ExclusivePolicy final : public GpuSharing {
 public:
  ExclusivePolicy(ResourceId nvidia_gpu, std::int64_t memory_mib)
      : GpuSharing(SharingTraits("exclusive")), nvidia_gpu_(nvidia_gpu), memory_mib_(memory_mib) {}

  std::vector<ResourceQuantity> advertise() const override { return {{nvidia_gpu_, 1}}; }
  bool admit(const DeviceAsk& ask, std::int64_t free_units, std::span<const Resident> residents,
             std::string* reason) const override;
  void compute_rates(std::span<Resident> residents) const override;
  void on_join(std::span<const Resident> residents, Casualties& out) const override;

 private:
  ResourceId nvidia_gpu_;
  std::int64_t memory_mib_;  // the GPU's memory (catalog memory_mib)
};

// Its registry entry (policies/registered_policies.cpp).
PolicyEntry exclusive_policy_entry();

}  // namespace sharesim
