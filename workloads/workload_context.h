#pragma once
// What building a workload needs from the rest of the run: the shape and origin tables it
// fills, the cluster's resource names, the catalog (GPU-product selectors) and where the
// scenario lives (relative paths, error messages).
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sim/cluster/gpu_catalog.h"
#include "sim/cluster/resource_names.h"
#include "sim/runtime/job_origin.h"
#include "sim/scenario/scenario.h"
#include "sim/sched/job.h"
#include "sim/sched/per_device_resource.h"

namespace sharesim {

struct WorkloadContext {
  WorkloadContext(ShapeTable& shape_table, std::vector<JobOrigin>& origin_table, ResourceNames& names,
                  const GpuCatalog& gpu_catalog, const PerDeviceResourceRules& per_device, std::string file,
                  std::string dir, std::uint64_t run_seed)
      : shapes(shape_table),
        origins(origin_table),
        resource_names(names),
        catalog(gpu_catalog),
        per_device_rules(per_device),
        scenario_file(std::move(file)),
        base_dir(std::move(dir)),
        seed(run_seed) {}

  ShapeTable& shapes;
  std::vector<JobOrigin>& origins;
  ResourceNames& resource_names;
  const GpuCatalog& catalog;
  // The per-device quantities a request's `limits` may name, as the run's policies declare them
  // (policies/policy_registry.h registered_per_device_resources()).
  const PerDeviceResourceRules& per_device_rules;
  std::string scenario_file;
  std::string base_dir;
  std::uint64_t seed = 1;
  SimTime until = kTimeNever;  // the scenario's `until` (services without a lifetime need one)
  // scheduler.priority_classes, for the `priority_class` of jobs, generators and mix entries.
  std::map<std::string, PriorityClassSpec> priority_classes;
  // The names of the scenario's generators and job list entries, which a trace's origins may
  // not take (job names are "<origin>-<n>"); set before the trace source is made.
  std::set<std::string> entry_names;

  std::uint32_t intern_origin(const std::string& name, const std::string& kind);
  // The priority and preemption policy of a schema-checked job, generator or mix entry: its
  // `priority_class` (checked by the loader to name a class), else its `priority`.
  PriorityClassSpec priority_of(const nlohmann::json& entry) const;
  // A pod shape from a schema-checked `request` object ({gpus, cpu_milli, memory_mib,
  // gpu_product, gpu_resource, limits, profile, demand}); gpus defaults to 1, requested as
  // nvidia.com/gpu unless gpu_resource names another resource. `limits` replaces gpus and
  // gpu_resource: one device resource plus per-device quantities (docs/scenario.md
  // "Requests"); its values are checked here (InputError naming the key's JSON pointer).
  std::uint32_t shape_from_request(const nlohmann::json& request, const std::string& pointer);
  // The shape before interning (requested as nvidia.com/gpu, default demand).
  PodShape base_shape(std::int64_t gpus, std::int64_t cpu_milli, std::int64_t memory_mib,
                      const std::string& gpu_model_id, const std::string& file, const std::string& where);
  std::uint32_t shape_from_values(std::int64_t gpus, std::int64_t cpu_milli, std::int64_t memory_mib,
                                  const std::string& gpu_model_id, const std::string& file, const std::string& where,
                                  const PhaseDemand& demand = PhaseDemand{});
  // A trace pod that asks for part of one GPU (gpu_milli < 1000, docs/traces.md) carries its
  // fraction as the per-device quantities per_device_rules names for it, each ceil(gpu_milli / 10)
  // percent. The policy that declares them honours them; policies that hand out whole devices
  // ignore them, so there the pod holds one GPU as before.
  std::uint32_t with_gpu_fraction(std::uint32_t shape, std::int64_t gpu_milli);

  // capacity_check's answer: why a job could never run on the cluster ("" when it could), and
  // whether that is because no node takes its pods at all (their node selector, taints or GPU
  // resource: capacity_problem's no_node_takes in sim/sched/scheduler.h) rather than no node
  // being large enough or the cluster too small for the gang.
  struct CapacityAnswer {
    // Not explicit: a check that knows no configuration faults returns the bare text.
    CapacityAnswer(std::string problem_text = "", bool configuration_fault = false)
        : problem(std::move(problem_text)), configuration(configuration_fault) {}
    std::string problem;
    bool configuration = false;
  };
  // Why a training or batch job of this shape would never finish ("" when it would): a pod on
  // GPUs progresses at the rate its policy gives its demand, and a demand of neither SMs nor
  // bandwidth gets rate 0 everywhere (docs/models.md "Contention model"), so it would hold its
  // GPUs forever. A pod without GPUs runs at standalone speed. `sm` and `bw` name the fields
  // the demand came from (a scenario's "sm", a trace's "sm_active" column).
  std::string progress_problem(std::uint32_t shape, const std::string& kind, const std::string& sm = "sm",
                               const std::string& bw = "bw") const;
  // Why a job of `pods` pods of this shape could never run on the cluster ("" when it
  // could). Uses `capacity_check` when the caller set one (a run sets it from its cluster),
  // remembering the answer per (shape, pods).
  std::string capacity_problem(std::uint32_t shape, std::uint32_t pods);
  std::function<CapacityAnswer(const PodShape&, std::uint32_t pods)> capacity_check;
  // Throws capacity_problem's answer (not "") at `file`: `where`: a CapacityError (input_error.h),
  // which `sharesim size` answers as a size that cannot hold the workload, or a plain InputError
  // when no node takes the pod at all, a mistake of the configuration at any size.
  [[noreturn]] void fail_capacity(std::uint32_t shape, std::uint32_t pods, const std::string& file,
                                  const std::string& where);

  // Notes for the user that are not errors (bad trace rows skipped with skip_bad_rows).
  // Without a callback they go to stderr as "sharesim: warning: ...".
  std::function<void(const std::string&)> report;
  void note(const std::string& text) const;

 private:
  // The per-device quantities' names, for error messages.
  std::string per_device_names() const;
  // Reads a request's `limits` into the shape's device resource and per-device quantities.
  void read_limits(const nlohmann::json& limits, const std::string& pointer, PodShape& shape);

  std::map<std::pair<std::string, std::string>, std::uint32_t> origin_index_;
  std::map<std::pair<std::uint32_t, std::uint32_t>, CapacityAnswer> capacity_answers_;
};

}  // namespace sharesim
