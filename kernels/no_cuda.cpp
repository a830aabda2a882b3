// sharesim-calibrate built without CUDA (SHARESIM_CUDA=OFF, or no nvcc found): `fit` and
// `check` work; every measuring mode reports that no device is visible.
#include "kernels/cuda/gpu_api.h"

namespace sharesim::calib::gpu {

namespace {
[[noreturn]] void unavailable() { throw GpuError("sharesim-calibrate was built without CUDA"); }
}  // namespace

DeviceInfo query_device(int) {
  DeviceInfo info;
  info.why_not = "sharesim-calibrate was built without CUDA (SHARESIM_CUDA=OFF or nvcc not found at configure time)";
  return info;
}
void prepare(int) { unavailable(); }
ProbeLog run_timeslice_probe(int, std::int64_t, std::int64_t) { unavailable(); }
WalkLog run_cache_walk(int, std::int64_t, std::int64_t, std::int64_t) { unavailable(); }
void run_cache_thrash(int, std::int64_t) { unavailable(); }
const std::vector<std::string>& stressor_names() {
  static const std::vector<std::string> names = {"fma", "triad", "l2", "smem", "launch"};
  return names;
}
std::string stressor_unit(const std::string&) { unavailable(); }
double stressor_dram_bytes_per_unit(const std::string&) { unavailable(); }
std::vector<double> run_stressors(int, const std::vector<std::string>&, double) { unavailable(); }
std::vector<ScalingResult> run_sm_scaling(int, const std::string&, const std::vector<int>&, double) { unavailable(); }
BasicsResult run_basics(int, int) { unavailable(); }
DutyKernel tune_duty_kernel(int, std::int64_t) { unavailable(); }
DutyLog run_duty_cycle(int, const DutyOptions&) { unavailable(); }

}  // namespace sharesim::calib::gpu
