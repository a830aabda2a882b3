// The raw measurement file sharesim-calibrate writes on a GPU and `fit` reads
// (docs/calibration.md, "Raw measurement file"). Every section is optional: a run of one
// microbenchmark writes only its own.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kernels/host/contention_fit.h"
#include "kernels/host/duty_cycle_data.h"
#include "kernels/host/sm_scaling_fit.h"
#include "kernels/host/timeslice_analysis.h"

namespace sharesim::calib {

inline constexpr const char* kRawFormat = "sharesim-calibration-raw/1";

struct RawDevice {
  std::string name;     // cudaDeviceProp::name
  std::string driver;   // NVIDIA driver version (e.g. "570.124.06")
  std::string runtime;  // CUDA runtime version (e.g. "13.0")
  std::string compute_capability;
  std::int64_t sm_count = 0;
};

struct RawTimeslice {
  std::int64_t threshold_ns = 0;
  std::vector<ProbeRun> runs;
  std::vector<Walk> walks;           // cache-refill walks; empty when skipped
  std::string cache_refill_skipped;  // reason, when skipped
};

struct RawStressor {
  std::string unit;
  double dram_bytes_per_unit = 0;  // DRAM bytes moved per unit of throughput (triad: 1)
};

struct RawCorun {
  std::map<std::string, RawStressor> stressors;
  std::vector<CorunCase> cases;
};

struct RawScaling {
  std::int64_t total_sms = 0;
  std::vector<ScalingPoint> points;
};

struct RawBasics {
  std::vector<double> launch_latency_ns;
  std::vector<double> dram_bandwidth_gbps;
  std::vector<double> fma_tflops;
};

struct RawData {
  std::string gpu;   // catalog id, e.g. "H100-80GB"
  std::string date;  // ISO 8601 UTC
  RawDevice device;
  std::optional<RawTimeslice> timeslice;
  std::optional<RawCorun> corun;
  std::optional<RawScaling> sm_scaling;
  std::optional<RawBasics> basics;
  std::optional<RawDutyCycle> duty_cycle;
};

// Throws CalibError naming `file` and the JSON pointer of the first problem.
RawData parse_raw(const nlohmann::json& raw, const std::string& file);

}  // namespace sharesim::calib
