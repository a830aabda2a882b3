#pragma once
// The order in which the experiment's pods arrive (Weng et al., ATC'23, Sec. 6, and the
// artifact's workload "tuning"): the pod list sorted by name, inflated with random copies until
// the GPU milli asked for reaches a multiple of the cluster's, then shuffled. Every pod arrives
// and none departs; creation and deletion times are ignored.
#include <cstdint>
#include <vector>

#include "experiments/fragmentation/experiment_input.h"

namespace sharesim {

inline constexpr double kDefaultInflation = 1.3;

// Indices into input.pods (already sorted by name), in arrival order. With `inflation` > 0:
//   - below the target (inflation x cluster GPU milli): repeatedly draw a pod uniformly, with
//     replacement, from the original list (CPU-only pods included) and append a copy, stopping
//     at the first draw for which total + the drawn pod's *per-GPU* milli would exceed the
//     target. The artifact's stop check adds gpu_milli, not num_gpu x gpu_milli, while the
//     running total adds the pod's total milli; sharesim does the same.
//   - above the target: remove uniformly drawn pods until the total is at most the target
//     (the artifact's tune-down).
// Then the whole list is shuffled (Fisher-Yates). Streams "inflation" and "shuffle" of the
// seed drive the draws. Throws InputError (pods file) when inflation is needed but no pod
// asks for a GPU.
std::vector<std::uint32_t> build_pod_sequence(const ExperimentInput& input, double inflation, std::uint64_t seed);

// The inflation step alone, without the shuffle (tests check where it stops).
std::vector<std::uint32_t> inflate_pods(const ExperimentInput& input, double inflation, std::uint64_t seed);

}  // namespace sharesim
