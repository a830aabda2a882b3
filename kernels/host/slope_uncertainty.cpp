#include "kernels/host/slope_uncertainty.h"

#include <cmath>
#include <cstddef>

namespace sharesim::calib {

std::optional<SlopeUncertainty> slope_uncertainty(const std::vector<double>& x, const std::vector<double>& y,
                                                  double slope) {
  double squares = 0;
  double x_squares = 0;
  std::size_t points = 0;
  for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
    if (x[i] == 0) continue;
    const double residual = y[i] - slope * x[i];
    squares += residual * residual;
    x_squares += x[i] * x[i];
    ++points;
  }
  if (points < 2) return std::nullopt;
  SlopeUncertainty out;
  out.residual_sd = std::sqrt(squares / static_cast<double>(points - 1));
  out.standard_error = out.residual_sd / std::sqrt(x_squares);
  return out;
}

}  // namespace sharesim::calib
