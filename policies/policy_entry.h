#pragma once
// What a sharing policy tells the rest of sharesim about itself, in one record that its own
// folder fills: its name, how one GPU's policy object is made from a pool's `sharing` config
// (the factory reads and checks the config itself), the config `sharesim compare` gives it by
// default, whether `compare` lists it by default, the per-device quantities it honours, and
// whether it hands out whole GPUs.
// policies/registered_policies.cpp lists the built-in ones, one line each.
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "policies/calibration/calibration_profile.h"
#include "policies/measured_profiles.h"
#include "policies/sharing_config.h"
#include "sim/cluster/gpu_catalog.h"
#include "sim/cluster/gpu_sharing.h"
#include "sim/cluster/resource_names.h"
#include "sim/sched/per_device_resource.h"

namespace sharesim {

// Everything a factory may use to make one GPU's policy object. New needs go here, so that
// adding one changes no other policy's factory.
struct PolicyBuildContext {
  const SharingConfig& config;        // the pool's `sharing` object, with its file and JSON pointer
  const GpuModel& model;              // the pool's GPU model
  ResourceNames& names;               // the cluster's resource-name table, to intern what it advertises
  const CalibrationProfile& profile;  // the GPU model's calibration profile
  const MeasuredProfiles& measured;   // what the workload profiles measured (none when empty)
};

// The share count compare's defaults aim at: 4 replicas (time-slicing, MPS), the vGPU type with
// 4 per GPU, the MIG layout nearest to it; so that the columns of `sharesim compare` share a GPU
// alike (docs/scenario.md "compare").
inline constexpr std::int64_t kCompareSharesPerGpu = 4;

struct PolicyEntry {
  std::string name;  // the `sharing.policy` that selects it
  // Checks the config (throwing InputError at the key's JSON pointer) and makes one GPU's object.
  std::function<std::unique_ptr<GpuSharing>(const PolicyBuildContext&)> make;
  // The sharing object `sharesim compare` gives a pool of GPU model `gpu_id` when the policy is
  // named on its own; unset: {"policy": name}.
  std::function<nlohmann::ordered_json(const std::string& gpu_id)> compare_default;
  // Listed when `sharesim compare` is given no --policies (and so by `make demo`).
  bool in_demo = false;
  // The per-device quantities a request may name for this policy to honour (fractional sharing's
  // compute and memory shares); the workload reader checks requests against every policy's.
  PerDeviceResourceRules per_device_resources;
  // Every pod gets whole GPUs to itself and runs at standalone speed, so sharing figures
  // (slowdown, context switches) say nothing about it.
  bool whole_gpus = false;
};

}  // namespace sharesim
