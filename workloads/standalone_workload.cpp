#include "workloads/standalone_workload.h"

#include "sim/sched/scheduler.h"
#include "workloads/workload_builder.h"

namespace sharesim {

StandaloneWorkload::StandaloneWorkload(const Scenario& scenario, const GpuCatalog& catalog,
                                       const PerDeviceResourceRules& per_device, const Cluster* cluster)
    : context_(shapes_, origins_, names_, catalog, per_device, scenario.file, scenario.base_dir, scenario.seed) {
  context_.until = scenario.until;
  context_.priority_classes = scenario.scheduler.priority_classes;
  if (cluster != nullptr) {
    names_ = cluster->resource_names();  // same ids as the cluster's, so shapes can be checked on it
    context_.capacity_check = [cluster](const PodShape& shape, std::uint32_t pods) {
      bool no_node_takes = false;
      std::string problem = capacity_problem(*cluster, shape, pods, &no_node_takes);
      return WorkloadContext::CapacityAnswer(std::move(problem), no_node_takes);
    };
  }
  sources_ = build_job_sources(scenario.workload, context_);
}

std::size_t StandaloneWorkload::read_all() {
  std::size_t count = 0;
  JobSpec job;
  for (auto& source : sources_) {
    while (source->next(job)) ++count;
  }
  return count;
}

}  // namespace sharesim
