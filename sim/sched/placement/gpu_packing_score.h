#pragma once
// GpuPacking (Weng et al., ATC'23, Sec. 6): prefer, in order, GPUs that are already partly
// used, then free GPUs on a node that is already in use, then an empty node, so that whole
// GPUs and whole nodes stay free for multi-GPU pods.
#include <cstdint>

#include "sim/sched/placement/node_view.h"

namespace sharesim {

// The three bands of the paper's artifact (GpuPackingScore), from high to low; the pod's GPUs
// are the ones best fit would take (least free milli first):
//   1. only partly used GPUs:   max(100 - sum over used GPUs of (free x 100 / 1000) / 10, 50)
//   2. some fully free GPUs on a node with a used GPU: max(50 - fully free GPUs taken, 33)
//   3. every GPU of the node is free: max(33 - free GPUs, free GPUs)
// 0 for a CPU-only pod. The node must fit the pod.
std::int64_t gpu_packing_score(const PlacementNodeView& node, const PlacementPodRequest& pod);

}  // namespace sharesim
