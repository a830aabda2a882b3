#include "apps/scenario_run.h"

#include <chrono>
#include <sstream>

#include "policies/policy_registry.h"
#include "sim/metrics/output_files.h"
#include "sim/scenario/input_error.h"
#include "workloads/profiles/workload_profile.h"
#include "workloads/workload_builder.h"

namespace sharesim {

std::string_view sharesim_version() { return SHARESIM_VERSION; }

ScenarioCluster build_scenario_cluster(const Scenario& scenario, const GpuCatalog& catalog) {
  ScenarioCluster built;
  built.calibration =
      std::make_unique<CalibrationSet>(scenario.calibration_overrides, scenario.file, "/calibration/overrides");
  built.cluster = std::make_unique<Cluster>(
      scenario.node_pools, catalog, make_sharing_factory(scenario.file, *built.calibration, builtin_measured_mig_speed),
      scenario.file);
  return built;
}

ScenarioRun::ScenarioRun(const Scenario& scenario, const GpuCatalog& catalog) : scenario_(scenario) {
  if (scenario_.workload.is_null()) {
    throw InputError(scenario_.file, "",
                     "the scenario has no \"workload\"; only describe-nodes reads a cluster-only scenario");
  }
  ScenarioCluster built = build_scenario_cluster(scenario_, catalog);
  calibration_ = std::move(built.calibration);
  cluster_ = std::move(built.cluster);
  workload_context_ = std::make_unique<WorkloadContext>(shapes_, origins_, cluster_->resource_names(), catalog,
                                                        scenario_.file, scenario_.base_dir, scenario_.seed);
  workload_context_->until = scenario_.until;
  workload_context_->capacity_check = [cluster = cluster_.get()](const PodShape& shape, std::uint32_t pods) {
    return capacity_problem(*cluster, shape, pods);
  };
  auto sources = build_job_sources(scenario_.workload, *workload_context_);
  scheduler_ = std::make_unique<Scheduler>(*cluster_, shapes_, scenario_.scheduler, scenario_.file);
  runtime_ = std::make_unique<ClusterRuntime>(sim_, *cluster_, *scheduler_, shapes_, origins_, std::move(sources));
  if (scenario_.faults.job_mtbf > 0) runtime_->set_faults(scenario_.faults.job_mtbf, scenario_.seed);
  if (scenario_.output.event_log) {
    event_log_ = std::make_unique<std::ostringstream>();
    *event_log_ << "time_s,event,job,detail\n";
    runtime_->set_event_log(event_log_.get());
  }
}

ScenarioRun::~ScenarioRun() = default;

void ScenarioRun::run(const std::function<void(SimTime)>& progress) {
  const auto wall_start = std::chrono::steady_clock::now();
  if (progress) sim_.set_progress_hook(progress, 1u << 16);
  runtime_->start(scenario_.output.timeseries_interval);
  sim_.run(scenario_.until);
  // Without `until`, the run ends with its last job event (not with the sampler's last tick).
  const SimTime end = scenario_.until == kTimeNever ? runtime_->last_job_event() : scenario_.until;
  runtime_->finish(end);
  end_ = end;
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  metrics_ = compute_run_metrics(*runtime_, end, sim_.events_processed(), wall_s, scenario_.cost, scenario_.slo);
}

nlohmann::ordered_json ScenarioRun::summary() const {
  nlohmann::ordered_json summary;  // version and seed first, then the scenario as written
  summary["sharesim_version"] = sharesim_version();
  summary["scenario"] = scenario_.document;
  summary["seed"] = scenario_.seed;
  summary["metrics"] = run_metrics_json(metrics_);
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

void ScenarioRun::write_outputs(const std::string& dir) {
  // Build every file first, then write: an error leaves no partial set behind.
  const std::string summary_text = summary().dump(2) + "\n";
  const std::string jobs = jobs_csv(*runtime_);
  const std::string gpus = gpus_csv(*runtime_, end_);
  const std::string timeseries = timeseries_csv(*runtime_);
  const std::string services = services_csv(metrics_);
  write_output_file(dir, "jobs.csv", jobs);
  write_output_file(dir, "gpus.csv", gpus);
  write_output_file(dir, "timeseries.csv", timeseries);
  if (!metrics_.services.empty()) write_output_file(dir, "services.csv", services);
  if (event_log_) write_output_file(dir, "events.csv", event_log_->str());
  write_output_file(dir, "summary.json", summary_text);
}

}  // namespace sharesim
