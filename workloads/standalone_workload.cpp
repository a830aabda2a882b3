#include "workloads/standalone_workload.h"

#include "workloads/workload_builder.h"

namespace sharesim {

StandaloneWorkload::StandaloneWorkload(const Scenario& scenario, const GpuCatalog& catalog)
    : context_(shapes_, origins_, names_, catalog, scenario.file, scenario.base_dir, scenario.seed),
      sources_(build_job_sources(scenario.workload, context_)) {}

std::size_t StandaloneWorkload::read_all() {
  std::size_t count = 0;
  JobSpec job;
  for (auto& source : sources_) {
    while (source->next(job)) ++count;
  }
  return count;
}

}  // namespace sharesim
