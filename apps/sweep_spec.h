#pragma once
// A sweep spec (`sharesim sweep SPEC.json`, docs/sweeps.md) and its expansion into runs: the
// cartesian product of the grid, the zip axis, the sharing variants and the seeds, each run
// a loaded scenario with a content-addressed id.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "apps/sharing_variant.h"
#include "sim/cluster/gpu_catalog.h"
#include "sim/scenario/scenario.h"

namespace sharesim {

struct SweepAxis {
  std::vector<std::string> paths;                           // one for a grid axis; every zip path for the zip axis
  std::vector<std::vector<nlohmann::ordered_json>> values;  // values[k][p]: the k-th step's value of paths[p]
};

struct SweepVariantSpec {
  std::string name;
  nlohmann::ordered_json definition;  // null: a name resolved in the scenario (built-in or compare.variants)
  std::string pointer;                // where the spec names it
};

struct ScenarioSweepSpec {
  std::string file;           // the spec's path as given
  std::string scenario_path;  // resolved against the spec's folder
  std::vector<std::uint64_t> seeds;
  std::vector<SweepAxis> axes;             // the grid's axes in spec order, then the zip axis
  std::vector<SweepVariantSpec> variants;  // empty: the scenario as written
  std::vector<std::string> metrics;        // dotted paths into summary.json
};

// Reads and checks a spec (syntax with line:column, docs/sweep.schema.json, then the rules the
// schema cannot say). Throws InputError naming the file and the JSON pointer.
ScenarioSweepSpec load_sweep_spec(const std::string& path);

// "1-20", "1,5,9" or a mix ("1,3-4"): the seeds in order; InputError(`file`, `where`, ...).
std::vector<std::uint64_t> parse_seed_list(const std::string& text, const std::string& file, const std::string& where);

// One run of a sweep.
struct SweepRun {
  std::vector<nlohmann::ordered_json> point;  // the value of each point path (SweepPlan::point_paths)
  std::string variant;                        // "" without variants
  std::uint64_t seed = 0;
  std::string id;         // 16 hex digits: a hash of the program version and the effective scenario
  std::size_t group = 0;  // index of its (point, variant) among the plan's groups
};

// Everything the results need, and nothing that depends on where the sweep runs: the shards
// of one sweep write the same plan, and `sweep merge` needs only the plans and the runs'
// summary.json files.
struct SweepPlan {
  std::vector<std::string> point_paths;  // grid paths, then zip paths
  bool has_variants = false;
  std::vector<std::string> metrics;
  std::vector<SweepRun> runs;  // grid slowest, then zip, variant, seed fastest
  std::size_t groups = 0;

  nlohmann::ordered_json to_json() const;
  static SweepPlan from_json(const nlohmann::ordered_json& json, const std::string& file);
};

// The plan and each run's effective scenario (parallel to plan.runs). Loads the scenario once
// per grid point and builds one run per (point, variant) to check it, so that every bad
// value is reported before anything runs. Throws InputError.
struct ExpandedSweep {
  SweepPlan plan;
  std::vector<Scenario> scenarios;
};
ExpandedSweep expand_sweep(const ScenarioSweepSpec& spec, const GpuCatalog& catalog);

// A run id: 16 hex digits of a 64-bit FNV-1a hash of the program version, the effective
// scenario document and the seed.
std::string sweep_run_id(const Scenario& scenario);

// The text of a grid value in runs.csv and the tables: a string as written, anything else as
// JSON.
std::string point_value_text(const nlohmann::ordered_json& value);

}  // namespace sharesim
