#include "apps/scenario_run.h"

#include <sys/resource.h>

#include <chrono>
#include <sstream>

#include "apps/build_info.h"
#include "apps/run_verdict.h"
#include "policies/policy_registry.h"
#include "sim/metrics/output_files.h"
#include "sim/metrics/output_set.h"
#include "sim/input/input_error.h"
#include "sim/input/json_pointer.h"
#include "workloads/profiles/workload_profile.h"
#include "workloads/standalone_workload.h"
#include "workloads/workload_builder.h"

namespace sharesim {

MeasuredProfiles builtin_measured_profiles() {
  return MeasuredProfiles{builtin_measured_mig_speed, builtin_measured_interference, builtin_measured_pair_speed};
}

ScenarioCluster build_scenario_cluster(const Scenario& scenario, const GpuCatalog& catalog) {
  ScenarioCluster built;
  built.calibration =
      std::make_unique<CalibrationSet>(scenario.calibration_overrides, scenario.file, "/calibration/overrides");
  built.cluster = std::make_unique<Cluster>(
      scenario.node_pools, catalog,
      make_sharing_factory(scenario.file, *built.calibration, builtin_measured_profiles()), scenario.file);
  return built;
}

ScenarioCounts check_scenario_builds(const Scenario& scenario, const GpuCatalog& catalog) {
  try {
    if (scenario.workload.is_null()) {
      const ScenarioCluster built = build_scenario_cluster(scenario, catalog);
      return {built.cluster->nodes().size(), built.cluster->gpus().size(), 0};
    }
    const ScenarioRun run(scenario, catalog);
    StandaloneWorkload workload(scenario, catalog, registered_per_device_resources(), &run.cluster());
    const std::size_t jobs = workload.read_all();
    return {run.cluster().nodes().size(), run.cluster().gpus().size(), jobs};
  } catch (const CapacityError& e) {
    throw CapacityError(with_override_source(e, scenario));  // as below, keeping its kind
  } catch (const InputError& e) {
    throw with_override_source(e, scenario);
  }
}

ScenarioRun::ScenarioRun(const Scenario& scenario, const GpuCatalog& catalog) : scenario_(scenario) {
  try {
    build(catalog);
  } catch (const CapacityError& e) {
    throw CapacityError(with_override_source(e, scenario_));  // as below, keeping its kind
  } catch (const InputError& e) {
    // The policies, the calibration overrides and the workload are checked here, after the
    // loader: a bad value an override set is said to come from it, as the loader says.
    throw with_override_source(e, scenario_);
  }
}

void ScenarioRun::build(const GpuCatalog& catalog) {
  if (scenario_.workload.is_null()) {
    throw InputError(scenario_.file, kTopLevelWhere,
                     "missing key \"workload\": only validate and describe-nodes read a cluster-only scenario");
  }
  ScenarioCluster built = build_scenario_cluster(scenario_, catalog);
  calibration_ = std::move(built.calibration);
  cluster_ = std::move(built.cluster);
  workload_context_ = std::make_unique<WorkloadContext>(shapes_, origins_, cluster_->resource_names(), catalog,
                                                        registered_per_device_resources(), scenario_.file,
                                                        scenario_.base_dir, scenario_.seed);
  workload_context_->until = scenario_.until;
  workload_context_->priority_classes = scenario_.scheduler.priority_classes;
  workload_context_->capacity_check = [cluster = cluster_.get()](const PodShape& shape, std::uint32_t pods) {
    bool no_node_takes = false;
    std::string problem = capacity_problem(*cluster, shape, pods, &no_node_takes);
    return WorkloadContext::CapacityAnswer(std::move(problem), no_node_takes);
  };
  auto sources = build_job_sources(scenario_.workload, *workload_context_);
  scheduler_ = std::make_unique<Scheduler>(*cluster_, shapes_, scenario_.scheduler, scenario_.file);
  runtime_ = std::make_unique<ClusterRuntime>(sim_, *cluster_, *scheduler_, shapes_, origins_, std::move(sources));
  runtime_->set_seed(scenario_.seed);
  if (scenario_.faults.job_mtbf > 0) runtime_->set_faults(scenario_.faults.job_mtbf, scenario_.seed);
  const MetricsWindowSpec& window = scenario_.metrics_window;
  if (window.configured) {
    // Bounds left to the active span are known only after the run; until then the integrals
    // run open on that side (nothing is in use before the first arrival or after the last
    // completion, so clipping there later changes nothing).
    runtime_->set_measurement_window(window.start >= 0 ? window.start : 0, window.end >= 0 ? window.end : kTimeNever,
                                     window.warmup_jobs);
  }
  usage_meter_ = std::make_unique<GpuUsageMeter>(*runtime_);
  sampler_ = std::make_unique<TimeseriesSampler>(sim_, *runtime_);
  if (scenario_.output.event_log) event_log_ = std::make_unique<EventLog>(*runtime_);
}

ScenarioRun::~ScenarioRun() = default;

void ScenarioRun::run(const std::function<void(SimTime)>& progress, unsigned threads) {
  const auto wall_start = std::chrono::steady_clock::now();
  if (progress) sim_.set_progress_hook(progress, 1u << 16);
  runtime_->start();
  sampler_->start(scenario_.output.timeseries_interval);  // after the arrivals, as events at one time go in order
  sim_.run(scenario_.until);
  // Without `until`, the run ends with its last job event (not with the sampler's last tick).
  const SimTime end = scenario_.until == kTimeNever ? runtime_->last_job_event() : scenario_.until;
  runtime_->finish(end);
  usage_meter_->finish(end);
  sampler_->finish(end);
  end_ = end;
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  const MetricsWindow window = resolve_metrics_window(*runtime_, end, scenario_.metrics_window);
  // The metrics only read the runtime from here on, as the output writers do. The one writer
  // that changes the cluster, explain_pending()'s dry run of preemption (for jobs.csv), changes
  // GPUs' residents and units and restores them: compute_run_metrics reads neither. On its own
  // thread, its 0.07-0.13 s after a million-job simulation overlap the formatting of jobs.csv
  // (docs/ci.md, "The metrics beside jobs.csv").
  auto compute = [this, requests = runtime_->take_request_stats(), window, wall_s,
                  events = sim_.events_processed()]() mutable {
    return compute_run_metrics(*runtime_, std::move(requests), usage_meter_->usage(), end_, window, events, wall_s,
                               scenario_.cost, scenario_.slo);
  };
  metrics_ = std::async(threads > 1 ? std::launch::async : std::launch::deferred, std::move(compute)).share();
}

const RunMetrics& ScenarioRun::metrics() const {
  static const RunMetrics kBeforeTheRun;
  return metrics_.valid() ? metrics_.get() : kBeforeTheRun;
}

nlohmann::ordered_json ScenarioRun::summary() const {
  nlohmann::ordered_json summary;  // version and seed first, then the scenario as written
  summary["sharesim_version"] = sharesim_version();
  summary["scenario"] = scenario_.document;
  summary["seed"] = scenario_.seed;
  summary["metrics"] = run_metrics_json(metrics());
  summary["metrics_window"] = metrics_window_json(metrics().window);
  summary["warnings"] = run_warnings(*this, "the run");
  // The calibration numbers each GPU model of the cluster ran with, and where they came from.
  nlohmann::ordered_json calibration = nlohmann::ordered_json::object();
  for (const NodePool& pool : cluster_->pools()) {
    if (pool.gpu != nullptr && !calibration.contains(pool.gpu->id)) {
      calibration[pool.gpu->id] = calibration_->for_gpu(pool.gpu->id).to_json();
    }
  }
  summary["calibration"] = calibration;
  return summary;
}

nlohmann::ordered_json ScenarioRun::timing() const {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);  // ru_maxrss is in KiB on Linux (getrusage(2))
  nlohmann::ordered_json timing;
  timing["sharesim_version"] = sharesim_version();
  timing["commit"] = sharesim_commit();
  const RunMetrics& metrics = this->metrics();
  timing["wall_s"] = metrics.wall_s;
  timing["events_per_s"] = metrics.wall_s > 0 ? static_cast<double>(metrics.events) / metrics.wall_s : 0.0;
  timing["peak_rss_mib"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
  return timing;
}

void ScenarioRun::write_outputs(const std::string& dir, unsigned threads) {
  OutputSet set(dir);
  write_outputs(set, "", threads);
  set.commit();
}

void ScenarioRun::write_outputs(OutputSet& set, const std::string& prefix, unsigned threads) {
  set.write(prefix + "jobs.csv", [this, threads](std::ostream& out) { write_jobs_csv(out, *runtime_, threads); });
  set.write(prefix + "gpus.csv", [this](std::ostream& out) { write_gpus_csv(out, *runtime_, usage_meter_->usage(), end_); });
  set.write(prefix + "timeseries.csv", [this](std::ostream& out) { write_timeseries_csv(out, sampler_->samples()); });
  // jobs.csv, gpus.csv and timeseries.csv first: they do not need the metrics (run()).
  if (!metrics().services.empty()) {
    set.write(prefix + "services.csv", [this](std::ostream& out) { write_services_csv(out, metrics()); });
    set.write(prefix + "request_latency.csv", [this](std::ostream& out) { write_request_latency_csv(out, metrics()); });
  }
  if (event_log_) set.write(prefix + "events.csv", event_log_->text());
  set.write(prefix + "timing.json", timing().dump(2) + "\n");
  set.write(prefix + "summary.json", summary().dump(2) + "\n");
}

}  // namespace sharesim
