#pragma once
// `sharesim profiles mig-check --miso DIR` (issue 4): the MIG policy's slice speeds compared
// with MISO's measurements on A100-40GB (docs/models.md, "MIG slice speeds against MISO's
// measurements").
//
// For each MISO model/batch row and each MIG slice it measured other than 7g.40gb (the
// reference), the speed relative to 7g.40gb that the MIG policy's contention model predicts,
// partition_rate(slice) / partition_rate(7g) with mig_instance_speed's fractions (instance
// SMs over the catalog GPU's SMs, memory slices over 8), against the measured
// latency(7g) / latency(slice). Two predictions:
//   in-sample            the built-in profile's demand (scenarios/profiles/, fitted to these
//                        same measurements);
//   leave-one-slice-out  the demand refitted (fit_slices, rounded like the built-in files) to
//                        the profile's other measured slices, predicting the held-out one.
// Here, not in workloads/profiles/: it needs the MIG tables and partition_rate (policies/).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "policies/mig/mig_profiles.h"
#include "sim/cluster/gpu_catalog.h"
#include "workloads/profiles/profile_fit.h"
#include "workloads/profiles/workload_profile.h"

namespace sharesim {

// The speed relative to the 7g instance that mig_instance_speed gives a task of `demand`
// on an instance of MIG profile `slice` of `gpu` (`mig` its MIG table): partition_rate with
// f_sm = instance SMs / gpu.sm_count and f_bw = memory slices / mig.memory_slices, divided by
// the same for the 7g instance. Throws std::logic_error when the table lacks `slice` or a 7g
// instance, or the reference rate is 0.
double mig_model_speed(FitDemand demand, const GpuModel& gpu, const MigGpuProfiles& mig, std::string_view slice);

// One measured cell of MISO's table.
struct MigSpeedComparison {
  std::string profile;   // the workload profile's name ("bert-train-b2")
  std::string slice;     // "4g.20gb", "3g.20gb", "2g.10gb" or "1g.5gb"
  double measured = 0;   // latency(7g.40gb) / latency(slice)
  double in_sample = 0;  // predicted with the built-in demand
  FitDemand builtin;
  // Predicted with the demand fitted to the profile's other measured slices; empty when it has
  // no other (not so in MISO's table: every row has at least two).
  std::optional<double> out_of_sample;
  FitDemand refitted;
};

// Errors of one set of predictions, relative error = (predicted - measured) / measured.
struct MigErrorRow {
  std::string slice;  // a MIG profile, or "all"
  std::int64_t count = 0;
  double bias = 0;   // mean relative error
  double rms = 0;    // root mean square relative error
  double worst = 0;  // largest |relative error|
  std::string worst_profile;
};

struct MigSpeedCheck {
  std::vector<MigSpeedComparison> comparisons;  // by profile name, then slice from largest to smallest
  std::vector<MigErrorRow> in_sample;           // 1g.5gb, 2g.10gb, 3g.20gb, 4g.20gb, all
  std::vector<MigErrorRow> out_of_sample;       // likewise
};

// Compares `measured` (read_miso_profiles) against `library`'s demands on `gpu`'s MIG table.
// Throws InputError(`data_file`, ...) when a measured profile has no profile of its name in
// `library`.
MigSpeedCheck check_mig_speeds(const std::vector<WorkloadProfile>& measured, const ProfileLibrary& library,
                               const GpuModel& gpu, const MigGpuProfiles& mig, const std::string& data_file);
// The same for MISO's data folder `miso_dir` against the built-in profiles and catalog (what
// the command runs). Bad input throws InputError (read_miso_profiles's errors).
MigSpeedCheck check_mig_speeds(const std::string& miso_dir);

// One error table (Markdown, 3 decimals, signed bias).
std::string mig_error_table_markdown(const std::vector<MigErrorRow>& rows);
// What the command prints: a line on what is compared, then the in-sample and the
// leave-one-slice-out tables, each after a bold title line.
std::string mig_speed_check_markdown(const MigSpeedCheck& check);
// Every comparison, one row each (`mig-check --detail`).
std::string mig_speed_detail_markdown(const MigSpeedCheck& check);

}  // namespace sharesim
