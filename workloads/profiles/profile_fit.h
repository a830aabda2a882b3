#pragma once
// Building workload profiles from measured data (docs/profiles.md): the MISO MIG-slice
// latencies and Gavel's pairwise co-location throughputs are read into profiles, and each
// profile's contention-model demand (sm, bw) is fitted so that the model reproduces the
// measurements as closely as possible (least squares on the speeds; errors reported relative).
//
// The co-location model is the contention model's solve_contention() (policies/contention/),
// which workloads/ may not include (docs/architecture.md): the caller passes it in as a
// PairSolver. `sharesim profiles fit` (apps/profiles_command.cpp) does.
#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "workloads/profiles/workload_profile.h"

namespace sharesim {

struct FitDemand {
  double sm = 1.0;
  double bw = 0.5;
};

// Rates (1.0 = standalone speed) of two tasks running at the same time on one GPU.
using PairSolver = std::function<std::array<double, 2>(FitDemand, FitDemand)>;

// The fitted demand stays in [kMinDemand, 1]; a task with sm = bw = 0 has no GPU work.
inline constexpr double kMinDemand = 0.01;
// Fitted sm and bw are rounded to this many decimals, and the reported errors are those of the
// rounded values (the ones written to the profile files).
inline constexpr int kDemandDigits = 4;
// A fitted demand component as the profile files hold it (kDemandDigits decimals).
double round_demand(double value);

// Speed alone on a partition holding fractions f_sm of the SMs and f_bw of the DRAM
// bandwidth, relative to the whole GPU: min(1, f_sm / sm, f_bw / bw) (the contention model's
// bottleneck rule with one task).
double partition_speed(FitDemand demand, double f_sm, double f_bw);

// One measured speed on a partition, relative to a reference partition (MISO: the 7g
// instance, which has 98 of the A100's 108 SMs).
struct SliceObservation {
  double f_sm = 1;  // the partition's share of the GPU's SMs and of its DRAM bandwidth
  double f_bw = 1;
  double speed = 1;     // measured, relative to the reference partition
  double ref_f_sm = 1;  // the reference partition's shares (1, 1 = the whole GPU)
  double ref_f_bw = 1;
};
// The speed the model predicts for an observation: partition_speed on the partition over
// partition_speed on the reference, as the MIG policy's rates give it (docs/models.md "MIG").
double slice_speed(FitDemand demand, const SliceObservation& observation);
// One measured speed beside a partner; `self_pair` = the partner is the same job type (its
// demand is the one being fitted).
struct PairObservation {
  FitDemand partner;
  bool self_pair = false;
  double speed = 1;          // measured, relative to running alone
  double partner_speed = 0;  // the partner's, likewise (0: not used)
};

struct ErrorSummary {
  std::int64_t count = 0;
  double rms = 0;  // of (predicted - measured) / measured
  double max = 0;  // of |predicted - measured| / measured
};
ErrorSummary relative_errors(std::span<const double> predicted, std::span<const double> measured);

// Least-squares fit of (sm, bw): minimises the sum of (predicted - measured speed)^2 by a grid search over [kMinDemand,
// 1]^2 (step 0.02, first minimum in scan order), then Levenberg-Marquardt steps (Eigen QR on the finite-difference
// Jacobian of the active pieces) while the error decreases; last, a component the error does not depend on is raised to
// the largest value that keeps the error (sm first).
FitDemand fit_slices(std::span<const SliceObservation> observations);
FitDemand fit_pairs(std::span<const PairObservation> observations, const PairSolver& solver);
double slice_cost(FitDemand demand, std::span<const SliceObservation> observations);
double pair_cost(FitDemand demand, std::span<const PairObservation> observations, const PairSolver& solver);

// Readers. Profiles come back with their measured tables, names, source and licence, not yet
// fitted. Bad input throws InputError naming the file and line or JSON pointer.
// `dir`/mig_mean_iter_latency_s.csv: one profile per row (32 in MISO's data).
std::vector<WorkloadProfile> read_miso_profiles(const std::string& dir);
// A pair of single-GPU job types that Gavel measured as not fitting on one GPU together (a
// throughput of 0 in the pair's entry): a measured "cannot pack". Profile names, job <= partner,
// each unordered pair once per worker type.
struct GavelUnfitPair {
  std::string gpu, job, partner;
  bool operator==(const GavelUnfitPair&) const = default;
};
// `dir`/simulation_throughputs.json: one profile per single-GPU job type, with the isolated
// and pair throughputs of worker types k80, p100 and v100. A pair's partner must have an entry
// of its own on the same worker type (InputError at the pair's JSON pointer otherwise). Pairs
// that did not fit (throughput 0) are left out of the profiles' pair tables; with `did_not_fit`
// they are listed there (sorted by gpu, job, partner), their partners checked as above.
std::vector<WorkloadProfile> read_gavel_profiles(const std::string& dir,
                                                 std::vector<GavelUnfitPair>* did_not_fit = nullptr);

// The worker type whose pair measurements the Gavel profiles are fitted to.
inline constexpr const char* kGavelFitGpu = "v100";
// Rounds of the alternating (Gauss-Seidel, by name) fit of the Gavel profiles.
inline constexpr int kGavelFitRounds = 4;

// Fits every profile's demand and fills its `fit` summary: MISO profiles to their MIG slice
// speeds (relative to 7g.40gb), Gavel profiles to their v100 pair speeds, alternating over the
// jobs (each fitted with its partners' current demands) for kGavelFitRounds rounds, then all
// jointly (Levenberg-Marquardt over every Gavel demand at once).
void fit_profiles(std::vector<WorkloadProfile>& profiles, const PairSolver& solver);

// Observations of one profile as the fit sees them (partners' demands from `all`).
std::vector<SliceObservation> slice_observations(const WorkloadProfile& profile);
std::vector<PairObservation> pair_observations(const WorkloadProfile& profile, const std::vector<WorkloadProfile>& all);

// The per-profile error table of docs/profiles.md (Markdown), sorted by name, with a
// summary line (median and worst RMS error per dataset).
std::string fit_report_markdown(const std::vector<WorkloadProfile>& profiles);

// Writes one file per profile (`dir`/<name>.json, pretty JSON, sorted keys, trailing
// newline), each atomically; creates `dir`. Throws InputError when it cannot: a target that is
// not a regular file, or a directory that cannot be written, before the first file is written.
void write_profile_files(const std::vector<WorkloadProfile>& profiles, const std::string& dir);

}  // namespace sharesim
