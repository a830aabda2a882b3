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
#include "sim/cluster/node_pool_spec.h"
#include "sim/core/sim_time.h"
#include "sim/input/input_error.h"
#include "sim/metrics/metrics_spec.h"
#include "sim/runtime/fault_spec.h"
#include "sim/sched/scheduler_spec.h"

namespace sharesim {

struct OutputSpec {
  std::string dir;                  // empty = none given (the CLI's -o may supply one)
  SimTime timeseries_interval = 0;  // 0 = adaptive (ClusterRuntime::start)
  bool event_log = false;
};

// An override applied to the document: an error found at a path it set says so.
struct AppliedOverride {
  std::string pointer;
  std::string text;  // "--set seed=-1", "the grid of sweep.json until=-1s"
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
  // The overrides applied when it was loaded, for errors the later stages find (a policy's
  // settings, the calibration overrides, the workload's requests) at a path one of them set.
  std::vector<AppliedOverride> applied_overrides;
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

// `error` with " (value from --set PATH=VALUE)" added when it is an error in the scenario's own
// file at a JSON pointer within a path an override set (the last such override: it won), as the
// loader's own errors say; otherwise `error` unchanged.
InputError with_override_source(const InputError& error, const Scenario& scenario);

// The JSON Schema of scenario files (docs/scenario.schema.json, embedded at build time).
std::string_view scenario_schema_text();

// A generator's name: its "name", else "g<index>" (its jobs are "<name>-0", "<name>-1", ...).
inline std::string generator_name(const nlohmann::json& generator, std::size_t index) {
  return generator.value("name", "g" + std::to_string(index));
}

}  // namespace sharesim
