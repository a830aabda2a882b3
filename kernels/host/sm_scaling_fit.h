// SM-fraction scaling (green contexts with k of the GPU's SMs): per stressor, speed at k SMs
// relative to the largest measured k, and an Amdahl-style fit speed(k) = 1 / ((1 - p) + p * K / k)
// whose parallel fraction p says how strongly the kernel scales with SMs (p = 1: linear; p = 0:
// not at all, e.g. DRAM-bound once a few SMs saturate the memory system).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace sharesim::calib {

struct ScalingPoint {
  std::string stressor;
  int requested_sms = 0;
  int granted_sms = 0;  // what the green context really got (splits round up)
  double throughput = 0;
};

struct ScalingCurve {
  std::string stressor;
  int reference_sms = 0;  // K: the largest granted SM count measured
  double parallel_fraction = 0;
  double rms_relative_error = 0;
  // The SM fraction at which the measured speed first reaches 90% of the reference speed;
  // the contention fit uses it as the stressor's SM demand.
  double sm_fraction_for_90_percent = 1.0;
  std::vector<std::pair<int, double>> speed;  // (granted SMs, speed relative to K), by SMs
  // How well the points determine p: its standard error in the linearised fit below
  // (slope_uncertainty.h); absent with fewer than two points other than K.
  std::optional<double> parallel_fraction_standard_error;
};

// One curve per stressor, ordered by stressor name. Throws std::invalid_argument for a stressor
// with fewer than two distinct SM counts or a non-positive throughput.
std::vector<ScalingCurve> fit_sm_scaling(const std::vector<ScalingPoint>& points);

}  // namespace sharesim::calib
