#pragma once
// Turns a scenario's `workload` section (already schema-checked) into job sources:
// Poisson generators, explicit jobs, a native trace.
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "sim/runtime/job_source.h"
#include "workloads/workload_context.h"

namespace sharesim {

// Throws InputError for problems only visible here (duplicate generator names, unreadable
// sample or trace files).
std::vector<std::unique_ptr<JobSource>> build_job_sources(const nlohmann::json& workload, WorkloadContext& context);

}  // namespace sharesim
