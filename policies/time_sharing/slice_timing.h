#pragma once
// How long a context's time slice lasts and what a switch between contexts costs, shared by
// every policy that makes contexts take turns on a GPU (time-slicing, time-slicing inside MIG
// instances, HAMi/cGPU core limits): docs/models.md "Time-slicing".
#include <cstdint>
#include <string>

#include "policies/calibration/calibration_profile.h"

namespace sharesim {

struct SliceTiming {
  std::int64_t slice_ns = 0;
  std::int64_t gap_ns = 0;  // switch cost + cache refill
  // Share of the GPU's time that contexts run while two or more take turns.
  double efficiency() const { return static_cast<double>(slice_ns) / static_cast<double>(slice_ns + gap_ns); }
  // Context switches per ns while two or more take turns.
  double switches_per_ns() const { return 1.0 / static_cast<double>(slice_ns + gap_ns); }
};

// The compute-policy level's slice ("default", "short", "medium", "long": nvidia-smi
// compute-policy --set-timeslice) and the switch gap, from the calibration profile.
SliceTiming slice_timing(const std::string& level, const CalibrationProfile& profile);

}  // namespace sharesim
