// The GPU side of sharesim-calibrate as plain C++: the microbenchmarks in kernels/cuda/*.cu
// implement these functions (built only with CUDA); kernels/no_cuda.cpp implements them for a
// build without CUDA (query_device() then reports that no device is visible). No CUDA header is
// needed to include this file. Every CUDA call is checked; a failure throws GpuError naming the
// call and CUDA's error string.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace sharesim::calib::gpu {

class GpuError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct DeviceInfo {
  bool visible = false;
  std::string why_not;  // when !visible: the CUDA error that said so
  std::string name;
  std::string driver;   // cudaDriverGetVersion as "13.0" (the kernel driver's version comes from /proc)
  std::string runtime;  // cudaRuntimeGetVersion as "13.0"
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  std::int64_t l2_bytes = 0;
  std::int64_t memory_bytes = 0;
  std::string compute_mode;  // "default", "exclusive_process", "prohibited"
};

// Never throws for a missing device or driver: that is visible == false.
DeviceInfo query_device(int device);

// Makes `device` current and creates its context (done before a worker reports ready, so that
// context creation does not delay the synchronised start).
void prepare(int device);

// ---- Time-slice probe (kernels/cuda/timeslice_probe.cu) ----
struct ProbeLog {
  std::int64_t window_begin = 0;  // first and last %globaltimer reads
  std::int64_t window_end = 0;
  std::vector<std::int64_t> gaps;  // begin, end, begin, end, ... (ns)
  std::int64_t gaps_lost = 0;      // gaps beyond the log's capacity
};
// One block per SM spins for `duration_ns`; block 0 logs every gap between consecutive reads
// longer than `threshold_ns`.
ProbeLog run_timeslice_probe(int device, std::int64_t duration_ns, std::int64_t threshold_ns);

struct WalkLog {
  std::vector<std::int64_t> walks;  // begin, end, after_switch (0|1), ... (ns)
};
// A cooperative grid filling the GPU alternates a watch phase (thread 0 spinning on the timer,
// noting a switch-out) and a timed walk of the whole grid over a `buffer_bytes` buffer.
WalkLog run_cache_walk(int device, std::int64_t duration_ns, std::int64_t threshold_ns, std::int64_t buffer_bytes);
// Streams through a buffer larger than L2 for `duration_ns` (evicts the other contexts' data).
void run_cache_thrash(int device, std::int64_t duration_ns);

// ---- Stressors (kernels/cuda/stressors.cu) ----
// fma: FMA-bound; triad: DRAM-streaming a = b + s*c; l2: L2-resident reads; smem: shared-memory
// bound; launch: tiny kernels, launch-bound.
const std::vector<std::string>& stressor_names();
std::string stressor_unit(const std::string& name);            // "flop/s", "byte/s", "launch/s"
double stressor_dram_bytes_per_unit(const std::string& name);  // 1 for triad, else 0

// Runs the named stressors concurrently, one per stream of this process's context, each
// relaunched until `seconds` elapse; returns each one's throughput in its unit. One name = alone.
std::vector<double> run_stressors(int device, const std::vector<std::string>& names, double seconds);

// ---- SM-fraction scaling (kernels/cuda/sm_scaling.cu) ----
struct ScalingResult {
  int requested_sms = 0;
  int granted_sms = 0;
  double throughput = 0;
  std::string skipped;  // non-empty: why this SM count could not be measured
};
// For each k: a green context with k SMs (cuDevSmResourceSplitByCount, ignoring SM co-scheduling
// on compute capability 9.0 and later so that MIG-like sizes such as 26 or 60 are possible), the
// stressor run alone in it for `seconds`.
std::vector<ScalingResult> run_sm_scaling(int device, const std::string& stressor, const std::vector<int>& sms,
                                          double seconds);

// ---- Duty-cycle probe (kernels/cuda/duty_cycle.cu) ----
struct DutyKernel {
  int iterations = 0;          // of the GPU-filling FMA kernel
  std::int64_t kernel_ns = 0;  // one kernel's time alone, measured after tuning
};
// Tunes the probe's kernel to take about `kernel_ns` alone on the whole GPU.
DutyKernel tune_duty_kernel(int device, std::int64_t kernel_ns);

struct DutyOptions {
  int iterations = 0;             // from tune_duty_kernel
  int kernels_per_phase = 1;      // GPU phase: this many kernels queued at once, then waited for
  std::int64_t host_mean_ns = 0;  // host phase: mean CPU time with no GPU work queued
  bool exponential_host = true;   // host phases drawn exponential (else all equal to the mean)
  std::int64_t duration_ns = 0;
  std::uint64_t seed = 1;
  int blocks = 0;  // blocks per kernel; 0: 4 per SM this process sees
};
struct DutyLog {
  std::int64_t window_begin = 0;  // steady-clock ns
  std::int64_t window_end = 0;
  std::int64_t cycles = 0;
  std::int64_t kernels = 0;
  std::int64_t busy_ns = 0;  // wall time of the GPU phases (launch to synchronize)
  std::int64_t host_ns = 0;  // wall time of the host phases
  int sms_visible = 0;       // the SM count this process's device properties give
};
// Cycles of GPU phase and host phase for `duration_ns`, after a random offset.
DutyLog run_duty_cycle(int device, const DutyOptions& options);

// ---- Basics (kernels/cuda/basics.cu) ----
struct BasicsResult {
  std::vector<double> launch_latency_ns;    // empty kernel, launch to completion, one at a time
  std::vector<double> dram_bandwidth_gbps;  // device-to-device copy, read + write bytes counted
  std::vector<double> fma_tflops;           // FP32 FMA chains over all SMs
};
BasicsResult run_basics(int device, int repeats);

}  // namespace sharesim::calib::gpu
