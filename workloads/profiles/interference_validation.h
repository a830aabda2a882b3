#pragma once
// Held-out validation of the concurrent-sharing interference model on Gavel's measured pairs
// (docs/validation.md): leave-one-pair-out, 10-fold over pairs, leave-one-job-out with 0 and 3
// probe pairs, and the cross-GPU test (fit on V100, predict P100 and K80). Hyperparameters (rank,
// regularisation) are chosen by an inner 5-fold split of each fold's training pairs, never on
// the pairs reported. Predictions go through a ConcurrentSolver that the caller passes in: the
// MPS policy's own compute_rates (apps/profiles_validate.cpp), since workloads/ may not include
// policies/.
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/cluster/interference.h"
#include "workloads/profiles/interference_fit.h"
#include "workloads/profiles/profile_fit.h"
#include "workloads/profiles/workload_profile.h"

namespace sharesim {

// Rates (relative to alone) of jobs with these parameters running concurrently on one GPU.
using ConcurrentSolver = std::function<std::vector<double>(std::span<const InterferenceParams>)>;

// One measured pair: jobs a <= b (indices into `jobs`), each one's speed relative to alone.
struct MeasuredPair {
  std::uint32_t a = 0, b = 0;
  double speed_a = 1, speed_b = 1;
};
// A pair measured as not fitting on the GPU together (Gavel: throughput 0): no speeds, a measured
// "not packable". Jobs a <= b, indices into `jobs`.
struct UnfitPair {
  std::uint32_t a = 0, b = 0;
};
struct PairTable {
  std::string gpu;
  std::vector<std::string> jobs;
  std::vector<MeasuredPair> pairs;
  std::vector<UnfitPair> did_not_fit;
};
// Gavel's pairs on worker type `gpu` among `profiles` (those with measurements there), and those
// of `did_not_fit` on that worker type between two of its jobs.
PairTable gavel_pair_table(const std::vector<WorkloadProfile>& profiles, std::string_view gpu,
                           std::span<const GavelUnfitPair> did_not_fit = {});

struct PairMetrics {
  std::size_t pairs = 0, speeds = 0;
  double median_abs_rel = 0;  // of (predicted - measured) / measured, over every job's speed
  double p90_abs_rel = 0;
  double order_accuracy = 0;           // pairs of two different jobs: the one measured slower is predicted slower
  double combined_median_abs_rel = 0;  // of the pair's summed speed
  double pack_accuracy = 0;            // (sum of speeds > 1) predicted as measured, over table.pairs
  // Pairs that did not fit: measured "not packable", right where the predicted summed speed is <= 1.
  // Only in the pack-or-not share over all pairs; the speed errors above have no measurement of them.
  std::size_t did_not_fit = 0;
  double pack_accuracy_all = 0;  // over table.pairs and table.did_not_fit together
};
// `predicted[i]` = {speed_a, speed_b} of table.pairs[i]; `predicted_did_not_fit[i]` likewise of
// table.did_not_fit[i] (as many as there are; std::invalid_argument otherwise).
PairMetrics pair_metrics(const PairTable& table, std::span<const std::array<double, 2>> predicted,
                         std::span<const std::array<double, 2>> predicted_did_not_fit = {});

struct Hyperparameters {
  int rank = 2;
  double regularisation = 0.01;
};
// The grid searched by the inner split.
std::vector<Hyperparameters> hyperparameter_grid();

// Parameters of every job of `table` fitted on the pairs `train` (indices into table.pairs).
std::vector<InterferenceParams> fit_pairs_subset(const PairTable& table, std::span<const std::size_t> train,
                                                 Hyperparameters h);
// Inner 5-fold split of `train`: the grid point with the lowest median |relative error|.
Hyperparameters choose_hyperparameters(const PairTable& table, std::span<const std::size_t> train,
                                       const ConcurrentSolver& solver);
// Hyperparameters chosen on all pairs of the table (for the shipped profiles).
Hyperparameters choose_hyperparameters_all(const PairTable& table, const ConcurrentSolver& solver);

struct ValidationRow {
  std::string split;
  PairMetrics metrics;
  std::string note;
};
struct GavelValidation {
  std::vector<ValidationRow> v100;       // the held-out splits
  std::vector<ValidationRow> cross_gpu;  // fitted on all V100 pairs, predicted on P100 and K80
  Hyperparameters shipped;               // chosen on all V100 pairs
};
// `did_not_fit` (read_gavel_profiles'): pairs scored in the pack-or-not share over all pairs, each
// predicted as the split predicts a held-out pair: leave one pair out, by the fit on every fitting
// pair with the hyperparameters chosen on them (such a pair is never in a training set); 10-fold,
// by the fit of the fold a fixed permutation puts it in; leave one job out, by the held-out job's
// parameters, once for each job it holds; in sample and cross-GPU, by the fit on all V100 pairs.
GavelValidation validate_gavel(const std::vector<WorkloadProfile>& gavel_profiles, const ConcurrentSolver& solver,
                               bool quick, std::span<const GavelUnfitPair> did_not_fit = {});

std::string gavel_validation_markdown(const GavelValidation& v);

// Interference parameters are written with this many decimals (the fitted values as the files
// hold them are the ones the simulator uses).
inline constexpr int kInterferenceDigits = 6;
// Fits the interference parameters of every profile with Gavel V100 pairs (hyperparameters
// chosen by the inner split on all of them) and stores them, rounded, in the profiles; returns
// the hyperparameters.
Hyperparameters fit_profile_interference(std::vector<WorkloadProfile>& profiles, const ConcurrentSolver& solver);

}  // namespace sharesim
