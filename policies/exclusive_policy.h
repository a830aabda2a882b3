#pragma once
// Exclusive GPUs: the NVIDIA device plugin without sharing. Each GPU advertises one
// `nvidia.com/gpu`; a pod that holds it runs alone at standalone speed.
#include "policies/policy_entry.h"
#include "sim/cluster/gpu_sharing.h"

namespace sharesim {

class ExclusivePolicy final : public GpuSharing {
 public:
  explicit ExclusivePolicy(ResourceId nvidia_gpu)
      : GpuSharing(SharingTraits("exclusive")), nvidia_gpu_(nvidia_gpu) {}

  std::vector<ResourceQuantity> advertise() const override { return {{nvidia_gpu_, 1}}; }
  bool admit(const DeviceAsk& ask, std::int64_t free_units, std::span<const Resident> residents,
             std::string* reason) const override;
  void compute_rates(std::span<Resident> residents) const override;

 private:
  ResourceId nvidia_gpu_;
};

// Its registry entry (policies/registered_policies.cpp).
PolicyEntry exclusive_policy_entry();

}  // namespace sharesim
