#pragma once
// Builds and runs scenarios given as JSON text, for the tests.
#include <cmath>
#include <memory>
#include <string>

#include "apps/scenario_run.h"
#include "sim/input/input_error.h"
#include "sim/scenario/scenario.h"

namespace sharesim::testing {

inline Scenario scenario_from_text(const std::string& json, const std::vector<Override>& overrides = {}) {
  return load_scenario_text(json, "<test>", GpuCatalog::builtin(), overrides);
}

inline std::unique_ptr<ScenarioRun> run_text(const std::string& json, const std::vector<Override>& overrides = {}) {
  auto run = std::make_unique<ScenarioRun>(scenario_from_text(json, overrides), GpuCatalog::builtin());
  run->run();
  return run;
}

// Mean and standard error of `measure(run)` over independent replications of `scenario`
// (seeds 100, 101, ...): the replication values are i.i.d., so their spread gives the error.
struct Estimate {
  double mean = 0;
  double standard_error = 0;
};
template <typename Measure>
Estimate replicate(const std::string& scenario, int replications, Measure&& measure) {
  double sum = 0, sum_sq = 0;
  for (int r = 0; r < replications; ++r) {
    const auto run = run_text(scenario, {{"seed", std::to_string(100 + r)}});
    const double value = measure(*run);
    sum += value;
    sum_sq += value * value;
  }
  const double mean = sum / replications;
  const double variance = (sum_sq - replications * mean * mean) / (replications - 1);
  return {mean, std::sqrt(variance / replications)};
}

// The node of each job's first pod, in job order.
inline std::vector<std::string> nodes_of(const ScenarioRun& run) {
  std::vector<std::string> names;
  const auto& runtime = run.runtime();
  for (const JobRecord& job : runtime.jobs())
    names.push_back(run.cluster().node(runtime.pods()[job.first_pod].node).name);
  return names;
}

// One pool of `nodes` x `gpus` GPUs of a model, exclusive sharing, plus a workload section.
inline std::string cluster_scenario(int nodes, int gpus, const std::string& workload, const std::string& extra = "",
                                    const std::string& gpu = "A100-80GB") {
  return R"({"name": "t", "seed": 3, )" + extra + R"("cluster": {"node_pools": [{"name": "p", "nodes": )" +
         std::to_string(nodes) + R"(, "gpu": ")" + gpu + R"(", "gpus_per_node": )" + std::to_string(gpus) +
         R"(, "cpu_milli": 64000, "memory_mib": 262144}]}, "workload": )" + workload + "}";
}

// One pool with a sharing config, plus a workload and extra top-level fields.
inline std::string shared_scenario(int nodes, int gpus, const std::string& sharing, const std::string& workload,
                                   const std::string& extra = "", const std::string& gpu = "A100-80GB") {
  return R"({"name": "t", "seed": 3, )" + extra + R"("cluster": {"node_pools": [{"name": "p", "nodes": )" +
         std::to_string(nodes) + R"(, "gpu": ")" + gpu + R"(", "gpus_per_node": )" + std::to_string(gpus) +
         R"(, "cpu_milli": 64000, "memory_mib": 262144, "sharing": )" + sharing + R"(}]}, "workload": )" + workload +
         "}";
}

// Explicit jobs: {name, arrival s, duration s, request JSON}.
struct JobText {
  std::string name;
  double arrival_s;
  double duration_s;
  std::string request;
};
inline std::string jobs_workload(const std::vector<JobText>& jobs) {
  std::string text = R"({"jobs": [)";
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (i > 0) text += ",";
    text += R"({"name": ")" + jobs[i].name + R"(", "arrival": ")" + std::to_string(jobs[i].arrival_s) +
            R"(s", "duration": ")" + std::to_string(jobs[i].duration_s) + R"(s", "request": )" + jobs[i].request + "}";
  }
  return text + "]}";
}

inline std::int64_t advertised(const Cluster& cluster, const std::string& resource, std::uint32_t node = 0) {
  const int id = cluster.resource_names().find(resource);
  if (id < 0) return 0;
  const std::span<const std::int64_t> capacity = cluster.node(node).resource_capacity;
  return static_cast<std::size_t>(id) < capacity.size() ? capacity[static_cast<std::size_t>(id)] : 0;
}

inline std::string error_of(const std::string& json) {
  try {
    run_text(json);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

inline const JobRecord& job_named(const ClusterRuntime& runtime, const std::string& name) {
  for (const JobRecord& job : runtime.jobs()) {
    if (runtime.job_name(job) == name) return job;
  }
  throw std::logic_error("no job " + name);
}

inline double run_time_s(const JobRecord& job) { return time_to_seconds(job.end - job.start); }

}  // namespace sharesim::testing
