#pragma once
// `sharesim compare`: one scenario, the same workload and seed, run once per sharing policy.
// Each variant replaces the `sharing` object of every node pool that has GPUs (or, for a
// per-pool variant, of the pools it names; apps/sharing_variant.h) with the policy's own
// default (its registry entry's compare default, policies/policy_entry.h) or with a config the
// scenario names under
// `compare.variants`. Every variant runs; a config that does not fit the cluster is an
// InputError naming the variant. Outputs: docs/outputs.md "compare.csv and compare.json".
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "apps/scenario_run.h"
#include "apps/sharing_variant.h"
#include "sim/scenario/scenario.h"

namespace sharesim {

// The default of --policies: the registered policies listed in the demo (policies/policy_entry.h).
std::string default_compare_policies();

// Splits "a,b,c"; throws InputError naming `option` for an empty list, an empty name or a
// name listed twice.
std::vector<std::string> parse_policy_list(std::string_view text, const std::string& option = "--policies");

// One column of the comparison (apps/sharing_variant.h).
using CompareVariant = SharingVariant;

// The variant a --policies name stands for in `scenario` (sharing_variant with option
// "--policies").
CompareVariant compare_variant(const Scenario& scenario, const std::string& name);

struct CompareResult {
  CompareVariant variant;
  std::unique_ptr<ScenarioRun> run;  // the variant's run; never null
};

class CompareRun {
 public:
  // Resolves every name, then builds every variant's run (nothing is simulated yet); throws
  // InputError for an unknown name or a bad config, naming the variant.
  CompareRun(const Scenario& scenario, const GpuCatalog& catalog, const std::vector<std::string>& names);

  // Runs every variant, one after the other, each with the scenario's seed; with `progress`,
  // draws a progress bar per variant on stderr (apps/progress_bar.h).
  void run(bool progress = false);

  const Scenario& scenario() const { return scenario_; }
  const std::vector<CompareResult>& results() const { return results_; }

  // The side-by-side table `sharesim compare` prints (metrics as rows, variants as columns),
  // with the wall time of the runs and, when not empty, the output directory.
  std::string table(const std::string& output_dir = "") const;
  // One row / object per variant, in --policies order; no wall-clock figure, so the same
  // scenario and seed give byte-identical files.
  std::string csv() const;
  nlohmann::ordered_json json() const;

  // Runs that placed nothing or left most jobs pending, one line each (apps/run_verdict.h).
  std::vector<std::string> warnings() const;
  // Per objective: which variants meet it, and which of those needs the fewest GPUs.
  std::vector<std::string> verdict() const;

  // Writes each variant's run outputs into DIR/<variant>/, then DIR/compare.csv and, last,
  // DIR/compare.json. Every compare file is built before the first file is written.
  void write_outputs(const std::string& dir);

 private:
  Scenario scenario_;
  std::vector<CompareResult> results_;
  bool ran_ = false;
};

}  // namespace sharesim
