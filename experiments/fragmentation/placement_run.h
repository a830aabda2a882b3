#pragma once
// One run of the fragmentation experiment (Weng et al., ATC'23, Sec. 6): every pod of the
// (inflated, shuffled) sequence arrives once, in order; each is placed by the policy or, when
// no node fits, counted as failed and never retried. Nothing departs.
#include <cstdint>
#include <string>
#include <vector>

#include "experiments/fragmentation/experiment_input.h"
#include "experiments/fragmentation/fragmentation_curve.h"
#include "experiments/fragmentation/node_chooser.h"
#include "sim/sched/placement/fragmentation.h"

namespace sharesim {

struct PlacementRunResult {
  std::vector<CurveRow> curve;
  std::int64_t pods = 0;  // in the sequence (after inflation)
  std::int64_t placed_pods = 0;
  std::int64_t failed_pods = 0;
  std::int64_t arrived_gpu_milli = 0;
  std::int64_t allocated_gpu_milli = 0;  // at the end
  std::int64_t failed_gpu_milli = 0;     // asked for by failed pods
  double final_frag_ratio_pct = 0;
  double final_frag_amount_pct = 0;
  std::vector<std::uint32_t> chosen_node;  // per pod of the sequence; UINT32_MAX when it failed
};

// `sequence`: indices into input.pods (build_pod_sequence). `workload`: the target workload of
// FGD and of the fragmentation measure (build_target_workload over input.pods).
PlacementRunResult run_placement(const ExperimentInput& input, const TargetWorkload& workload,
                                 const std::vector<std::uint32_t>& sequence, PlacementExperimentPolicy policy,
                                 std::uint64_t seed);

// summary.json of `sharesim place`.
std::string placement_summary_json(const ExperimentInput& input, const TargetWorkload& workload,
                                   const PlacementRunResult& result, PlacementExperimentPolicy policy,
                                   std::uint64_t seed, double inflation);

}  // namespace sharesim
