// How well the data determine a line through the origin, y = slope * x, fitted by least
// squares: the residuals' standard deviation and the slope's standard error (any regression
// text, e.g. Draper & Smith, "Applied Regression Analysis", 3rd ed., section 3.3, with one
// coefficient: n - 1 degrees of freedom). `sharesim-calibrate compare` takes its tolerances of
// fitted coefficients from the standard error.
#pragma once

#include <optional>
#include <vector>

namespace sharesim::calib {

struct SlopeUncertainty {
  double residual_sd = 0;     // sqrt(sum (y - slope x)^2 / (n - 1)): the points' scatter around the line
  double standard_error = 0;  // residual_sd / sqrt(sum x^2): the slope's
};

// Nothing for fewer than two points with x != 0 (one point fixes the slope and shows no scatter).
// Points with x == 0 carry no information about the slope and are not counted.
std::optional<SlopeUncertainty> slope_uncertainty(const std::vector<double>& x, const std::vector<double>& y,
                                                  double slope);

}  // namespace sharesim::calib
