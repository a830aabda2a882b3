#pragma once
// Time-slicing as the NVIDIA device plugin configures it (sharing.timeSlicing): each GPU is
// advertised `replicas` times; pods on it are separate CUDA contexts that the GPU runs in
// turn, one time slice each (round robin over the contexts that have work; docs/models.md
// "Time-slicing"). No memory isolation: when the residents' memory exceeds the GPU, the
// allocation that does not fit fails (OOM), and `oom_blast_radius` says whether only that pod
// or every pod on the GPU dies. Contexts are isolated from each other's faults.
#include <cstdint>
#include <optional>
#include <string>

#include "policies/calibration/calibration_profile.h"
#include "policies/device_plugin.h"
#include "policies/policy_entry.h"
#include "policies/time_sharing/slice_timing.h"
#include "sim/cluster/gpu_catalog.h"
#include "sim/cluster/gpu_sharing.h"

namespace sharesim {

class SharingConfig;

// Who an out-of-memory kill takes: the pod whose allocation failed, or every pod of the GPU
// (docs/models.md, the timeslice keys). Enums, not the config's strings: read on every join.
enum class OomBlastRadius : std::uint8_t { Pod, Gpu };
// Fluid rates, or every slice and switch as events (sim/runtime/slice_level.h).
enum class TimesliceFidelity : std::uint8_t { Fluid, Slice };

struct TimesliceSettings {
  std::int64_t replicas = 1;
  bool rename_by_default = false;
  bool fail_requests_greater_than_one = false;
  std::string level = "default";         // nvidia-smi compute-policy --set-timeslice
  OomBlastRadius oom_blast_radius = OomBlastRadius::Pod;  // "pod" | "gpu"
  TimesliceFidelity fidelity = TimesliceFidelity::Fluid;  // "fluid" | "slice"
  // Slice-level mode: mean host + GPU phase of a context with a duty cycle (docs/models.md
  // "Duty cycles"; assumed, a training step's order of magnitude).
  std::int64_t duty_period_ns = 100'000'000;

  // Reads and checks a pool's sharing config (the level needs compute-policy support).
  static TimesliceSettings read(const SharingConfig& config, const GpuModel& model);
};

class TimeslicePolicy final : public GpuSharing {
 public:
  TimeslicePolicy(const TimesliceSettings& settings, ResourceId resource, std::string resource_name,
                  const GpuModel& model, const CalibrationProfile& profile);

  std::vector<ResourceQuantity> advertise() const override { return {{resource_, settings_.replicas}}; }
  bool admit(const DeviceAsk& ask, std::int64_t free_units, std::span<const Resident> residents,
             std::string* reason) const override;
  void compute_rates(std::span<Resident> residents) const override;
  void on_join(std::span<const Resident> residents, Casualties& out) const override;
  std::string placement_note(const DeviceAsk& ask) const override;
  double context_switches_per_ns(std::span<const Resident> residents) const override;
  void add_feature_labels(std::map<std::string, std::string>& labels, std::uint32_t /*gpus*/) const override {
    add_replica_labels(labels, settings_.replicas, settings_.rename_by_default, "time-slicing");
  }

 private:
  TimesliceSettings settings_;
  ResourceId resource_;
  std::string resource_name_;
  std::int64_t memory_mib_;
  SliceTiming timing_;
  // Reused buffers of compute_rates (rates are computed on every change of the GPU).
  mutable std::vector<double> duty_scratch_;
  mutable std::vector<double> speed_scratch_;
};

// Its registry entry (policies/registered_policies.cpp).
PolicyEntry timeslice_policy_entry();

}  // namespace sharesim
