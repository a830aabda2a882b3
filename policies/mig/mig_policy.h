#pragma once
// Multi-Instance GPU (docs/models.md "MIG"): the GPU is partitioned into GPU instances laid out
// as policies/mig/mig_layout.h checks them. The NVIDIA device plugin advertises them with its
// MIG strategy (k8s-device-plugin README, "MIG support"; GPU operator "MIG Support in
// Kubernetes"):
//   single - every instance is the same profile, advertised as nvidia.com/gpu;
//   mixed  - each instance as nvidia.com/mig-<profile> (e.g. nvidia.com/mig-1g.10gb).
// A pod on an instance runs at the speed its demand gets from that instance's SMs and memory
// slices (contention model, partition_rate), or at the measured speed of its workload profile
// on that slice where one was measured. Memory and faults are isolated per instance. With
// `timeslice`, each instance is shared by that many time-slicing replicas (instances x
// replicas are advertised) and its pods take turns as under the timeslice policy.
// With `repartitioning: dynamic` (mixed strategy only), a GPU is drained and laid out anew
// when pending pods ask for a profile no GPU offers; reconfiguring takes the calibration
// profile's mig.reconfiguration_ns.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "policies/calibration/calibration_profile.h"
#include "policies/measured_profiles.h"
#include "policies/mig/mig_layout.h"
#include "policies/policy_entry.h"
#include "policies/time_sharing/slice_timing.h"
#include "policies/timeslice/timeslice_policy.h"
#include "sim/cluster/gpu_catalog.h"
#include "sim/cluster/gpu_sharing.h"

namespace sharesim {

class SharingConfig;

// Speed of a task of demand (sm, bw) alone on an instance of `profile`, relative to the whole
// GPU outside MIG mode (docs/models.md "MIG"): the contention model with one task on the
// instance's share of the SMs (its SMs / the catalog's sm_count) and of the DRAM bandwidth (its
// memory slices / 8).
double mig_instance_speed(double sm, double bw, const GpuModel& model, const MigGpuProfiles& gpu,
                          const MigProfile& profile);

struct MigSettings {
  const MigGpuProfiles* gpu = nullptr;
  std::string strategy = "single";  // "single" | "mixed"
  MigLayout layout;
  std::optional<TimesliceSettings> timeslice;  // replicas per instance
  bool dynamic_repartitioning = false;

  // Reads and checks a pool's sharing config: the model must have MIG profiles, the layout
  // must be valid for it, and under `single` all instances must be one profile.
  static MigSettings read(const SharingConfig& config, const GpuModel& model);
};

class MigPolicy final : public GpuSharing, private GpuRepartitioning {
 public:
  // Interns the resource names of every profile of the model, so a repartitioned GPU can
  // advertise any of them.
  MigPolicy(const MigSettings& settings, const GpuModel& model, ResourceNames& names, const CalibrationProfile& profile,
            MeasuredMigSpeed measured_speed);

  std::vector<ResourceQuantity> advertise() const override;
  bool admit(const DeviceAsk& ask, std::int64_t free_units, std::span<const Resident> residents,
             std::string* reason) const override;
  std::uint32_t choose_slots(const DeviceAsk& ask, std::span<const Resident> residents) const override;
  void compute_rates(std::span<Resident> residents) const override;
  void on_join(std::span<const Resident> residents, Casualties& out) const override;
  void on_fault(std::span<const Resident> residents, std::size_t faulting, Casualties& out) const override;
  std::string placement_note(const DeviceAsk& ask) const override;
  double context_switches_per_ns(std::span<const Resident> residents) const override;
  void add_feature_labels(std::map<std::string, std::string>& labels, std::uint32_t gpus) const override;
  // Itself with `repartitioning: dynamic`, nullptr otherwise.
  const GpuRepartitioning* repartitioning() const override {
    return settings_.dynamic_repartitioning ? this : nullptr;
  }

 private:
  bool can_repartition_for(const DeviceAsk& ask) const override;
  std::int64_t most_units_for(const DeviceAsk& ask) const override;
  SimTime repartition_time() const override { return reconfiguration_ns_; }
  void repartition_for(const DeviceAsk& ask) override;
  // The resource an instance of `profile` is advertised as under the strategy.
  ResourceId resource_of(const MigProfile& profile) const;
  std::string resource_name_of(const MigProfile& profile) const;
  std::int64_t replicas() const { return settings_.timeslice ? settings_.timeslice->replicas : 1; }
  // Profile names of up to `wanted` instances of the asked profile that one layout holds.
  std::vector<std::string> instances_for(const DeviceAsk& ask, std::int64_t wanted) const;
  // Residents (by index) with a part on instance i.
  std::size_t residents_on(std::span<const Resident> residents, std::size_t instance) const;
  // A task on instance i as the instance's turn-taking sees it: its duty cycle there and its
  // speed alone there, host phases included, relative to the whole GPU outside MIG mode.
  struct OnInstance {
    double duty;
    double speed_alone;
  };
  OnInstance on_instance(const PhaseDemand& demand, std::size_t instance) const;
  std::string instance_name(std::size_t instance) const;

  MigSettings settings_;
  const GpuModel& model_;
  std::vector<ResourceId> resource_by_profile_;  // parallel to settings_.gpu->profiles
  std::vector<std::string> resource_names_;      // likewise
  SliceTiming timing_;
  // Reused buffers of compute_rates (rates are computed on every change of the GPU).
  mutable std::vector<double> duty_scratch_;
  mutable std::vector<double> speed_scratch_;
  mutable std::vector<double> alone_scratch_;
  SimTime reconfiguration_ns_ = 0;
  MeasuredMigSpeed measured_speed_;
};

// Its registry entry (policies/registered_policies.cpp).
PolicyEntry mig_policy_entry();

}  // namespace sharesim
