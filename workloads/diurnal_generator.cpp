#include "workloads/diurnal_generator.h"

#include <cmath>
#include <numbers>

namespace sharesim {

DiurnalArrivals::DiurnalArrivals(double rate_per_s, double amplitude, double period_s, double peak_s, double start_s)
    : rate_(rate_per_s), amplitude_(amplitude), period_s_(period_s), peak_s_(peak_s), start_s_(start_s) {}

double DiurnalArrivals::rate_at(double absolute_s) const {
  return rate_ * (1 + amplitude_ * std::cos(2 * std::numbers::pi * (absolute_s - peak_s_) / period_s_));
}

double DiurnalArrivals::next_s(RandomStream& rng) {
  const double peak_rate = rate_ * (1 + amplitude_);
  while (true) {
    clock_s_ += rng.exponential(1.0 / peak_rate);
    if (rng.uniform01() * peak_rate < rate_at(start_s_ + clock_s_)) return clock_s_;
  }
}

}  // namespace sharesim
