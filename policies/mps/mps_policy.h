#pragma once
// CUDA MPS as the NVIDIA device plugin configures it (sharing.mps): each GPU is advertised
// `replicas` times; every pod is an MPS client of one server per GPU, and clients run
// concurrently (no context switch) under the contention model, each capped by its active
// thread percentage (CUDA_MPS_ACTIVE_THREAD_PERCENTAGE: a cap on SMs, not a reservation).
// Device memory per client is limited by CUDA_MPS_PINNED_DEVICE_MEM_LIMIT: exceeding it is an
// OOM for that client only. A fatal fault in one client fails every client of the server
// (CUDA MPS documentation, "Fault tolerance" / Volta MPS error containment).
// Rates: when every active client's workload profile has fitted interference parameters, the
// asymmetric interference model (policies/contention/interference_model.h), or, for a pair
// measured on this GPU model, the measured speeds; otherwise the water-filling contention model
// times the calibration profile's interference factor (docs/models.md).
#include "policies/calibration/calibration_profile.h"
#include "policies/device_plugin.h"
#include "policies/measured_profiles.h"
#include "policies/policy_entry.h"
#include "sim/cluster/gpu_catalog.h"
#include "sim/cluster/gpu_sharing.h"

namespace sharesim {

class SharingConfig;

struct MpsSettings {
  std::int64_t replicas = 1;
  bool rename_by_default = false;
  bool fail_requests_greater_than_one = true;  // the plugin forces true for MPS when unset
  std::int64_t active_thread_percentage = 100;
  std::int64_t pinned_mem_limit_mib = 0;

  // Defaults as the device plugin sets them: floor(100 / replicas) % of the threads and
  // floor(total memory / replicas) MiB per client; replicas <= the GPU's MPS client limit.
  static MpsSettings read(const SharingConfig& config, const GpuModel& model);
};

class MpsPolicy final : public GpuSharing {
 public:
  MpsPolicy(const MpsSettings& settings, ResourceId resource, std::string resource_name, const GpuModel& model,
            const CalibrationProfile& profile, MeasuredProfiles measured = {});

  std::vector<ResourceQuantity> advertise() const override { return {{resource_, settings_.replicas}}; }
  bool admit(const DeviceAsk& ask, std::int64_t free_units, std::span<const Resident> residents,
             std::string* reason) const override;
  void compute_rates(std::span<Resident> residents) const override;
  void on_join(std::span<const Resident> residents, Casualties& out) const override;
  void on_fault(std::span<const Resident> residents, std::size_t faulting, Casualties& out) const override;
  void add_feature_labels(std::map<std::string, std::string>& labels, std::uint32_t /*gpus*/) const override {
    add_replica_labels(labels, settings_.replicas, settings_.rename_by_default, "mps");
  }

 private:
  // Scales the all-busy rates for clients with duty cycles (policies/time_sharing/duty_cycle.h).
  void apply_duty_cycles(std::span<Resident> residents) const;
  // Rates of always-busy clients without fitted interference parameters: water-filling of SMs
  // and DRAM bandwidth times the profile's interference factor.
  void water_filling_rates(std::span<Resident> residents) const;
  // CUDA_MPS_ACTIVE_THREAD_PERCENTAGE as the share c of the SMs a client may use (r·sm <= c).
  double thread_cap() const { return static_cast<double>(settings_.active_thread_percentage) / 100.0; }
  MpsSettings settings_;
  ResourceId resource_;
  std::string resource_name_;
  std::int64_t memory_mib_;
  double interference_factor_;
  std::string gpu_id_;
  MeasuredProfiles measured_;

  // The interference-model or measured rates; false (rates untouched) when some active client
  // has no fitted parameters.
  bool profiled_rates(std::span<Resident> residents) const;
};

// Its registry entry (policies/registered_policies.cpp).
PolicyEntry mps_policy_entry();

}  // namespace sharesim
