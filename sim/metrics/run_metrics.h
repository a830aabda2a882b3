#pragma once
// The metrics of one run, computed from the runtime's records after it finished
// (docs/outputs.md lists every field and its definition). Job figures cover the jobs that
// arrive in the measurement window; time averages and GPU-hours cover the window's span.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/metrics/gpu_usage_meter.h"
#include "sim/metrics/metrics_window.h"
#include "sim/metrics/percentiles.h"
#include "sim/runtime/cluster_runtime.h"
#include "sim/metrics/metrics_spec.h"

namespace sharesim {

// The same job figures restricted to one origin (a generator, a job list entry, a trace).
struct OriginMetrics {
  std::string name;
  std::string kind;
  std::uint64_t submitted = 0;
  std::uint64_t completed = 0;
  std::uint64_t never_started = 0;
  SampleSummary wait_s;
  SampleSummary jct_s;
};

// The requests of one origin of behaviour jobs: an inference service's requests (latency
// against its SLO) or a notebook's cells (latency of each active phase).
struct ServiceMetrics {
  std::string name;
  std::string kind;
  std::uint64_t jobs = 0;  // pods of the origin
  std::uint64_t arrived = 0;
  std::uint64_t dropped = 0;   // lost (docs/outputs.md, metrics.services)
  SampleSummary latency_s;     // arrival to completion, over finished requests
  SampleSummary slowdown;      // latency / standalone work of the request
  double slo_s = 0;            // 0 = none
  double slo_attainment = -1;  // share of finished requests with latency <= slo; -1 = no SLO
  // Latency at quantiles 0, 0.01, ..., 1 (kLatencyQuantilePoints; empty when none finished).
  std::vector<double> latency_quantiles_s;
};

inline constexpr std::size_t kLatencyQuantilePoints = 101;

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
  std::uint64_t never_started = 0;  // pending at the end without ever having started
  SampleSummary wait_s;             // start - arrival, over jobs that started
  // Over every job: a job that never started counts with wait = end of run - arrival (a lower
  // bound: its wait is censored at the horizon).
  SampleSummary wait_censored_s;
  SampleSummary jct_s;         // end - arrival, over completed jobs
  SampleSummary slowdown;      // (end - start) / standalone duration, over completed jobs
  double slo_attainment = -1;  // share of completed jobs with jct <= max_slowdown x standalone; -1 = no SLO
  std::uint64_t killed_oom = 0, killed_fault = 0, killed_admission = 0;
  std::uint64_t killed_by_other = 0;  // blast radius: pods killed by another pod's OOM or fault
  std::uint64_t restarts = 0;         // kills after which a job was requeued (restart OnFailure)
  // Priority preemption, reported only when scheduler.preemption is on (so that summaries of
  // runs without it keep their keys).
  bool preemption = false;
  std::uint64_t killed_preempted = 0;  // jobs evicted by a higher-priority pod
  std::uint64_t preemptions = 0;       // pods placed by evicting others
  double throughput_jobs_per_hour = 0;
  std::uint64_t gpu_count = 0;
  double utilization_mean = 0;         // busy GPU-time / (GPUs x window span)
  double allocated_fraction_mean = 0;  // allocated GPU-time / (GPUs x window span)
  double gpu_hours_allocated = 0;
  double gpu_hours_provisioned = 0;     // GPUs x window span: what the cluster costs
  double sm_utilization_mean = 0;       // SM-weighted: integral of sum(rate x sm) / (GPUs x window span)
  double memory_used_mean_mib = 0;      // per GPU, time average
  double context_switches = 0;          // over all GPUs
  std::uint64_t reconfigurations = 0;   // GPUs laid out anew (dynamic repartitioning)
  double repartitioning_gpu_hours = 0;  // GPU time spent draining or reconfiguring for it
  std::uint64_t gpus_used_peak = 0;     // most GPUs allocated at once
  double cost = 0;                      // gpu_hour x provisioned GPU-hours + vGPU licenses
  double cost_used = 0;                 // gpu_hour x allocated GPU-hours (what the jobs held)
  double license_cost = 0;
  double horizon_s = 0;  // the end of the run (until, or the last job event)
  MetricsWindow window;  // the span the figures cover
  std::uint64_t events = 0;
  double wall_s = 0;                     // real time of the run; host-dependent, so in timing.json
  std::vector<OriginMetrics> origins;    // in the order origins first appear in the scenario
  std::vector<PoolMetrics> pools;        // in scenario order
  std::vector<ServiceMetrics> services;  // origins of behaviour jobs (inference, notebook), in origin order
  // Over all inference services and over all notebooks (for compare).
  SampleSummary request_latency_s;
  double request_slo_attainment = -1;
  SampleSummary notebook_cell_slowdown;
};

// `requests`: the runtime's request figures (ClusterRuntime::take_request_stats); their samples'
// percentiles are selected in place. `usage`: the GpuUsageMeter's integrals
// (gpu_usage_meter.h), by GPU index.
RunMetrics compute_run_metrics(const ClusterRuntime& runtime, std::vector<RequestStats> requests,
                               const std::vector<GpuUsage>& usage, SimTime horizon,
                               const MetricsWindow& window, std::uint64_t events, double wall_s,
                               const CostSpec& cost = {}, const SloSpec& slo = {});

// {"jobs": {...}, "gpus": {...}, "sim": {...}} as summary.json's "metrics".
nlohmann::json run_metrics_json(const RunMetrics& metrics);

}  // namespace sharesim
