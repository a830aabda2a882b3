#pragma once
// A workload built from a JSON `workload` section outside any run, with its tables, for the
// importer and generator tests. Notes (skipped rows) are collected instead of printed.
#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "policies/policy_registry.h"
#include "sim/cluster/gpu_catalog.h"
#include "tests/unit/input_error_of.h"
#include "workloads/workload_builder.h"

namespace sharesim::testing {

inline const std::string kTraceDir = std::string(SHARESIM_SOURCE_DIR) + "/tests/data/traces";
inline const std::string kSharedData = SHARESIM_SHARED_DATA_DIR;

struct BuiltWorkload {
  ShapeTable shapes;
  std::vector<JobOrigin> origins;
  ResourceNames names;
  WorkloadContext context;
  std::vector<std::string> notes;
  std::vector<std::unique_ptr<JobSource>> sources;

  explicit BuiltWorkload(const nlohmann::json& workload, std::uint64_t seed = 1, std::string dir = kTraceDir)
      : context(shapes, origins, names, GpuCatalog::builtin(), registered_per_device_resources(), "scenario.json",
                std::move(dir), seed) {
    context.report = [this](const std::string& text) { notes.push_back(text); };
    sources = build_job_sources(workload, context);
  }
  // Every job of the first source.
  std::vector<JobSpec> drain(std::size_t source = 0) {
    std::vector<JobSpec> jobs;
    JobSpec job;
    while (sources[source]->next(job)) jobs.push_back(job);
    return jobs;
  }
  const PodShape& shape(const JobSpec& job) const { return shapes.shapes[job.shape]; }
};

inline nlohmann::json trace_workload(nlohmann::json trace) { return {{"trace", std::move(trace)}}; }

}  // namespace sharesim::testing
