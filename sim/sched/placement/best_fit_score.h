#pragma once
// BestFit (Weng et al., ATC'23, Sec. 6, after Panigrahy et al.'s vector bin packing): the
// node left with the least free resource after the placement is the best.
#include <cstdint>
#include <span>

#include "sim/sched/placement/node_view.h"

namespace sharesim {

// Raw score 100 x (1 - [0.5 (cpu_free - cpu_req) / 128000 + 0.5 (gpu_free - gpu_req) / 8000]),
// truncated to an integer; gpu_* are total GPU milli of the node and the pod. The node must fit.
std::int64_t best_fit_raw_score(const PlacementNodeView& node, const PlacementPodRequest& pod);

// Min-max normalisation over the feasible nodes' raw scores, in place, as the artifact's
// NormalizeScore: (s - lowest) x 100 / (highest - lowest) in integer arithmetic; all 0 when
// every score is equal.
void normalize_min_max(std::span<std::int64_t> scores);

}  // namespace sharesim
