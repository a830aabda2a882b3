// The duty-cycle probe's raw data (sharesim-calibrate duty; docs/calibration.md, "Duty-cycle
// probe"): processes that keep the GPU busy a set share of the time, run alone, in pairs and in
// triples, time-sliced or as MPS clients. What each process recorded, and the speed it implies.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace sharesim::calib {

struct DutyProcess {
  double duty = 1;                // share of time busy alone, as the probe set it
  std::int64_t host_mean_ns = 0;  // mean host phase
  std::int64_t window_ns = 0;     // wall time measured
  std::int64_t cycles = 0;
  std::int64_t kernels = 0;
  std::int64_t busy_ns = 0;  // wall time of its GPU phases
  std::int64_t host_ns = 0;  // wall time of its host phases
};

struct DutyCase {
  std::string mode;         // "processes" (time-sliced) or "mps"
  std::string host_phases;  // "exponential" or "fixed"
  int thread_percentage = 0;  // MPS clients' CUDA_MPS_ACTIVE_THREAD_PERCENTAGE; 0: not set
  std::vector<DutyProcess> processes;
  // nvidia-smi every 100 ms while the case ran: utilization.gpu %, utilization.memory %, memory.used MiB.
  std::vector<std::array<double, 3>> nvidia_smi;
};

struct RawDutyCycle {
  std::int64_t kernel_ns_tuned = 0;
  std::int64_t kernels_per_phase = 1;
  double seconds = 0;
  std::vector<DutyCase> cases;
};

// A process's speed relative to running alone: the time its work would take alone (its host
// phases plus its kernels at `solo_kernel_ns` each) over the time it took. Host phases are drawn,
// so this ratio removes their randomness from the estimate.
double duty_speed(const DutyProcess& p, double solo_kernel_ns);

// The GPU phase time per kernel of a process run alone: its busy wall time / kernels.
double solo_kernel_ns(const DutyProcess& alone);

// The mean nvidia-smi utilization.gpu (%) of a case, without the samples of its first second
// (nvidia-smi averages over its past sample period, which there still holds the start).
double mean_gpu_util_pct(const DutyCase& c);

}  // namespace sharesim::calib
