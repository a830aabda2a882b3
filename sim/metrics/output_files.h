#pragma once
// The CSV files of a run's output directory (docs/outputs.md): jobs.csv, gpus.csv,
// timeseries.csv, services.csv. The write_* functions stream to a file (through OutputSet,
// sim/metrics/output_set.h); the string forms are for tests.
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "sim/metrics/gpu_usage_meter.h"
#include "sim/metrics/run_metrics.h"
#include "sim/metrics/timeseries_sampler.h"
#include "sim/runtime/cluster_runtime.h"

namespace sharesim {

// jobs.csv, its rows formatted on up to `threads` threads (the same file whatever the count).
void write_jobs_csv(std::ostream& out, const ClusterRuntime& runtime, unsigned threads = 1);
void write_gpus_csv(std::ostream& out, const ClusterRuntime& runtime, const std::vector<GpuUsage>& usage,
                    SimTime horizon);
void write_timeseries_csv(std::ostream& out, const std::vector<TimeseriesSample>& samples);
void write_services_csv(std::ostream& out, const RunMetrics& metrics);
void write_request_latency_csv(std::ostream& out, const RunMetrics& metrics);

std::string jobs_csv(const ClusterRuntime& runtime);
std::string gpus_csv(const ClusterRuntime& runtime, const std::vector<GpuUsage>& usage, SimTime horizon);
std::string timeseries_csv(const std::vector<TimeseriesSample>& samples);
// One row per origin of behaviour jobs (inference services, notebooks); header only when none.
std::string services_csv(const RunMetrics& metrics);
// The latency CDF of each origin of behaviour jobs: origin,kind,quantile,latency_s, 101 rows each.
std::string request_latency_csv(const RunMetrics& metrics);

// One file `name` in `dir` (created when missing), written atomically (write_file_atomically,
// sim/metrics/output_set.h); InputError naming the directory or file when it cannot be.
void write_output_file(const std::string& dir, const std::string& name, std::string_view content);

}  // namespace sharesim
