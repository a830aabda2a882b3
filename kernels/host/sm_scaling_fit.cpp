#include "kernels/host/sm_scaling_fit.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "kernels/host/robust_stats.h"
#include "kernels/host/slope_uncertainty.h"

namespace sharesim::calib {

std::vector<ScalingCurve> fit_sm_scaling(const std::vector<ScalingPoint>& points) {
  std::map<std::string, std::map<int, std::vector<double>>> by_stressor;
  for (const ScalingPoint& p : points) {
    if (p.granted_sms <= 0 || !(p.throughput > 0)) {
      throw std::invalid_argument("SM scaling: \"" + p.stressor + "\" has a point with " +
                                  std::to_string(p.granted_sms) + " SMs and a non-positive throughput");
    }
    by_stressor[p.stressor][p.granted_sms].push_back(p.throughput);
  }
  std::vector<ScalingCurve> curves;
  for (const auto& [stressor, by_sms] : by_stressor) {
    if (by_sms.size() < 2) {
      throw std::invalid_argument("SM scaling: \"" + stressor + "\" was measured at fewer than two SM counts");
    }
    ScalingCurve curve;
    curve.stressor = stressor;
    curve.reference_sms = by_sms.rbegin()->first;
    const double reference = median(by_sms.rbegin()->second);
    for (const auto& [sms, values] : by_sms) curve.speed.emplace_back(sms, median(values) / reference);

    // 1/speed - 1 = p * (K/k - 1): one-column least squares through the origin.
    const auto rows = static_cast<Eigen::Index>(curve.speed.size());
    Eigen::MatrixXd x(rows, 1);
    Eigen::VectorXd y(rows);
    for (Eigen::Index r = 0; r < rows; ++r) {
      const auto& [sms, speed] = curve.speed[static_cast<std::size_t>(r)];
      x(r, 0) = static_cast<double>(curve.reference_sms) / sms - 1.0;
      y(r) = 1.0 / speed - 1.0;
    }
    curve.parallel_fraction = std::clamp(x.colPivHouseholderQr().solve(y)(0), 0.0, 1.0);
    const std::vector<double> xs(x.data(), x.data() + rows);
    const std::vector<double> ys(y.data(), y.data() + rows);
    if (const auto u = slope_uncertainty(xs, ys, curve.parallel_fraction)) {
      curve.parallel_fraction_standard_error = u->standard_error;
    }
    double squares = 0;
    for (const auto& [sms, speed] : curve.speed) {
      const double predicted = 1.0 / ((1.0 - curve.parallel_fraction) +
                                      curve.parallel_fraction * static_cast<double>(curve.reference_sms) / sms);
      const double e = (predicted - speed) / speed;
      squares += e * e;
    }
    curve.rms_relative_error = std::sqrt(squares / static_cast<double>(curve.speed.size()));
    for (const auto& [sms, speed] : curve.speed) {
      if (speed >= 0.9) {
        curve.sm_fraction_for_90_percent = static_cast<double>(sms) / curve.reference_sms;
        break;
      }
    }
    curves.push_back(std::move(curve));
  }
  return curves;
}

}  // namespace sharesim::calib
