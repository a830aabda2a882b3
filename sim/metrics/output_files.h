#pragma once
// Writes a run's output directory (docs/outputs.md): summary.json, jobs.csv, gpus.csv,
// timeseries.csv and, when asked, events.csv. Each file is written to a temporary name and
// renamed into place, so a failed run never leaves a half-written file behind.
#include <nlohmann/json.hpp>
#include <string>

#include "sim/metrics/run_metrics.h"
#include "sim/runtime/cluster_runtime.h"

namespace sharesim {

std::string jobs_csv(const ClusterRuntime& runtime);
std::string gpus_csv(const ClusterRuntime& runtime, SimTime horizon);
std::string timeseries_csv(const ClusterRuntime& runtime);
// One row per origin of behaviour jobs (inference services, notebooks); header only when none.
std::string services_csv(const RunMetrics& metrics);
// The latency CDF of each origin of behaviour jobs: origin,kind,quantile,latency_s, 101 rows each.
std::string request_latency_csv(const RunMetrics& metrics);

// Creates `dir` if needed. Throws InputError (file = dir) when it cannot be created or written.
void write_output_file(const std::string& dir, const std::string& name, const std::string& content);

}  // namespace sharesim
