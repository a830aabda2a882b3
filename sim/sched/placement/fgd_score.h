#pragma once
// FGD, Fragmentation Gradient Descent (Weng et al., USENIX ATC'23, Sec. 4):
// place the pod where the node's expected fragmentation (fragmentation.h) grows the least.
#include <cstdint>
#include <vector>

#include "sim/sched/placement/fragmentation.h"
#include "sim/sched/placement/node_view.h"

namespace sharesim {

struct FgdResult {
  std::int64_t score = 0;  // 0..100
  GpuChoice gpus;          // the GPUs that give this score
};

// Score = floor(sigmoid(delta / 1000) x 100) with delta = F_n(before) - F_n(after placing),
// F_n as in fragmentation.h (the sigmoid and the 1000 scale are the artifact's FGDScore). A
// sharing pod tries every GPU with enough free milli and keeps the best delta (lowest index on
// ties); a whole-GPU pod takes the lowest-index fully free GPUs; a CPU-only pod takes no GPU
// (its CPU can still change which classes fit). The node must fit the pod.
//
// Cost: O(classes x GPUs) for the node's per-class counts, then O(classes) per candidate GPU,
// since one placement changes one GPU's free milli (or k fully free GPUs) and the node's CPU.
class FgdScorer {
 public:
  explicit FgdScorer(const TargetWorkload& workload) : workload_(workload) {}
  FgdResult score(const PlacementNodeView& node, const PlacementPodRequest& pod);

 private:
  struct ClassState {
    std::int64_t below = 0;   // free milli of GPUs with free < class's gpu_milli
    std::int32_t usable = 0;  // GPUs with free >= class's gpu_milli
    bool static_ok = false;   // asks for a GPU and the node's model is allowed
  };
  // Weighted fragment after taking `take` milli from a GPU with `from` free (take = 0: no GPU
  // changes), `whole` fully free GPUs, and `cpu` milli of CPU.
  std::int64_t weighted_after(const PlacementNodeView& node, std::int64_t idle_after, std::int32_t from,
                              std::int32_t take, std::int32_t whole, std::int64_t cpu) const;

  const TargetWorkload& workload_;
  std::vector<ClassState> state_;  // scratch, one per class
};

// sigmoid(x) = 1 / (1 + e^-x).
double fgd_sigmoid(double x);

}  // namespace sharesim
