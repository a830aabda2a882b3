#include "kernels/host/contention_fit.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sharesim::calib {

std::vector<double> water_fill(const std::vector<Demand>& demands) {
  const std::size_t n = demands.size();
  std::vector<double> rate(n, 0.0);
  std::vector<bool> frozen(n, false);
  double used_sm = 0;
  double used_dram = 0;
  for (std::size_t round = 0; round <= n + 2; ++round) {
    double active_sm = 0;
    double active_dram = 0;
    std::size_t active = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (frozen[i]) continue;
      ++active;
      active_sm += demands[i].sm;
      active_dram += demands[i].dram;
    }
    if (active == 0) break;
    // Largest common increment before a resource or a kernel's own cap (rate 1) is reached.
    double step = 1.0;
    for (std::size_t i = 0; i < n; ++i) {
      if (!frozen[i]) step = std::min(step, 1.0 - rate[i]);
    }
    if (active_sm > 0) step = std::min(step, (1.0 - used_sm) / active_sm);
    if (active_dram > 0) step = std::min(step, (1.0 - used_dram) / active_dram);
    step = std::max(step, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      if (!frozen[i]) rate[i] += step;
    }
    used_sm += step * active_sm;
    used_dram += step * active_dram;
    const bool sm_full = active_sm > 0 && used_sm >= 1.0 - 1e-12;
    const bool dram_full = active_dram > 0 && used_dram >= 1.0 - 1e-12;
    for (std::size_t i = 0; i < n; ++i) {
      if (frozen[i]) continue;
      if (rate[i] >= 1.0 - 1e-12 || (sm_full && demands[i].sm > 0) || (dram_full && demands[i].dram > 0)) {
        frozen[i] = true;
      }
    }
  }
  return rate;
}

namespace {

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : "+") + name;
  return out;
}

// Least-squares solution of X b = y (column-pivoting QR: copes with rank-deficient X).
Eigen::VectorXd least_squares(const Eigen::MatrixXd& x, const Eigen::VectorXd& y) {
  return x.colPivHouseholderQr().solve(y);
}

}  // namespace

ContentionFit fit_contention(const std::vector<CorunCase>& cases, const std::map<std::string, Demand>& demands) {
  // alone[mode][kernel]
  std::map<std::string, std::map<std::string, double>> alone;
  for (const CorunCase& c : cases) {
    if (c.kernels.size() == 1 && c.throughput.size() == 1 && c.throughput[0] > 0) {
      alone[c.mode][c.kernels[0]] = c.throughput[0];
    }
  }
  auto alone_of = [&](const std::string& mode, const std::string& kernel) {
    for (const std::string& m : {mode, std::string("streams")}) {
      const auto it = alone.find(m);
      if (it == alone.end()) continue;
      const auto k = it->second.find(kernel);
      if (k != it->second.end()) return k->second;
    }
    throw std::invalid_argument("co-run: no alone throughput of \"" + kernel + "\" for mode \"" + mode + "\"");
  };

  ContentionFit fit;
  for (const std::string mode : {"processes", "mps", "streams"}) {
    std::vector<CorunPrediction> points;
    for (const CorunCase& c : cases) {
      if (c.mode != mode || c.kernels.size() < 2) continue;
      std::vector<double> shares;
      if (mode == std::string("processes")) {
        shares.assign(c.kernels.size(), 1.0 / static_cast<double>(c.kernels.size()));
      } else {
        std::vector<Demand> d;
        for (const std::string& k : c.kernels) {
          const auto it = demands.find(k);
          if (it == demands.end()) throw std::invalid_argument("co-run: no demand vector for \"" + k + "\"");
          d.push_back(it->second);
        }
        shares = water_fill(d);
      }
      for (std::size_t i = 0; i < c.kernels.size(); ++i) {
        CorunPrediction p;
        p.mode = mode;
        p.label = join(c.kernels);
        p.kernel = c.kernels[i];
        p.measured = c.throughput[i] / alone_of(mode, c.kernels[i]);
        p.share = shares[i];
        points.push_back(p);
      }
    }
    if (points.empty()) continue;

    // One factor: measured = f * share.
    const auto rows = static_cast<Eigen::Index>(points.size());
    Eigen::MatrixXd x(rows, 1);
    Eigen::VectorXd y(rows);
    std::vector<std::string> stressors;
    for (Eigen::Index r = 0; r < rows; ++r) {
      const auto& p = points[static_cast<std::size_t>(r)];
      x(r, 0) = p.share;
      y(r) = p.measured;
      if (std::find(stressors.begin(), stressors.end(), p.kernel) == stressors.end()) stressors.push_back(p.kernel);
    }
    std::sort(stressors.begin(), stressors.end());
    ModeFit mf;
    mf.mode = mode;
    mf.points = points.size();
    mf.factor = least_squares(x, y)(0);

    // One factor per victim stressor: column k holds the share where the row's kernel is k.
    Eigen::MatrixXd xs = Eigen::MatrixXd::Zero(rows, static_cast<Eigen::Index>(stressors.size()));
    for (Eigen::Index r = 0; r < rows; ++r) {
      const auto& p = points[static_cast<std::size_t>(r)];
      const auto col = std::find(stressors.begin(), stressors.end(), p.kernel) - stressors.begin();
      xs(r, col) = p.share;
    }
    const Eigen::VectorXd per = least_squares(xs, y);
    for (std::size_t k = 0; k < stressors.size(); ++k)
      mf.per_stressor[stressors[k]] = per(static_cast<Eigen::Index>(k));

    // Each row has one non-zero column, so each victim's factor is a line through the origin
    // over its own rows, and the mode's factor one over all rows.
    std::vector<double> shares;
    std::vector<double> measured;
    for (const CorunPrediction& p : points) {
      shares.push_back(p.share);
      measured.push_back(p.measured);
    }
    mf.factor_uncertainty = slope_uncertainty(shares, measured, mf.factor);
    for (const auto& [stressor, factor] : mf.per_stressor) {
      std::vector<double> victim_shares;
      std::vector<double> victim_measured;
      for (const CorunPrediction& p : points) {
        if (p.kernel != stressor) continue;
        victim_shares.push_back(p.share);
        victim_measured.push_back(p.measured);
      }
      if (const auto u = slope_uncertainty(victim_shares, victim_measured, factor)) {
        mf.per_stressor_uncertainty[stressor] = *u;
      }
    }

    double squares = 0;
    for (CorunPrediction& p : points) {
      p.predicted = mf.factor * p.share;
      p.relative_error = p.measured > 0 ? (p.predicted - p.measured) / p.measured : 0.0;
      squares += p.relative_error * p.relative_error;
      fit.predictions.push_back(p);
    }
    mf.rms_relative_error = std::sqrt(squares / static_cast<double>(points.size()));
    fit.modes.push_back(mf);
  }
  if (fit.modes.empty()) throw std::invalid_argument("co-run: no case with two or more kernels");
  return fit;
}

}  // namespace sharesim::calib
