#pragma once
// DotProd, the Tetris packing heuristic (Grandl et al., SIGCOMM'14) as the GPU-sharing
// baseline of Weng et al. (ATC'23, Sec. 6): the smaller the dot product of the node's free
// resources and the pod's request, the better the fit.
#include <cstdint>

#include "sim/sched/placement/node_view.h"

namespace sharesim {

// 100 x (1 - 0.5 x <free, request>), with both vectors (cpu milli, total GPU milli) divided by
// (128000, 8000); truncated to an integer. The 0.5 divides by the vector's dimension (2) so
// the dot product lies in [0, 1].
std::int64_t dot_product_score(const PlacementNodeView& node, const PlacementPodRequest& pod);

}  // namespace sharesim
