#pragma once
// A scenario's job sources with the tables they fill, outside any run: for writing the
// workload as a trace (`sharesim generate`) and for reading every job once to check it
// (`sharesim validate` reads whole traces, where a run reads them as it goes).
#include <memory>
#include <vector>

#include "sim/cluster/cluster.h"
#include "sim/runtime/job_origin.h"
#include "sim/runtime/job_source.h"
#include "sim/scenario/scenario.h"
#include "workloads/workload_context.h"

namespace sharesim {

class StandaloneWorkload {
 public:
  // With a cluster, trace rows whose pods could never run on it are errors, as in a run.
  // `per_device` must outlive it (the registry's, policies/policy_registry.h).
  StandaloneWorkload(const Scenario& scenario, const GpuCatalog& catalog, const PerDeviceResourceRules& per_device,
                     const Cluster* cluster = nullptr);

  std::vector<std::unique_ptr<JobSource>>& sources() { return sources_; }
  const ShapeTable& shapes() const { return shapes_; }
  const std::vector<JobOrigin>& origins() const { return origins_; }
  const ResourceNames& resource_names() const { return names_; }

  // Pulls every job from every source (throwing InputError at the first bad one) and
  // returns how many there were. The sources are exhausted afterwards.
  std::size_t read_all();

 private:
  ShapeTable shapes_;
  std::vector<JobOrigin> origins_;
  ResourceNames names_;
  WorkloadContext context_;
  std::vector<std::unique_ptr<JobSource>> sources_;
};

}  // namespace sharesim
