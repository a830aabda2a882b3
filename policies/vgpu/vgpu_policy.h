#pragma once
// NVIDIA vGPU (time-sliced C-series types): a GPU is split into max_per_gpu vGPUs of one type,
// each with its own framebuffer (memory isolation: a pod that needs more than its vGPU's
// framebuffer is an OOM for that pod only). The vGPU scheduler divides GPU time (docs/models.md
// "vGPU"; NVIDIA Virtual GPU Software User Guide, "vGPU scheduling policies"):
//   best_effort  - round robin over the vGPUs that have work (work-conserving);
//   equal_share  - an equal share for every running vGPU (occupied), busy or idle;
//   fixed_share  - 1 / max vGPUs of the type, whatever the others do.
#include "policies/calibration/calibration_profile.h"
#include "policies/policy_entry.h"
#include "policies/vgpu/vgpu_types.h"
#include "sim/cluster/gpu_catalog.h"
#include "sim/cluster/gpu_sharing.h"

namespace sharesim {

class SharingConfig;

// The vGPU scheduler policy (NVIDIA Virtual GPU Software User Guide, "vGPU scheduling").
enum class VgpuScheduler : std::uint8_t { BestEffort, EqualShare, FixedShare };

struct VgpuSettings {
  VgpuType type;  // framebuffer_mib as on this GPU model (vgpu_framebuffer_mib)
  VgpuScheduler scheduler = VgpuScheduler::BestEffort;
  std::int64_t time_slice_ns = 0;  // profile default: vgpu.slice_ns_up_to_8 / slice_ns_above_8
  double license_cost_per_gpu_year = 0;

  static VgpuSettings read(const SharingConfig& config, const GpuModel& model, const CalibrationProfile& profile);
};

class VgpuPolicy final : public GpuSharing {
 public:
  VgpuPolicy(const VgpuSettings& settings, ResourceId nvidia_gpu, const CalibrationProfile& profile);

  std::vector<ResourceQuantity> advertise() const override { return {{nvidia_gpu_, settings_.type.max_per_gpu}}; }
  bool admit(const DeviceAsk& ask, std::int64_t free_units, std::span<const Resident> residents,
             std::string* reason) const override;
  void compute_rates(std::span<Resident> residents) const override;
  void on_join(std::span<const Resident> residents, Casualties& out) const override;
  double context_switches_per_ns(std::span<const Resident> residents) const override;

 private:
  // How many vGPUs the scheduler cycles through, and so divides time by.
  std::size_t contexts_in_turn(std::span<const Resident> residents) const;
  // Share of the GPU's time that does work while vGPUs take turns: slice / (slice + switch).
  double time_efficiency() const;

  VgpuSettings settings_;
  ResourceId nvidia_gpu_;
  std::int64_t switch_ns_;
  // Reused buffers of compute_rates (rates are computed on every change of the GPU).
  mutable std::vector<double> duty_scratch_;
  mutable std::vector<double> speed_scratch_;
};

// Its registry entry (policies/registered_policies.cpp).
PolicyEntry vgpu_policy_entry();

}  // namespace sharesim
