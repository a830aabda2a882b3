#pragma once
// `sharesim trace stats` and `sharesim trace convert` (docs/traces.md, "Trace tools"): a trace
// of any format read through the scenario code path (build_job_sources), summarized or
// written as a native trace. The command-line front end is apps/trace_command.cpp.
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "sim/cluster/gpu_catalog.h"
#include "sim/runtime/job_origin.h"
#include "sim/runtime/job_source.h"
#include "workloads/workload_context.h"

namespace sharesim {

// A trace given on the command line: the same keys as a scenario's "trace" object.
class TraceFile {
 public:
  // `per_device` must outlive it (the registry's, policies/policy_registry.h).
  TraceFile(const nlohmann::json& trace_spec, const GpuCatalog& catalog, const PerDeviceResourceRules& per_device);
  ~TraceFile();
  JobSource& source() { return *sources_.front(); }
  const ShapeTable& shapes() const { return shapes_; }
  const std::vector<JobOrigin>& origins() const { return origins_; }
  // The last job's pods' share of one GPU in thousandths (TraceRowSource::last_gpu_milli):
  // below 1000 for part of one GPU, 1000 for whole GPUs, 0 for CPU pods; native and imported.
  std::int64_t last_gpu_milli() const;

 private:
  ShapeTable shapes_;
  std::vector<JobOrigin> origins_;
  ResourceNames names_;
  WorkloadContext context_;
  std::vector<std::unique_ptr<JobSource>> sources_;
};

struct TraceStats {
  std::size_t jobs = 0;
  std::uint64_t pods = 0;
  std::uint64_t gpus = 0;             // whole GPUs over all pods
  std::uint64_t fractional_pods = 0;  // pods asking for part of one GPU
  SimTime first_arrival = 0, last_arrival = 0;
  std::map<std::int64_t, std::size_t> jobs_by_gpus;  // GPUs per job (pods x GPUs per pod) -> jobs
  std::vector<std::size_t> arrivals_per_bin;         // equal bins over [first, last]
  SimTime bin_width = 0;
  std::vector<double> durations_s;
};

// Reads every job; `bins` arrival-rate bins over the span (none when every job arrives at one
// instant).
TraceStats compute_trace_stats(TraceFile& trace, std::size_t bins = 24);
std::string format_trace_stats(const TraceStats& stats, const std::string& title);

// Writes the trace as a native trace with one extra column, gpu_milli (the share of one GPU
// a pod asks for, 1000 for whole GPUs, 0 for CPU pods; the native reader reads it back). Returns the jobs written.
std::size_t write_converted_trace(std::ostream& out, TraceFile& trace);

}  // namespace sharesim
