#pragma once
// A job's GPU behaviour as operators measure it running alone, and how each measurement maps
// to the contention model's demand vector (docs/models.md "From what users measure").
//
//   nvidia-smi utilization.gpu     (% of time a kernel was running)       -> duty = pct / 100
//   nvidia-smi utilization.memory  (% of time device memory was read or
//                                   written)                               -> bw = min(1, pct / 100 / duty)
//   DCGM_FI_PROF_SM_ACTIVE         (fraction of time an SM had a warp,
//                                   averaged over the SMs)                 -> sm = min(1, sm_active / duty)
//   DCGM_FI_PROF_DRAM_ACTIVE       (fraction of cycles the DRAM interface
//                                   was busy)                              -> bw = min(1, dram_active / duty)
//   nvidia-smi memory.used (MiB)                                           -> mem_mib
// The averages divide by the duty cycle because they are taken over all of the time, while the
// model's sm and bw describe the job while it has GPU work.
#include <optional>
#include <string>

#include "sim/cluster/gpu_sharing.h"

namespace sharesim {

struct MeasuredUsage {
  std::optional<double> gpu_util_pct;  // (0, 100]
  std::optional<double> mem_util_pct;  // [0, 100]
  std::optional<double> sm_active;     // [0, 1]
  std::optional<double> dram_active;   // [0, 1]

  bool empty() const { return !gpu_util_pct && !mem_util_pct && !sm_active && !dram_active; }
};

// Applies the measurements to `demand` (duty from utilization.gpu first, since the others are
// divided by it). Ranges are the caller's to check; this only maps.
void apply_measured_usage(const MeasuredUsage& measured, PhaseDemand& demand);

// The model field that measurement `key` sets ("duty", "sm" or "bw"): a demand that gives both
// is contradictory, and the readers report it.
std::string model_field_of(const std::string& key);

}  // namespace sharesim
