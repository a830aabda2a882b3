#include "policies/contention/contention_model.h"

#include <Eigen/Dense>
#include <algorithm>
#include <limits>

namespace sharesim {

void solve_contention(std::span<const ContentionTask> tasks, std::span<double> rates) {
  const auto n = static_cast<Eigen::Index>(tasks.size());
  // use(k, i): share of resource k (0 = SMs, 1 = DRAM bandwidth) task i takes per unit rate.
  Eigen::Matrix<double, 2, Eigen::Dynamic> use(2, n);
  Eigen::VectorXd weight(n), bound(n), rate = Eigen::VectorXd::Zero(n);
  Eigen::Array<bool, Eigen::Dynamic, 1> frozen(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const ContentionTask& task = tasks[static_cast<std::size_t>(i)];
    use(0, i) = task.sm;
    use(1, i) = task.bw;
    weight(i) = task.weight;
    // Its own limits: standalone speed, and the SM cap (a cap below its demand slows it down).
    bound(i) = task.sm > task.sm_cap ? task.sm_cap / task.sm : 1.0;
    frozen(i) = (task.sm <= 0 && task.bw <= 0) || bound(i) <= 0;
  }
  const Eigen::Vector2d capacity(1.0, 1.0);
  while (!frozen.all()) {
    // How far the common level t (rate = weight * t for unfrozen tasks) can rise.
    const Eigen::Vector2d used = use * rate;
    Eigen::Vector2d slope = Eigen::Vector2d::Zero();
    double step = std::numeric_limits<double>::infinity();
    for (Eigen::Index i = 0; i < n; ++i) {
      if (frozen(i)) continue;
      slope += use.col(i) * weight(i);
      step = std::min(step, (bound(i) - rate(i)) / weight(i));
    }
    for (int k = 0; k < 2; ++k) {
      if (slope(k) > 0) step = std::min(step, std::max(0.0, capacity(k) - used(k)) / slope(k));
    }
    for (Eigen::Index i = 0; i < n; ++i) {
      if (!frozen(i)) rate(i) += weight(i) * step;
    }
    // Freeze the tasks at their own bound and every task on a saturated resource.
    const Eigen::Vector2d now_used = use * rate;
    constexpr double kTolerance = 1e-12;
    for (Eigen::Index i = 0; i < n; ++i) {
      if (frozen(i)) continue;
      bool stop = rate(i) >= bound(i) - kTolerance;
      for (int k = 0; k < 2; ++k) stop = stop || (use(k, i) > 0 && now_used(k) >= capacity(k) - kTolerance);
      frozen(i) = stop;
    }
  }
  for (Eigen::Index i = 0; i < n; ++i) rates[static_cast<std::size_t>(i)] = rate(i);
}

double partition_rate(const ContentionTask& task, double f_sm, double f_bw) {
  if (task.sm <= 0 && task.bw <= 0) return 0;
  double rate = 1.0;
  if (task.sm > 0) rate = std::min(rate, std::min(f_sm, task.sm_cap) / task.sm);
  if (task.bw > 0) rate = std::min(rate, f_bw / task.bw);
  return rate;
}

}  // namespace sharesim
