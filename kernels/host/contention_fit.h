// Fits the contention model's interference factors (DESIGN.md, "Contention model") to co-run
// measurements: each kernel's co-run throughput divided by its throughput alone is compared with
// the share the model gives it, and the factor multiplying the shares is found by least squares.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kernels/host/slope_uncertainty.h"

namespace sharesim::calib {

// What a kernel uses per unit of its alone-speed rate: fraction of the SMs and of DRAM bandwidth.
struct Demand {
  double sm = 1.0;
  double dram = 0.0;
};

// Max-min fair (progressive filling) rates, each at most 1 (running alone): all rates grow
// together until a resource (SMs, DRAM, capacity 1 each) is saturated; the kernels using it stop
// there and the rest keep growing. This is the water-filling of DESIGN.md for equal weights.
std::vector<double> water_fill(const std::vector<Demand>& demands);

struct CorunCase {
  std::string mode;                  // "processes" (time-sliced), "mps" or "streams"
  std::vector<std::string> kernels;  // stressor names; one name = the kernel alone in this mode
  std::vector<double> throughput;    // per kernel, in the stressor's unit
};

struct CorunPrediction {
  std::string mode;
  std::string label;     // "fma+triad"
  std::string kernel;    // which of them
  double measured = 0;   // co-run / alone
  double share = 0;      // the model's share before the interference factor
  double predicted = 0;  // share * fitted factor of the mode
  double relative_error = 0;
};

struct ModeFit {
  std::string mode;
  double factor = 0;                           // one factor for the mode
  std::map<std::string, double> per_stressor;  // one factor per stressor (the victim)
  double rms_relative_error = 0;               // of the one-factor model
  std::size_t points = 0;
  // How well the points determine the factors (slope_uncertainty.h); absent where a factor rests
  // on fewer than two points. `sharesim-calibrate compare` takes its tolerances of the factors
  // from their standard errors.
  std::optional<SlopeUncertainty> factor_uncertainty;
  std::map<std::string, SlopeUncertainty> per_stressor_uncertainty;
};

struct ContentionFit {
  std::vector<ModeFit> modes;  // in the order processes, mps, streams (those present)
  std::vector<CorunPrediction> predictions;
};

// Shares: "processes" are time-sliced, so each of n kernels gets 1/n; "mps" and "streams" run
// concurrently and get water_fill() over `demands`. Alone throughput per mode comes from the
// single-kernel cases of that mode (or, if a mode has none, of "streams"). Throws
// std::invalid_argument when a kernel has no alone throughput, no demand, or no co-run case exists.
ContentionFit fit_contention(const std::vector<CorunCase>& cases, const std::map<std::string, Demand>& demands);

}  // namespace sharesim::calib
