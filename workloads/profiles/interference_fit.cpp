#include "workloads/profiles/interference_fit.h"

#include <algorithm>
#include <cmath>

namespace sharesim {

namespace {

struct Term {
  std::size_t observation;
  double count;  // how many times the job appears among the partners
};

// The fit state: predictions kept up to date as coordinates change.
class CoordinateDescent {
 public:
  CoordinateDescent(std::span<const CorunObservation> observations, std::vector<InterferenceParams>& params,
                    double regularisation)
      : obs_(observations),
        params_(params),
        lambda_(regularisation),
        as_victim_(params.size()),
        as_partner_(params.size()) {
    predicted_.resize(obs_.size());
    target_.resize(obs_.size());
    weight_.resize(obs_.size());
    for (std::size_t o = 0; o < obs_.size(); ++o) {
      target_[o] = 1.0 / obs_[o].speed - 1.0;
      weight_[o] = obs_[o].speed * obs_[o].speed;
      as_victim_[obs_[o].victim].push_back(o);
      for (std::uint32_t j : obs_[o].partners) {
        auto& list = as_partner_[j];
        if (!list.empty() && list.back().observation == o) {
          list.back().count += 1;
        } else {
          list.push_back({o, 1});
        }
      }
      predicted_[o] = predict(o);
    }
  }

  double predict(std::size_t o) const {
    double x = 0;
    for (std::uint32_t j : obs_[o].partners) x += interference_term(params_[obs_[o].victim], params_[j]);
    return x;
  }

  // One pass over job i's allowed coordinates.
  void sweep_job(std::uint32_t i, JobMasks mask) {
    for (std::size_t k = 0; k < kInterferenceDims; ++k) {
      if (mask.sensitivity & (1u << k)) update_sensitivity(i, k);
      if (mask.pressure & (1u << k)) update_pressure(i, k);
    }
  }

 private:
  // Prediction of observation o = c * theta + rest; exact minimiser of the quadratic, >= 0.
  void update_sensitivity(std::uint32_t i, std::size_t k) {
    double& theta = params_[i].sensitivity[k];
    double numerator = 0, denominator = lambda_;
    coefficient_.clear();
    for (std::size_t o : as_victim_[i]) {
      double c = 0;
      for (std::uint32_t j : obs_[o].partners) c += params_[j].pressure[k];
      coefficient_.push_back(c);
      const double rest = predicted_[o] - c * theta;
      numerator += weight_[o] * c * (target_[o] - rest);
      denominator += weight_[o] * c * c;
    }
    const double value = std::max(0.0, numerator / denominator);
    const double delta = value - theta;
    theta = value;
    change_ = std::max(change_, std::abs(delta));
    // The prediction is linear in theta: move it by delta times the coefficient.
    for (std::size_t n = 0; n < as_victim_[i].size(); ++n) predicted_[as_victim_[i][n]] += delta * coefficient_[n];
  }
  void update_pressure(std::uint32_t i, std::size_t k) {
    double& theta = params_[i].pressure[k];
    double numerator = 0, denominator = lambda_;
    for (const Term& t : as_partner_[i]) {
      const CorunObservation& ob = obs_[t.observation];
      // Linear in the pressure with the victim's sensitivity fixed (also beside its own type).
      const double c = t.count * params_[ob.victim].sensitivity[k];
      const double rest = predicted_[t.observation] - c * theta;
      numerator += weight_[t.observation] * c * (target_[t.observation] - rest);
      denominator += weight_[t.observation] * c * c;
    }
    const double value = std::max(0.0, numerator / denominator);
    const double delta = value - theta;
    theta = value;
    change_ = std::max(change_, std::abs(delta));
    for (const Term& t : as_partner_[i]) {
      // A job beside its own type: the sensitivity times this pressure, once per appearance.
      predicted_[t.observation] += delta * t.count * params_[obs_[t.observation].victim].sensitivity[k];
    }
  }

  std::span<const CorunObservation> obs_;
  std::vector<InterferenceParams>& params_;
  double lambda_;
  std::vector<std::vector<std::size_t>> as_victim_;
  std::vector<std::vector<Term>> as_partner_;
  std::vector<double> predicted_, target_, weight_;
  std::vector<double> coefficient_;
  double change_ = 0;

 public:
  // The largest coordinate change since the last call (to stop once converged).
  double take_change() {
    const double out = change_;
    change_ = 0;
    return out;
  }
};

// Sweeps stop early once no coordinate moves by more than this.
constexpr double kConverged = 1e-9;

// A fixed, platform-independent start: mean slowdown spread over the allowed dimensions, with a
// small deterministic perturbation per job and dimension so that dimensions differ.
void initialise(std::span<const CorunObservation> observations, std::span<const JobMasks> masks,
                std::vector<InterferenceParams>& params) {
  double mean_x = 0;
  for (const CorunObservation& o : observations)
    mean_x += (1.0 / o.speed - 1.0) / static_cast<double>(o.partners.size());
  mean_x = observations.empty() ? 0.1 : std::max(0.01, mean_x / static_cast<double>(observations.size()));
  for (std::size_t i = 0; i < params.size(); ++i) {
    std::size_t used = 0;
    for (std::size_t k = 0; k < kInterferenceDims; ++k) used += (masks[i].sensitivity >> k) & 1u;
    const double base = std::sqrt(mean_x / static_cast<double>(std::max<std::size_t>(1, used)));
    for (std::size_t k = 0; k < kInterferenceDims; ++k) {
      const double wobble = 0.75 + 0.5 * static_cast<double>((i * 7 + k * 13) % 11) / 10.0;
      const double wobble2 = 0.75 + 0.5 * static_cast<double>((i * 5 + k * 3) % 7) / 6.0;
      params[i].sensitivity[k] = (masks[i].sensitivity & (1u << k)) ? base * wobble : 0.0;
      params[i].pressure[k] = (masks[i].pressure & (1u << k)) ? base * wobble2 : 0.0;
    }
  }
}

}  // namespace

DimMask latent_mask(int rank) {
  DimMask mask = 0;
  for (std::size_t k = 0; k < kLatentDims && static_cast<int>(k) < rank; ++k) mask |= 1u << (kNamedResources + k);
  return mask;
}

std::vector<InterferenceParams> fit_interference(std::span<const CorunObservation> observations,
                                                 std::span<const JobMasks> masks,
                                                 const InterferenceFitSettings& settings) {
  std::vector<InterferenceParams> params(masks.size());
  initialise(observations, masks, params);
  CoordinateDescent solver(observations, params, settings.regularisation);
  for (int sweep = 0; sweep < settings.sweeps; ++sweep) {
    for (std::uint32_t i = 0; i < params.size(); ++i) solver.sweep_job(i, masks[i]);
    if (solver.take_change() < kConverged) break;
  }
  return params;
}

void fit_one_job(std::span<const CorunObservation> observations, std::uint32_t job, JobMasks mask,
                 const InterferenceFitSettings& settings, std::vector<InterferenceParams>& params) {
  CoordinateDescent solver(observations, params, settings.regularisation);
  for (int sweep = 0; sweep < settings.sweeps; ++sweep) {
    solver.sweep_job(job, mask);
    if (solver.take_change() < kConverged) break;
  }
}

InterferenceParams mean_params(std::span<const InterferenceParams> params, std::span<const std::uint32_t> jobs) {
  InterferenceParams mean;
  if (jobs.empty()) return mean;
  for (std::uint32_t j : jobs) {
    for (std::size_t k = 0; k < kInterferenceDims; ++k) {
      mean.sensitivity[k] += params[j].sensitivity[k];
      mean.pressure[k] += params[j].pressure[k];
    }
  }
  const double n = static_cast<double>(jobs.size());
  for (std::size_t k = 0; k < kInterferenceDims; ++k) {
    mean.sensitivity[k] /= n;
    mean.pressure[k] /= n;
  }
  return mean;
}

}  // namespace sharesim
