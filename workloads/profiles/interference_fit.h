#pragma once
// Fitting the concurrent-sharing interference parameters (sim/cluster/interference.h,
// docs/models.md "Concurrent sharing: asymmetric interference") to measured co-run speeds.
//
// A measured case: job `victim` ran at `speed` (relative to alone) beside `partners`. The model
// predicts 1 / (1 + sum_j s_victim . p_j); its slowdown x = 1/speed - 1 is linear in each job's
// sensitivity s and pressure p separately. The fit minimises
//     sum_cases speed^2 * (x_predicted - x_measured)^2 + regularisation * sum (s^2 + p^2)
// over s, p >= 0: the weight speed^2 makes a residual in x the first-order relative error of the
// speed, (predicted - measured) / measured ~ -speed * (x_predicted - x_measured), so this is a
// relative-error objective. It is solved by cyclic coordinate descent, each coordinate set to
// its exact non-negative minimiser (the objective is quadratic in each one), from a
// deterministic start, for a fixed number of sweeps: the same input gives the same bits.
//
// Which dimensions a job may use is given by masks: Gavel jobs use `rank` latent dimensions;
// calibration kernels use the named resources they exercise.
#include <cstdint>
#include <span>
#include <vector>

#include "sim/cluster/interference.h"

namespace sharesim {

struct CorunObservation {
  std::uint32_t victim = 0;             // job index
  std::vector<std::uint32_t> partners;  // job indices running beside it (may include victim's own type)
  double speed = 1;                     // measured, relative to alone (> 0)
};

// Bit k set = dimension k may be non-zero.
using DimMask = std::uint32_t;
DimMask latent_mask(int rank);  // the first `rank` latent dimensions

struct InterferenceFitSettings {
  double regularisation = 0.01;
  int sweeps = 300;
};

struct JobMasks {
  DimMask sensitivity = 0;
  DimMask pressure = 0;
};

// Fits every job's parameters. `masks[i]` says which dimensions job i may use.
std::vector<InterferenceParams> fit_interference(std::span<const CorunObservation> observations,
                                                 std::span<const JobMasks> masks,
                                                 const InterferenceFitSettings& settings);

// Fits only job `job`'s parameters, the others' staying as given in `params` (a new job seen in
// a few probe pairs); starts from params[job].
void fit_one_job(std::span<const CorunObservation> observations, std::uint32_t job, JobMasks mask,
                 const InterferenceFitSettings& settings, std::vector<InterferenceParams>& params);

// The element-wise mean of the parameters of `jobs` (the prior for a job never measured).
InterferenceParams mean_params(std::span<const InterferenceParams> params, std::span<const std::uint32_t> jobs);

}  // namespace sharesim
