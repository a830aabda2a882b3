#include "sim/cluster/gpu_sharing.h"

namespace sharesim {

void GpuSharing::on_join(std::span<const Resident> /*residents*/, std::vector<std::size_t>& /*killed*/) const {}

void GpuSharing::on_fault(std::span<const Resident> /*residents*/, std::size_t faulting,
                          std::vector<std::size_t>& killed) const {
  killed.push_back(faulting);
}

}  // namespace sharesim
