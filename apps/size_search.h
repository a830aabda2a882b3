#pragma once
// `sharesim size`: the smallest node count of one pool that meets every target on the mean
// over the seeds (docs/sweeps.md "Capacity sizing"). The search gallops (1, 2, 4, ... nodes)
// until a size meets the targets, then bisects between the last size that failed and that
// one; it assumes the targets get easier with more nodes (monotone), which waits and
// completion times follow only roughly (placement changes with the node count), so the answer
// meets the targets but may not be the smallest (docs/sweeps.md "Capacity sizing"). Every run
// goes through apps/run_pool.h into DIR/runs/<id>, so a search started again reuses the runs
// it already did.
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "apps/run_pool.h"
#include "apps/sweep_results.h"
#include "sim/cluster/gpu_catalog.h"
#include "sim/scenario/scenario.h"

namespace sharesim {

// "metrics.jobs.wait_s.p95<=600" or "metrics.jobs.slo_attainment>=0.99".
struct SizeTarget {
  std::string metric;
  bool at_most = true;  // <=; false: >=
  double bound = 0;
  std::string text;  // as written
  bool met_by(double mean) const { return at_most ? mean <= bound : mean >= bound; }
};
SizeTarget parse_size_target(const std::string& text);

struct SizeRequest {
  std::string scenario_path;
  std::vector<Override> sets;  // --set, applied before the node count
  std::string pool;
  std::vector<SizeTarget> targets;
  std::vector<std::uint64_t> seeds;
  std::vector<std::string> variants;  // sharing variants (built-in names or compare.variants); empty: as written
  unsigned threads = 1;
  std::string output_dir;
  std::int64_t max_nodes = 4096;  // --max-nodes: the largest size tried
};

// A size tried: each target's statistics over the seeds and whether its mean meets it.
struct SizeEvaluation {
  std::int64_t nodes = 0;
  std::vector<MetricStats> stats;  // parallel to the targets
  bool meets = false;
  // Set when the pool at this size could never hold some job of the workload (a gang larger
  // than the cluster, a pod larger than every node): the CapacityError a run gives, the size
  // not met. At --max-nodes the variant then has no answer (SizeAnswer::met false).
  std::string cannot_hold;
  nlohmann::ordered_json to_json(const std::vector<SizeTarget>& targets) const;
};

struct SizeAnswer {
  std::string variant;  // "" without variants
  // False when no size up to max_nodes meets every target, or none could even hold the workload
  // (at_size.cannot_hold set): nodes and gpus are then 0 and at_size is the evaluation at
  // max_nodes (the largest tried).
  bool met = true;
  std::int64_t nodes = 0;
  std::int64_t gpus = 0;  // nodes x the pool's GPUs per node
  std::int64_t gpus_per_node = 0;
  SizeEvaluation at_size;
  std::optional<SizeEvaluation> one_fewer;  // absent at 1 node
  std::vector<std::string> straddles;       // targets whose 95% CI holds the bound at the answer or one fewer
  std::vector<std::int64_t> tried;          // node counts in the order tried
};

// Runs the search for each variant (or once). Throws InputError for bad input, a variant's
// named. A variant that no size up to max_nodes satisfies, or that holds the workload at no
// size up to it (a CapacityError), gets an answer with met = false (the others are still
// searched), as does the scenario's own sharing without variants. A target whose metric has no
// value in any seed at a size (no request finished, no job completed) is not met there.
std::vector<SizeAnswer> size_pool(const SizeRequest& request, const GpuCatalog& catalog,
                                  const std::function<void(const PoolProgress&)>& progress = {});

// size.json: pool, targets, seeds, then nodes, gpus, at_size and one_fewer of the first
// answer, and with variants every answer under "variants".
nlohmann::ordered_json size_json(const SizeRequest& request, const std::vector<SizeAnswer>& answers);

// The one-line answer ("pool inference: 11 nodes (11 GPUs) meet metrics.jobs.wait_s.mean<=12
// (mean 8.4 +- 1.2); 10 nodes do not (21.0 +- 3.3)") and, with variants, the table line
// ("GPUs needed: exclusive 24, mig 16, mps 12"; "none up to 128" for a variant no size met).
// A variant no size could hold: "no size up to 4 nodes could hold the workload (ERROR)".
std::string size_text(const SizeRequest& request, const std::vector<SizeAnswer>& answers);

}  // namespace sharesim
