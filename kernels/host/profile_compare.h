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

// Default tolerance of a field whose raw samples are known: kSpreadMultiple robust standard
// deviations of the samples (1.4826 MAD, relative to the value; the larger of the two
// profiles' raw data), at least kMinimumTolerance. Without samples: kFallbackTolerance.
inline constexpr double kSpreadMultiple = 3.0;
inline constexpr double kMinimumTolerance = 0.01;
inline constexpr double kFallbackTolerance = 0.05;

// Throws CalibError for an unreadable or invalid profile, profiles of different GPUs, or an
// unreadable raw file named explicitly.
CheckReport compare_profiles(const std::string& new_path, const std::string& reference_path,
                             const ProfileCompareOptions& options);

}  // namespace sharesim::calib
