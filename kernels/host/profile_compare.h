// `sharesim-calibrate compare NEW.json REFERENCE.json`: a freshly measured calibration profile
// against a stored one, for a fleet's CI after a driver or firmware update (docs/ci.md, "GPU
// regression"). Every field measured in either profile is compared; a field moved beyond its
// tolerance, or one the reference measured and the new profile does not, is a failure.
#pragma once

#include <string>
#include <vector>

#include "regression/check_report.h"
#include "regression/tolerance.h"

namespace sharesim::calib {

struct ProfileCompareOptions {
  std::vector<ToleranceRule> tolerances;  // --tol FIELD=PCT ("timeslice.switch_cost_ns=10%"); later wins
  // Raw files to take the spread from; empty: the `raw_data` each profile's measured fields
  // name, found as written (from the working directory) or from the profile's folder's ../../.
  std::string reference_raw;
  std::string new_raw;
};

// Default tolerance of a field whose raw data show its spread (FitResult::spread: the samples'
// robust SD, a fitted factor's standard error): z * sqrt(sd_reference^2 + sd_new^2), relative to
// the reference value and at least kMinimumTolerance, where z makes the chance that any of these
// fields exceeds its tolerance by noise alone at most kFamilyWiseError (Bonferroni over them;
// z = 3.30 for the 51 of a profile that `all` measured). A field the raw data show no spread of
// (measured once: a co-run ratio, an SM-scaling speed) is shown but not checked (status
// unchecked) unless --tol names it; where neither profile's raw data is found, every field gets
// kFallbackTolerance.
inline constexpr double kFamilyWiseError = 0.05;
inline constexpr double kMinimumTolerance = 0.01;
inline constexpr double kFallbackTolerance = 0.05;

// The raw files a profile's measured fields name (`measured.raw_data`) that are found neither as
// written nor from the profile's folder's ../../ (the repository root above
// results/calibration/), each once, with the first field that names it: "FILE (named by
// SECTION.FIELD)". A measured number whose raw data cannot be found has lost its provenance.
std::vector<std::string> missing_raw_data(const std::string& profile_path);

// Throws CalibError for an unreadable or invalid profile, profiles of different GPUs, or an
// unreadable raw file named explicitly.
CheckReport compare_profiles(const std::string& new_path, const std::string& reference_path,
                             const ProfileCompareOptions& options);

}  // namespace sharesim::calib
