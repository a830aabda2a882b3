#pragma once
// One run of a scenario, assembled from the libraries: the cluster with its sharing
// policies (policies/), the job sources (workloads/), the scheduler and runtime (sim/).
// The command-line front end and the tests drive runs through this class.
#include <functional>
#include <future>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "apps/build_info.h"  // sharesim_version(), for summary.json
#include "policies/calibration/calibration_profile.h"
#include "policies/measured_profiles.h"
#include "sim/cluster/cluster.h"
#include "sim/core/simulator.h"
#include "sim/metrics/event_log.h"
#include "sim/metrics/gpu_usage_meter.h"
#include "sim/metrics/output_set.h"
#include "sim/metrics/run_metrics.h"
#include "sim/metrics/timeseries_sampler.h"
#include "sim/runtime/cluster_runtime.h"
#include "sim/scenario/scenario.h"
#include "sim/sched/scheduler.h"
#include "workloads/workload_context.h"

namespace sharesim {

// The measured tables of the built-in workload profiles (MIG slice speeds, fitted interference,
// measured pair speeds) that the sharing policies use where a profile has them.
MeasuredProfiles builtin_measured_profiles();

// A scenario's cluster alone, with the calibration its sharing policies read: what
// describe-nodes needs, for a scenario with or without a workload.
struct ScenarioCluster {
  std::unique_ptr<CalibrationSet> calibration;
  std::unique_ptr<Cluster> cluster;
};
ScenarioCluster build_scenario_cluster(const Scenario& scenario, const GpuCatalog& catalog);

// What `validate` checks beyond the loader, without running: the run is built (sharing
// configs, sample files; a cluster-only scenario builds its cluster) and the workload read
// once (every job, trace rows included). Throws InputError; returns what it found.
struct ScenarioCounts {
  std::size_t nodes = 0;
  std::size_t gpus = 0;
  std::size_t jobs = 0;
};
ScenarioCounts check_scenario_builds(const Scenario& scenario, const GpuCatalog& catalog);

class ScenarioRun {
 public:
  // Builds everything; throws InputError for any bad setting (nothing runs then).
  ScenarioRun(const Scenario& scenario, const GpuCatalog& catalog);
  ~ScenarioRun();

  // Runs to the scenario's `until` (or until no work is left). `progress`, when given, is
  // called every so many events with the simulated time. `threads`: how many threads the run
  // may use once the simulation is over. With more than one, the run's metrics are computed on
  // a thread of their own, beside the writing of jobs.csv (write_outputs); metrics() waits for
  // them. With one, metrics() computes them on its first call.
  void run(const std::function<void(SimTime now)>& progress = {}, unsigned threads = 1);

  const Scenario& scenario() const { return scenario_; }
  const Cluster& cluster() const { return *cluster_; }
  const CalibrationSet& calibration() const { return *calibration_; }
  ClusterRuntime& runtime() { return *runtime_; }
  const ClusterRuntime& runtime() const { return *runtime_; }
  // All zeros before run().
  const RunMetrics& metrics() const;
  const TimeseriesSampler& timeseries() const { return *sampler_; }
  // Each GPU's usage integrals (sim/metrics/gpu_usage_meter.h), by GPU index.
  const std::vector<GpuUsage>& gpu_usage() const { return usage_meter_->usage(); }
  // summary.json: program version, seed, the scenario as run, the metrics.
  nlohmann::ordered_json summary() const;
  // timing.json: what depends on the host and the build (wall time, events per second, peak
  // memory, commit), kept out of summary.json so that two runs' directories are identical.
  nlohmann::ordered_json timing() const;
  // Writes summary.json, timing.json, jobs.csv, gpus.csv, timeseries.csv (services.csv when the workload
  // has inference services or notebooks, events.csv when the scenario asks for an event log)
  // into `dir`, as one set that replaces the previous one whole (sim/metrics/output_set.h).
  // jobs.csv is formatted on up to `threads` threads: the files are the same whatever the count.
  void write_outputs(const std::string& dir, unsigned threads = 1);
  // The same files into a set being assembled, each name prefixed (a compare's "<variant>/").
  void write_outputs(OutputSet& set, const std::string& prefix, unsigned threads = 1);

 private:
  void build(const GpuCatalog& catalog);  // the constructor's work: cluster, workload sources, scheduler, runtime, collectors
  Scenario scenario_;
  ShapeTable shapes_;
  std::vector<JobOrigin> origins_;
  std::unique_ptr<CalibrationSet> calibration_;  // the policies read their profiles from it
  std::unique_ptr<Cluster> cluster_;
  std::unique_ptr<WorkloadContext> workload_context_;  // trace readers use it while the run streams
  std::unique_ptr<Scheduler> scheduler_;
  Simulator sim_;
  std::unique_ptr<ClusterRuntime> runtime_;
  // The collectors (sim/metrics): usage and time series always, the event log on request.
  std::unique_ptr<GpuUsageMeter> usage_meter_;
  std::unique_ptr<TimeseriesSampler> sampler_;
  std::unique_ptr<EventLog> event_log_;
  SimTime end_ = 0;  // end of the simulated span the metrics cover
  // Declared after everything compute_run_metrics reads: destroyed first, it waits for a
  // computation still running on its thread.
  std::shared_future<RunMetrics> metrics_;
};

// The whole cluster as `kubectl describe node` would show it (text) or as JSON.
std::string describe_nodes_text(const Cluster& cluster);
nlohmann::json describe_nodes_json(const Cluster& cluster);

}  // namespace sharesim
