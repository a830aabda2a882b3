// Outlier-robust location and spread (median and median absolute deviation), used for every
// quantity the calibration fit derives from repeated measurements.
#pragma once

#include <cstddef>
#include <vector>

namespace sharesim::calib {

// 1.4826 * MAD estimates the standard deviation of normal data (Rousseeuw & Croux 1993).
inline constexpr double kMadToSigma = 1.4826;

// Median of `values` (mean of the two middle values for an even count); values must not be empty.
double median(std::vector<double> values);

// Median absolute deviation from `center` (unscaled).
double median_absolute_deviation(const std::vector<double>& values, double center);

struct RobustSummary {
  double median = 0;     // median of the kept samples
  double mad = 0;        // MAD of the kept samples (unscaled)
  std::size_t kept = 0;  // samples kept
  std::size_t rejected = 0;
};

// Rejects samples farther than k * 1.4826 * MAD from the median (1.4826 * MAD estimates the
// standard deviation of normal data: Rousseeuw & Croux 1993), then summarises the rest. With a MAD
// of zero only the samples equal to the median are kept. `values` must not be empty.
RobustSummary robust_summary(const std::vector<double>& values, double k = 3.5);

}  // namespace sharesim::calib
