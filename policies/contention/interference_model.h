#pragma once
// Concurrent sharing with asymmetric interference (docs/models.md, "Concurrent sharing:
// asymmetric interference"). Jobs that run at the same time on one GPU (MPS clients, CUDA
// streams) slow each other by the pressure each puts on a resource times the other's
// sensitivity to it (sim/cluster/interference.h), plus a learned low-rank pairwise term in the
// same form. Pressures add: with co-runners J, job i runs at
//     rate_i = 1 / (1 + sum_{j in J} sum_k s_ik p_jk)
// of its alone speed. With one co-runner this is 1 / (1 + x_ij), so the slowdown 1/rate - 1 of a
// measured pair is x_ij itself, which is what the fit (workloads/profiles/interference_fit.h)
// matches; the calibration triples test the additivity (docs/validation.md).
#include <span>

#include "sim/cluster/interference.h"

namespace sharesim {

// Writes rates[i] for each job; params[i] == nullptr marks a job with no GPU work (rate 0,
// presses on nobody).
void concurrent_rates(std::span<const InterferenceParams* const> params, std::span<double> rates);

}  // namespace sharesim
