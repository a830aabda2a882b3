#pragma once
// Builds and runs scenarios given as JSON text, for the tests.
#include <cmath>
#include <memory>
#include <string>

#include "apps/scenario_run.h"
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

}  // namespace sharesim::testing
