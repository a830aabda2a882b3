// The measuring modes of sharesim-calibrate (probe, corun, scaling, basics, all) and the worker
// processes they start. Everything here runs on a GPU; calibrate_main.cpp checks first that a
// device is visible.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/cuda/gpu_api.h"

namespace sharesim::calib {

struct RunOptions {
  int device = 0;
  std::string gpu;                     // catalog id; empty: guessed from the device name
  std::string catalog_path;            // --catalog: the catalog --gpu is checked against; empty: built-in
  std::string out;                     // raw measurement file to write
  double seconds = 1.0;                // per co-run / scaling measurement
  std::int64_t probe_ns = 2000000000;  // per time-slice probe run
  std::int64_t threshold_ns = 4000;    // gap threshold of the probe (>= 2 us)
  int max_processes = 8;               // probe runs with 2..max_processes processes
  bool skip_mps = false;
  std::vector<int> sms;                   // SM counts for scaling; empty: MIG slice sizes and 100/n % of the SMs
  std::int64_t duty_busy_ns = 20000000;   // duty-cycle probe: mean GPU phase alone
  std::int64_t duty_kernel_ns = 1000000;  // duty-cycle probe: one kernel alone
  // Duty-cycle probe: CUDA_MPS_ACTIVE_THREAD_PERCENTAGE of every MPS client (a client-side
  // variable, never a device setting); 0 = not set. When set, only the MPS cases run.
  int duty_mps_thread_percentage = 0;
};

// Runs `mode` ("probe", "corun", "scaling", "basics", "duty" or "all") and writes the raw file.
// Returns how many sections failed: with "all", a section that fails is recorded under "failed"
// in the raw file and the others are still measured and written. Throws gpu::GpuError on a CUDA
// failure (of the one mode, or of every section of "all") and CalibError for bad options.
int run_measurements(const std::string& mode, const RunOptions& options, const gpu::DeviceInfo& device);

// Throws CalibError naming `path` unless a file can be written there: the path is empty or a
// directory, its directory is missing or a file, or no file can be created in it (permissions, a
// read-only or pseudo file system such as /proc). Measuring modes call it before the device query.
void require_writable_output(const std::string& path);

// Throws CalibError at `where` (--gpu, or a raw file's /gpu) unless `id` is a GPU catalog id of
// the catalog file `catalog_path` (--catalog), or of the built-in catalog when it is empty
// (sharesim gpus): a GPU a user's own catalog adds can be calibrated too.
void require_catalog_gpu(const std::string& id, const std::string& catalog_path, const std::string& file = "",
                         const std::string& where = "--gpu");

// Catalog id for a CUDA device name ("NVIDIA H100 80GB HBM3" -> "H100-80GB"); empty if unknown.
std::string catalog_id_for(const std::string& device_name);

// The SM counts scaling uses by default: MIG compute-slice sizes of this GPU and round(SMs / n)
// for the MPS thread percentages 100/n, n = 1..8; sorted, unique.
std::vector<int> default_sm_counts(const gpu::DeviceInfo& device);

struct WorkerOptions {
  std::string role;  // probe | walk | thrash | stress | duty
  int device = 0;
  std::int64_t duration_ns = 0;
  std::int64_t threshold_ns = 0;
  std::int64_t buffer_bytes = 0;
  std::string stressor;
  double seconds = 0;
  std::string out;
  // duty role
  int iterations = 0;
  int kernels = 1;
  std::int64_t host_ns = 0;
  bool fixed_host = false;
  std::uint64_t seed = 1;
  int blocks = 0;  // duty role: blocks per kernel (0: 4 per SM the worker sees)
};

// A child process: prepares its context, writes 'R' to stdout, waits for a byte on stdin, runs
// and writes its result as JSON to `out`. Returns the exit code.
int run_worker(const WorkerOptions& options);

}  // namespace sharesim::calib
