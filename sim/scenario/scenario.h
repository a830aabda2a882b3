#pragma once
// A scenario file, loaded and validated. Cluster, scheduler and output settings are typed
// here; the workload section and each pool's `sharing` section stay JSON (already checked
// against docs/scenario.schema.json) and are interpreted by workloads/ and policies/, so
// that sim/ knows no particular workload class or sharing policy.
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "sim/cluster/gpu_catalog.h"
#include "sim/cluster/taints.h"
#include "sim/core/sim_time.h"

namespace sharesim {

struct NodePoolSpec {
  std::string name;
  std::int64_t nodes = 0;
  std::string gpu;  // catalog id
  std::int64_t gpus_per_node = 0;
  std::int64_t cpu_milli = 0;
  std::int64_t memory_mib = 0;
  std::map<std::string, std::string> labels;  // merged with nvidia.com/gpu.product etc. by the cluster
  std::vector<Taint> taints;                  // of every node of the pool
  std::string topology;                       // "nvswitch", "nvlink-pairs" or "pcie"
  std::int64_t nodes_per_rack = 0;            // 0 = all nodes of the pool under one leaf switch
  nlohmann::json sharing;                     // {"policy": "exclusive", ...}
  std::string pointer;                        // JSON pointer of this pool, for later error messages
};

// One resource of a resource-scoring plugin's `resources` list (kube-scheduler's ResourceSpec).
struct ScoreResourceSpec {
  std::string name;  // "cpu", "memory" or an extended resource ("nvidia.com/gpu")
  std::int64_t weight = 1;
};

// A point of RequestedToCapacityRatio's shape: utilization 0-100 -> score 0-10.
struct UtilizationShapePoint {
  std::int64_t utilization = 0;
  std::int64_t score = 0;
};

// One weighted score plugin (`scheduler.score_plugins[]`, docs/kubernetes.md "Weighted score
// plugins"): kube-scheduler's NodeResourcesFit and NodeResourcesBalancedAllocation, or one of
// the GPU-sharing scores (FGDScore, BestFitScore, ...).
struct ScorePluginSpec {
  std::string name;
  std::int64_t weight = 1;
  std::string strategy = "LeastAllocated";   // NodeResourcesFit's scoringStrategy.type
  std::vector<ScoreResourceSpec> resources;  // empty: cpu and memory, weight 1 each
  std::vector<UtilizationShapePoint> shape;  // RequestedToCapacityRatio only
  std::string pointer;                       // JSON pointer of this entry, for errors
};

// A PriorityClass (scheduling.k8s.io/v1): its value and whether its pods may preempt.
struct PriorityClassSpec {
  std::int32_t value = 0;
  bool preempts = true;  // preemptionPolicy PreemptLowerPriority (false: Never)
};

struct SchedulerSpec {
  std::string queue = "fifo";           // "fifo" | "priority"
  std::string placement = "first-fit";  // "first-fit" | "binpack" | "spread"
  // Weighted score plugins; when given they replace `placement`.
  std::vector<ScorePluginSpec> score_plugins;
  // kube-scheduler's DefaultPreemption (PostFilter): a pod that fits nowhere evicts lower-priority pods.
  bool preemption = false;
  std::map<std::string, PriorityClassSpec> priority_classes;  // by name
};

struct OutputSpec {
  std::string dir;                  // empty = none given (the CLI's -o may supply one)
  SimTime timeseries_interval = 0;  // 0 = adaptive (ClusterRuntime::start)
  bool event_log = false;
};

struct FaultSpec {
  SimTime job_mtbf = 0;  // mean running time between fatal faults of one job; 0 = no faults
};

struct CostSpec {
  double gpu_hour = 0;  // price of one GPU-hour of every model; 0 = not given
  // Per GPU model (catalog id): overrides gpu_hour and the catalog's gpu_hour_usd.
  std::map<std::string, double> gpu_hour_by_model;
  // The price of one GPU-hour of `model`: by_model, else gpu_hour, else the catalog's price.
  double price_of(const std::string& model, double catalog_price) const {
    const auto found = gpu_hour_by_model.find(model);
    if (found != gpu_hour_by_model.end()) return found->second;
    return gpu_hour > 0 ? gpu_hour : catalog_price;
  }
};

struct SloSpec {
  double max_slowdown = 0;  // completion time / standalone duration a job may reach; 0 = no SLO
  // Share of jobs or requests that must meet their objective for compare's verdict (0.99:
  // for requests, p99 latency within the SLO). A target the user sets, not a model number.
  double attainment = 0.99;
};

// `metrics_window`: which span the summary's figures cover (docs/scenario.md "metrics_window").
// Bounds not given come from the active span: the first arrival to the last completion, or
// to the end of the run while jobs are still pending or running.
struct MetricsWindowSpec {
  bool configured = false;        // the scenario has a metrics_window with at least one key
  SimTime start = -1;             // -1 = not given
  SimTime end = -1;               // -1 = not given
  std::uint64_t warmup_jobs = 0;  // jobs (by arrival) left out before the window opens
};

struct Scenario {
  std::string file;                 // path the scenario was read from ("<string>" for in-memory text)
  std::string base_dir;             // directory of `file`; relative paths inside the scenario resolve here
  nlohmann::ordered_json document;  // the whole document after --set overrides, keys in file order
                                    // (echoed into summary.json as written)

  std::string name;
  std::string description;
  std::uint64_t seed = 1;
  SimTime until = kTimeNever;  // kTimeNever = run until all work is done
  std::vector<NodePoolSpec> node_pools;
  SchedulerSpec scheduler;
  nlohmann::json workload;  // validated against the schema; interpreted by workloads/
  OutputSpec output;
  nlohmann::json calibration_overrides;  // `calibration.overrides`, checked by policies/
  FaultSpec faults;
  CostSpec cost;
  SloSpec slo;
  MetricsWindowSpec metrics_window;
  nlohmann::json compare;  // `compare` section (named sharing variants), read by apps/compare_run.h
};

struct Override {
  std::string path;   // "workload.generators.0.count" or "/workload/generators/0/count"
  std::string value;  // parsed as JSON when it is valid JSON, otherwise taken as a string
  // How an error names the override ("the grid of sweep.json"); empty: "--set PATH=VALUE".
  std::string source = {};
};

// Splits a command-line `--set PATH=VALUE` at the first '='. Throws InputError with file
// "--set" when there is no '=' or the path is empty.
Override parse_override(std::string_view assignment);

// Reads, applies overrides, validates (syntax with line:column, schema with JSON pointers,
// unknown keys with "did you mean", semantic checks such as unknown GPU models) and
// returns the typed scenario. Throws InputError on any bad input.
Scenario load_scenario_file(const std::string& path, const GpuCatalog& catalog,
                            const std::vector<Override>& overrides = {});
Scenario load_scenario_text(std::string_view text, const std::string& origin, const GpuCatalog& catalog,
                            const std::vector<Override>& overrides = {});

// The JSON Schema of scenario files (docs/scenario.schema.json, embedded at build time).
std::string_view scenario_schema_text();

}  // namespace sharesim
