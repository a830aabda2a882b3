#pragma once
// The metrics of one run, computed from the runtime's records after it finished
// (docs/outputs.md lists every field and its definition).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/metrics/percentiles.h"
#include "sim/runtime/cluster_runtime.h"

namespace sharesim {

// The same job figures restricted to one origin (a generator, a job list entry, a trace).
struct OriginMetrics {
  std::string name;
  std::string kind;
  std::uint64_t submitted = 0;
  std::uint64_t completed = 0;
  SampleSummary wait_s;
  SampleSummary jct_s;
};

struct PoolMetrics {
  std::string name;
  std::string gpu;
  std::string policy;
  std::uint64_t gpu_count = 0;
  double utilization_mean = 0;
  double allocated_fraction_mean = 0;
};

struct RunMetrics {
  std::uint64_t submitted = 0;
  std::uint64_t completed = 0;
  std::uint64_t running_at_end = 0;
  std::uint64_t pending_at_end = 0;
  std::uint64_t failed = 0;
  SampleSummary wait_s;  // start - arrival, over jobs that started
  SampleSummary jct_s;   // end - arrival, over completed jobs
  double throughput_jobs_per_hour = 0;
  std::uint64_t gpu_count = 0;
  double utilization_mean = 0;         // busy GPU-time / (GPUs x horizon)
  double allocated_fraction_mean = 0;  // allocated GPU-time / (GPUs x horizon)
  double gpu_hours_allocated = 0;
  double horizon_s = 0;  // simulated span the integrals cover
  std::uint64_t events = 0;
  double wall_s = 0;                   // real time of the run; the only non-deterministic field
  std::vector<OriginMetrics> origins;  // in the order origins first appear in the scenario
  std::vector<PoolMetrics> pools;      // in scenario order
};

RunMetrics compute_run_metrics(const ClusterRuntime& runtime, SimTime horizon, std::uint64_t events, double wall_s);

// {"jobs": {...}, "gpus": {...}, "sim": {...}} as summary.json's "metrics".
nlohmann::json run_metrics_json(const RunMetrics& metrics);

}  // namespace sharesim
