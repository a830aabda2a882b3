#pragma once
// Diurnal arrivals: a non-homogeneous Poisson process with the sinusoidal rate
//   lambda(t) = rate * (1 + amplitude * cos(2 pi (t - peak) / period)),  0 <= amplitude <= 1,
// t in simulated seconds (absolute, so "peak" is a time of day when period is 1d). Drawn by
// thinning (Lewis & Shedler, "Simulation of nonhomogeneous Poisson processes by thinning",
// Naval Research Logistics Quarterly 26(3), 1979): candidates at the peak rate
// rate * (1 + amplitude), each kept with probability lambda(t) / peak rate. Over whole
// periods the mean rate is `rate`.
#include "workloads/arrival_process.h"

namespace sharesim {

class DiurnalArrivals final : public ArrivalProcess {
 public:
  // start_s: the generator's start in absolute seconds (its offsets are added to it).
  DiurnalArrivals(double rate_per_s, double amplitude, double period_s, double peak_s, double start_s);
  double next_s(RandomStream& rng) override;
  double mean_rate_per_s() const override { return rate_; }
  double rate_at(double absolute_s) const;

 private:
  double rate_, amplitude_, period_s_, peak_s_, start_s_;
  double clock_s_ = 0;
};

}  // namespace sharesim
